import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, STRONG_PASSWORD, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';
import { mailOutboxDrained } from '../helpers/mail-settled.js';
import { SmtpCatcher } from '../helpers/smtp-catcher.js';
import { freePort } from '../helpers/tcp-probe.js';
import { until } from '../helpers/until.js';

/**
 * kill -9 between a change's commit and its mail's delivery loses no mail: a real server (npm start's
 * entry, a child process) answers a sign-up while its SMTP server is unreachable and is killed with
 * SIGKILL; the SMTP server comes up, a server starts again on the same data, and the verification mail
 * arrives, once. MAIL_LEASE_S is short (2 s) so a mail the dead server had claimed is taken over soon.
 * Runs on SQLite and on PostgreSQL.
 */
const root = path.resolve(import.meta.dirname, '../..');
const STARTUP_MS = 60_000;

const children: ChildProcess[] = [];
const dataDirs: string[] = [];
let t: TestApp;
let smtp: SmtpCatcher | null = null;

async function startServer(smtpPort: number, name: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `authplatform-mail-crash-${name}-`));
  dataDirs.push(dataDir);
  fs.cpSync(path.join(t.deps.config.dataDir, 'keys'), path.join(dataDir, 'keys'), { recursive: true });
  const port = await freePort();
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
      DATABASE_URL: t.target.kind === 'sqlite' ? t.target.file : t.target.url,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      BCRYPT_COST: '10',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      MAIL_POLL_MS: '50',
      MAIL_LEASE_S: '2',
    },
  });
  const collect = (chunk: Buffer) => output.push(chunk.toString());
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  children.push(child);
  await until(() => output.join('').includes('AuthPlatform ready') || child.exitCode !== null, `server ${name} to start`, STARTUP_MS);
  expect(child.exitCode, output.join('')).toBeNull();
  return { child, url: `http://127.0.0.1:${port}` };
}

beforeAll(async () => {
  // The test's own app only holds the database and the keys; it never delivers (MAIL_POLL_MS=0).
  t = await createTestApp({ env: { MAIL_POLL_MS: '0' } });
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await t?.close();
  await smtp?.stop();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

it('a server killed with SIGKILL after a sign-up committed, before its mail could go out: the mail arrives after a restart, once', { timeout: 3 * STARTUP_MS }, async () => {
  const smtpPort = await freePort();
  const first = await startServer(smtpPort, 'first');
  const email = uniqueEmail('crash');
  const signup = await fetch(`${first.url}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: STRONG_PASSWORD }),
  });
  expect(signup.status).toBe(201);
  const killed = new Promise((resolve) => first.child.once('exit', (_code, signal) => resolve(signal)));
  first.child.kill('SIGKILL');
  expect(await killed).toBe('SIGKILL');
  const row = await t.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', email).executeTakeFirstOrThrow();
  expect(row).toMatchObject({ kind: 'verification', status: 'pending', sent_at: null });

  smtp = await new SmtpCatcher().start(smtpPort);
  const second = await startServer(smtpPort, 'second');
  const mail = await smtp.waitFor(email, /verify/i, { timeoutMs: 20_000 });
  expect(new URL(mail.link!).pathname).toBe('/verify-email');
  await until(async () => (await t.db.selectFrom('mail_outbox').select('status').where('id', '=', row.id).executeTakeFirstOrThrow()).status === 'sent', 'the row marked sent');
  // The link works on the restarted server: the token committed with the mail.
  const verified = await fetch(`${second.url}/api/v1/auth/verify-email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: new URL(mail.link!).searchParams.get('token') }),
  });
  expect(verified.status).toBe(200);
  // Nothing left due in the outbox (a row is marked sent only once the SMTP server took it): still one mail.
  await mailOutboxDrained(t.db, () => new Date());
  expect(smtp.to(email)).toHaveLength(1);
});
