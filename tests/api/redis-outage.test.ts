import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_CACHE_TTL_MS } from '../../server/modules/projects/project-realms.js';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { startLoad } from '../helpers/http-load.js';
import { ownRedis, redisServerInstalled, type OwnRedis } from '../helpers/redis-server.js';
import { startTcpRelay, type TcpRelay } from '../helpers/tcp-relay.js';
import { until } from '../helpers/until.js';

/**
 * A Redis of the test's own, shared by two instances of one deployment (one database), killed and
 * started again mid-run: the service answers throughout, and a key revoked while Redis was down is
 * refused on every instance once it is back (each drops its cached copies when it has subscribed
 * again). See also tests/unit/redis-reconnect.test.ts.
 */
const installed = redisServerInstalled();
if (!installed) console.warn('redis-server is not installed: the redis-outage tests are skipped.');

const PREFIX = 'outage:';

describe.runIf(installed)('a Redis that dies and comes back', () => {
  let redis: OwnRedis;
  let a: TestApp;
  let b: TestApp;
  let aUrl: string;
  let bUrl: string;
  beforeAll(async () => {
    redis = await ownRedis();
    await redis.start();
    const env = { REDIS_URL: redis.url, REDIS_KEY_PREFIX: PREFIX };
    a = await createTestApp({ env });
    b = await createTestApp({ env, sameDatabaseAs: a });
    aUrl = await a.app.listen({ port: 0, host: '127.0.0.1' });
    bUrl = await b.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await redis?.kill();
  });

  /** An end user of the project signed in through `key`: the headers of their public API calls. */
  async function endUserOf(key: string) {
    const headers = { 'x-api-key': key, 'x-end-user-ip': uniqueIp() };
    const email = uniqueEmail('outage-end-user');
    expect((await a.call('POST', '/public/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, headers })).statusCode).toBe(201);
    const login = await a.call('POST', '/public/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, headers });
    expect(login.statusCode).toBe(200);
    return { ...headers, authorization: `Bearer ${login.json().access_token}` };
  }

  it('keeps answering throughout, and a key revoked meanwhile is refused on every instance once it is back', async () => {
    const developer = await a.signUpAndLogIn(uniqueEmail('outage'));
    const project = (await a.call('POST', '/api/v1/projects', { token: developer.access_token, body: { name: 'outage' } })).json();
    const newKey = async () => (await a.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: developer.access_token, body: { name: 'k' } })).json();
    const kept = await newKey();
    const revoked = await newKey();
    const keptHeaders = await endUserOf(kept.secret);
    const revokedHeaders = await endUserOf(revoked.secret);
    const profile = (base: string, headers: Record<string, string>) => fetch(`${base}/public/api/v1/profile`, { headers }).then((response) => response.status);

    // On both instances, all along: public API calls (the key's lookup cached in memory) and failed
    // sign-ins (their limits spent in Redis, or in memory while it is away).
    let turn = 0;
    const load = startLoad(
      () => {
        turn += 1;
        const base = turn % 2 ? aUrl : bUrl;
        if (turn % 4 < 2) return { url: `${base}/public/api/v1/profile`, init: { headers: keptHeaders } };
        const body = JSON.stringify({ email: uniqueEmail('nobody'), password: 'Wrong-Password-1' });
        return { url: `${base}/public/api/v1/auth/login`, init: { method: 'POST', headers: { ...keptHeaders, 'x-end-user-ip': uniqueIp(), 'content-type': 'application/json' }, body } };
      },
      { connections: 4 },
    );
    await load.next(20);

    // Both instances have the key's lookup in memory.
    expect(await profile(aUrl, revokedHeaders)).toBe(200);
    expect(await profile(bUrl, revokedHeaders)).toBe(200);
    const cachedAt = Date.now();

    await redis.kill();
    await load.next(20);
    const revocation = await a.call('DELETE', `/api/v1/projects/${project.id}/api-keys/${revoked.id}`, { token: developer.access_token });
    expect(revocation.statusCode).toBe(200);
    expect(await profile(aUrl, revokedHeaders)).toBe(401);
    // b could not be told: until its copy expires (API_KEY_CACHE_TTL_MS) it answers from it.
    expect(await profile(bUrl, revokedHeaders)).toBe(200);

    await redis.start();
    const observer = new Redis(redis.url);
    try {
      await until(async () => ((await observer.pubsub('NUMSUB', `${PREFIX}invalidate`)) as [string, number])[1] === 2, 'both instances to subscribe again');
    } finally {
      observer.disconnect();
    }
    await until(async () => (await profile(bUrl, revokedHeaders)) === 401, 'b to refuse the revoked key', 2_000);
    expect(Date.now() - cachedAt, "b's copy would have expired on its own by now: the test was too slow to show anything").toBeLessThan(API_KEY_CACHE_TTL_MS);
    expect(await profile(aUrl, revokedHeaders)).toBe(401);

    await load.next(20);
    const answers = await load.stop();
    expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 401)).toEqual([]);
    const refused = answers.filter((answer) => answer.status === 401);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((answer) => answer.detail === 'Incorrect email or password')).toBe(true);
    expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(2_000);
  });
});

describe.runIf(installed)('a Redis that stops answering without closing its connections (a network partition)', () => {
  let redis: OwnRedis;
  let relay: TcpRelay;
  let t: TestApp;
  beforeAll(async () => {
    redis = await ownRedis();
    await redis.start();
    relay = await startTcpRelay({ host: '127.0.0.1', port: redis.port });
    t = await createTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${relay.port}`, REDIS_KEY_PREFIX: PREFIX } });
  });
  afterAll(async () => {
    await t?.close();
    await relay?.close();
    await redis?.kill();
  });

  it('answers sign-ins within seconds from its own memory, and at once after the first', async () => {
    const email = uniqueEmail('partition');
    expect((await t.call('POST', '/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, ip: uniqueIp() })).statusCode).toBe(201);
    const logIn = async () => {
      const started = performance.now();
      const response = await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, ip: uniqueIp() });
      return { status: response.statusCode, ms: performance.now() - started };
    };
    // The limiters' keys (`${REDIS_KEY_PREFIX}limit:<rule>:…`): a command carrying one is a sign-in asking Redis.
    const limiterKey = `${PREFIX}limit:`;
    relay.partition();
    const sentDuringFirst = relay.record();
    const first = await logIn();
    expect(first.status).toBe(200);
    // It asked Redis, which never answered: the socket timeout (not TCP's minutes) let it fall back to memory.
    expect(sentDuringFirst.text()).toContain(limiterKey);
    expect(first.ms).toBeLessThan(3_000);
    // Then the connection counts as dead: the next sign-in does not ask Redis at all (nothing of the limiters
    // reaches the relay), so it has nothing to wait for, however slow the machine; it is counted in memory.
    const sentDuringNext = relay.record();
    const next = await logIn();
    expect(next.status).toBe(200);
    expect(sentDuringNext.text()).not.toContain(limiterKey);
  });
});
