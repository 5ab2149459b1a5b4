import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupChangesOf, type Db } from '../../server/db/connect.js';
import { LISTENER_HEARTBEAT_MS, LISTENER_TIMEOUT_MS } from '../../server/db/lookup-changes.js';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { startTcpRelay } from '../helpers/tcp-relay.js';
import { POSTGRES_ADMIN_URL } from '../helpers/test-database.js';
import { TEST_REDIS_URL, redisAnswers, testKeyPrefix } from '../helpers/test-redis.js';
import { until } from '../helpers/until.js';

/**
 * On PostgreSQL each instance remembers the session (and API key) lookups of the request path while it
 * hears of every change to their tables (server/db/lookup-changes.ts). These tests are about what must
 * never happen: a revoked session or a deactivated user answered from memory.
 */

/** The documented bound for a change no instance was told of (an operator's SQL): the heartbeat's interval and timeout. */
const UNTOLD_BOUND_MS = LISTENER_HEARTBEAT_MS + LISTENER_TIMEOUT_MS;

const listening = (t: TestApp) => until(() => lookupChangesOf(t.db)?.listening === true, 'the instance to listen for changes');

/** SQL run as an operator would, on its own connection to the app's database. */
async function operatorSql(t: TestApp, text: string, values: unknown[] = [], options: { bypassTriggers?: boolean } = {}) {
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.db);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${rows[0]!.name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    // A superuser can turn triggers off for its session: the one way a change goes unheard.
    if (options.bypassTriggers) await client.query('set session_replication_role = replica');
    await client.query(text, values);
  } finally {
    await client.end();
  }
}

async function terminateListeners(db: Db): Promise<number> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(db);
    const result = await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = 'authplatform-lookup-changes'", [rows[0]!.name]);
    return result.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

/** Waits until the instance has heard the notifications of every change committed so far. */
async function heardEverything(t: TestApp) {
  const marker = `heard-${Math.random().toString(36).slice(2)}`;
  await sql`select pg_notify('authplatform_lookup_changes', ${marker})`.execute(t.db);
  await until(() => lookupChangesOf(t.db)?.lastPayload === marker, 'the notifications so far to be heard');
}

const me = async (t: TestApp, token: string) => {
  const response = await t.call('GET', '/api/v1/auth/me', { token });
  return { status: response.statusCode, body: response.json() as { first_name?: string; role?: string; detail?: string } };
};

describe('one instance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await listening(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers a session from memory until its tables change: a change made with triggers off is not seen, any other one is', async () => {
    const session = await t.signUpAndLogIn(uniqueEmail('remembered'));
    // The sign-in's own notifications, heard late, would drop what is remembered next.
    await heardEverything(t);
    expect((await me(t, session.access_token)).body.first_name).toBe('Test');
    await operatorSql(t, "update users set first_name = 'Unheard' where id = $1", [session.user.id], { bypassTriggers: true });
    expect((await me(t, session.access_token)).body.first_name).toBe('Test');

    await operatorSql(t, "update users set first_name = 'Heard' where id = $1", [session.user.id]);
    const started = Date.now();
    await until(async () => (await me(t, session.access_token)).body.first_name === 'Heard', 'the change to be heard', UNTOLD_BOUND_MS);
    expect(Date.now() - started).toBeLessThan(UNTOLD_BOUND_MS);
  });

  it("refuses its own revocations on the very next request: sign-out, a session ended from the list, a deactivated account", async () => {
    const ip = uniqueIp();
    const email = uniqueEmail('own-changes');
    const first = await t.signUpAndLogIn(email, { ip });
    expect((await me(t, first.access_token)).status).toBe(200);
    expect((await t.call('POST', '/api/v1/auth/logout', { token: first.access_token, body: { refresh_token: first.refresh_token } })).statusCode).toBe(200);
    expect((await me(t, first.access_token)).status).toBe(401);

    const second = (await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, ip })).json();
    const third = (await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, ip })).json();
    expect((await me(t, second.access_token)).status).toBe(200);
    const sessions = (await t.call('GET', '/api/v1/auth/sessions', { token: third.access_token })).json() as { sessions: Array<{ id: string; current: boolean }> };
    const other = sessions.sessions.find((s) => !s.current && s.id !== undefined);
    expect(other).toBeDefined();
    expect((await t.call('DELETE', `/api/v1/auth/sessions/${other!.id}`, { token: third.access_token })).statusCode).toBe(200);
    expect((await me(t, second.access_token)).status).toBe(401);

    expect((await me(t, third.access_token)).status).toBe(200);
    await operatorSql(t, 'update users set is_active = 0 where id = $1', [third.user.id]);
    await until(async () => (await me(t, third.access_token)).status !== 200, 'the deactivation to be heard', UNTOLD_BOUND_MS);
  });

  it('remembers nothing while it does not hear: a revocation made while its listening connection was lost is refused at once', async () => {
    const session = await t.signUpAndLogIn(uniqueEmail('lost-listener'));
    expect((await me(t, session.access_token)).status).toBe(200);
    expect(await terminateListeners(t.db)).toBeGreaterThan(0);
    await until(() => lookupChangesOf(t.db)?.listening === false, 'the loss to be noticed', 1_000);
    // The notification of this change goes nowhere: nobody listens.
    await operatorSql(t, "update sessions set revoked_at = now()::text, revoked_reason = 'admin' where user_id = $1", [session.user.id]);
    expect((await me(t, session.access_token)).status).toBe(401);

    await listening(t);
    const again = await t.signUpAndLogIn(uniqueEmail('listening-again'));
    expect((await me(t, again.access_token)).status).toBe(200);
    await operatorSql(t, "update sessions set revoked_at = now()::text, revoked_reason = 'admin' where user_id = $1", [again.user.id]);
    await until(async () => (await me(t, again.access_token)).status === 401, 'the revocation to be heard', UNTOLD_BOUND_MS);
  });
});

describe('a listening connection that stops answering without closing (a partition)', () => {
  it(`stops answering from memory within ${UNTOLD_BOUND_MS} ms`, async () => {
    const first = await createTestApp();
    if (first.target.kind !== 'postgres') throw new Error('PostgreSQL only');
    const direct = new URL(first.target.url);
    const relay = await startTcpRelay({ host: direct.hostname, port: Number(direct.port || 5432) });
    const throughRelay = new URL(direct);
    throughRelay.host = `127.0.0.1:${relay.port}`;
    const second = await createTestApp({ sameDatabaseAs: first, databaseUrl: throughRelay.toString() });
    try {
      await listening(second);
      relay.partition();
      const started = Date.now();
      await until(() => lookupChangesOf(second.db)?.listening === false, 'the partition to be noticed', UNTOLD_BOUND_MS + 250);
      expect(Date.now() - started).toBeLessThanOrEqual(UNTOLD_BOUND_MS + 250);
    } finally {
      relay.forward();
      await second.close();
      await relay.close();
      await first.close();
    }
  });
});

const withRedis = await redisAnswers();
if (!withRedis) console.warn(`Redis does not answer at ${TEST_REDIS_URL}: the acknowledged revocations across instances are not tested.`);

describe.each([
  { channel: 'Redis', redis: true },
  { channel: 'PostgreSQL alone (LISTEN/NOTIFY)', redis: false },
])('two instances, changes carried by $channel', ({ redis }) => {
  const keys = testKeyPrefix();
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    if (redis && !withRedis) return;
    const env: Record<string, string> = redis ? { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: keys.prefix } : {};
    a = await createTestApp({ env });
    b = await createTestApp({ env, sameDatabaseAs: a });
    await listening(a);
    await listening(b);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await keys.cleanUp();
  });

  /** With Redis the change answers once every instance confirmed: the next request anywhere is refused. Without it, within the bound. */
  const refusedOnB = async (check: () => Promise<boolean>, what: string) => {
    if (redis) expect(await check(), what).toBe(true);
    else await until(check, what, UNTOLD_BOUND_MS);
  };

  it.runIf(!redis || withRedis)('a session signed out on one is refused by the other', async () => {
    const session = await a.signUpAndLogIn(uniqueEmail('across'));
    expect((await me(b, session.access_token)).status).toBe(200);
    expect((await a.call('POST', '/api/v1/auth/logout', { token: session.access_token, body: { refresh_token: session.refresh_token } })).statusCode).toBe(200);
    await refusedOnB(async () => (await me(b, session.access_token)).status === 401, 'b to refuse the signed-out session');
  });

  it.runIf(!redis || withRedis)("an end user's session ended through the public API is refused by the other's public API", async () => {
    const developer = await a.signUpAndLogIn(uniqueEmail('across-dev'));
    const project = (await a.call('POST', '/api/v1/projects', { token: developer.access_token, body: { name: 'Across' } })).json();
    const { secret } = (await a.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: developer.access_token, body: { name: 'k' } })).json();
    const headers = { 'x-api-key': secret, 'x-end-user-ip': uniqueIp() };
    const email = uniqueEmail('across-end-user');
    expect((await a.call('POST', '/public/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, headers })).statusCode).toBe(201);
    const endUser = (await a.call('POST', '/public/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, headers })).json();
    const profileOnB = async () => (await b.call('GET', '/public/api/v1/profile', { headers: { ...headers, authorization: `Bearer ${endUser.access_token}` } })).statusCode;
    expect(await profileOnB()).toBe(200);
    expect((await a.call('POST', '/public/api/v1/auth/logout', { headers, body: { refresh_token: endUser.refresh_token } })).statusCode).toBe(200);
    await refusedOnB(async () => (await profileOnB()) === 401, "b to refuse the end user's ended session");
  });

  it.runIf(!redis || withRedis)('a user deactivated on one, and a name changed on one, are seen by the other', async () => {
    const session = await a.signUpAndLogIn(uniqueEmail('across-profile'));
    expect((await me(b, session.access_token)).body.first_name).toBe('Test');
    expect((await a.call('PATCH', '/api/v1/auth/profile', { token: session.access_token, body: { first_name: 'Renamed' } })).statusCode).toBe(200);
    await refusedOnB(async () => (await me(b, session.access_token)).body.first_name === 'Renamed', 'b to see the new name');
  });
});
