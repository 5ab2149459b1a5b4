import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { POOL_CONNECTION_TIMEOUT_MS, connectDatabase, poolStatsReader, type Db } from '../../server/db/connect.js';
import { generateSigningKeyPem, signingKeyFromPem } from '../../server/lib/signing-keys.js';
import { createTestApp, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';
import { startLoad } from '../helpers/http-load.js';
import { startTcpRelay } from '../helpers/tcp-relay.js';
import { POSTGRES_ADMIN_URL, createTestDatabase } from '../helpers/test-database.js';

/** What a PostgreSQL restart or an administrator does to every session of the database. */
async function terminateConnectionsTo(db: Db): Promise<number> {
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(db);
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    const result = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [rows[0]!.name]);
    return result.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

/** An app on `db` (its own connections to a test database), signing in with a key of its own. */
async function appOn(db: Db) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'authplatform-pg-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', BCRYPT_COST: '4' }, { allowWeakHashing: true });
  const { app } = await buildApp({ config, db, dialect: 'postgres', signingKey: signingKeyFromPem(generateSigningKeyPem()), clientDir: path.join(dataDir, 'no-client') });
  return {
    app,
    async close() {
      await app.close();
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** PostgreSQL only (the server-postgres project runs *.postgres.test.ts; the SQLite one leaves them out). */
describe('a PostgreSQL server that closes connections', () => {
  it('survives PostgreSQL closing its idle connections, and answers again at once', async () => {
    const database = await createTestDatabase();
    const closed: Error[] = [];
    const { db } = connectDatabase(database.target, { onIdleConnectionError: (error) => closed.push(error) });
    const { app, close } = await appOn(db);
    try {
      expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
      // Each idle pooled connection hears of its end on its own socket: wait for all of them, not the first
      // only (the app's other connections, such as its LISTEN one, are not in the pool).
      const idle = poolStatsReader(db)!().idle;
      expect(idle).toBeGreaterThan(0);
      expect(await terminateConnectionsTo(db)).toBeGreaterThanOrEqual(idle);
      for (let i = 0; i < 100 && closed.length < idle; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(closed.length).toBe(idle);
      expect((await app.inject({ url: '/health' })).json()).toMatchObject({ status: 'ok', database: 'ok' });
    } finally {
      await close();
      await database.drop();
    }
  });

  it('answers 503 with Retry-After within the pool timeout while PostgreSQL does not answer at all, and serves again once it does', async () => {
    const database = await createTestDatabase();
    if (database.target.kind !== 'postgres') throw new Error('PostgreSQL only');
    const direct = new URL(database.target.url);
    const relay = await startTcpRelay({ host: direct.hostname, port: Number(direct.port || 5432) });
    const throughRelay = new URL(direct);
    throughRelay.host = `127.0.0.1:${relay.port}`;
    const { db } = connectDatabase({ kind: 'postgres', url: throughRelay.toString() }, { onIdleConnectionError: () => {} });
    const { app, close } = await appOn(db);
    try {
      const signup: InjectOptions = { method: 'POST', url: '/api/v1/auth/signup', payload: { email: uniqueEmail('black-hole'), password: 'Correct-Horse-42' } };
      // A failover to a host that is not there yet: connections cut, new ones never answered.
      relay.blackHole();
      const timed = async (request: InjectOptions) => {
        const started = performance.now();
        const response = await app.inject(request);
        return { response, ms: performance.now() - started };
      };
      const [refused, ready, health] = await Promise.all([timed(signup), timed({ url: '/ready' }), timed({ url: '/health' })]);
      expect(refused.response.statusCode).toBe(503);
      expect(refused.response.json()).toEqual({ detail: 'Service temporarily unavailable' });
      expect(refused.response.headers['retry-after']).toBe('1');
      expect(refused.ms).toBeGreaterThanOrEqual(POOL_CONNECTION_TIMEOUT_MS - 50);
      expect(refused.ms).toBeLessThan(5_000);
      expect(ready.response.statusCode).toBe(503);
      expect(ready.response.json()).toMatchObject({ status: 'not_ready', database: 'unavailable' });
      expect(ready.ms).toBeLessThan(5_000);
      // Liveness does not wait for the database.
      expect(health.response.statusCode).toBe(200);
      expect(health.response.json()).toMatchObject({ status: 'degraded', database: 'unavailable' });
      expect(health.ms).toBeLessThan(POOL_CONNECTION_TIMEOUT_MS);

      relay.forward();
      expect((await app.inject(signup)).statusCode).toBe(201);
      expect((await app.inject({ url: '/ready' })).statusCode).toBe(200);
    } finally {
      await close();
      await relay.close();
      await database.drop();
    }
  });
});

describe('every connection of the app terminated under load', () => {
  let t: TestApp;
  let base: string;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = (await t.signUpAndLogIn(uniqueEmail('terminated'))).access_token;
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers every request within 5 s (200, or 503 with Retry-After), and the next ones succeed', async () => {
    const authorization = `Bearer ${token}`;
    // `me` over REST and tRPC, and a write (a transaction), in turn.
    const requests = [
      () => ({ url: `${base}/api/v1/auth/me`, init: { headers: { authorization } } }),
      () => ({ url: `${base}/trpc/auth.me`, init: { headers: { authorization } } }),
      () => ({
        url: `${base}/api/v1/auth/profile`,
        init: { method: 'PATCH', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ first_name: 'Ada' }) },
      }),
    ];
    let turn = 0;
    const load = startLoad(() => requests[turn++ % requests.length]!());
    await load.next(50);
    for (let round = 0; round < 3; round++) {
      expect(await terminateConnectionsTo(t.db)).toBeGreaterThan(0);
      await load.next(100);
    }
    const answers = await load.stop();

    expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(5_000);
    const failed = answers.filter((answer) => answer.status !== 200);
    expect(failed.length).toBeLessThan(answers.length / 2);
    for (const answer of failed) expect(answer).toMatchObject({ status: 503, detail: 'Service temporarily unavailable', retryAfter: '1' });
    for (const request of requests) {
      const { url, init } = request();
      expect((await fetch(url, init)).status, url).toBe(200);
    }
  });
});
