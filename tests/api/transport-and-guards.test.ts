import assert from 'node:assert';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../shared/messages.js';
import { REST_ROUTES } from '../../server/routes.js';
import { appRouter } from '../../server/trpc/router.js';
import { APP_URL, STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { trpcFailure } from '../helpers/trpc-client.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { CORS_ORIGINS: 'https://console.partner.example' } });
});
afterAll(() => t.close());


describe('tRPC transport', () => {
  it('is derived from the declared REST routes: every procedure is one route with its name, none is written by hand', () => {
    const procedures = Object.keys(appRouter._def.procedures as unknown as Record<string, unknown>);
    const named = new Set(REST_ROUTES.flatMap((route) => (route.procedure ? [route.procedure] : [])));
    expect(procedures.filter((path) => !named.has(path.split('.').at(-1)!))).toEqual([]);
    // The public API and the hosted pages stay REST-only.
    expect(REST_ROUTES.filter((route) => route.procedure && route.access.realm !== 'platform').map((route) => route.url)).toEqual([]);
  });

  it('refuses bad input with the same words as the REST route it comes from, and answers a refresh without tokens', async () => {
    const { access_token } = await t.signUpAndLogIn(uniqueEmail('derived'));
    const rest = await t.call('POST', '/api/v1/projects', { token: access_token, body: { name: ' ' } });
    expect(rest.statusCode).toBe(422);
    expect(await trpcFailure(t.trpc({ token: access_token }).api.projects.create.mutate({ name: ' ' }))).toMatchObject({ status: 422, message: rest.json().detail });
    const project = (await t.call('POST', '/api/v1/projects', { token: access_token, body: { name: 'Derived' } })).json();
    const badPage = await t.call('GET', `/api/v1/projects/${project.id}/users?page=0`, { token: access_token });
    expect(badPage.statusCode).toBe(422);
    expect(await trpcFailure(t.trpc({ token: access_token }).api.projects.monitor.users.query({ id: project.id, page: 0 }))).toMatchObject({ status: 422, message: badPage.json().detail });

    const email = uniqueEmail('browser-refresh');
    await t.signUpAndLogIn(email);
    const tab = t.trpc({ ip: uniqueIp() });
    await tab.api.auth.logIn.mutate({ email, password: STRONG_PASSWORD, captcha_token: '', device_fingerprint: null });
    const refreshed = await tab.api.auth.refresh.mutate({});
    expect(Object.keys(refreshed)).toEqual(['expires_in']);
  });

  it('declares an output schema on every procedure, so an answer never carries a field its schema does not name', () => {
    // tRPC keeps its procedures flat at runtime, keyed by dotted path.
    const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { output?: unknown } }>);
    expect(procedures.length).toBeGreaterThan(40);
    expect(procedures.filter(([, procedure]) => procedure._def.output === undefined).map(([name]) => name)).toEqual([]);
  });

  it('logIn sets HttpOnly cookies and keeps the tokens out of the body; me and logOut work from the cookie', async () => {
    const email = uniqueEmail();
    await t.signUpAndLogIn(email);
    const tab = t.trpc({ ip: uniqueIp() });
    const session = await tab.api.auth.logIn.mutate({ email, password: STRONG_PASSWORD, captcha_token: '', device_fingerprint: 'fp' });
    assert(!('mfa_required' in session), 'no second factor on this account');
    expect(Object.keys(session).sort()).toEqual(['expires_in', 'user']);
    expect(JSON.stringify(session)).not.toMatch(/access_token|refresh_token/);
    expect(tab.cookies.access_token).toBeTruthy();
    expect(tab.setCookies.every((cookie) => /; HttpOnly/.test(cookie) && /; SameSite=Lax/.test(cookie))).toBe(true);

    expect((await tab.api.auth.me.query()).email).toBe(email);
    const before = tab.cookies.refresh_token;
    await tab.api.auth.refresh.mutate({});
    expect(tab.cookies.refresh_token).not.toBe(before);

    expect(await tab.api.auth.logOut.mutate({})).toEqual({ message: MESSAGES.loggedOut });
    expect(tab.cookies).toEqual({});
    // The cookies it had are refused now.
    const stale = t.trpc({ cookies: { access_token: session.user.id } });
    expect(await trpcFailure(stale.api.auth.me.query())).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('session answers a visitor without cookies with 200 and no user; a stale cookie is 401 so the client refreshes', async () => {
    expect(await t.trpc().api.auth.session.query()).toEqual({ user: null });

    const email = uniqueEmail();
    await t.signUpAndLogIn(email);
    const tab = t.trpc({ ip: uniqueIp() });
    await tab.api.auth.logIn.mutate({ email, password: STRONG_PASSWORD });
    expect((await tab.api.auth.session.query()).user).toMatchObject({ email });

    // Only the refresh cookie left (the access cookie expired): refresh, don't report a visitor.
    const refreshOnly = t.trpc({ cookies: { refresh_token: tab.cookies.refresh_token! } });
    expect(await trpcFailure(refreshOnly.api.auth.session.query())).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const garbage = t.trpc({ cookies: { access_token: 'not-a-token' } });
    expect(await trpcFailure(garbage.api.auth.session.query())).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('reports the same failures as REST, with matching codes and messages', async () => {
    const { api } = t.trpc();
    expect(await trpcFailure(api.auth.signUp.mutate({ email: 'x', password: STRONG_PASSWORD }))).toEqual({
      status: 422,
      code: 'UNPROCESSABLE_CONTENT',
      message: 'Please enter a valid email address',
    });
    expect(await trpcFailure(api.auth.logIn.mutate({ email: uniqueEmail(), password: 'Wrong-Pass-1' }))).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
      message: 'Incorrect email or password',
    });
    expect(await trpcFailure(api.auth.me.query())).toEqual({ status: 401, code: 'UNAUTHORIZED', message: 'Not authenticated' });
    // Over the wire, an error carries no stack or file names.
    const signedOut = await t.call('GET', '/trpc/auth.me');
    expect(JSON.stringify(signedOut.json())).not.toMatch(/stack|\.ts:/);
  });

  it('signUp, verifyEmail, forgotPassword, resetPassword, resendVerification and profile.update run the same services', async () => {
    const email = uniqueEmail();
    const { api } = t.trpc({ ip: uniqueIp() });
    expect(await api.auth.signUp.mutate({ email, password: STRONG_PASSWORD })).toEqual({ message: MESSAGES.signupSuccess });
    const verifyMail = await t.mail.waitFor(email, /verify/i);
    const token = new URL(verifyMail.link!).searchParams.get('token')!;
    expect(await api.auth.verifyEmail.mutate({ token })).toEqual({ message: MESSAGES.emailVerified });
    expect(await api.auth.resendVerification.mutate({ email })).toEqual({ message: MESSAGES.verificationSent });
    const before = t.mail.messages.length;
    await api.auth.forgotPassword.mutate({ email, captcha_token: '' });
    const resetMail = await t.mail.waitFor(email, /reset/i, { after: before });
    const resetToken = new URL(resetMail.link!).searchParams.get('token')!;
    expect(await api.auth.resetPassword.mutate({ token: resetToken, new_password: 'Trpc-Reset-Pass-1' })).toEqual({ message: MESSAGES.passwordResetSuccess });
    await api.auth.logIn.mutate({ email, password: 'Trpc-Reset-Pass-1' });
    expect(await api.profile.update.mutate({ first_name: 'T', last_name: 'R' })).toMatchObject({ first_name: 'T', last_name: 'R', email });
    expect(await api.captcha.config.query()).toEqual({ enabled: false, provider: 'none', site_key: '' });
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

  it('sends security headers everywhere: the pages helmet\'s, the API\'s answers a policy that allows nothing', async () => {
    const res = await t.call('GET', '/health');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self';");
    expect(res.headers['content-security-policy']).toContain("frame-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['strict-transport-security']).toBeUndefined();

    const api = {
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cross-origin-resource-policy': 'same-origin',
    };
    const signedIn = await t.signUpAndLogIn(uniqueEmail());
    const answers = [
      await t.call('GET', '/api/v1/nope'),
      await t.call('GET', '/api/v1/auth/me'),
      await t.call('GET', '/api/v1/auth/me', { token: signedIn.access_token }),
      await t.call('POST', '/api/v1/auth/login', { body: { email: uniqueEmail(), password: 'wrong-password' } }),
      await t.call('GET', '/public/api/v1/profile'),
      await t.app.inject({ method: 'GET', url: '/trpc/auth.session' }),
    ];
    for (const answer of answers) {
      expect(answer.headers).toMatchObject(api);
      expect(answer.headers['strict-transport-security']).toBeUndefined();
      // Private unless the route says otherwise, errors included.
      expect(answer.headers['cache-control']).toBe('no-store');
    }
    expect(res.headers['cache-control']).toBe('no-store');
    expect((await t.call('GET', '/api/openapi.json')).headers['cache-control']).toBe('public, max-age=300');
    expect((await t.call('GET', '/login')).headers['cache-control']).not.toBe('no-store');
    const hostedApi = await t.call('GET', '/hosted/no-such-project/api/v1/project');
    expect(hostedApi.statusCode).toBe(404);
    expect(hostedApi.headers['cache-control']).toBe('no-store');
    expect(hostedApi.headers['content-security-policy']).toContain("frame-ancestors 'none'");
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

describe('security headers behind HTTPS', () => {
  it('adds Strict-Transport-Security when APP_URL is https', async () => {
    const secure = await createTestApp({ env: { APP_URL: 'https://auth.example.com' } });
    try {
      const res = await secure.app.inject({ method: 'GET', url: '/health' });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      const api = await secure.app.inject({ method: 'GET', url: '/api/v1/auth/me' });
      expect(api.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await secure.close();
    }
  });
});
