import { Secret, TOTP, URI } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, createTestApp, manualClock, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { trpcFailure } from '../helpers/trpc-client.js';

/**
 * Two factors with an authenticator app (RFC 6238) and recovery codes, for developers (/api/v1,
 * tRPC) and for a project's end users (/public/api/v1 with X-API-Key). Codes are computed here
 * with the same library at the app's clock, which the tests move by hand.
 */
const clock = manualClock(new Date());
const ADMIN = 'mfa-admin@example.com';
let t: TestApp;
let admin: { access_token: string };
beforeAll(async () => {
  t = await createTestApp({ clock, env: { ADMIN_EMAILS: ADMIN } });
  admin = await t.signUpAndLogIn(ADMIN);
});
afterAll(() => t.close());

const codeFor = (secret: string, at = clock.now()) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });
/** The next 30-second step, so the code of the step before cannot be replayed by accident. */
const nextStep = () => clock.advance(30);

interface Realm {
  prefix: string;
  headers: Record<string, string>;
}
const PLATFORM: Realm = { prefix: '/api/v1', headers: {} };

function client(realm: Realm, ip = uniqueIp()) {
  return {
    post: (path: string, body?: unknown, token?: string) => t.call('POST', `${realm.prefix}${path}`, { body, token, ip, headers: realm.headers }),
    get: (path: string, token?: string) => t.call('GET', `${realm.prefix}${path}`, { token, ip, headers: realm.headers }),
  };
}

/** An account with two factors on: its TOTP secret, recovery codes and the credentials to sign in. */
async function withTwoFactors(realm: Realm, email: string, token: string) {
  const api = client(realm);
  const setup = await api.post('/auth/mfa/totp/setup', undefined, token);
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json();
  const confirm = await api.post('/auth/mfa/totp/confirm', { code: codeFor(secret) }, token);
  expect(confirm.statusCode).toBe(200);
  nextStep();
  return { email, secret, recoveryCodes: confirm.json().recovery_codes as string[] };
}

async function developer(tag: string) {
  const email = uniqueEmail(tag);
  const session = await t.signUpAndLogIn(email);
  return { email, token: session.access_token, id: session.user.id };
}

const logIn = (realm: Realm, email: string, password = STRONG_PASSWORD, ip = uniqueIp()) => client(realm, ip).post('/auth/login', { email, password });
async function challenge(realm: Realm, email: string): Promise<string> {
  const res = await logIn(realm, email);
  expect(res.statusCode).toBe(200);
  return res.json().mfa_token;
}
const verify = (realm: Realm, mfaToken: string, code: string) => client(realm).post('/auth/mfa/verify', { mfa_token: mfaToken, code });
const verifyFrom = (ip: string, mfaToken: string, code: string) => client(PLATFORM, ip).post('/auth/mfa/verify', { mfa_token: mfaToken, code });

describe('setting up an authenticator app', () => {
  it('answers a secret and its otpauth URI (30 s, 6 digits, SHA-1, issuer and e-mail label); nothing is on until a code is confirmed', async () => {
    const dev = await developer('setup');
    const api = client(PLATFORM);
    const setup = await api.post('/auth/mfa/totp/setup', undefined, dev.token);
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_url } = setup.json();
    const totp = URI.parse(otpauth_url) as TOTP;
    expect(totp).toBeInstanceOf(TOTP);
    expect({ issuer: totp.issuer, label: totp.label, period: totp.period, digits: totp.digits, algorithm: totp.algorithm, secret: totp.secret.base32 }).toEqual({
      issuer: 'AuthPlatform',
      label: dev.email,
      period: 30,
      digits: 6,
      algorithm: 'SHA1',
      secret,
    });
    expect((await api.get('/auth/me', dev.token)).json().mfa_enabled).toBe(false);
    // Not confirmed: signing in still needs the password only.
    expect((await logIn(PLATFORM, dev.email)).json().access_token).toBeTruthy();
  });

  it('a wrong code is 400 "Invalid code"; the right one turns two factors on and answers 10 recovery codes, and the owner is mailed', async () => {
    const dev = await developer('confirm');
    const api = client(PLATFORM);
    const { secret } = (await api.post('/auth/mfa/totp/setup', undefined, dev.token)).json();
    const wrong = await api.post('/auth/mfa/totp/confirm', { code: codeFor(secret, new Date(clock.now().getTime() - 10 * 60_000)) }, dev.token);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ detail: 'Invalid code' });
    expect((await api.post('/auth/mfa/totp/confirm', {}, dev.token)).statusCode).toBe(422);

    const before = t.mail.messages.length;
    const confirm = await api.post('/auth/mfa/totp/confirm', { code: codeFor(secret) }, dev.token);
    expect(confirm.statusCode).toBe(200);
    const codes: string[] = confirm.json().recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await api.get('/auth/me', dev.token)).json().mfa_enabled).toBe(true);
    await t.mail.waitFor(dev.email, /Two-factor authentication is on/, { after: before });
    // Already on: a second setup is refused rather than silently replacing the secret.
    expect((await api.post('/auth/mfa/totp/setup', undefined, dev.token)).statusCode).toBe(409);
  });

  it('needs a signed-in account', async () => {
    expect((await client(PLATFORM).post('/auth/mfa/totp/setup')).statusCode).toBe(401);
  });
});

describe('signing in with two factors', () => {
  it('a right password answers the challenge with no tokens and no cookies; a wrong password answers exactly as before', async () => {
    const dev = await developer('challenge');
    await withTwoFactors(PLATFORM, dev.email, dev.token);
    const res = await logIn(PLATFORM, dev.email);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['methods', 'mfa_required', 'mfa_token']);
    expect(res.json()).toMatchObject({ mfa_required: true, methods: ['totp', 'recovery_code'] });
    expect(res.headers['set-cookie']).toBeUndefined();

    const wrong = await logIn(PLATFORM, dev.email, 'Wrong-Password-1');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: 'Incorrect email or password' });
  });

  it('the code finishes the sign-in with tokens and cookies; the same time step is not accepted twice', async () => {
    const dev = await developer('verify');
    const { secret } = await withTwoFactors(PLATFORM, dev.email, dev.token);
    const code = codeFor(secret);
    const ok = await verify(PLATFORM, await challenge(PLATFORM, dev.email), code);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ token_type: 'bearer', user: { email: dev.email, mfa_enabled: true } });
    expect(String(ok.headers['set-cookie'])).toMatch(/access_token=/);
    expect((await client(PLATFORM).get('/auth/me', ok.json().access_token)).statusCode).toBe(200);

    const replay = await verify(PLATFORM, await challenge(PLATFORM, dev.email), code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({ detail: 'Invalid code' });
    nextStep();
    expect((await verify(PLATFORM, await challenge(PLATFORM, dev.email), codeFor(secret))).statusCode).toBe(200);
  });

  it('a wrong code is 400 and a failed login attempt with reason mfa_failed', async () => {
    const dev = await developer('mfa-failed');
    await withTwoFactors(PLATFORM, dev.email, dev.token);
    const res = await verify(PLATFORM, await challenge(PLATFORM, dev.email), '000000');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'Invalid code' });
    const attempts = await t.db.selectFrom('login_attempts').select(['success', 'failure_reason', 'method']).where('email', '=', dev.email).orderBy('created_at', 'desc').execute();
    // The attempt names both factors (monitoring's Method column and the CSV's `method`).
    expect(attempts[0]).toEqual({ success: 0, failure_reason: 'mfa_failed', method: 'password+code' });
  });

  it('a recovery code works once, in any case and with or without its dash', async () => {
    const dev = await developer('recovery');
    const { recoveryCodes } = await withTwoFactors(PLATFORM, dev.email, dev.token);
    const code = recoveryCodes[0]!;
    expect((await verify(PLATFORM, await challenge(PLATFORM, dev.email), code.toUpperCase().replace('-', ' '))).statusCode).toBe(200);
    expect((await verify(PLATFORM, await challenge(PLATFORM, dev.email), code)).statusCode).toBe(400);
    expect((await verify(PLATFORM, await challenge(PLATFORM, dev.email), recoveryCodes[1]!)).statusCode).toBe(200);
  });

  it('the mfa_token works once, lives 5 minutes and dies after 5 wrong codes', async () => {
    const dev = await developer('token-life');
    const { secret } = await withTwoFactors(PLATFORM, dev.email, dev.token);
    const expired = { detail: 'This sign-in has expired. Please sign in again.' };

    const used = await challenge(PLATFORM, dev.email);
    expect((await verify(PLATFORM, used, codeFor(secret))).statusCode).toBe(200);
    nextStep();
    const again = await verify(PLATFORM, used, codeFor(secret));
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual(expired);

    const slow = await challenge(PLATFORM, dev.email);
    clock.advance(5 * 60 + 1);
    expect((await verify(PLATFORM, slow, codeFor(secret))).json()).toEqual(expired);

    const guessed = await challenge(PLATFORM, dev.email);
    for (let i = 0; i < 5; i++) expect((await verify(PLATFORM, guessed, '000000')).statusCode).toBe(400);
    const afterGuesses = await verify(PLATFORM, guessed, codeFor(secret));
    expect(afterGuesses.statusCode).toBe(401);
    expect(afterGuesses.json()).toEqual(expired);
    expect((await verify(PLATFORM, 'not-a-token', codeFor(secret))).statusCode).toBe(401);
  });

  it('wrong codes are limited per account and network across mfa_tokens, so opening new ones does not reset the count', async () => {
    const dev = await developer('code-budget');
    const { secret } = await withTwoFactors(PLATFORM, dev.email, dev.token);
    const strangerIp = uniqueIp();
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      const token = await challenge(PLATFORM, dev.email);
      for (let i = 0; i < 4; i++) statuses.push((await verifyFrom(strangerIp, token, '000000')).statusCode);
    }
    expect(statuses.filter((s) => s === 400)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual([429, 429]);
    const refused = await verifyFrom(strangerIp, await challenge(PLATFORM, dev.email), codeFor(secret));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ detail: 'Too many wrong codes from your network. Try again later.' });
    expect(refused.headers['retry-after']).toBeTruthy();
  });

  it('a stranger who knows the password cannot lock the owner out of the second step from elsewhere', async () => {
    const dev = await developer('code-lockout');
    const { secret } = await withTwoFactors(PLATFORM, dev.email, dev.token);
    const strangerIp = uniqueIp();
    for (let round = 0; round < 3; round++) {
      const token = await challenge(PLATFORM, dev.email);
      for (let i = 0; i < 4; i++) await verifyFrom(strangerIp, token, '000000');
    }
    expect((await verifyFrom(strangerIp, await challenge(PLATFORM, dev.email), '000000')).statusCode).toBe(429);
    const owner = await verifyFrom(uniqueIp(), await challenge(PLATFORM, dev.email), codeFor(secret));
    expect(owner.statusCode).toBe(200);
  });

  it('wrong codes from many networks stop at an account-wide ceiling of 100 a day', async () => {
    const dev = await developer('code-ceiling');
    const { secret } = await withTwoFactors(PLATFORM, dev.email, dev.token);
    // 20 networks, 5 wrong codes each (one mfa_token's worth): 100 guesses, under every network's own budget.
    for (let network = 0; network < 20; network++) {
      const ip = uniqueIp();
      const token = await challenge(PLATFORM, dev.email);
      for (let i = 0; i < 5; i++) expect((await verifyFrom(ip, token, '000000')).statusCode).toBe(400);
    }
    const ceiling = await verifyFrom(uniqueIp(), await challenge(PLATFORM, dev.email), codeFor(secret));
    expect(ceiling.statusCode).toBe(429);
    expect(ceiling.json()).toEqual({ detail: 'Too many wrong codes for this account. Try again later, or use a passkey.' });
  });

  it('over tRPC: logIn answers the challenge without cookies, verifyMfa sets them', async () => {
    const dev = await developer('trpc');
    const { secret } = await withTwoFactors(PLATFORM, dev.email, dev.token);
    const tab = t.trpc({ ip: uniqueIp() });
    const first = await tab.api.auth.logIn.mutate({ email: dev.email, password: STRONG_PASSWORD, captcha_token: '', device_fingerprint: null });
    expect(first).toMatchObject({ mfa_required: true });
    expect(tab.cookies).toEqual({});
    if (!('mfa_required' in first)) throw new Error('expected the second step');
    expect(await trpcFailure(tab.api.auth.verifyMfa.mutate({ mfa_token: first.mfa_token, code: '000000' }))).toMatchObject({ status: 400, message: 'Invalid code' });
    const done = await tab.api.auth.verifyMfa.mutate({ mfa_token: first.mfa_token, code: codeFor(secret) });
    expect(done.user.email).toBe(dev.email);
    expect(tab.cookies.access_token).toBeTruthy();
    expect((await tab.api.auth.me.query()).mfa_enabled).toBe(true);
  });
});

describe('managing two factors', () => {
  it('new recovery codes need the password, and the old set stops working', async () => {
    const dev = await developer('regenerate');
    const { recoveryCodes } = await withTwoFactors(PLATFORM, dev.email, dev.token);
    const api = client(PLATFORM);
    const wrong = await api.post('/auth/mfa/recovery-codes', { password: 'Wrong-Password-1' }, dev.token);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: 'Incorrect password' });
    const fresh = await api.post('/auth/mfa/recovery-codes', { password: STRONG_PASSWORD }, dev.token);
    expect(fresh.statusCode).toBe(200);
    const codes: string[] = fresh.json().recovery_codes;
    expect(codes).toHaveLength(10);
    expect((await verify(PLATFORM, await challenge(PLATFORM, dev.email), recoveryCodes[0]!)).statusCode).toBe(400);
    expect((await verify(PLATFORM, await challenge(PLATFORM, dev.email), codes[0]!)).statusCode).toBe(200);
  });

  it('turning two factors off needs the password and a code (TOTP or recovery); then the password alone signs in', async () => {
    const dev = await developer('disable');
    const { secret, recoveryCodes } = await withTwoFactors(PLATFORM, dev.email, dev.token);
    const api = client(PLATFORM);
    expect((await api.post('/auth/mfa/disable', { password: 'Wrong-Password-1', code: codeFor(secret) }, dev.token)).statusCode).toBe(401);
    expect((await api.post('/auth/mfa/disable', { password: STRONG_PASSWORD, code: '000000' }, dev.token)).json()).toEqual({ detail: 'Invalid code' });
    const before = t.mail.messages.length;
    const off = await api.post('/auth/mfa/disable', { password: STRONG_PASSWORD, code: recoveryCodes[3]! }, dev.token);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ message: 'Two-factor authentication disabled' });
    await t.mail.waitFor(dev.email, /Two-factor authentication is off/, { after: before });
    expect((await api.get('/auth/me', dev.token)).json().mfa_enabled).toBe(false);
    expect((await logIn(PLATFORM, dev.email)).json().access_token).toBeTruthy();
    expect((await api.post('/auth/mfa/disable', { password: STRONG_PASSWORD, code: codeFor(secret) }, dev.token)).statusCode).toBe(400);
  });

  it('an admin resets a developer who lost their factors, and the developer is mailed; other developers cannot', async () => {
    const dev = await developer('lost');
    await withTwoFactors(PLATFORM, dev.email, dev.token);
    const other = await developer('not-admin');
    expect((await t.call('POST', `/api/v1/admin/users/${dev.id}/reset-mfa`, { token: other.token })).statusCode).toBe(403);
    const before = t.mail.messages.length;
    const reset = await t.call('POST', `/api/v1/admin/users/${dev.id}/reset-mfa`, { token: admin.access_token });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toMatchObject({ id: dev.id, mfa_enabled: false });
    await t.mail.waitFor(dev.email, /Two-factor authentication is off/, { after: before });
    expect((await logIn(PLATFORM, dev.email)).json().access_token).toBeTruthy();
    expect((await t.call('POST', '/api/v1/admin/users/nope/reset-mfa', { token: admin.access_token })).statusCode).toBe(404);
  });
});

describe("a project's end users, through the public API", () => {
  async function project(tag: string) {
    const owner = await developer(tag);
    const created = (await t.call('POST', '/api/v1/projects', { token: owner.token, body: { name: `Shop ${tag}`, website_url: 'https://shop.example' } })).json();
    const key = (await t.call('POST', `/api/v1/projects/${created.id}/api-keys`, { token: owner.token, body: { name: 'backend' } })).json();
    const realm: Realm = { prefix: '/public/api/v1', headers: { 'x-api-key': key.secret } };
    return { owner, project: created, realm };
  }

  it('the same flows with an API key: setup (issuer = the project), confirm, challenge, verify; the owner can reset', async () => {
    const { owner, project: shop, realm } = await project('public');
    const email = uniqueEmail('shopper');
    const before = t.mail.messages.length;
    expect((await client(realm).post('/auth/signup', { email, password: STRONG_PASSWORD })).statusCode).toBe(201);
    // Two factors are for a verified address only.
    const link = new URL((await t.mail.waitFor(email, /verify/i, { after: before })).link!);
    expect((await client(realm).post('/auth/verify-email', { token: link.searchParams.get('token') })).statusCode).toBe(200);
    const session = (await logIn(realm, email)).json();
    const setup = (await client(realm).post('/auth/mfa/totp/setup', undefined, session.access_token)).json();
    expect((URI.parse(setup.otpauth_url) as TOTP).issuer).toBe(`Shop public`);
    const codes = (await client(realm).post('/auth/mfa/totp/confirm', { code: codeFor(setup.secret) }, session.access_token)).json().recovery_codes;
    expect(codes).toHaveLength(10);
    nextStep();

    const token = await challenge(realm, email);
    // An mfa_token belongs to its realm: the platform does not know it.
    expect((await verify(PLATFORM, token, codeFor(setup.secret))).statusCode).toBe(401);
    const done = await verify(realm, token, codeFor(setup.secret));
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ token_type: 'bearer', user: { email, mfa_enabled: true } });
    expect(done.headers['set-cookie']).toBeUndefined();

    const endUserId = done.json().user.id;
    const reset = await t.call('POST', `/api/v1/projects/${shop.id}/users/${endUserId}/reset-mfa`, { token: owner.token });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().mfa_enabled).toBe(false);
    // Another developer's project cannot reach this end user.
    const stranger = await project('stranger');
    expect((await t.call('POST', `/api/v1/projects/${stranger.project.id}/users/${endUserId}/reset-mfa`, { token: stranger.owner.token })).statusCode).toBe(404);
  });
});
