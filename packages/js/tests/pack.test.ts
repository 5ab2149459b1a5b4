import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Builds a package into its dist/ (tsc with declarations) and answers what `npm pack` would publish. */
async function packedFiles(name: 'js' | 'react'): Promise<{ name: string; version: string; files: string[] }> {
  const dir = `${root}packages/${name}`;
  await run(`${root}node_modules/.bin/tsc`, ['-p', `${dir}/tsconfig.build.json`], { cwd: root });
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: dir });
  const [packed] = JSON.parse(stdout) as { name: string; version: string; files: { path: string }[] }[];
  return { name: packed!.name, version: packed!.version, files: packed!.files.map((file) => file.path).sort() };
}

const unpublished = (files: string[]) => files.filter((file) => file.startsWith('src/') || file.startsWith('tests/') || file.startsWith('tsconfig'));

// One file for both packages, in order: the React package's build reads @authplatform/js's declarations.
// A bound above the server project's 60 s: each step runs tsc, which took 25 s on a loaded 2-core machine.
describe('npm pack', { timeout: 180_000 }, () => {
  it('publishes @authplatform/js with its built modules, declarations and README, and no sources or tests', async () => {
    const packed = await packedFiles('js');
    expect(packed).toMatchObject({ name: '@authplatform/js', version: '0.1.0' });
    for (const file of ['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/auth-client.js', 'dist/auth-client.d.ts', 'dist/cookie-handler.js', 'dist/cookie-handler.d.ts']) {
      expect(packed.files).toContain(file);
    }
    expect(unpublished(packed.files)).toEqual([]);
  });

  it('publishes @authplatform/react the same way', async () => {
    const packed = await packedFiles('react');
    expect(packed).toMatchObject({ name: '@authplatform/react', version: '0.1.0' });
    for (const file of ['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/UserButton.js', 'dist/AuthProvider.d.ts']) expect(packed.files).toContain(file);
    expect(unpublished(packed.files)).toEqual([]);
  });
});
