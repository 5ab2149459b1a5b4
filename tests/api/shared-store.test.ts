import { createServer, type Server } from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp, type TestAppOptions } from '../helpers/create-test-app.js';
import { TEST_REDIS_URL, redisAnswers, testKeyPrefix } from '../helpers/test-redis.js';

/**
 * Two instances of one deployment (one database, one Redis): rate limits and spent captcha tokens
 * must hold across them, and an instance must keep answering, and limiting, when Redis goes away.
 */
const reachable = await redisAnswers();
if (!reachable) console.warn(`Redis does not answer at ${TEST_REDIS_URL}: the shared-store tests are skipped.`);

const ACCOUNT_BUDGET = 3;
const LOCKED = 'Too many failed sign-in attempts for this account from your network. Try again later, or reset your password.';

/** A stand-in for Cloudflare's siteverify that accepts every token: single use is the store's job. */
let verifier: Server;
let verifyUrl: string;
const keys = testKeyPrefix();

beforeAll(async () => {
  verifier = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ success: true }));
  });
  await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
  verifyUrl = `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => verifier.close(() => resolve()));
  if (reachable) await keys.cleanUp();
});

const options = (redisUrl: string, extra: Partial<TestAppOptions> = {}): TestAppOptions => ({
  env: {
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: keys.prefix,
    CAPTCHA_PROVIDER: 'turnstile',
    CAPTCHA_SITE_KEY: 'site-key',
    CAPTCHA_SECRET: 'shared-secret',
    CAPTCHA_VERIFY_URL: verifyUrl,
  },
  limits: { loginFailuresPerAccountAndIp: { points: ACCOUNT_BUDGET, durationS: 60 }, signupPerIp: { points: 2, durationS: 60 } },
  ...extra,
});

let token = 0;
const captcha = () => `token-${Date.now()}-${(token += 1)}`;
const logIn = (app: TestApp, email: string, password: string, ip: string) =>
  app.call('POST', '/api/v1/auth/login', { body: { email, password, captcha_token: captcha() }, ip });

describe.runIf(reachable)('two instances sharing Redis', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp(options(TEST_REDIS_URL));
    b = await createTestApp(options(TEST_REDIS_URL, { sameDatabaseAs: a }));
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("spend one account's failed-sign-in budget, whichever instance is asked", async () => {
    const email = uniqueEmail('shared');
    const signup = await a.call('POST', '/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD, captcha_token: captcha() }, ip: uniqueIp() });
    expect(signup.statusCode).toBe(201);
    const ip = uniqueIp();
    const statuses = [];
    for (const app of [a, b, a]) statuses.push((await logIn(app, email, 'Wrong-Password-1', ip)).statusCode);
    expect(statuses).toEqual([401, 401, 401]);
    const locked = await logIn(b, email, STRONG_PASSWORD, ip);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ detail: LOCKED });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('keep e-mail addresses and client addresses out of Redis: limit keys are hashed', async () => {
    const email = uniqueEmail('private');
    const ip = uniqueIp();
    await a.call('POST', '/api/v1/auth/login', { body: { email, password: 'Wrong-Password-1', captcha_token: captcha() }, ip });
    const stored = await keys.list();
    expect(stored.filter((key) => key.includes(':limit:loginFailuresPerAccountAndIp:'))).not.toEqual([]);
    expect(stored.filter((key) => key.includes(email) || key.includes(ip))).toEqual([]);
  });

  it('spend one per-IP sign-up budget across instances', async () => {
    const ip = uniqueIp();
    const signUp = (app: TestApp) =>
      app.call('POST', '/api/v1/auth/signup', { body: { email: uniqueEmail('ip'), password: STRONG_PASSWORD, captcha_token: captcha() }, ip });
    expect((await signUp(a)).statusCode).toBe(201);
    expect((await signUp(b)).statusCode).toBe(201);
    const third = await signUp(a);
    expect(third.statusCode).toBe(429);
    expect(third.json()).toEqual({ detail: 'Too many requests. Please try again later.' });
  });

  it('accept a captcha token once in the whole deployment: replayed on the other instance it fails', async () => {
    const once = captcha();
    const first = await a.call('POST', '/api/v1/auth/forgot-password', { body: { email: uniqueEmail(), captcha_token: once }, ip: uniqueIp() });
    expect(first.statusCode).toBe(200);
    const replay = await b.call('POST', '/api/v1/auth/forgot-password', { body: { email: uniqueEmail(), captcha_token: once }, ip: uniqueIp() });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({ detail: 'Captcha verification failed' });
  });

  it('let exactly one of many parallel uses of one captcha token through', async () => {
    const once = captcha();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a : b).call('POST', '/api/v1/auth/forgot-password', { body: { email: uniqueEmail(), captcha_token: once }, ip: uniqueIp() }),
      ),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, ...Array(9).fill(400)]);
  });
});

describe.runIf(reachable)('when Redis goes away', () => {
  /** A TCP relay to Redis that the test can cut, as a network partition would. */
  let relay: net.Server;
  const sockets = new Set<net.Socket>();
  let t: TestApp;

  beforeAll(async () => {
    const target = new URL(TEST_REDIS_URL);
    relay = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 6379), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    t = await createTestApp(options(`redis://127.0.0.1:${(relay.address() as AddressInfo).port}`));
  });
  afterAll(async () => {
    await t?.close();
  });

  it("keeps answering, and limiting, from the instance's own memory", async () => {
    const email = uniqueEmail('partition');
    expect((await t.call('POST', '/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD, captcha_token: captcha() }, ip: uniqueIp() })).statusCode).toBe(201);

    const relayClosed = new Promise<void>((resolve) => relay.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await relayClosed;
    await new Promise((resolve) => setTimeout(resolve, 100));

    const ip = uniqueIp();
    const statuses = [];
    for (let i = 0; i < ACCOUNT_BUDGET; i++) statuses.push((await logIn(t, email, 'Wrong-Password-1', ip)).statusCode);
    expect(statuses).toEqual([401, 401, 401]);
    const locked = await logIn(t, email, STRONG_PASSWORD, ip);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ detail: LOCKED });

    const once = captcha();
    expect((await t.call('POST', '/api/v1/auth/forgot-password', { body: { email, captcha_token: once }, ip: uniqueIp() })).statusCode).toBe(200);
    expect((await t.call('POST', '/api/v1/auth/forgot-password', { body: { email, captcha_token: once }, ip: uniqueIp() })).statusCode).toBe(400);
  });
});

describe('REDIS_URL that does not answer at start', () => {
  it('stops the server with one line naming the variable', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(createTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${port}` } })).rejects.toThrow(/^REDIS_URL: cannot connect \(connect ECONNREFUSED 127.0.0.1:\d+\)$/);
  });
});
