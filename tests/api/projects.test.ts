import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, VALIDATION } from '../../shared/messages.js';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { trpcFailure } from '../helpers/trpc-client.js';

let t: TestApp;
let dev: { access_token: string };
let other: { access_token: string };
beforeAll(async () => {
  t = await createTestApp();
  dev = await t.signUpAndLogIn(uniqueEmail('dev'));
  other = await t.signUpAndLogIn(uniqueEmail('other'));
});
afterAll(() => t.close());

const as = (who: { access_token: string }) => ({ token: who.access_token });

async function createProject(who = dev, body: Record<string, unknown> = { name: 'Shop', website_url: 'https://shop.example' }) {
  const res = await t.call('POST', '/api/v1/projects', { ...as(who), body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function createKey(projectId: string, who = dev) {
  const res = await t.call('POST', `/api/v1/projects/${projectId}/api-keys`, { ...as(who), body: { name: 'backend' } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('projects', () => {
  it('creates with defaults, lists, gets, updates and deletes', async () => {
    const project = await createProject(dev, { name: '  My App  ', description: 'Main app' });
    expect(project).toMatchObject({ name: 'My App', description: 'Main app', environment: 'development', is_active: true, total_users: 0, total_logins: 0, total_signups: 0 });
    expect(project.project_key).toMatch(/^pk_[A-Za-z0-9_-]{22}$/);
    expect(project).not.toHaveProperty('signing_key');
    const list = (await t.call('GET', '/api/v1/projects', as(dev))).json();
    expect(list.projects.map((p: { id: string }) => p.id)).toContain(project.id);
    const updated = await t.call('PATCH', `/api/v1/projects/${project.id}`, { ...as(dev), body: { environment: 'production', is_active: false } });
    expect(updated.json()).toMatchObject({ environment: 'production', is_active: false, name: 'My App' });
    const deleted = await t.call('DELETE', `/api/v1/projects/${project.id}`, as(dev));
    expect(deleted.json()).toEqual({ message: 'Project deleted successfully' });
    expect((await t.call('GET', `/api/v1/projects/${project.id}`, as(dev))).statusCode).toBe(404);
  });

  it('validates with the spec messages', async () => {
    for (const [body, detail] of [
      [{ name: '   ' }, VALIDATION.projectNameRequired],
      [{}, VALIDATION.projectNameRequired],
      [{ name: 'x', website_url: 'nope' }, VALIDATION.urlInvalid],
      [{ name: 'x', environment: 'qa' }, 'Environment must be development, staging or production'],
    ] as const) {
      const res = await t.call('POST', '/api/v1/projects', { ...as(dev), body });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ detail });
    }
  });

  it('needs a verified e-mail to create projects or keys', async () => {
    const unverified = await t.signUpAndLogIn(uniqueEmail('unverified'), { verify: false });
    const res = await t.call('POST', '/api/v1/projects', { ...as(unverified), body: { name: 'x' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Please verify your email first' });
  });

  it('is invisible to every other developer', async () => {
    const project = await createProject();
    for (const [method, url] of [
      ['GET', `/api/v1/projects/${project.id}`],
      ['PATCH', `/api/v1/projects/${project.id}`],
      ['DELETE', `/api/v1/projects/${project.id}`],
      ['GET', `/api/v1/projects/${project.id}/api-keys`],
      ['POST', `/api/v1/projects/${project.id}/api-keys`],
      ['GET', `/api/v1/projects/${project.id}/users`],
      ['GET', `/api/v1/projects/${project.id}/stats`],
      ['GET', `/api/v1/projects/${project.id}/sessions`],
      ['GET', `/api/v1/projects/${project.id}/analytics`],
    ] as const) {
      const res = await t.call(method, url, { ...as(other), body: method === 'GET' || method === 'DELETE' ? undefined : { name: 'x' } });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ detail: 'Project not found' });
    }
    expect((await t.call('GET', '/api/v1/projects', as(other))).json().projects).toEqual([]);
    expect((await t.call('GET', '/api/v1/projects')).statusCode).toBe(401);
  });
});

describe('API keys', () => {
  it('shows the secret once, stores only its hash, lists without it, and revokes at once', async () => {
    const project = await createProject();
    const key = await createKey(project.id);
    expect(key.secret).toMatch(/^sk_test_[A-Za-z0-9_-]{43}$/);
    expect(key.prefix).toBe(key.secret.slice(0, 12));
    const stored = await t.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(stored.key_hash).not.toContain(key.secret);
    const list = (await t.call('GET', `/api/v1/projects/${project.id}/api-keys`, as(dev))).json();
    expect(list.api_keys).toEqual([expect.objectContaining({ id: key.id, name: 'backend', prefix: key.prefix, last_used_at: null, revoked_at: null })]);
    expect(JSON.stringify(list)).not.toContain(key.secret);

    const ok = await t.call('POST', '/public/api/v1/auth/forgot-password', { body: { email: 'a@b.co' }, headers: { 'x-api-key': key.secret } });
    expect(ok.statusCode).toBe(200);
    const revoked = await t.call('DELETE', `/api/v1/projects/${project.id}/api-keys/${key.id}`, as(dev));
    expect(revoked.json().revoked_at).toEqual(expect.any(String));
    const refused = await t.call('POST', '/public/api/v1/auth/forgot-password', { body: { email: 'a@b.co' }, headers: { 'x-api-key': key.secret } });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ detail: 'Invalid API key' });
  });

  it('production projects get sk_live_ keys', async () => {
    const project = await createProject(dev, { name: 'Prod', environment: 'production' });
    expect((await createKey(project.id)).secret).toMatch(/^sk_live_/);
  });
});

describe('public end-user API', () => {
  it('walks the whole life of an end user as a developer backend would', async () => {
    const project = await createProject(dev, { name: 'Walk', website_url: 'https://walk.example/app' });
    const { secret } = await createKey(project.id);
    const api = (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, token?: string) =>
      t.call(method, `/public/api/v1${path}`, { body, token, headers: { 'x-api-key': secret }, ip: uniqueIp() });
    const email = uniqueEmail('enduser');

    const signup = await api('POST', '/auth/signup', { email, password: STRONG_PASSWORD, first_name: 'End' });
    expect(signup.statusCode).toBe(201);
    expect(signup.json()).toEqual({ message: MESSAGES.endUserSignupSuccess });
    const verifyMail = await t.mail.waitFor(email, /verify/i);
    expect(verifyMail.link!.startsWith('https://walk.example/app/verify-email?token=')).toBe(true);
    const verified = await api('POST', '/auth/verify-email', { token: new URL(verifyMail.link!).searchParams.get('token') });
    expect(verified.statusCode).toBe(200);

    const login = await api('POST', '/auth/login', { email, password: STRONG_PASSWORD, device_fingerprint: 'phone-1' });
    expect(login.statusCode).toBe(200);
    const tokens = login.json();
    expect(tokens.user).toMatchObject({ email, is_verified: true, role: 'user' });
    expect(login.headers['set-cookie']).toBeUndefined();

    const profile = await api('GET', '/profile', undefined, tokens.access_token);
    expect(profile.json()).toMatchObject({ email, first_name: 'End' });
    const put = await api('PUT', '/profile', { first_name: 'Ender', last_name: 'Wiggin' }, tokens.access_token);
    expect(put.json()).toMatchObject({ first_name: 'Ender', last_name: 'Wiggin' });

    const refreshed = await api('POST', '/auth/refresh', { refresh_token: tokens.refresh_token });
    expect(refreshed.statusCode).toBe(200);
    const pair = refreshed.json();

    const before = t.mail.messages.length;
    await api('POST', '/auth/forgot-password', { email });
    const resetMail = await t.mail.waitFor(email, /reset/i, { after: before });
    expect(resetMail.link!.startsWith('https://walk.example/app/reset-password?token=')).toBe(true);
    const reset = await api('POST', '/auth/reset-password', { token: new URL(resetMail.link!).searchParams.get('token'), new_password: 'End-User-New-1' });
    expect(reset.statusCode).toBe(200);
    expect((await api('GET', '/profile', undefined, pair.access_token)).statusCode).toBe(401);

    const again = (await api('POST', '/auth/login', { email, password: 'End-User-New-1' })).json();
    const logout = await api('POST', '/auth/logout', { refresh_token: again.refresh_token }, again.access_token);
    expect(logout.statusCode).toBe(200);
    expect((await api('GET', '/profile', undefined, again.access_token)).statusCode).toBe(401);

    const detail = (await t.call('GET', `/api/v1/projects/${project.id}`, as(dev))).json();
    expect(detail).toMatchObject({ total_users: 1, total_signups: 1, total_logins: 2 });
  });

  it('end-user tokens verify offline with jose against the project JWKS, and not against the platform', async () => {
    const project = await createProject();
    const { secret } = await createKey(project.id);
    const email = uniqueEmail('jose');
    await t.call('POST', '/public/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, headers: { 'x-api-key': secret } });
    const { access_token } = (await t.call('POST', '/public/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, headers: { 'x-api-key': secret } })).json();
    const { createLocalJWKSet, jwtVerify } = await import('jose');
    const jwks = (await t.call('GET', `/public/api/v1/projects/${project.project_key}/jwks.json`)).json();
    const { payload } = await jwtVerify(access_token, createLocalJWKSet(jwks), { audience: project.project_key, issuer: `http://app.test/projects/${project.project_key}` });
    expect(payload.sub).toEqual(expect.any(String));
    const platform = (await t.call('GET', '/.well-known/jwks.json')).json();
    await expect(jwtVerify(access_token, createLocalJWKSet(platform))).rejects.toThrow();
    expect((await t.call('GET', '/public/api/v1/projects/pk_nope/jwks.json')).statusCode).toBe(404);
  });

  it('keeps projects apart: same e-mail, separate accounts; tokens refused across projects and by the platform', async () => {
    const a = await createProject(dev, { name: 'A' });
    const b = await createProject(dev, { name: 'B' });
    const keyA = (await createKey(a.id)).secret;
    const keyB = (await createKey(b.id)).secret;
    const email = uniqueEmail('shared');
    for (const key of [keyA, keyB]) {
      expect((await t.call('POST', '/public/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, headers: { 'x-api-key': key } })).statusCode).toBe(201);
    }
    const platformSignup = await t.call('POST', '/api/v1/auth/signup', { body: { email, password: 'Platform-Pass-77' }, ip: uniqueIp() });
    expect(platformSignup.statusCode).toBe(201);
    const rows = await t.db.selectFrom('users').select(['id', 'project_id']).where('email', '=', email).execute();
    expect(rows).toHaveLength(3);

    const inA = (await t.call('POST', '/public/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, headers: { 'x-api-key': keyA } })).json();
    expect((await t.call('GET', '/public/api/v1/profile', { token: inA.access_token, headers: { 'x-api-key': keyB } })).statusCode).toBe(401);
    expect((await t.call('GET', '/api/v1/auth/me', { token: inA.access_token })).statusCode).toBe(401);
    expect((await t.call('POST', '/public/api/v1/auth/refresh', { body: { refresh_token: inA.refresh_token }, headers: { 'x-api-key': keyB } })).statusCode).toBe(401);
    expect((await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token: inA.refresh_token } })).statusCode).toBe(401);
    // A's refresh token still works in A: being refused elsewhere revoked nothing.
    expect((await t.call('POST', '/public/api/v1/auth/refresh', { body: { refresh_token: inA.refresh_token }, headers: { 'x-api-key': keyA } })).statusCode).toBe(200);
    // The platform password of that address is not the end user's.
    expect((await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, ip: uniqueIp() })).statusCode).toBe(401);

    // B's monitoring cannot see or touch A's end users.
    const aUsers = (await t.call('GET', `/api/v1/projects/${a.id}/users`, as(dev))).json();
    expect(aUsers.total).toBe(1);
    const aUserId = aUsers.users[0].id;
    expect((await t.call('PATCH', `/api/v1/projects/${b.id}/users/${aUserId}/toggle-active`, as(dev))).statusCode).toBe(404);
    expect((await t.call('GET', `/api/v1/admin/users/${aUserId}`, as(dev))).statusCode).toBe(403);
  });

  it('refuses missing and wrong keys with 401 and inactive projects with 403', async () => {
    expect((await t.call('POST', '/public/api/v1/auth/login', { body: { email: 'a@b.co', password: 'x' } })).json()).toEqual({ detail: 'Invalid API key' });
    expect((await t.call('POST', '/public/api/v1/auth/login', { body: { email: 'a@b.co', password: 'x' }, headers: { 'x-api-key': 'sk_test_nope' } })).statusCode).toBe(401);
    const project = await createProject();
    const { secret } = await createKey(project.id);
    await t.call('PATCH', `/api/v1/projects/${project.id}`, { ...as(dev), body: { is_active: false } });
    const res = await t.call('POST', '/public/api/v1/auth/login', { body: { email: 'a@b.co', password: 'x' }, headers: { 'x-api-key': secret } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'This project is inactive' });
  });

  it('deleting a project removes its end users, sessions and keys', async () => {
    const project = await createProject();
    const { secret } = await createKey(project.id);
    const email = uniqueEmail('gone');
    await t.call('POST', '/public/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, headers: { 'x-api-key': secret } });
    await t.call('POST', '/public/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, headers: { 'x-api-key': secret } });
    await t.call('DELETE', `/api/v1/projects/${project.id}`, as(dev));
    expect(await t.db.selectFrom('users').selectAll().where('project_id', '=', project.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('login_attempts').selectAll().where('project_id', '=', project.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('api_keys').selectAll().where('project_id', '=', project.id).execute()).toEqual([]);
    expect((await t.call('POST', '/public/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, headers: { 'x-api-key': secret } })).statusCode).toBe(401);
  });
});

describe('per-project monitoring, dashboard and analytics', () => {
  it('shows and acts on the project end users only', async () => {
    const project = await createProject();
    const { secret } = await createKey(project.id);
    const email = uniqueEmail('watched');
    await t.call('POST', '/public/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, headers: { 'x-api-key': secret } });
    const session = (await t.call('POST', '/public/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD, device_fingerprint: 'tablet' }, headers: { 'x-api-key': secret } })).json();
    await t.call('POST', '/public/api/v1/auth/login', { body: { email, password: 'Wrong-Pass-1' }, headers: { 'x-api-key': secret } });

    const stats = (await t.call('GET', `/api/v1/projects/${project.id}/stats`, as(dev))).json();
    expect(stats).toMatchObject({ total_users: 1, successful_logins: 1, failed_logins: 1, total_login_attempts: 2, unique_devices: 1 });
    const attempts = (await t.call('GET', `/api/v1/projects/${project.id}/login-attempts`, as(dev))).json();
    expect(attempts.attempts.every((a: { email: string }) => a.email === email)).toBe(true);
    const devices = (await t.call('GET', `/api/v1/projects/${project.id}/devices`, as(dev))).json();
    expect(devices.devices).toEqual([expect.objectContaining({ device_id: 'tablet', user_email: email })]);
    const sessions = (await t.call('GET', `/api/v1/projects/${project.id}/sessions`, as(dev))).json();
    expect(sessions.total).toBe(1);
    const revoke = await t.call('DELETE', `/api/v1/projects/${project.id}/sessions/${sessions.sessions[0].id}`, as(dev));
    expect(revoke.statusCode).toBe(200);
    expect((await t.call('GET', '/public/api/v1/profile', { token: session.access_token, headers: { 'x-api-key': secret } })).statusCode).toBe(401);
    const block = await t.call('PATCH', `/api/v1/projects/${project.id}/devices/${devices.devices[0].id}/toggle-block`, as(dev));
    expect(block.json().is_blocked).toBe(true);
    const refused = await t.call('POST', '/public/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD, device_fingerprint: 'tablet' }, headers: { 'x-api-key': secret } });
    expect(refused.json()).toEqual({ detail: 'This device has been blocked' });
    // The platform admin view does not include end users.
    const platformUsers = await t.db.selectFrom('users').select('email').where('project_id', 'is', null).execute();
    expect(platformUsers.map((u) => u.email)).not.toContain(email);
  });

  it('dashboard stats count the developer own projects, keys, end users and API requests', async () => {
    const fresh = await t.signUpAndLogIn(uniqueEmail('dash'));
    const empty = (await t.call('GET', '/api/v1/dashboard/stats', as(fresh))).json();
    const today = new Date().toISOString().slice(0, 10);
    const week = Array.from({ length: 7 }, (_, i) => new Date(Date.parse(today) - (6 - i) * 86_400_000).toISOString().slice(0, 10));
    expect(empty).toEqual({
      total_projects: 0,
      active_projects: 0,
      total_api_keys: 0,
      active_api_keys: 0,
      total_project_users: 0,
      total_api_requests_today: 0,
      total_api_requests_month: 0,
      api_requests_last_7_days: week.map((day) => ({ day, requests: 0 })),
    });
    const project = await createProject(fresh);
    await createProject(fresh, { name: 'Second' });
    const key = await createKey(project.id, fresh);
    const second = await createKey(project.id, fresh);
    await t.call('DELETE', `/api/v1/projects/${project.id}/api-keys/${second.id}`, as(fresh));
    for (let i = 0; i < 3; i++) {
      await t.call('POST', '/public/api/v1/auth/signup', { body: { email: uniqueEmail('counted'), password: STRONG_PASSWORD }, headers: { 'x-api-key': key.secret } });
    }
    const stats = (await t.call('GET', '/api/v1/dashboard/stats', as(fresh))).json();
    expect(stats).toMatchObject({ total_projects: 2, active_projects: 2, total_api_keys: 2, active_api_keys: 1, total_project_users: 3, total_api_requests_today: 3, total_api_requests_month: 3 });
    // The week's series for the dashboard chart: one entry per day, today's requests in the last.
    expect(stats.api_requests_last_7_days).toEqual(week.map((day) => ({ day, requests: day === today ? 3 : 0 })));
    const keys = (await t.call('GET', `/api/v1/projects/${project.id}/api-keys`, as(fresh))).json();
    expect(keys.api_keys.find((k: { id: string }) => k.id === key.id)).toMatchObject({ requests_today: 3, last_used_at: expect.any(String) });

    const analytics = (await t.call('GET', `/api/v1/projects/${project.id}/analytics?days=7`, as(fresh))).json();
    expect(analytics.days).toHaveLength(7);
    expect(analytics.days.at(-1)).toMatchObject({ signups: 3, api_requests: 3 });
    expect(analytics.monthly_active_users).toBe(0);
    expect((await t.call('GET', `/api/v1/projects/${project.id}/analytics?days=500`, as(fresh))).statusCode).toBe(422);
  });

  it('the tRPC procedures serve the same projects and keys', async () => {
    const { api } = t.trpc(as(dev));
    const project = await api.projects.create.mutate({ name: 'Via tRPC' });
    expect(project).toMatchObject({ name: 'Via tRPC', environment: 'development' });
    const key = await api.projects.createApiKey.mutate({ id: project.id, name: 'k' });
    expect(key.secret).toMatch(/^sk_test_/);
    expect((await api.projects.list.query()).projects.some((p) => p.id === project.id)).toBe(true);
    expect(await api.projects.monitor.users.query({ id: project.id })).toMatchObject({ users: [], total: 0 });
    const foreign = t.trpc(as(other)).api;
    expect(await trpcFailure(foreign.projects.get.query({ id: project.id }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await trpcFailure(foreign.projects.monitor.stats.query({ id: project.id }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await trpcFailure(api.projects.create.mutate({ name: ' ' }))).toMatchObject({ status: 422, message: VALIDATION.projectNameRequired });
  });
});

describe('end-user address from the developer backend', () => {
  it('records X-End-User-IP and X-End-User-Agent on login attempts and devices, and limits per end user', async () => {
    const project = await createProject();
    const { secret } = await createKey(project.id);
    const email = uniqueEmail('behind');
    await t.call('POST', '/public/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, headers: { 'x-api-key': secret } });
    const headers = { 'x-api-key': secret, 'x-end-user-ip': '79.192.20.30', 'x-end-user-agent': 'EndUserBrowser/1.0' };
    const res = await t.call('POST', '/public/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD, device_fingerprint: 'eu-1' }, headers, ip: '203.0.113.200' });
    expect(res.statusCode).toBe(200);
    const attempt = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(attempt).toMatchObject({ ip_address: '79.192.20.30', user_agent: 'EndUserBrowser/1.0', country_code: 'DE', project_id: project.id });
    const bogus = await t.call('POST', '/public/api/v1/auth/login', { body: { email, password: 'Wrong-Pass-1' }, headers: { ...headers, 'x-end-user-ip': 'not-an-ip' }, ip: '203.0.113.201' });
    expect(bogus.statusCode).toBe(401);
    const last = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', email).where('success', '=', 0).executeTakeFirstOrThrow();
    expect(last.ip_address).toBe('203.0.113.201');
  });
});
