import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

it('npm pack builds the package and ships its compiled code, types and README only', async () => {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts=false'], { cwd: PACKAGE_DIR, maxBuffer: 10 * 1024 * 1024 });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as [{ name: string; version: string; files: { path: string }[] }];
  expect(packed.name).toBe('@authplatform/node');
  const files = packed.files.map((file) => file.path);
  for (const expected of ['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/middleware.js', 'dist/verify.js', 'dist/revocation-feed.js', 'dist/sse.js']) {
    expect(files).toContain(expected);
  }
  expect(files.filter((file) => !file.startsWith('dist/') && file !== 'package.json' && file !== 'README.md')).toEqual([]);
  expect(files.some((file) => file.endsWith('.test.js') || file.startsWith('src/'))).toBe(false);
});
