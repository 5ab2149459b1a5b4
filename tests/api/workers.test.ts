import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseTarget } from '../../server/config.js';
import type { Db } from '../../server/db/connect.js';
import { STRONG_PASSWORD, uniqueEmail } from '../helpers/create-test-app.js';
import { createTestDatabase } from '../helpers/test-database.js';

/**
 * WORKERS=2: the real server (npm start's entry) as a primary with two worker processes sharing the
 * port and the database (on SQLite, one WAL file). Which process answered is read from the workers'
 * own request log lines (pino's `pid`), so the answers stay exactly as documented.
 */
const root = path.resolve(import.meta.dirname, '../..');
const STARTUP_MS = 90_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

const databaseUrl = (target: DatabaseTarget) => (target.kind === 'sqlite' ? target.file : target.url);

let child: ChildProcess;
let base: string;
let dataDir: string;
let db: Db;
let drop: () => Promise<void>;
const lines: Array<Record<string, unknown>> = [];
let exited: Promise<number | null>;

async function until(condition: () => boolean, what: string, ms = STARTUP_MS) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${lines.map((line) => JSON.stringify(line)).join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  const database = await createTestDatabase();
  ({ db, drop } = database);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'authplatform-workers-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      WORKERS: '2',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl(database.target),
      BCRYPT_COST: '10',
      RATE_LIMITS: 'off',
      // debug: one line per request, each with the answering process's pid.
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
    },
  });
  exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  let pending = '';
  const collect = (chunk: Buffer) => {
    pending += chunk.toString();
    const complete = pending.split('\n');
    pending = complete.pop()!;
    for (const line of complete) {
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        lines.push({ msg: line });
      }
    }
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  await until(() => lines.filter((line) => String(line.msg).startsWith('AuthPlatform ready')).length === 2 || child.exitCode !== null, 'both workers');
  expect(child.exitCode).toBeNull();
}, STARTUP_MS + 10_000);

afterAll(async () => {
  if (child.exitCode === null) child.kill('SIGKILL');
  await drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const post = (pathname: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${pathname}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const servedBy = (url: string) => new Set(lines.filter((line) => (line.req as { url?: string } | undefined)?.url?.startsWith(url)).map((line) => line.pid));

async function verifiedDeveloper() {
  const email = uniqueEmail('workers-developer');
  expect((await post('/api/v1/auth/signup', { email, password: STRONG_PASSWORD })).status).toBe(201);
  const outbox = path.join(dataDir, 'outbox');
  let token: string | undefined;
  await until(() => {
    const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((file) => file.endsWith(`${email}.eml`)) : [];
    const mail = files.length ? fs.readFileSync(path.join(outbox, files[0]!), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=') : '';
    token = /verify-email\?token=([\w-]+)/.exec(mail)?.[1];
    return token !== undefined;
  }, 'the verification mail', 10_000);
  expect((await post('/api/v1/auth/verify-email', { token })).status).toBe(200);
  return ((await (await post('/api/v1/auth/login', { email, password: STRONG_PASSWORD })).json()) as { access_token: string }).access_token;
}

describe('WORKERS=2', () => {
  it('commits every one of many concurrent sign-ups, and both workers answer', async () => {
    const emails = Array.from({ length: 40 }, () => uniqueEmail('workers-signup'));
    const answers = await Promise.all(emails.map((email) => post('/api/v1/auth/signup', { email, password: STRONG_PASSWORD })));
    expect(answers.map((answer) => answer.status)).toEqual(emails.map(() => 201));
    const rows = await db.selectFrom('users').select('email').where('email', 'in', emails).execute();
    expect(rows).toHaveLength(emails.length);
    await until(() => servedBy('/api/v1/auth/signup').size === 2, 'request lines from both workers', 5_000);
  });

  it('refuses a revoked API key on every worker at once, without Redis', async () => {
    const token = await verifiedDeveloper();
    const authorized = { authorization: `Bearer ${token}` };
    const project = (await (await post('/api/v1/projects', { name: 'Workers' }, authorized)).json()) as { id: string };
    const key = (await (await post(`/api/v1/projects/${project.id}/api-keys`, { name: 'backend' }, authorized)).json()) as { id: string; secret: string };
    // Each worker looks the key up and keeps it (for up to 5 s).
    const useKey = () => post('/public/api/v1/auth/forgot-password', { email: uniqueEmail('nobody') }, { 'x-api-key': key.secret });
    expect((await Promise.all(Array.from({ length: 12 }, useKey))).map((answer) => answer.status)).toEqual(Array(12).fill(200));
    // Their request lines reach the test's pipe a moment after the answers.
    await until(() => servedBy('/public/api/v1/auth/forgot-password').size === 2, 'request lines from both workers', 5_000);

    const revoked = await fetch(`${base}/api/v1/projects/${project.id}/api-keys/${key.id}`, { method: 'DELETE', headers: authorized });
    expect(revoked.status).toBe(200);
    expect((await Promise.all(Array.from({ length: 12 }, useKey))).map((answer) => answer.status)).toEqual(Array(12).fill(401));
  });

  it('stops on SIGTERM once each worker has drained', async () => {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(lines.filter((line) => line.msg === 'shutting down')).toHaveLength(2);
  });
});
