import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DatabaseTarget } from '../../server/config.js';
import { createTestApp, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';

/**
 * kill -9 during a delivery loses nothing: a real server (npm start's entry, a child process) claims the
 * outbox's delivery and starts sending it to a receiver that holds the request open; the process is
 * killed with SIGKILL mid-request; another server on the same database sends the same message (same
 * webhook-id, verified by the standardwebhooks library) once the dead one's lease has passed, and not
 * before. WEBHOOK_LEASE_S is short here (4 s; 60 s by default). Runs on SQLite and on PostgreSQL.
 */
const root = path.resolve(import.meta.dirname, '../..');
const STARTUP_MS = 60_000;
const LEASE_S = 4;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function until(condition: () => boolean, what: string, ms: number) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

interface Arrival {
  at: number;
  headers: Record<string, string>;
  body: string;
  response: http.ServerResponse;
}

/** Records each request when its body is in; answers 204 only once `answering` is set, else holds it open. */
function holdingReceiver() {
  const arrivals: Arrival[] = [];
  const state = { answering: false };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      arrivals.push({ at: Date.now(), headers: request.headers as Record<string, string>, body: Buffer.concat(chunks).toString(), response });
      if (state.answering) response.writeHead(204).end();
    });
  });
  return { server, arrivals, state };
}

/** One server process on the test app's database and keys, delivering webhooks every 50 ms. */
async function startServer(t: TestApp, name: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `authplatform-crash-${name}-`));
  fs.cpSync(path.join(t.deps.config.dataDir, 'keys'), path.join(dataDir, 'keys'), { recursive: true });
  const port = await freePort();
  const target: DatabaseTarget = t.target;
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: target.kind === 'sqlite' ? target.file : target.url,
      BCRYPT_COST: '10',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      WEBHOOKS_ALLOW_PRIVATE: 'on',
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_LEASE_S: String(LEASE_S),
    },
  });
  const collect = (chunk: Buffer) => output.push(chunk.toString());
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  children.push(child);
  await until(() => output.join('').includes('AuthPlatform ready') || child.exitCode !== null, `server ${name} to start`, STARTUP_MS);
  expect(child.exitCode, output.join('')).toBeNull();
  return { child, dataDir };
}

const children: ChildProcess[] = [];
const dataDirs: string[] = [];
let t: TestApp;
const receiver = holdingReceiver();

beforeAll(async () => {
  // This instance writes the event and never delivers (WEBHOOK_POLL_MS=0): the child processes do.
  t = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE: 'on', WEBHOOK_POLL_MS: '0' } });
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  receiver.server.closeAllConnections();
  await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
  await t?.close();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

it('a server killed with SIGKILL mid-delivery loses nothing: another sends the same message once the lease has passed', { timeout: 3 * STARTUP_MS }, async () => {
  const owner = await t.signUpAndLogIn(uniqueEmail('crash-owner'));
  const asOwner = (url: string, body: unknown) => t.call('POST', url, { token: owner.access_token, body });
  const project = (await asOwner('/api/v1/projects', { name: 'Crash' })).json() as { id: string };
  const url = `http://127.0.0.1:${(receiver.server.address() as net.AddressInfo).port}/hooks`;
  const hook = (await asOwner(`/api/v1/projects/${project.id}/webhooks`, { url, event_types: ['api_key.created'] })).json() as { id: string; secret: string };
  expect((await asOwner(`/api/v1/projects/${project.id}/api-keys`, { name: 'written before the crash' })).statusCode).toBe(201);
  const delivery = () => t.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', hook.id).executeTakeFirstOrThrow();

  // The first server claims the delivery and sends it; the receiver holds the request open.
  const first = await startServer(t, 'first');
  dataDirs.push(first.dataDir);
  await until(() => receiver.arrivals.length === 1, 'the first attempt', 15_000);
  const claimed = await delivery();
  expect(claimed).toMatchObject({ status: 'pending', attempts: 0 });
  const leaseEnds = Date.parse(claimed.claimed_until!);

  // The first is killed mid-request (SIGKILL: no cleanup, no record); then a second server starts. It starts
  // after the kill, not before: on a loaded machine its start can outlast the lease, and a second server
  // already running would then resend (and be answered) while the first still held the request.
  const killed = new Promise((resolve) => first.child.once('exit', (_code, signal) => resolve(signal)));
  first.child.kill('SIGKILL');
  expect(await killed).toBe('SIGKILL');
  expect(await delivery()).toMatchObject({ status: 'pending', attempts: 0, last_attempt_at: null });
  receiver.state.answering = true;
  const second = await startServer(t, 'second');
  dataDirs.push(second.dataDir);

  // The second server sends it again once the lease has passed, and not before.
  await until(() => receiver.arrivals.length === 2, 'the attempt after the crash', (LEASE_S + 10) * 1000);
  const [held, resent] = receiver.arrivals as [Arrival, Arrival];
  expect(resent.at).toBeGreaterThanOrEqual(leaseEnds);
  expect(resent.headers['webhook-id']).toBe(held.headers['webhook-id']);
  const event = new Webhook(hook.secret).verify(resent.body, resent.headers) as { type: string; data: { api_key: { name: string } } };
  expect(event).toMatchObject({ type: 'api_key.created', data: { api_key: { name: 'written before the crash' } } });
  // Its record follows the answer: one attempt, the first one never recorded.
  let settled = await delivery();
  const deadline = Date.now() + 5_000;
  while (settled.status === 'pending' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    settled = await delivery();
  }
  expect(settled).toMatchObject({ status: 'succeeded', attempts: 1, last_status_code: 204 });
  expect(receiver.arrivals).toHaveLength(2);
});
