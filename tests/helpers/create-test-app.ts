import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import type { DatabaseTarget } from '../../server/config.js';
import { connectDatabase, type Db, type Dialect } from '../../server/db/connect.js';
import type { Deps } from '../../server/deps.js';
import type { Clock } from '../../server/lib/clock.js';
import type { LimitName, LimitRule } from '../../server/lib/rate-limit.js';
import { generateSigningKeyPem, signingKeyFromPem } from '../../server/lib/signing-keys.js';
import { mailOutboxDrained } from './mail-settled.js';
import { SmtpCatcher } from './smtp-catcher.js';
import { createTrpcTab, type TrpcTab, type TrpcTabOptions } from './trpc-client.js';
import { createTestDatabase } from './test-database.js';

export const APP_URL = 'http://app.test';
export const STRONG_PASSWORD = 'Correct-Horse-42';

export interface TestAppOptions {
  /** Variables over the test defaults; undefined removes one (`SMTP_URL: undefined`: mail goes to DATA_DIR/outbox). */
  env?: Record<string, string | undefined>;
  limits?: Partial<Record<LimitName, LimitRule>>;
  clock?: Clock;
  /**
   * Runs on that app's database (through connections of its own) instead of a fresh one, as a second
   * instance of one deployment would; it also sends through that app's SMTP catcher, since either
   * instance's dispatcher may deliver a mail the other queued. Close it before that app.
   */
  sameDatabaseAs?: TestApp;
  /** With sameDatabaseAs on PostgreSQL: reach that database at this URL instead (through a relay a test controls). */
  databaseUrl?: string;
}

export interface TestApp {
  app: FastifyInstance;
  deps: Deps;
  db: Db;
  dialect: Dialect;
  target: DatabaseTarget;
  /** The platform's signing key, which a second instance (sameDatabaseAs) shares. */
  signingKeyPem: string;
  mail: SmtpCatcher;
  /** app.inject with a JSON body and a per-call client address (default 203.0.113.10). */
  call(method: InjectOptions['method'], url: string, options?: { body?: unknown; token?: string; ip?: string; headers?: Record<string, string>; cookies?: Record<string, string> }): Promise<LightMyRequestResponse>;
  /** A typed tRPC client (a browser tab keeping its cookies) over app.inject. */
  trpc(options?: TrpcTabOptions): TrpcTab;
  /**
   * Resolves once every mail queued so far has left: nothing due in the outbox, and no dispatcher pass
   * in flight. Then `mail` holds everything this app sent; how a test shows that a mail was not sent.
   */
  mailSettled(): Promise<void>;
  /** Signs up, verifies through the mailed link, and logs in; returns the tokens. */
  signUpAndLogIn(email: string, options?: { password?: string; verify?: boolean; ip?: string; fingerprint?: string }): Promise<{ access_token: string; refresh_token: string; user: { id: string } }>;
  close(): Promise<void>;
}

let seq = 0;
let ipSeq = 0;
/** A fresh client address per call (198.18.0.0/15 is reserved for tests), so per-IP limits don't couple tests. */
export function uniqueIp(): string {
  ipSeq += 1;
  return `198.18.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;
}

export function uniqueEmail(tag = 'user'): string {
  seq += 1;
  return `${tag}.${Date.now().toString(36)}.${seq}@example.com`;
}

/** A real app on a fresh migrated database with a real SMTP server catching its mail. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownsMail = !options.sameDatabaseAs;
  const mail = options.sameDatabaseAs?.mail ?? (await new SmtpCatcher().start());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'authplatform-test-'));
  const sameTarget = options.sameDatabaseAs && (options.databaseUrl ? { kind: 'postgres' as const, url: options.databaseUrl } : options.sameDatabaseAs.target);
  const database = sameTarget ? secondConnection(sameTarget) : await createTestDatabase();
  // A second instance of one deployment holds the same keys: the master key (data/keys) and the platform's signing key.
  const firstKeys = options.sameDatabaseAs && path.join(options.sameDatabaseAs.deps.config.dataDir, 'keys');
  if (firstKeys && fs.existsSync(firstKeys)) fs.cpSync(firstKeys, path.join(dataDir, 'keys'), { recursive: true });
  const signingKeyPem = options.sameDatabaseAs?.signingKeyPem ?? generateSigningKeyPem();
  const cleanUp = async () => {
    await database.drop();
    if (ownsMail) await mail.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  let built: Awaited<ReturnType<typeof buildApp>>;
  try {
    // API usage is written per call unless a test asks for batches, so counts can be read right after a call.
    const env = { APP_URL, DATA_DIR: dataDir, SMTP_URL: mail.url, BCRYPT_COST: '4', LOG_LEVEL: 'silent', API_USAGE_FLUSH_MS: '0', ...options.env };
    const config = loadConfig(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined)), { allowWeakHashing: true });
    built = await buildApp({
      config,
      db: database.db,
      dialect: database.dialect,
      clock: options.clock,
      limits: options.limits,
      signingKey: signingKeyFromPem(signingKeyPem),
      clientDir: path.join(dataDir, 'no-client'),
    });
  } catch (error) {
    // A test of a refused start must not leave a database or an SMTP server behind.
    await cleanUp();
    throw error;
  }
  const { app, deps } = built;
  await app.ready();

  const call: TestApp['call'] = (method, url, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    const hasBody = o.body !== undefined;
    if (hasBody && !headers['content-type']) headers['content-type'] = 'application/json';
    return app.inject({
      method,
      url,
      headers,
      cookies: o.cookies,
      remoteAddress: o.ip ?? '203.0.113.10',
      payload: hasBody ? (typeof o.body === 'string' ? o.body : JSON.stringify(o.body)) : undefined,
    });
  };

  const signUpAndLogIn: TestApp['signUpAndLogIn'] = async (email, o = {}) => {
    const password = o.password ?? STRONG_PASSWORD;
    o = { ...o, ip: o.ip ?? uniqueIp() };
    const before = mail.messages.length;
    const signup = await call('POST', '/api/v1/auth/signup', { body: { email, password, first_name: 'Test', last_name: 'User' }, ip: o.ip });
    if (signup.statusCode !== 201) throw new Error(`signup failed: ${signup.statusCode} ${signup.body}`);
    if (o.verify !== false) {
      const message = await mail.waitFor(email, /verify/i, { after: before });
      const token = new URL(message.link!).searchParams.get('token');
      const verified = await call('POST', '/api/v1/auth/verify-email', { body: { token }, ip: o.ip });
      if (verified.statusCode !== 200) throw new Error(`verify failed: ${verified.body}`);
    }
    const login = await call('POST', '/api/v1/auth/login', { body: { email, password, device_fingerprint: o.fingerprint }, ip: o.ip });
    if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
    return login.json();
  };

  return {
    app,
    deps,
    db: database.db,
    dialect: database.dialect,
    target: database.target,
    signingKeyPem,
    mail,
    call,
    trpc: (tabOptions) => createTrpcTab(app, tabOptions),
    signUpAndLogIn,
    async mailSettled() {
      await mailOutboxDrained(database.db, () => deps.clock.now());
      await deps.mailDispatcher.idle();
    },
    async close() {
      await app.close();
      await cleanUp();
    },
  };
}

function secondConnection(target: DatabaseTarget) {
  const { db, dialect } = connectDatabase(target, { onIdleConnectionError: () => {} });
  return { db, dialect, target, drop: () => db.destroy() };
}

/** A clock the test moves by hand. */
export function manualClock(start = new Date('2026-01-01T00:00:00Z')): Clock & { advance(seconds: number): void } {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(seconds) {
      now += seconds * 1000;
    },
  };
}
