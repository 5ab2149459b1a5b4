// Builds the browser client when dist/client is missing or older than its sources, so `npm start`
// on a fresh clone serves everything without a separate build step.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const index = path.join(root, 'dist', 'client', 'index.html');
const sources = ['client', 'shared', 'vite.config.ts', 'package-lock.json'].map((p) => path.join(root, p));

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(target).reduce((newest, name) => Math.max(newest, newestMtime(path.join(target, name))), stat.mtimeMs);
}

const builtAt = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
if (builtAt === 0 || sources.some((source) => newestMtime(source) > builtAt)) {
  console.log('Building the client (dist/client)…');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
