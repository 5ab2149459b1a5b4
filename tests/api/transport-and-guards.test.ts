import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../shared/messages.js';
import { appRouter } from '../../server/trpc/router.js';
import { APP_URL, STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { CORS_ORIGINS: 'https://console.partner.example' } });
});
afterAll(() => t.close());

const trpc = (path: string, options: Parameters<TestApp['call']>[2] = {}) => t.call('POST', `/trpc/${path}`, options);

describe('tRPC transport', () => {
  it('declares an output schema on every procedure, so an answer never carries a field its schema does not name', () => {
    // tRPC keeps its procedures flat at runtime, keyed by dotted path.
    const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { output?: unknown } }>);
    expect(procedures.length).toBeGreaterThan(40);
    expect(procedures.filter(([, procedure]) => procedure._def.output === undefined).map(([name]) => name)).toEqual([]);
  });

  it('logIn sets HttpOnly cookies and keeps the tokens out of the body; me and logOut work from the cookie', async () => {
    const email = uniqueEmail();
    await t.signUpAndLogIn(email);
    const res = await trpc('auth.logIn', { body: { email, password: STRONG_PASSWORD, captcha_token: '', device_fingerprint: 'fp' }, ip: uniqueIp() });
    expect(res.statusCode).toBe(200);
    const data = res.json().result.data;
    expect(Object.keys(data).sort()).toEqual(['expires_in', 'user']);
    expect(res.body).not.toMatch(/access_token|refresh_token/);
    const cookies = Object.fromEntries(res.cookies.map((c) => [c.name, c.value]));
    expect(cookies.access_token).toBeTruthy();

    const me = await t.call('GET', '/trpc/auth.me', { cookies });
    expect(me.json().result.data.email).toBe(email);

    const refreshed = await trpc('auth.refresh', { body: {}, cookies });
    expect(refreshed.statusCode).toBe(200);
    const next = Object.fromEntries(refreshed.cookies.map((c) => [c.name, c.value]));
    expect(next.refresh_token).not.toBe(cookies.refresh_token);

    const out = await trpc('auth.logOut', { cookies: next, body: {} });
    expect(out.json().result.data).toEqual({ message: MESSAGES.loggedOut });
    expect((await t.call('GET', '/trpc/auth.me', { cookies: next })).statusCode).toBe(401);
  });

  it('session answers a visitor without cookies with 200 and no user; a stale cookie is 401 so the client refreshes', async () => {
    const visitor = await t.call('GET', '/trpc/auth.session');
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json().result.data).toEqual({ user: null });

    const email = uniqueEmail();
    await t.signUpAndLogIn(email);
    const login = await trpc('auth.logIn', { body: { email, password: STRONG_PASSWORD }, ip: uniqueIp() });
    const cookies = Object.fromEntries(login.cookies.map((c) => [c.name, c.value]));
    const signedIn = await t.call('GET', '/trpc/auth.session', { cookies });
    expect(signedIn.json().result.data.user).toMatchObject({ email });

    // Only the refresh cookie left (the access cookie expired): refresh, don't report a visitor.
    const stale = await t.call('GET', '/trpc/auth.session', { cookies: { refresh_token: cookies.refresh_token! } });
    expect(stale.statusCode).toBe(401);
    const revoked = await t.call('GET', '/trpc/auth.session', { cookies: { access_token: 'not-a-token' } });
    expect(revoked.statusCode).toBe(401);
  });

  it('reports the same failures as REST, with matching codes and messages', async () => {
    const invalid = await trpc('auth.signUp', { body: { email: 'x', password: STRONG_PASSWORD } });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().error).toMatchObject({ message: 'Please enter a valid email address', data: { code: 'UNPROCESSABLE_CONTENT' } });
    const wrong = await trpc('auth.logIn', { body: { email: uniqueEmail(), password: 'Wrong-Pass-1' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toMatchObject({ message: 'Incorrect email or password', data: { code: 'UNAUTHORIZED' } });
    const signedOut = await t.call('GET', '/trpc/auth.me');
    expect(signedOut.json().error).toMatchObject({ message: 'Not authenticated', data: { code: 'UNAUTHORIZED' } });
    expect(JSON.stringify(signedOut.json())).not.toMatch(/stack|\.ts:/);
  });

  it('signUp, verifyEmail, forgotPassword, resetPassword, resendVerification and profile.update run the same services', async () => {
    const email = uniqueEmail();
    const ip = uniqueIp();
    expect((await trpc('auth.signUp', { body: { email, password: STRONG_PASSWORD }, ip })).json().result.data).toEqual({ message: MESSAGES.signupSuccess });
    const verifyMail = await t.mail.waitFor(email, /verify/i);
    const token = new URL(verifyMail.link!).searchParams.get('token');
    expect((await trpc('auth.verifyEmail', { body: { token } })).json().result.data).toEqual({ message: MESSAGES.emailVerified });
    expect((await trpc('auth.resendVerification', { body: { email }, ip })).statusCode).toBe(200);
    const before = t.mail.messages.length;
    expect((await trpc('auth.forgotPassword', { body: { email, captcha_token: '' }, ip })).statusCode).toBe(200);
    const resetMail = await t.mail.waitFor(email, /reset/i, { after: before });
    const resetToken = new URL(resetMail.link!).searchParams.get('token');
    expect((await trpc('auth.resetPassword', { body: { token: resetToken, new_password: 'Trpc-Reset-Pass-1' } })).json().result.data).toEqual({ message: MESSAGES.passwordResetSuccess });
    const login = await trpc('auth.logIn', { body: { email, password: 'Trpc-Reset-Pass-1' } });
    const cookies = Object.fromEntries(login.cookies.map((c) => [c.name, c.value]));
    const updated = await trpc('profile.update', { body: { first_name: 'T', last_name: 'R' }, cookies });
    expect(updated.json().result.data).toMatchObject({ first_name: 'T', last_name: 'R', email });
    const config = await t.call('GET', '/trpc/captcha.config');
    expect(config.json().result.data).toEqual({ enabled: false, provider: 'none', site_key: '' });
  });
});

describe('guards', () => {
  it('refuses cross-origin state-changing requests, on REST and tRPC', async () => {
    for (const url of ['/api/v1/auth/logout', '/trpc/auth.logOut', '/api/v1/auth/login']) {
      const res = await t.call('POST', url, { body: {}, headers: { origin: 'https://evil.example' } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: 'Cross-origin request refused' });
    }
    const same = await t.call('POST', '/api/v1/auth/logout', { body: {}, headers: { origin: APP_URL } });
    expect(same.statusCode).toBe(200);
    const configured = await t.call('POST', '/api/v1/auth/logout', { body: {}, headers: { origin: 'https://console.partner.example' } });
    expect(configured.statusCode).toBe(200);
  });

  it('refuses text/plain and form bodies, which a cross-site form could send', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await t.call('POST', '/trpc/auth.logOut', { body: 'a=b', headers: { 'content-type': type } });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({ detail: 'Content-Type must be application/json' });
    }
  });

  it('answers malformed JSON with 400 and a huge body with 413, before any hashing', async () => {
    const bad = await t.call('POST', '/api/v1/auth/login', { body: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ detail: 'Malformed JSON body' });
    const huge = await t.call('POST', '/api/v1/auth/signup', { body: { email: 'a@b.co', password: 'A1a'.repeat(40_000) } });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ detail: 'Request body is too large' });
  });

  it('answers CORS preflights only for configured origins, never with a wildcard', async () => {
    const ok = await t.app.inject({ method: 'OPTIONS', url: '/api/v1/auth/me', headers: { origin: 'https://console.partner.example', 'access-control-request-method': 'GET' } });
    expect(ok.headers['access-control-allow-origin']).toBe('https://console.partner.example');
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    const evil = await t.app.inject({ method: 'OPTIONS', url: '/api/v1/auth/me', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sends security headers everywhere', async () => {
    const res = await t.call('GET', '/health');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self';");
    expect(res.headers['content-security-policy']).toContain("frame-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('answers unknown API paths with 404 {detail}', async () => {
    const res = await t.call('GET', '/api/v1/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toMatch(/^Not Found/);
  });
});

describe('GET /health and captcha config', () => {
  it('reports status, database, version and uptime', async () => {
    const res = await t.call('GET', '/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok', version: expect.any(String), uptime_s: expect.any(Number) });
  });

  it('captcha is off by default and an empty token is accepted', async () => {
    expect((await t.call('GET', '/api/v1/captcha/config')).json()).toEqual({ enabled: false, provider: 'none', site_key: '' });
  });
});
