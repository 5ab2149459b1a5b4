import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

it('npm pack builds the package and ships its compiled code, types and README only', async () => {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts=false'], { cwd: PACKAGE_DIR, maxBuffer: 10 * 1024 * 1024 });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as [{ name: string; version: string; files: { path: string }[] }];
  expect(packed.name).toBe('@authplatform/api');
  const files = packed.files.map((file) => file.path);
  for (const expected of ['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/client.js', 'dist/client.d.ts', 'dist/openapi.d.ts', 'dist/verify.js', 'dist/verify.d.ts']) {
    expect(files).toContain(expected);
  }
  expect(files.filter((file) => !file.startsWith('dist/') && file !== 'package.json' && file !== 'README.md')).toEqual([]);
  // The generator and the tests stay in the repository: they need the server.
  expect(files.some((file) => file.includes('generate') || file.endsWith('.test.js') || file.startsWith('src/'))).toBe(false);
});
