import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { trpcFailure } from '../helpers/trpc-client.js';

const ADMIN = 'admin@example.com';
let t: TestApp;
let adminToken: string;
let adminId: string;
let userToken: string;

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: ADMIN } });
  const admin = await t.signUpAndLogIn(ADMIN);
  adminToken = admin.access_token;
  adminId = admin.user.id;
  userToken = (await t.signUpAndLogIn(uniqueEmail())).access_token;
});
afterAll(() => t.close());

const ADMIN_PATHS: Array<['GET' | 'PATCH' | 'DELETE' | 'POST', string]> = [
  ['GET', '/api/v1/admin/stats'],
  ['GET', '/api/v1/admin/users'],
  ['GET', '/api/v1/admin/users/some-id'],
  ['PATCH', '/api/v1/admin/users/some-id/toggle-active'],
  ['POST', '/api/v1/admin/users/some-id/unlock'],
  ['GET', '/api/v1/admin/login-attempts'],
  ['GET', '/api/v1/admin/devices'],
  ['PATCH', '/api/v1/admin/devices/some-id/toggle-block'],
  ['PATCH', '/api/v1/admin/devices/some-id/toggle-trust'],
  ['GET', '/api/v1/admin/sessions'],
  ['DELETE', '/api/v1/admin/sessions/some-id'],
];

describe('who may use the admin API', () => {
  it.each(ADMIN_PATHS)('%s %s: 401 signed out, 403 for a non-admin', async (method, url) => {
    const signedOut = await t.call(method, url);
    expect(signedOut.statusCode).toBe(401);
    const user = await t.call(method, url, { token: userToken });
    expect(user.statusCode).toBe(403);
    expect(user.json()).toEqual({ detail: 'Admin access required' });
  });

  it('admin tRPC procedures refuse non-admins with FORBIDDEN too', async () => {
    const { api } = t.trpc({ token: userToken });
    const forbidden = { status: 403, code: 'FORBIDDEN', message: 'Admin access required' };
    expect(await trpcFailure(api.admin.stats.query())).toEqual(forbidden);
    expect(await trpcFailure(api.admin.users.query())).toEqual(forbidden);
    expect(await trpcFailure(api.admin.sessions.query({ page: 1, per_page: 10 }))).toEqual(forbidden);
    expect(await trpcFailure(api.admin.devices.query())).toEqual(forbidden);
    expect(await trpcFailure(api.admin.loginAttempts.query())).toEqual(forbidden);
    expect(await trpcFailure(api.admin.toggleUserActive.mutate({ id: adminId }))).toEqual(forbidden);
  });

  it('ADMIN_EMAILS accounts are admins', async () => {
    const me = await t.call('GET', '/api/v1/auth/me', { token: adminToken });
    expect(me.json().role).toBe('admin');
  });
});

describe('admin API', () => {
  it('stats are counted from the database', async () => {
    const before = (await t.call('GET', '/api/v1/admin/stats', { token: adminToken })).json();
    const email = uniqueEmail();
    await t.signUpAndLogIn(email, { fingerprint: `fp-stats-${Date.now()}` });
    await t.call('POST', '/api/v1/auth/login', { body: { email, password: 'Wrong-Pass-1' }, ip: uniqueIp() });
    const after = (await t.call('GET', '/api/v1/admin/stats', { token: adminToken })).json();
    expect(Object.keys(after).sort()).toEqual(['active_users', 'blocked_vpn_attempts', 'failed_logins', 'successful_logins', 'total_login_attempts', 'total_users', 'unique_devices', 'verified_users']);
    expect(after.total_users).toBe(before.total_users + 1);
    expect(after.verified_users).toBe(before.verified_users + 1);
    expect(after.successful_logins).toBe(before.successful_logins + 1);
    expect(after.failed_logins).toBe(before.failed_logins + 1);
    expect(after.total_login_attempts).toBe(before.total_login_attempts + 2);
    expect(after.unique_devices).toBe(before.unique_devices + 1);
  });

  it('lists page with total, page and per_page, and refuses bad page values with 422', async () => {
    for (let i = 0; i < 3; i++) await t.signUpAndLogIn(uniqueEmail('page'));
    const first = (await t.call('GET', '/api/v1/admin/users?page=1&per_page=2', { token: adminToken })).json();
    expect(first).toMatchObject({ page: 1, per_page: 2, total: expect.any(Number) });
    expect(first.users).toHaveLength(2);
    const second = (await t.call('GET', '/api/v1/admin/users?page=2&per_page=2', { token: adminToken })).json();
    expect(second.users[0].id).not.toBe(first.users[0].id);
    const defaults = (await t.call('GET', '/api/v1/admin/users', { token: adminToken })).json();
    expect(defaults).toMatchObject({ page: 1, per_page: 10 });
    for (const query of ['page=0', 'page=-1', 'page=abc', 'per_page=0', 'per_page=101', 'per_page=1.5']) {
      const res = await t.call('GET', `/api/v1/admin/users?${query}`, { token: adminToken });
      expect(res.statusCode, query).toBe(422);
      expect(res.json().detail).toMatch(/^(page must be a positive integer|per_page must be between 1 and 100)$/);
    }
  });

  it('login attempts come newest first with the spec fields', async () => {
    const email = uniqueEmail();
    await t.call('POST', '/api/v1/auth/login', { body: { email, password: 'Whatever-1' }, ip: '203.0.113.77' });
    const { attempts, total } = (await t.call('GET', '/api/v1/admin/login-attempts?per_page=5', { token: adminToken })).json();
    expect(total).toBeGreaterThan(0);
    expect(attempts[0]).toMatchObject({ email, ip_address: '203.0.113.77', success: false, failure_reason: 'unknown_email', is_vpn: false, is_proxy: false });
    for (const key of ['id', 'email', 'ip_address', 'is_vpn', 'is_proxy', 'success', 'failure_reason', 'country_code', 'created_at']) expect(attempts[0]).toHaveProperty(key);
    const times = attempts.map((a: { created_at: string }) => a.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('user detail has devices, live sessions and recent attempts; unknown ids are 404', async () => {
    const { user } = await t.signUpAndLogIn(uniqueEmail(), { fingerprint: 'fp-detail' });
    const detail = (await t.call('GET', `/api/v1/admin/users/${user.id}`, { token: adminToken })).json();
    expect(detail.id).toBe(user.id);
    expect(detail.devices).toEqual([expect.objectContaining({ device_id: 'fp-detail', is_blocked: false, is_trusted: false })]);
    expect(detail.sessions).toHaveLength(1);
    expect(detail.login_attempts[0]).toMatchObject({ success: true });
    const missing = await t.call('GET', '/api/v1/admin/users/no-such-user', { token: adminToken });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'User not found' });
  });

  it('deactivating a user kills every session at once; reactivating lets them sign in again', async () => {
    const email = uniqueEmail();
    const victim = await t.signUpAndLogIn(email);
    const second = (await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, ip: uniqueIp() })).json();
    const off = await t.call('PATCH', `/api/v1/admin/users/${victim.user.id}/toggle-active`, { token: adminToken });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ id: victim.user.id, is_active: false });
    expect((await t.call('GET', '/api/v1/auth/me', { token: victim.access_token })).statusCode).toBe(401);
    expect((await t.call('GET', '/api/v1/auth/me', { token: second.access_token })).statusCode).toBe(401);
    expect((await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token: victim.refresh_token } })).statusCode).toBe(401);
    expect((await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, ip: uniqueIp() })).statusCode).toBe(403);
    const on = await t.call('PATCH', `/api/v1/admin/users/${victim.user.id}/toggle-active`, { token: adminToken });
    expect(on.json().is_active).toBe(true);
    expect((await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, ip: uniqueIp() })).statusCode).toBe(200);
  });

  it('an admin cannot deactivate themself', async () => {
    const res = await t.call('PATCH', `/api/v1/admin/users/${adminId}/toggle-active`, { token: adminToken });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'You cannot deactivate your own account' });
  });

  it('blocking a device ends its sessions and refuses it at login; trust toggles', async () => {
    const email = uniqueEmail();
    const fingerprint = `fp-block-${Date.now()}`;
    const victim = await t.signUpAndLogIn(email, { fingerprint });
    const { devices } = (await t.call('GET', '/api/v1/admin/devices?per_page=100', { token: adminToken })).json();
    const device = devices.find((d: { device_id: string }) => d.device_id === fingerprint);
    expect(device).toMatchObject({ user_email: email, is_blocked: false, is_trusted: false, first_seen: expect.any(String), last_seen: expect.any(String) });
    const blocked = await t.call('PATCH', `/api/v1/admin/devices/${device.id}/toggle-block`, { token: adminToken });
    expect(blocked.json()).toMatchObject({ id: device.id, is_blocked: true });
    expect((await t.call('GET', '/api/v1/auth/me', { token: victim.access_token })).statusCode).toBe(401);
    const refused = await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD, device_fingerprint: fingerprint }, ip: uniqueIp() });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: 'This device has been blocked' });
    const trusted = await t.call('PATCH', `/api/v1/admin/devices/${device.id}/toggle-trust`, { token: adminToken });
    expect(trusted.json()).toMatchObject({ is_trusted: true, is_blocked: true });
    expect((await t.call('PATCH', '/api/v1/admin/devices/nope/toggle-block', { token: adminToken })).statusCode).toBe(404);
  });

  it('revoking a session kills its refresh token and its access token at once', async () => {
    const victim = await t.signUpAndLogIn(uniqueEmail());
    const { sessions } = (await t.call('GET', '/api/v1/admin/sessions?per_page=100', { token: adminToken })).json();
    const session = sessions.find((s: { user_id: string }) => s.user_id === victim.user.id);
    expect(session).toMatchObject({ ip_address: expect.any(String), created_at: expect.any(String), last_used_at: expect.any(String), expires_at: expect.any(String) });
    const res = await t.call('DELETE', `/api/v1/admin/sessions/${session.id}`, { token: adminToken });
    expect(res.statusCode).toBe(200);
    expect((await t.call('GET', '/api/v1/auth/me', { token: victim.access_token })).statusCode).toBe(401);
    expect((await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token: victim.refresh_token } })).statusCode).toBe(401);
    const after = (await t.call('GET', '/api/v1/admin/sessions?per_page=100', { token: adminToken })).json();
    expect(after.sessions.some((s: { id: string }) => s.id === session.id)).toBe(false);
    expect((await t.call('DELETE', '/api/v1/admin/sessions/nope', { token: adminToken })).statusCode).toBe(404);
  });

  it('an admin can lift the failed-login throttle of an account', async () => {
    const email = uniqueEmail();
    const { user } = await t.signUpAndLogIn(email);
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) await t.call('POST', '/api/v1/auth/login', { body: { email, password: 'Wrong-Pass-1' }, ip });
    expect((await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, ip })).statusCode).toBe(429);
    expect((await t.call('POST', `/api/v1/admin/users/${user.id}/unlock`, { token: adminToken })).statusCode).toBe(200);
    expect((await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, ip })).statusCode).toBe(200);
  });

  it('the admin tRPC procedures serve the same data', async () => {
    const { api } = t.trpc({ token: adminToken });
    expect(await api.admin.stats.query()).toEqual((await t.call('GET', '/api/v1/admin/stats', { token: adminToken })).json());
    expect(await api.admin.users.query({ page: 1, per_page: 3 })).toMatchObject({ page: 1, per_page: 3 });
    expect(await trpcFailure(api.admin.users.query({ page: 1, per_page: 500 }))).toMatchObject({ status: 422, code: 'UNPROCESSABLE_CONTENT' });
  });
});

describe('new sign-in notice', () => {
  it('mails the owner when a known account signs in from a device it never used, not on the first sign-in', async () => {
    const email = uniqueEmail();
    await t.signUpAndLogIn(email, { fingerprint: 'first-device' });
    await t.mailSettled();
    expect(t.mail.to(email).filter((m) => /new sign-in/i.test(m.subject))).toEqual([]);
    await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD, device_fingerprint: 'first-device' }, ip: uniqueIp() });
    const chromeOnLinux = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD, device_fingerprint: 'second-device' }, ip: '203.0.113.99', headers: { 'user-agent': chromeOnLinux } });
    const mail = await t.mail.waitFor(email, /new sign-in/i);
    expect(mail.text).toContain('203.0.113.99');
    // The device as Settings names it, not the raw user agent.
    expect(mail.text).toContain('Device: Chrome on Linux');
    expect(mail.text).not.toContain('Mozilla/5.0');
    expect(mail.html).toContain('Chrome on Linux');
    expect(mail.html).not.toContain('Mozilla/5.0');
    expect(t.mail.to(email).filter((m) => /new sign-in/i.test(m.subject))).toHaveLength(1);
  });
});

describe('login notification preference', () => {
  it('turning login notifications off stops the new sign-in mail', async () => {
    const email = uniqueEmail();
    const { access_token } = await t.signUpAndLogIn(email, { fingerprint: 'pref-1' });
    const off = await t.call('PATCH', '/api/v1/auth/profile', { token: access_token, body: { login_notifications: false } });
    expect(off.json()).toMatchObject({ login_notifications: false, first_name: 'Test' });
    await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD, device_fingerprint: 'pref-2' }, ip: uniqueIp() });
    await t.mailSettled();
    expect(t.mail.to(email).filter((m) => /new sign-in/i.test(m.subject))).toEqual([]);
  });
});
