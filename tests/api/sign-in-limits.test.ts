import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';

/**
 * Failed-password budgets: charged before hashing, per account and client network, with an
 * account-wide ceiling; a stranger cannot lock the owner out.
 */
const PAIR_LOCKED = 'Too many failed sign-in attempts for this account from your network. Try again later, or reset your password.';
const ACCOUNT_LOCKED = 'Too many failed sign-in attempts for this account. Try again later, or reset your password.';
const WRONG = 'Wrong-Pass-1';

const logIn = (t: TestApp, email: string, password: string, ip: string, extra: Record<string, unknown> = {}) =>
  t.call('POST', '/api/v1/auth/login', { body: { email, password, ...extra }, ip });

describe('per account and address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('30 parallel wrong passwords for one account from one address: at most 10 are tried (401), the rest 429 with Retry-After', async () => {
    const email = uniqueEmail('burst');
    await t.signUpAndLogIn(email);
    const ip = uniqueIp();
    const answers = await Promise.all(Array.from({ length: 30 }, () => logIn(t, email, WRONG, ip)));
    const unauthorized = answers.filter((r) => r.statusCode === 401);
    const limited = answers.filter((r) => r.statusCode === 429);
    expect(unauthorized.length).toBeLessThanOrEqual(10);
    expect(unauthorized.length + limited.length).toBe(30);
    for (const r of limited) {
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      expect(r.json()).toEqual({ detail: PAIR_LOCKED });
    }
  });

  it('a stranger hammering the account does not lock the owner out: the owner signs in from another address', async () => {
    const email = uniqueEmail('owner');
    await t.signUpAndLogIn(email);
    const stranger = uniqueIp();
    for (let i = 0; i < 12; i++) await logIn(t, email, WRONG, stranger);
    const strangerAgain = await logIn(t, email, STRONG_PASSWORD, stranger);
    expect(strangerAgain.statusCode).toBe(429);
    expect(strangerAgain.json()).toEqual({ detail: PAIR_LOCKED });
    const rows = await t.db.selectFrom('login_attempts').select('failure_reason').where('email', '=', email).where('ip_address', '=', stranger).execute();
    expect(rows.some((r) => r.failure_reason === 'rate_limited')).toBe(true);

    const owner = await logIn(t, email, STRONG_PASSWORD, uniqueIp());
    expect(owner.statusCode).toBe(200);
  });

  it('a success refunds: the owner who mistyped 9 times and then signs in starts afresh', async () => {
    const email = uniqueEmail('typo');
    await t.signUpAndLogIn(email);
    const ip = uniqueIp();
    for (let i = 0; i < 9; i++) expect((await logIn(t, email, WRONG, ip)).statusCode).toBe(401);
    expect((await logIn(t, email, STRONG_PASSWORD, ip)).statusCode).toBe(200);
    for (let i = 0; i < 9; i++) expect((await logIn(t, email, WRONG, ip)).statusCode).toBe(401);
    expect((await logIn(t, email, STRONG_PASSWORD, ip)).statusCode).toBe(200);
  });

  it('groups IPv6 clients by /64: rotating addresses inside one /64 does not buy more attempts', async () => {
    const email = uniqueEmail('v6');
    await t.signUpAndLogIn(email);
    const statuses: number[] = [];
    for (let i = 1; i <= 11; i++) statuses.push((await logIn(t, email, WRONG, `2001:db8:aaaa:1::${i.toString(16)}`)).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    // Another /64 is another network.
    expect((await logIn(t, email, STRONG_PASSWORD, '2001:db8:aaaa:2::1')).statusCode).toBe(200);
  });

  it('groups IPv6 by /64 for the other per-address limits too (sign-up here)', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 11; i++) {
      statuses.push((await t.call('POST', '/api/v1/auth/signup', { body: { email: uniqueEmail('v6-signup'), password: STRONG_PASSWORD }, ip: `2001:db8:cccc:9::${i.toString(16)}` })).statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('groups IPv6 by /64 for the per-address login limit too (credential stuffing from one VM)', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 31; i++) statuses.push((await logIn(t, uniqueEmail('stuff6'), WRONG, `2001:db8:bbbb:7:${i.toString(16)}::1`)).statusCode);
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it('refuses a password longer than 72 bytes with the ordinary 401, though bcrypt would match its first 72', async () => {
    const password = `Aa1${'x'.repeat(69)}`;
    expect(Buffer.byteLength(password)).toBe(72);
    const email = uniqueEmail('long');
    await t.signUpAndLogIn(email, { password });
    const ip = uniqueIp();
    const longer = await logIn(t, email, `${password}anything`, ip);
    expect(longer.statusCode).toBe(401);
    expect(longer.json()).toEqual({ detail: 'Incorrect email or password' });
    expect((await logIn(t, email, password, ip)).statusCode).toBe(200);
  });

  it('an admin unlock and a successful reset clear both counts', async () => {
    const admin = await t.signUpAndLogIn(uniqueEmail('admin'));
    await t.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.user.id).execute();
    const email = uniqueEmail('unlock');
    const { user } = await t.signUpAndLogIn(email);
    const ip = uniqueIp();
    for (let i = 0; i < 11; i++) await logIn(t, email, WRONG, ip);
    expect((await logIn(t, email, STRONG_PASSWORD, ip)).statusCode).toBe(429);
    expect((await t.call('POST', `/api/v1/admin/users/${user.id}/unlock`, { token: admin.access_token })).statusCode).toBe(200);
    expect((await logIn(t, email, STRONG_PASSWORD, ip)).statusCode).toBe(200);

    for (let i = 0; i < 11; i++) await logIn(t, email, WRONG, ip);
    expect((await logIn(t, email, STRONG_PASSWORD, ip)).statusCode).toBe(429);
    const before = t.mail.messages.length;
    await t.call('POST', '/api/v1/auth/forgot-password', { body: { email }, ip: uniqueIp() });
    const token = new URL((await t.mail.waitFor(email, /reset/i, { after: before })).link!).searchParams.get('token');
    expect((await t.call('POST', '/api/v1/auth/reset-password', { body: { token, new_password: 'Brand-New-Pass-7' } })).statusCode).toBe(200);
    expect((await logIn(t, email, 'Brand-New-Pass-7', ip)).statusCode).toBe(200);
  });
});

describe('the account-wide ceiling', () => {
  it('without a captcha provider: past 100 failures an hour from many addresses, the account answers 429 to everyone', async () => {
    const t = await createTestApp({ limits: { loginFailuresPerAccount: { points: 12, durationS: 3600 } } });
    try {
      const email = uniqueEmail('ceiling');
      await t.signUpAndLogIn(email);
      for (let i = 0; i < 12; i++) expect((await logIn(t, email, WRONG, uniqueIp())).statusCode).toBe(401);
      const owner = await logIn(t, email, STRONG_PASSWORD, uniqueIp());
      expect(owner.statusCode).toBe(429);
      expect(owner.json()).toEqual({ detail: ACCOUNT_LOCKED });

      // An admin's unlock lifts the ceiling too.
      const admin = await t.signUpAndLogIn(uniqueEmail('ceiling-admin'));
      await t.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.user.id).execute();
      const { id } = await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      expect((await t.call('POST', `/api/v1/admin/users/${id}/unlock`, { token: admin.access_token })).statusCode).toBe(200);
      expect((await logIn(t, email, STRONG_PASSWORD, uniqueIp())).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('with a captcha provider', () => {
  /** A stand-in for Cloudflare's siteverify: tokens starting with 'good-' pass. */
  let verifier: Server;
  let verifyUrl: string;
  let t: TestApp;
  let seq = 0;
  const good = () => `good-${(seq += 1)}`;
  beforeAll(async () => {
    verifier = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ success: (new URLSearchParams(body).get('response') ?? '').startsWith('good-') }));
      });
    });
    await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
    verifyUrl = `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`;
    t = await createTestApp({
      env: { CAPTCHA_PROVIDER: 'turnstile', CAPTCHA_SITE_KEY: 'k', CAPTCHA_SECRET: 's', CAPTCHA_VERIFY_URL: verifyUrl },
      limits: { loginFailuresPerAccount: { points: 12, durationS: 3600 } },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => verifier.close(() => resolve()));
  });

  it('checks the captcha before spending any per-account budget: bad captchas never lock an account', async () => {
    const email = uniqueEmail('captcha-first');
    await t.call('POST', '/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD, captcha_token: good() }, ip: uniqueIp() });
    const ip = uniqueIp();
    for (let i = 0; i < 15; i++) expect((await logIn(t, email, WRONG, ip, { captcha_token: 'bad' })).statusCode).toBe(400);
    expect((await logIn(t, email, STRONG_PASSWORD, ip, { captcha_token: good() })).statusCode).toBe(200);
  });

  it('forgot-password and resend spend their per-account budget only with a valid captcha', async () => {
    const email = uniqueEmail('captcha-mail');
    await t.call('POST', '/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD, captcha_token: good() }, ip: uniqueIp() });
    for (let i = 0; i < 6; i++) {
      expect((await t.call('POST', '/api/v1/auth/forgot-password', { body: { email, captcha_token: 'bad' }, ip: uniqueIp() })).statusCode).toBe(400);
      expect((await t.call('POST', '/api/v1/auth/resend-verification', { body: { email, captcha_token: 'bad' }, ip: uniqueIp() })).statusCode).toBe(400);
    }
    expect((await t.call('POST', '/api/v1/auth/forgot-password', { body: { email, captcha_token: good() }, ip: uniqueIp() })).statusCode).toBe(200);
    expect((await t.call('POST', '/api/v1/auth/resend-verification', { body: { email, captcha_token: good() }, ip: uniqueIp() })).statusCode).toBe(200);
  });

  it('past the account-wide ceiling the account asks for a captcha (as every sign-in here does) instead of locking its owner out', async () => {
    const email = uniqueEmail('ceiling-captcha');
    await t.call('POST', '/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD, captcha_token: good() }, ip: uniqueIp() });
    for (let i = 0; i < 14; i++) expect((await logIn(t, email, WRONG, uniqueIp(), { captcha_token: good() })).statusCode).toBe(401);
    expect((await logIn(t, email, STRONG_PASSWORD, uniqueIp(), { captcha_token: good() })).statusCode).toBe(200);
    expect((await logIn(t, email, STRONG_PASSWORD, uniqueIp(), { captcha_token: 'bad' })).statusCode).toBe(400);
  });
});

describe('change password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('allows 5 wrong current passwords per 15 minutes, even in parallel, then 429; the right one still counts after a wait', async () => {
    const { access_token } = await t.signUpAndLogIn(uniqueEmail('change'));
    const change = (current: string) =>
      t.call('POST', '/api/v1/auth/change-password', { token: access_token, body: { current_password: current, new_password: 'Another-Pass-9' }, ip: uniqueIp() });
    const answers = await Promise.all(Array.from({ length: 12 }, () => change(WRONG)));
    const wrong = answers.filter((r) => r.statusCode === 400);
    expect(wrong.length).toBeLessThanOrEqual(5);
    expect(answers.filter((r) => r.statusCode === 429).length).toBe(12 - wrong.length);
    const limited = await change(STRONG_PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits one address like sign-in does', async () => {
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const { access_token } = i % 5 === 0 || !tokens.length ? await newAccount() : { access_token: tokens.at(-1)! };
      statuses.push((await t.call('POST', '/api/v1/auth/change-password', { token: access_token, body: { current_password: WRONG, new_password: 'Another-Pass-9' }, ip })).statusCode);
    }
    expect(statuses.slice(0, 30).every((s) => s === 400)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
  const tokens: string[] = [];
  async function newAccount() {
    const session = await t.signUpAndLogIn(uniqueEmail('change-ip'));
    tokens.push(session.access_token);
    return session;
  }
});
