// Development: the API server (restarting on change) and Vite's dev server with a proxy to it.
import { spawn } from 'node:child_process';

const children = [
  spawn('npx', ['tsx', 'watch', 'server/main.ts'], { stdio: 'inherit', env: { ...process.env, APP_URL: process.env.APP_URL ?? 'http://localhost:5173' } }),
  spawn('npx', ['vite'], { stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
children.forEach((child) => child.on('exit', (code) => (stop(), process.exitCode = code ?? 0)));
