import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectRole } from '../../shared/schemas/teams.js';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { trpcFailure } from '../helpers/trpc-client.js';

/**
 * A page for each user (issue 32): the user's detail (ways in, sessions and devices labelled, login
 * attempts, audit entries about them) and the actions on it, in the admin area (platform admins) and
 * in a project's monitoring (viewers read, admins and owners act), each audited.
 */

const ADMIN_EMAIL = 'page-admin@example.com';
let t: TestApp;

interface Developer {
  email: string;
  access_token: string;
  user: { id: string };
}

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: ADMIN_EMAIL } });
});
afterAll(() => t.close());

async function developer(tag: string, email = uniqueEmail(tag)): Promise<Developer> {
  return { email, ...(await t.signUpAndLogIn(email)) };
}
const as = (who: Developer, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => t.call(method, url, { token: who.access_token, body, ip: uniqueIp() });

async function project(owner: Developer) {
  const created = await as(owner, 'POST', '/api/v1/projects', { name: 'Shop', environment: 'development' });
  expect(created.statusCode, created.body).toBe(201);
  const id: string = created.json().id;
  const key = await as(owner, 'POST', `/api/v1/projects/${id}/api-keys`, { name: 'backend' });
  return { id, secret: key.json().secret as string };
}

async function join(who: Developer, projectId: string, role: ProjectRole, owner: Developer) {
  const before = t.mail.messages.length;
  expect((await as(owner, 'POST', `/api/v1/projects/${projectId}/invitations`, { email: who.email, role })).statusCode).toBe(201);
  const mail = await t.mail.waitFor(who.email, /invited to/i, { after: before });
  const token = new URL(mail.link!).searchParams.get('token');
  expect((await as(who, 'POST', '/api/v1/invitations/accept', { token })).statusCode).toBe(200);
}

let owner: Developer;
let admin: Developer;
let viewer: Developer;
let outsider: Developer;
let shop: { id: string; secret: string };
let other: { id: string; secret: string };
let platformAdmin: Developer;

beforeAll(async () => {
  [owner, admin, viewer, outsider, platformAdmin] = await Promise.all([developer('owner'), developer('team-admin'), developer('viewer'), developer('outsider'), developer('platform-admin', ADMIN_EMAIL)]);
  shop = await project(owner);
  other = await project(outsider);
  await join(admin, shop.id, 'admin', owner);
  await join(viewer, shop.id, 'viewer', owner);
});

const usersUrl = (projectId: string) => `/api/v1/projects/${projectId}/users`;

describe("a project's developer creates end users", () => {
  it('with a password and the address marked verified: the user signs in with it at once; user.created is audited', async () => {
    const email = uniqueEmail('made');
    const created = await as(admin, 'POST', usersUrl(shop.id), { email, password: STRONG_PASSWORD, first_name: 'Ada', email_verified: true });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ email, first_name: 'Ada', is_verified: true, is_active: true });

    const login = await t.call('POST', '/public/api/v1/auth/login', { headers: { 'x-api-key': shop.secret }, body: { email, password: STRONG_PASSWORD }, ip: uniqueIp() });
    expect(login.statusCode, login.body).toBe(200);

    const detail = await as(viewer, 'GET', `${usersUrl(shop.id)}/${created.json().id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const user = detail.json();
    expect(user).toMatchObject({ email, has_password: true, passkeys: 0, identities: [], mfa_enabled: false, mail_bounced_at: null });
    expect(user.sessions).toHaveLength(1);
    expect(user.sessions[0].device_label).toEqual(expect.any(String));
    expect(user.login_attempts[0]).toMatchObject({ success: true, email, method: 'password' });
    expect(user.audit).toEqual([expect.objectContaining({ action: 'user.created', actor_email: admin.email, target_id: user.id, after: { email, has_password: true, is_verified: true } })]);
  });

  it('without a password and unverified: a verification link is mailed; it has no password', async () => {
    const email = uniqueEmail('nopass');
    const created = await as(owner, 'POST', usersUrl(shop.id), { email });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ email, is_verified: false });
    await t.mail.waitFor(email, /verify/i);
    const detail = (await as(owner, 'GET', `${usersUrl(shop.id)}/${created.json().id}`)).json();
    expect(detail.has_password).toBe(false);
  });

  it('refuses a taken address (409), bad input (422) with {detail}, and the same through tRPC', async () => {
    const email = uniqueEmail('twice');
    expect((await as(owner, 'POST', usersUrl(shop.id), { email, email_verified: true })).statusCode).toBe(201);
    const again = await as(owner, 'POST', usersUrl(shop.id), { email: email.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: 'An account with this e-mail address already exists' });

    const badEmail = await as(owner, 'POST', usersUrl(shop.id), { email: 'not-an-address' });
    expect(badEmail.statusCode).toBe(422);
    expect(badEmail.json()).toEqual({ detail: expect.any(String) });
    const weak = await as(owner, 'POST', usersUrl(shop.id), { email: uniqueEmail('weak'), password: 'short' });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().detail).toMatch(/at least 8 characters/);
    const badFlag = await as(owner, 'POST', usersUrl(shop.id), { email: uniqueEmail('flag'), email_verified: 'yes' });
    expect(badFlag.statusCode).toBe(422);
    expect(badFlag.json()).toEqual({ detail: 'email_verified must be true or false' });

    const { api } = t.trpc({ token: owner.access_token });
    const made = await api.projects.monitor.createUser.mutate({ id: shop.id, email: uniqueEmail('trpc'), password: STRONG_PASSWORD, email_verified: true });
    expect(made.is_verified).toBe(true);
    expect(await trpcFailure(api.projects.monitor.createUser.mutate({ id: shop.id, email }))).toMatchObject({ status: 409, code: 'CONFLICT' });
  });

  it('a viewer may read but not create (403); a developer off the team gets 404', async () => {
    const byViewer = await as(viewer, 'POST', usersUrl(shop.id), { email: uniqueEmail('viewer-made') });
    expect(byViewer.statusCode).toBe(403);
    expect(byViewer.json()).toEqual({ detail: expect.any(String) });
    const byOutsider = await as(outsider, 'POST', usersUrl(shop.id), { email: uniqueEmail('outsider-made') });
    expect(byOutsider.statusCode).toBe(404);
  });

  it('the admin area has no create route: platform accounts sign up themselves', async () => {
    expect((await as(platformAdmin, 'POST', '/api/v1/admin/users', { email: uniqueEmail('x') })).statusCode).toBe(404);
  });
});

describe("actions on a project's end user", () => {
  async function endUser(options: { verified?: boolean } = {}) {
    const email = uniqueEmail('end');
    const created = await as(owner, 'POST', usersUrl(shop.id), { email, password: STRONG_PASSWORD, email_verified: options.verified ?? true });
    expect(created.statusCode, created.body).toBe(201);
    return { email, id: created.json().id as string };
  }
  const signIn = async (email: string) =>
    (await t.call('POST', '/public/api/v1/auth/login', { headers: { 'x-api-key': shop.secret }, body: { email, password: STRONG_PASSWORD }, ip: uniqueIp() })).json().access_token as string;
  const profileStatus = async (token: string) => (await t.call('GET', '/public/api/v1/profile', { token, headers: { 'x-api-key': shop.secret } })).statusCode;

  it('sign out everywhere ends every live session at once, audited with the count', async () => {
    const user = await endUser();
    const [first, second] = [await signIn(user.email), await signIn(user.email)];
    expect(await profileStatus(first)).toBe(200);
    const res = await as(admin, 'POST', `${usersUrl(shop.id)}/${user.id}/sign-out-everywhere`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: '2 sessions revoked', revoked: 2 });
    expect(await profileStatus(first)).toBe(401);
    expect(await profileStatus(second)).toBe(401);
    const detail = (await as(viewer, 'GET', `${usersUrl(shop.id)}/${user.id}`)).json();
    expect(detail.sessions).toEqual([]);
    expect(detail.audit[0]).toMatchObject({ action: 'user.signed_out', actor_email: admin.email, after: { sessions_revoked: 2 } });
  });

  it('send a password reset mails the link; resend verification mails an unverified user and refuses a verified one (409)', async () => {
    const user = await endUser();
    const before = t.mail.messages.length;
    const reset = await as(owner, 'POST', `${usersUrl(shop.id)}/${user.id}/send-password-reset`);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toEqual({ message: 'Password reset email sent' });
    const mail = await t.mail.waitFor(user.email, /reset/i, { after: before });
    expect(mail.link).toContain('token=');

    const verified = await as(owner, 'POST', `${usersUrl(shop.id)}/${user.id}/resend-verification`);
    expect(verified.statusCode).toBe(409);
    expect(verified.json()).toEqual({ detail: 'The address is already verified' });

    const unverified = await endUser({ verified: false });
    const sent = await as(owner, 'POST', `${usersUrl(shop.id)}/${unverified.id}/resend-verification`);
    expect(sent.statusCode, sent.body).toBe(200);
    const audit = (await as(owner, 'GET', `${usersUrl(shop.id)}/${unverified.id}`)).json().audit;
    expect(audit.map((entry: { action: string }) => entry.action)).toEqual(['user.verification_sent', 'user.created']);
    const resetAudit = (await as(owner, 'GET', `${usersUrl(shop.id)}/${user.id}`)).json().audit;
    expect(resetAudit[0]).toMatchObject({ action: 'user.password_reset_sent', actor_email: owner.email });
  });

  it('a deactivated user gets no mail (409); activating again works', async () => {
    const user = await endUser();
    expect((await as(owner, 'PATCH', `${usersUrl(shop.id)}/${user.id}/toggle-active`)).json().is_active).toBe(false);
    const refused = await as(owner, 'POST', `${usersUrl(shop.id)}/${user.id}/send-password-reset`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ detail: 'The account is deactivated; activate it first' });
    expect((await as(owner, 'PATCH', `${usersUrl(shop.id)}/${user.id}/toggle-active`)).json().is_active).toBe(true);
  });

  it.each(['resend-verification', 'send-password-reset', 'sign-out-everywhere'])('%s: 403 for a viewer, 404 off the team and for another project\'s user', async (action) => {
    const user = await endUser({ verified: false });
    const byViewer = await as(viewer, 'POST', `${usersUrl(shop.id)}/${user.id}/${action}`);
    expect(byViewer.statusCode).toBe(403);
    expect(byViewer.json()).toEqual({ detail: expect.any(String) });
    expect((await as(outsider, 'POST', `${usersUrl(shop.id)}/${user.id}/${action}`)).statusCode).toBe(404);
    // The outsider's own project does not hold this user.
    const elsewhere = await as(outsider, 'POST', `${usersUrl(other.id)}/${user.id}/${action}`);
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toEqual({ detail: 'User not found' });
  });

  it("another project's user is not found on the detail route; a viewer reads through tRPC too", async () => {
    const user = await endUser();
    const res = await as(outsider, 'GET', `${usersUrl(other.id)}/${user.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'User not found' });
    const { api } = t.trpc({ token: viewer.access_token });
    expect((await api.projects.monitor.user.query({ id: shop.id, user_id: user.id })).email).toBe(user.email);
    expect(await trpcFailure(api.projects.monitor.signOutUserEverywhere.mutate({ id: shop.id, user_id: user.id }))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
  });
});

describe("the admin area's user page", () => {
  it('shows a developer with ways in and audit entries; the actions are audited; a non-admin gets 403', async () => {
    const dev = await developer('dev-on-page');
    const detail = await as(platformAdmin, 'GET', `/api/v1/admin/users/${dev.user.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()).toMatchObject({ email: dev.email, has_password: true, passkeys: 0, identities: [], audit: [] });
    expect(detail.json().sessions[0].device_label).toEqual(expect.any(String));

    const out = await as(platformAdmin, 'POST', `/api/v1/admin/users/${dev.user.id}/sign-out-everywhere`);
    expect(out.statusCode, out.body).toBe(200);
    expect((await t.call('GET', '/api/v1/auth/me', { token: dev.access_token })).statusCode).toBe(401);
    const reset = await as(platformAdmin, 'POST', `/api/v1/admin/users/${dev.user.id}/send-password-reset`);
    expect(reset.statusCode, reset.body).toBe(200);
    const audit = (await as(platformAdmin, 'GET', `/api/v1/admin/users/${dev.user.id}`)).json().audit;
    expect(audit.map((entry: { action: string }) => entry.action)).toEqual(['user.password_reset_sent', 'user.signed_out']);

    for (const action of ['resend-verification', 'send-password-reset', 'sign-out-everywhere']) {
      const refused = await as(owner, 'POST', `/api/v1/admin/users/${dev.user.id}/${action}`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ detail: 'Admin access required' });
    }
    // A project's end user is not a platform account.
    const endUser = (await as(owner, 'POST', usersUrl(shop.id), { email: uniqueEmail('not-platform'), email_verified: true })).json();
    expect((await as(platformAdmin, 'GET', `/api/v1/admin/users/${endUser.id}`)).statusCode).toBe(404);
  });

  it('an admin cannot sign themself out everywhere here (403)', async () => {
    const res = await as(platformAdmin, 'POST', `/api/v1/admin/users/${platformAdmin.user.id}/sign-out-everywhere`);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toMatch(/cannot sign yourself out/);
  });
});
