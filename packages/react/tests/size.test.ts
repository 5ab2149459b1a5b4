import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** What an app's bundler adds for the package: minified, gzipped, with @authplatform/js and oauth4webapi, without React. */
async function gzippedSize(entry: string): Promise<number> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    external: ['react', 'react-dom', 'react/jsx-runtime'],
    alias: { '@authplatform/js': source('../../js/src/index.ts') },
    jsx: 'automatic',
    logLevel: 'silent',
  });
  return gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length;
}

describe('bundle size', () => {
  it('@authplatform/react is under 15 KB minified + gzipped, React excluded (its own client and oauth4webapi included)', async () => {
    const bytes = await gzippedSize(source('../src/index.ts'));
    console.info(`@authplatform/react: ${(bytes / 1024).toFixed(1)} KB min+gz (with @authplatform/js and oauth4webapi, without React)`);
    expect(bytes).toBeLessThan(15 * 1024);
  });

  it('@authplatform/js alone', async () => {
    const bytes = await gzippedSize(source('../../js/src/index.ts'));
    console.info(`@authplatform/js: ${(bytes / 1024).toFixed(1)} KB min+gz (with oauth4webapi)`);
    expect(bytes).toBeLessThan(15 * 1024);
  });
});
