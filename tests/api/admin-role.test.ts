import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAdmins, setRoleByEmail } from '../../server/modules/users/users.service.js';
import { formatAdminList } from '../../server/cli/admin-list.js';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { trpcFailure } from '../helpers/trpc-client.js';

const LISTED = 'listed-admin@example.com';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: LISTED } });
});
afterAll(() => t.close());

const FORBIDDEN = { detail: 'Admin access required' };
const ADMIN_PATHS: Array<['GET' | 'PATCH' | 'POST' | 'DELETE', string]> = [
  ['GET', '/api/v1/admin/stats'],
  ['GET', '/api/v1/admin/users'],
  ['GET', '/api/v1/admin/users/x'],
  ['PATCH', '/api/v1/admin/users/x/toggle-active'],
  ['POST', '/api/v1/admin/users/x/unlock'],
  ['GET', '/api/v1/admin/login-attempts'],
  ['GET', '/api/v1/admin/devices'],
  ['PATCH', '/api/v1/admin/devices/x/toggle-block'],
  ['PATCH', '/api/v1/admin/devices/x/toggle-trust'],
  ['GET', '/api/v1/admin/sessions'],
  ['DELETE', '/api/v1/admin/sessions/x'],
];

describe('the admin role takes effect only with a verified e-mail', () => {
  it('someone who signs up with an ADMIN_EMAILS address gets 403 everywhere in the admin API until the address is verified', async () => {
    const ip = uniqueIp();
    expect((await t.call('POST', '/api/v1/auth/signup', { body: { email: LISTED, password: STRONG_PASSWORD }, ip })).statusCode).toBe(201);
    const login = await t.call('POST', '/api/v1/auth/login', { body: { email: LISTED, password: STRONG_PASSWORD }, ip });
    expect(login.statusCode).toBe(200);
    const { access_token, user } = login.json();
    expect(user).toMatchObject({ role: 'admin', is_verified: false });

    for (const [method, url] of ADMIN_PATHS) {
      const res = await t.call(method, url, { token: access_token });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual(FORBIDDEN);
    }
    const { api } = t.trpc({ token: access_token });
    expect(await trpcFailure(api.admin.stats.query())).toMatchObject({ status: 403, message: 'Admin access required' });
    expect(await trpcFailure(api.admin.users.query())).toMatchObject({ status: 403 });
    expect(await trpcFailure(api.admin.revokeSession.mutate({ id: 'x' }))).toMatchObject({ status: 403 });

    // The owner of the address verifies it: now the role counts.
    const token = new URL((await t.mail.waitFor(LISTED, /verify/i)).link!).searchParams.get('token');
    expect((await t.call('POST', '/api/v1/auth/verify-email', { body: { token } })).statusCode).toBe(200);
    const verified = await t.call('POST', '/api/v1/auth/login', { body: { email: LISTED, password: STRONG_PASSWORD }, ip });
    expect((await t.call('GET', '/api/v1/admin/stats', { token: verified.json().access_token })).statusCode).toBe(200);
    expect(await t.trpc({ token: verified.json().access_token }).api.admin.stats.query()).toHaveProperty('total_users');
  });

  it('npm run admin -- promote may promote an unverified account; the role stays inert and list says so', async () => {
    const email = uniqueEmail('promoted');
    const ip = uniqueIp();
    await t.call('POST', '/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, ip });
    expect((await setRoleByEmail(t.deps, email, 'admin')).role).toBe('admin');
    const { access_token } = (await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, ip })).json();
    expect((await t.call('GET', '/api/v1/admin/stats', { token: access_token })).statusCode).toBe(403);

    const listed = formatAdminList(await listAdmins(t.deps), []);
    expect(listed).toContain(`${email} (inactive until the e-mail address is verified)`);
    const verifiedEmail = uniqueEmail('verified-admin');
    await t.signUpAndLogIn(verifiedEmail);
    await setRoleByEmail(t.deps, verifiedEmail, 'admin');
    const again = formatAdminList(await listAdmins(t.deps), ['not-signed-up@example.com']);
    expect(again.split('\n')).toContain(verifiedEmail);
    expect(again).toContain('Listed in ADMIN_EMAILS, not signed up yet: not-signed-up@example.com');
  });
});
