import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, VALIDATION } from '../../shared/messages.js';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ACCESS_TOKEN_TTL: '86400', REFRESH_TOKEN_TTL: '604800' } });
});
afterAll(() => t.close());

function cookiesOf(res: { cookies: Array<{ name: string; value: string; httpOnly?: boolean; sameSite?: string; maxAge?: number; path?: string }> }) {
  return Object.fromEntries(res.cookies.map((c) => [c.name, c]));
}

describe('POST /api/v1/auth/login', () => {
  it('answers tokens and the user, sets HttpOnly SameSite cookies with the spec lifetimes, and sends no-store', async () => {
    const email = uniqueEmail();
    await t.signUpAndLogIn(email, { verify: false });
    const res = await t.call('POST', '/api/v1/auth/login', { body: { email: email.toUpperCase(), password: STRONG_PASSWORD, captcha_token: '', device_fingerprint: 'fp-1' }, ip: '198.51.100.40' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type', 'user']);
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 86400 });
    expect(body.user).toMatchObject({ email, first_name: 'Test', last_name: 'User', is_active: true, is_verified: false });
    expect(body.user.last_login).toEqual(expect.any(String));
    expect(body.user).not.toHaveProperty('password_hash');
    const cookies = cookiesOf(res);
    expect(cookies.access_token).toMatchObject({ value: body.access_token, httpOnly: true, sameSite: 'Lax', maxAge: 86400, path: '/' });
    expect(cookies.refresh_token).toMatchObject({ value: body.refresh_token, httpOnly: true, sameSite: 'Lax', maxAge: 604800, path: '/' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers the same 401 for a wrong password and an unknown e-mail', async () => {
    const email = uniqueEmail();
    await t.signUpAndLogIn(email);
    const wrong = await t.call('POST', '/api/v1/auth/login', { body: { email, password: 'Wrong-Password-1' }, ip: '198.51.100.41' });
    const unknown = await t.call('POST', '/api/v1/auth/login', { body: { email: uniqueEmail('nobody'), password: 'Wrong-Password-1' }, ip: '198.51.100.41' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: 'Incorrect email or password' });
    expect(unknown.body).toBe(wrong.body);
  });

  it('spends the same bcrypt work on unknown e-mails as on real ones (no timing oracle)', async () => {
    let compares = 0;
    const original = t.deps.passwords;
    t.deps.passwords = {
      ...original,
      verify: (p, h) => ((compares += 1), original.verify(p, h)),
      verifyAgainstDummy: (p) => ((compares += 1), original.verifyAgainstDummy(p)),
    };
    try {
      await t.call('POST', '/api/v1/auth/login', { body: { email: uniqueEmail('nobody'), password: 'Wrong-Password-1' }, ip: '198.51.100.42' });
      expect(compares).toBe(1);
    } finally {
      t.deps.passwords = original;
    }
  });

  it.each([
    [{ email: 'bad', password: 'x' }, VALIDATION.emailInvalid],
    [{ email: 'a@b.co' }, VALIDATION.passwordRequired],
    [{ email: 'a@b.co', password: '' }, VALIDATION.passwordRequired],
  ])('validates %j', async (body, detail) => {
    const res = await t.call('POST', '/api/v1/auth/login', { body });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ detail });
  });

  it('refuses a deactivated account with 403 after checking the password', async () => {
    const email = uniqueEmail();
    await t.signUpAndLogIn(email);
    await t.db.updateTable('users').set({ is_active: 0 }).where('email', '=', email).execute();
    const res = await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'This account has been deactivated' });
  });

  it('refuses a blocked device with 403', async () => {
    const email = uniqueEmail();
    await t.signUpAndLogIn(email, { fingerprint: 'blocked-fp' });
    await t.db.updateTable('devices').set({ is_blocked: 1 }).where('fingerprint', '=', 'blocked-fp').execute();
    const res = await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD, device_fingerprint: 'blocked-fp' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'This device has been blocked' });
    const other = await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD, device_fingerprint: 'another-fp' } });
    expect(other.statusCode).toBe(200);
  });

  it('writes every attempt to login_attempts with its reason, IP, device and user agent', async () => {
    const email = uniqueEmail();
    const { user } = await t.signUpAndLogIn(email, { ip: '198.51.100.50', fingerprint: 'fp-log' });
    await t.call('POST', '/api/v1/auth/login', { body: { email, password: 'Nope-Nope-1', device_fingerprint: 'fp-log' }, ip: '198.51.100.50', headers: { 'user-agent': 'TestAgent/1.0' } });
    const rows = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', email).orderBy('created_at').execute();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ success: 1, failure_reason: null, user_id: user.id, ip_address: '198.51.100.50', device_fingerprint: 'fp-log' });
    expect(rows[1]).toMatchObject({ success: 0, failure_reason: 'invalid_credentials', user_agent: 'TestAgent/1.0' });
    const ghost = uniqueEmail('ghost');
    await t.call('POST', '/api/v1/auth/login', { body: { email: ghost, password: 'Nope-Nope-1' } });
    const ghostRow = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', ghost).executeTakeFirstOrThrow();
    expect(ghostRow).toMatchObject({ success: 0, failure_reason: 'unknown_email', user_id: null });
  });

  it('throttles an account after 10 failures from one network with 429 and Retry-After, and records it', async () => {
    const email = uniqueEmail();
    await t.signUpAndLogIn(email);
    for (let i = 0; i < 10; i++) {
      const r = await t.call('POST', '/api/v1/auth/login', { body: { email, password: 'Wrong-Pass-1' }, ip: '192.0.2.1' });
      expect(r.statusCode).toBe(401);
    }
    const locked = await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, ip: '192.0.2.1' });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(locked.json()).toEqual({ detail: 'Too many failed sign-in attempts for this account from your network. Try again later, or reset your password.' });
    const last = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', email).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(last.failure_reason).toBe('rate_limited');
  });

  it('limits one address to 30 login attempts a minute across accounts (credential stuffing)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const r = await t.call('POST', '/api/v1/auth/login', { body: { email: uniqueEmail('stuff'), password: 'Wrong-Pass-1' }, ip: '192.0.2.200' });
      statuses.push(r.statusCode);
    }
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('tokens and sessions', () => {
  it('me works with the Bearer token and with the cookie alone', async () => {
    const email = uniqueEmail();
    const { access_token } = await t.signUpAndLogIn(email);
    const bearer = await t.call('GET', '/api/v1/auth/me', { token: access_token });
    expect(bearer.statusCode).toBe(200);
    expect(bearer.json()).toMatchObject({ email, is_verified: true });
    expect(Object.keys(bearer.json()).sort()).toEqual(['company_name', 'created_at', 'email', 'email_notifications', 'first_name', 'id', 'is_active', 'is_verified', 'last_login', 'last_name', 'locale', 'login_notifications', 'mfa_enabled', 'notify_marketing', 'notify_product_updates', 'notify_security_alerts', 'role', 'session_idle_timeout_minutes', 'website_url']);
    const cookie = await t.call('GET', '/api/v1/auth/me', { cookies: { access_token } });
    expect(cookie.statusCode).toBe(200);
  });

  it('me refuses a missing, malformed, tampered or foreign-signed token with 401', async () => {
    const { access_token } = await t.signUpAndLogIn(uniqueEmail());
    expect((await t.call('GET', '/api/v1/auth/me')).json()).toEqual({ detail: 'Not authenticated' });
    for (const token of ['garbage', `${access_token}x`, access_token.replace(/\.[^.]+$/, '.AAAA')]) {
      const res = await t.call('GET', '/api/v1/auth/me', { token });
      expect(res.statusCode).toBe(401);
    }
    const noneAlg = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${access_token.split('.')[1]}.`;
    expect((await t.call('GET', '/api/v1/auth/me', { token: noneAlg })).statusCode).toBe(401);
  });

  it('access tokens are ES256 JWTs with a kid that the JWKS publishes', async () => {
    const { access_token } = await t.signUpAndLogIn(uniqueEmail());
    const header = JSON.parse(Buffer.from(access_token.split('.')[0]!, 'base64url').toString());
    expect(header.alg).toBe('ES256');
    const jwks = (await t.call('GET', '/.well-known/jwks.json')).json();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kid: header.kid, kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
    const { importJWK, jwtVerify } = await import('jose');
    const key = await importJWK(jwks.keys[0], 'ES256');
    const { payload } = await jwtVerify(access_token, key, { issuer: 'http://app.test', audience: 'authplatform' });
    expect(payload.sub).toEqual(expect.any(String));
  });

  it('refresh rotates: the new pair works, the old refresh token is spent, and reusing it revokes the session', async () => {
    const { refresh_token } = await t.signUpAndLogIn(uniqueEmail());
    const first = await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token } });
    expect(first.statusCode).toBe(200);
    const pair = first.json();
    expect(pair).toMatchObject({ token_type: 'bearer', access_token: expect.any(String), refresh_token: expect.any(String) });
    expect(pair.refresh_token).not.toBe(refresh_token);
    expect((await t.call('GET', '/api/v1/auth/me', { token: pair.access_token })).statusCode).toBe(200);

    // Replayed by another client (a stolen token): the whole session ends.
    const reuse = await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token }, ip: '198.51.100.99' });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().detail).toMatch(/already used/);
    expect((await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token: pair.refresh_token } })).statusCode).toBe(401);
    expect((await t.call('GET', '/api/v1/auth/me', { token: pair.access_token })).statusCode).toBe(401);
  });

  it('refresh reads the cookie when the body has no token', async () => {
    const { refresh_token } = await t.signUpAndLogIn(uniqueEmail());
    const res = await t.call('POST', '/api/v1/auth/refresh', { cookies: { refresh_token } });
    expect(res.statusCode).toBe(200);
    expect(cookiesOf(res).refresh_token!.value).toBe(res.json().refresh_token);
  });

  it('parallel refreshes with one token from different clients never yield two live successors', async () => {
    const { refresh_token } = await t.signUpAndLogIn(uniqueEmail());
    const results = await Promise.all(['198.51.100.1', '198.51.100.2', '198.51.100.3'].map((ip) => t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token }, ip })));
    const successors = results.filter((r) => r.statusCode === 200).map((r) => r.json().refresh_token as string);
    const live = [];
    for (const token of successors) {
      if ((await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token: token } })).statusCode === 200) live.push(token);
    }
    expect(live.length).toBeLessThanOrEqual(1);
  });

  it('refuses unknown and missing refresh tokens with 401', async () => {
    expect((await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token: 'nope' } })).json()).toEqual({ detail: 'Invalid refresh token' });
    expect((await t.call('POST', '/api/v1/auth/refresh', { body: {} })).statusCode).toBe(401);
  });

  it('logout revokes the session, clears the cookies, and the access token is refused afterwards', async () => {
    const { access_token, refresh_token } = await t.signUpAndLogIn(uniqueEmail());
    const res = await t.call('POST', '/api/v1/auth/logout', { token: access_token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.loggedOut });
    const cleared = cookiesOf(res);
    expect(cleared.access_token!.value).toBe('');
    expect(cleared.refresh_token!.value).toBe('');
    expect((await t.call('GET', '/api/v1/auth/me', { token: access_token })).statusCode).toBe(401);
    expect((await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token } })).statusCode).toBe(401);
  });

  it('logout with only the refresh cookie still ends that session', async () => {
    const { access_token, refresh_token } = await t.signUpAndLogIn(uniqueEmail());
    expect((await t.call('POST', '/api/v1/auth/logout', { cookies: { refresh_token } })).statusCode).toBe(200);
    expect((await t.call('GET', '/api/v1/auth/me', { token: access_token })).statusCode).toBe(401);
  });

  it('each sign-in is its own session: logging out of one keeps the other', async () => {
    const email = uniqueEmail();
    const a = await t.signUpAndLogIn(email);
    const b = (await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD } })).json();
    await t.call('POST', '/api/v1/auth/logout', { token: a.access_token });
    expect((await t.call('GET', '/api/v1/auth/me', { token: b.access_token })).statusCode).toBe(200);
  });

  it('stores refresh tokens only as SHA-256 hashes', async () => {
    const { refresh_token } = await t.signUpAndLogIn(uniqueEmail());
    const rows = await t.db.selectFrom('refresh_tokens').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === refresh_token)).toBe(false);
    const { createHash } = await import('node:crypto');
    expect(rows.some((r) => r.token_hash === createHash('sha256').update(refresh_token).digest('hex'))).toBe(true);
  });
});

describe('PATCH /api/v1/auth/profile', () => {
  it('updates the names and nothing else', async () => {
    const email = uniqueEmail();
    const { access_token } = await t.signUpAndLogIn(email);
    const res = await t.call('PATCH', '/api/v1/auth/profile', { token: access_token, body: { first_name: '  Grace ', last_name: 'Hopper', email: 'new@example.com', is_verified: false } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ first_name: 'Grace', last_name: 'Hopper', email, is_verified: true });
  });

  it('needs a signed-in caller and valid names', async () => {
    expect((await t.call('PATCH', '/api/v1/auth/profile', { body: { first_name: 'x' } })).statusCode).toBe(401);
    const { access_token } = await t.signUpAndLogIn(uniqueEmail());
    const res = await t.call('PATCH', '/api/v1/auth/profile', { token: access_token, body: { first_name: 'x'.repeat(101) } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ detail: VALIDATION.nameTooLong });
  });
});
