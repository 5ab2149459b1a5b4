import { createHash, randomBytes } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, STRONG_PASSWORD, createTestApp, manualClock, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { APP_CALLBACK, HostedBrowser, hostedProject } from '../helpers/hosted-browser.js';
import { webhookEventBodySchema } from '../../shared/schemas/webhook-events.js';
import type { WebhookEventType } from '../../shared/schemas/webhooks.js';

/**
 * Organizations of a project's end users, from outside: the project's backend (API key), its team
 * (dashboard REST), the end users themselves (their tokens), and what their access tokens say, verified
 * against the project's JWKS. Runs on SQLite and PostgreSQL.
 */

const clock = manualClock(new Date());
let t: TestApp;

interface Project {
  id: string;
  key: string;
  apiKey: string;
  ownerToken: string;
  ownerEmail?: string;
}

async function newProject(): Promise<Project> {
  const ownerEmail = uniqueEmail('org-owner');
  const owner = await t.signUpAndLogIn(ownerEmail);
  const project = (await t.call('POST', '/api/v1/projects', { token: owner.access_token, body: { name: 'Acme SaaS' } })).json();
  const key = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: owner.access_token, body: { name: 'backend' } })).json();
  return { id: project.id, key: project.project_key, apiKey: key.secret, ownerToken: owner.access_token, ownerEmail };
}

/** The project's backend, with its key. */
function backend(project: Project) {
  const headers = { 'x-api-key': project.apiKey };
  return {
    get: (path: string) => t.call('GET', `/public/api/v1${path}`, { headers }),
    post: (path: string, body: unknown = {}, token?: string) => t.call('POST', `/public/api/v1${path}`, { headers, body, token, ip: uniqueIp() }),
    patch: (path: string, body: unknown) => t.call('PATCH', `/public/api/v1${path}`, { headers, body }),
    put: (path: string, body: unknown, token?: string) => t.call('PUT', `/public/api/v1${path}`, { headers, body, token }),
    delete: (path: string, token?: string) => t.call('DELETE', `/public/api/v1${path}`, { headers, token }),
    getAs: (path: string, token: string) => t.call('GET', `/public/api/v1${path}`, { headers, token }),
  };
}

interface EndUser {
  id: string;
  email: string;
  access_token: string;
  refresh_token: string;
}

async function endUser(project: Project, email = uniqueEmail('member')): Promise<EndUser> {
  const api = backend(project);
  const signup = await api.post('/auth/signup', { email, password: STRONG_PASSWORD });
  expect(signup.statusCode).toBe(201);
  const login = await api.post('/auth/login', { email, password: STRONG_PASSWORD });
  expect(login.statusCode).toBe(200);
  const tokens = login.json();
  return { id: tokens.user.id, email, access_token: tokens.access_token, refresh_token: tokens.refresh_token };
}

async function verifiedClaims(project: Project, token: string): Promise<JWTPayload & Record<string, unknown>> {
  const jwks = (await t.call('GET', `/public/api/v1/projects/${project.key}/jwks.json`)).json();
  const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: `${APP_URL}/projects/${project.key}`, audience: project.key, currentDate: clock.now() });
  return payload as JWTPayload & Record<string, unknown>;
}

async function createOrganization(project: Project, body: Record<string, unknown>) {
  const created = await backend(project).post('/organizations', body);
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as { id: string; slug: string; name: string };
}

async function refresh(project: Project, user: EndUser): Promise<EndUser> {
  const answer = await backend(project).post('/auth/refresh', { refresh_token: user.refresh_token });
  expect(answer.statusCode, answer.body).toBe(200);
  return { ...user, ...answer.json() };
}

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

describe("organizations through the project's API key", () => {
  it('creates, reads, searches, changes and deletes organizations, with slugs unique in the project', async () => {
    const project = await newProject();
    const api = backend(project);
    const acme = await createOrganization(project, { name: 'Acme Inc.', public_metadata: { plan: 'pro' }, private_metadata: { stripe: 'cus_1' } });
    expect(acme).toMatchObject({ name: 'Acme Inc.', slug: 'acme-inc', public_metadata: { plan: 'pro' }, private_metadata: { stripe: 'cus_1' }, members_count: 0 });
    // A second one of the same name gets a free slug; an explicit taken slug is a conflict.
    expect((await createOrganization(project, { name: 'Acme Inc.' })).slug).toBe('acme-inc-2');
    const taken = await api.post('/organizations', { name: 'Other', slug: 'acme-inc' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ detail: 'An organization with this slug already exists' });
    await createOrganization(project, { name: 'Globex', slug: 'globex' });

    expect((await api.get(`/organizations/${acme.id}`)).json()).toMatchObject({ id: acme.id, slug: 'acme-inc' });
    const found = (await api.get('/organizations?q=glob')).json();
    expect(found.total).toBe(1);
    expect(found.organizations[0].slug).toBe('globex');
    expect((await api.get('/organizations?limit=2')).json().organizations).toHaveLength(2);

    const renamed = await api.patch(`/organizations/${acme.id}`, { name: 'Acme Corp', slug: 'acme', public_metadata: { plan: 'enterprise' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Acme Corp', slug: 'acme', public_metadata: { plan: 'enterprise' }, private_metadata: { stripe: 'cus_1' } });
    expect((await api.patch(`/organizations/${acme.id}`, { slug: 'globex' })).statusCode).toBe(409);

    expect((await api.delete(`/organizations/${acme.id}`)).json()).toEqual({ message: 'Organization deleted' });
    const gone = await api.get(`/organizations/${acme.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ detail: 'Organization not found' });
  });

  it('refuses bad input with 422 {detail}, unknown and other projects\' organizations with 404', async () => {
    const project = await newProject();
    const other = await newProject();
    const api = backend(project);
    const theirs = await createOrganization(other, { name: 'Theirs' });

    expect((await api.post('/organizations', { name: '' })).json()).toEqual({ detail: 'name is required' });
    expect((await api.post('/organizations', { name: 'X', slug: 'Not A Slug!' })).statusCode).toBe(422);
    expect((await api.post('/organizations', { name: 'X', logo_url: 'http://insecure.example/logo.png' })).json()).toEqual({ detail: 'logo_url must be an https URL' });
    const big = await api.post('/organizations', { name: 'X', public_metadata: { blob: 'x'.repeat(9000) } });
    expect(big.statusCode).toBe(422);
    expect(big.json()).toEqual({ detail: 'public_metadata must be at most 8192 bytes of JSON' });
    expect((await api.post('/organizations', { name: 'X', public_metadata: [1, 2] })).statusCode).toBe(422);
    expect((await api.get('/organizations?limit=500')).json()).toEqual({ detail: 'limit must be between 1 and 100' });

    for (const [method, path] of [
      ['get', `/organizations/${theirs.id}`],
      ['get', `/organizations/${theirs.id}/members`],
      ['get', `/organizations/${theirs.id}/invitations`],
      ['delete', `/organizations/${theirs.id}`],
      ['get', '/organizations/no-such-id'],
    ] as const) {
      const answer = await api[method](path);
      expect(answer.statusCode, path).toBe(404);
      expect(answer.json()).toEqual({ detail: 'Organization not found' });
    }
    expect((await api.patch(`/organizations/${theirs.id}`, { name: 'Mine now' })).statusCode).toBe(404);
    expect((await backend(other).get(`/organizations/${theirs.id}`)).json().name).toBe('Theirs');
    // Without the key, nothing.
    expect((await t.call('GET', '/public/api/v1/organizations')).statusCode).toBe(401);
  });

  it('adds members with roles, refuses strangers, repeats, unknown roles and users past the limit', async () => {
    const project = await newProject();
    const api = backend(project);
    const org = await createOrganization(project, { name: 'Members Co' });
    const ada = await endUser(project);
    const stranger = await endUser(await newProject());

    const added = await api.post(`/organizations/${org.id}/members`, { user_id: ada.id });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ user_id: ada.id, email: ada.email, role: 'org:member' });
    expect((await api.post(`/organizations/${org.id}/members`, { user_id: ada.id })).statusCode).toBe(409);
    const strangerAnswer = await api.post(`/organizations/${org.id}/members`, { user_id: stranger.id });
    expect(strangerAnswer.statusCode).toBe(404);
    expect(strangerAnswer.json()).toEqual({ detail: 'User not found' });
    const bob = await endUser(project);
    const unknownRole = await api.post(`/organizations/${org.id}/members`, { user_id: bob.id, role: 'org:owner' });
    expect(unknownRole.statusCode).toBe(422);
    expect(unknownRole.json()).toEqual({ detail: "role is not one of the project's roles" });

    expect((await api.patch(`/organizations/${org.id}/members/${ada.id}`, { role: 'org:admin' })).json().role).toBe('org:admin');
    expect((await api.patch(`/organizations/${org.id}/members/${bob.id}`, { role: 'org:admin' })).statusCode).toBe(404);
    expect((await api.get(`/organizations/${org.id}/members`)).json().members.map((m: { user_id: string }) => m.user_id)).toEqual([ada.id]);
    expect((await api.get(`/organizations/${org.id}`)).json().members_count).toBe(1);
    expect((await api.delete(`/organizations/${org.id}/members/${ada.id}`)).json()).toEqual({ message: 'Member removed' });
    expect((await api.delete(`/organizations/${org.id}/members/${ada.id}`)).statusCode).toBe(404);

    // The project's limit of organizations per user.
    const settings = await t.call('PATCH', `/api/v1/projects/${project.id}/organization-settings`, { token: project.ownerToken, body: { max_organizations_per_user: 1 } });
    expect(settings.statusCode).toBe(200);
    const second = await createOrganization(project, { name: 'Second' });
    expect((await api.post(`/organizations/${second.id}/members`, { user_id: bob.id })).statusCode).toBe(201);
    const over = await api.post(`/organizations/${org.id}/members`, { user_id: bob.id });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toEqual({ detail: 'A user may belong to at most 1 organizations here' });
  });
});

describe('invitations', () => {
  it("mails a link in the project's name; the invitee accepts once; other addresses, used and expired links are refused", async () => {
    const project = await newProject();
    const api = backend(project);
    const org = await createOrganization(project, { name: 'Invite Co' });
    const invitee = uniqueEmail('invitee');
    const before = t.mail.messages.length;
    const invited = await api.post(`/organizations/${org.id}/invitations`, { email: invitee.toUpperCase(), role: 'org:admin' });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(invited.json()).toMatchObject({ email: invitee, role: 'org:admin', status: 'pending', inviter_user_id: null });
    const mail = await t.mail.waitFor(invitee, /Invite Co/, { after: before });
    expect(mail.subject).toContain('Acme SaaS');
    const link = new URL(mail.link!);
    expect(link.pathname).toBe(`/hosted/${project.key}/accept-invitation`);
    const token = link.searchParams.get('token')!;

    const preview = await api.post('/invitations/preview', { token });
    expect(preview.json()).toMatchObject({ organization: { id: org.id, name: 'Invite Co' }, email: invitee, role: 'org:admin' });

    const someoneElse = await endUser(project);
    const wrongAddress = await api.post('/invitations/accept', { token }, someoneElse.access_token);
    expect(wrongAddress.statusCode).toBe(400);
    expect(wrongAddress.json()).toEqual({ detail: 'This invitation was sent to another e-mail address' });

    const user = await endUser(project, invitee);
    const accepted = await api.post('/invitations/accept', { token }, user.access_token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ id: org.id, role: 'org:admin', permissions: ['members:manage'] });
    const again = await api.post('/invitations/accept', { token }, user.access_token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ detail: 'This invitation has already been accepted' });
    expect((await api.get(`/organizations/${org.id}/invitations`)).json().invitations[0]).toMatchObject({ status: 'accepted' });

    // An expired link, and a revoked one.
    const late = uniqueEmail('late');
    await api.post(`/organizations/${org.id}/invitations`, { email: late });
    const lateToken = new URL((await t.mail.waitFor(late, /Invite Co/)).link!).searchParams.get('token')!;
    const lateUser = await endUser(project, late);
    clock.advance(8 * 24 * 60 * 60);
    const expired = await api.post('/invitations/accept', { token: lateToken }, (await endUser(project, uniqueEmail('x'))).access_token);
    expect(expired.json()).toEqual({ detail: 'This invitation is invalid or has expired' });
    const lateRefreshed = await api.post('/auth/login', { email: late, password: STRONG_PASSWORD });
    expect((await api.post('/invitations/accept', { token: lateToken }, lateRefreshed.json().access_token)).statusCode).toBe(400);
    expect(lateUser.id).toBeTruthy();

    const revokedAddress = uniqueEmail('revoked');
    const revoked = (await api.post(`/organizations/${org.id}/invitations`, { email: revokedAddress })).json();
    const revokedToken = new URL((await t.mail.waitFor(revokedAddress, /Invite Co/)).link!).searchParams.get('token')!;
    expect((await api.delete(`/organizations/${org.id}/invitations/${revoked.id}`)).json()).toEqual({ message: 'Invitation revoked' });
    expect((await api.post('/invitations/preview', { token: revokedToken })).statusCode).toBe(400);
    expect((await api.delete(`/organizations/${org.id}/invitations/${revoked.id}`)).statusCode).toBe(404);
    // Inviting a member again is a conflict; a token of another project is unknown here.
    expect((await api.post(`/organizations/${org.id}/invitations`, { email: invitee })).statusCode).toBe(409);
    expect((await backend(await newProject()).post('/invitations/preview', { token })).statusCode).toBe(400);
  });
});

describe("the end user's routes", () => {
  it('lists their organizations; only members:manage invites, never above their own permissions; the last admin stays', async () => {
    const project = await newProject();
    const api = backend(project);
    const owner = await t.call('POST', `/api/v1/projects/${project.id}/roles`, {
      token: project.ownerToken,
      body: { key: 'org:manager', name: 'Manager', permissions: ['members:manage', 'invoices:read'] },
    });
    expect(owner.statusCode, owner.body).toBe(201);
    await t.call('POST', `/api/v1/projects/${project.id}/roles`, { token: project.ownerToken, body: { key: 'org:billing', name: 'Billing', permissions: ['invoices:read', 'invoices:write'] } });

    const admin = await endUser(project);
    const manager = await endUser(project);
    const member = await endUser(project);
    const org = await createOrganization(project, { name: 'Team', created_by: admin.id });
    await api.post(`/organizations/${org.id}/members`, { user_id: manager.id, role: 'org:manager' });
    await api.post(`/organizations/${org.id}/members`, { user_id: member.id });

    const mine = (await api.getAs('/me/organizations', manager.access_token)).json();
    expect(mine).toMatchObject({ active_organization_id: null, can_create: false });
    expect(mine.organizations).toEqual([expect.objectContaining({ id: org.id, role: 'org:manager', permissions: ['invoices:read', 'members:manage'] })]);
    const adminView = (await api.getAs('/me/organizations', admin.access_token)).json();
    expect(adminView.organizations[0].permissions).toEqual(['members:manage', 'invoices:read', 'invoices:write']);
    expect((await api.getAs(`/me/organizations/${org.id}/members`, member.access_token)).json().members).toHaveLength(3);

    // The invitation form offers the roles the inviter may give: all to an org:admin, none above a manager's own.
    const offered = async (user: EndUser) => (await api.getAs(`/me/organizations/${org.id}/roles`, user.access_token)).json().roles.map((role: { key: string }) => role.key);
    expect(await offered(admin)).toEqual(['org:admin', 'org:member', 'org:billing', 'org:manager']);
    expect(await offered(manager)).toEqual(['org:member', 'org:manager']);
    const rolesForMember = await api.getAs(`/me/organizations/${org.id}/roles`, member.access_token);
    expect(rolesForMember.statusCode).toBe(403);
    expect(rolesForMember.json()).toEqual({ detail: 'Your role in this organization does not allow this' });

    const byMember = await api.post(`/me/organizations/${org.id}/invitations`, { email: uniqueEmail('x') }, member.access_token);
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json()).toEqual({ detail: 'Your role in this organization does not allow this' });
    expect((await api.post(`/me/organizations/${org.id}/invitations`, { email: uniqueEmail('x'), role: 'org:admin' }, manager.access_token)).statusCode).toBe(403);
    expect((await api.post(`/me/organizations/${org.id}/invitations`, { email: uniqueEmail('x'), role: 'org:billing' }, manager.access_token)).statusCode).toBe(403);
    const byManager = await api.post(`/me/organizations/${org.id}/invitations`, { email: uniqueEmail('x'), role: 'org:member' }, manager.access_token);
    expect(byManager.statusCode).toBe(201);
    expect(byManager.json().inviter_user_id).toBe(manager.id);

    // A non-member learns nothing of the organization.
    const outsider = await endUser(project);
    expect((await api.getAs(`/me/organizations/${org.id}/members`, outsider.access_token)).statusCode).toBe(404);
    expect((await api.getAs(`/me/organizations/${org.id}/roles`, outsider.access_token)).statusCode).toBe(404);
    expect((await api.post(`/me/organizations/${org.id}/invitations`, { email: uniqueEmail('x') }, outsider.access_token)).statusCode).toBe(404);

    // Removing: a member cannot remove others; a manager cannot remove the admin; anyone may leave but the last admin.
    expect((await api.delete(`/me/organizations/${org.id}/members/${manager.id}`, member.access_token)).statusCode).toBe(403);
    expect((await api.delete(`/me/organizations/${org.id}/members/${admin.id}`, manager.access_token)).statusCode).toBe(403);
    const lastAdmin = await api.delete(`/me/organizations/${org.id}/members/${admin.id}`, admin.access_token);
    expect(lastAdmin.statusCode).toBe(409);
    expect(lastAdmin.json()).toEqual({ detail: 'An organization needs at least one org:admin: make someone else an admin first' });
    expect((await api.delete(`/me/organizations/${org.id}/members/${member.id}`, manager.access_token)).json()).toEqual({ message: 'Member removed' });
    expect((await api.delete(`/me/organizations/${org.id}/members/${manager.id}`, manager.access_token)).statusCode).toBe(200);
  });

  it('creates their own organizations only when the project allows it, up to its limit', async () => {
    const project = await newProject();
    const api = backend(project);
    const user = await endUser(project);
    const off = await api.post('/me/organizations', { name: 'Mine' }, user.access_token);
    expect(off.statusCode).toBe(403);
    expect(off.json()).toEqual({ detail: 'This project does not let users create organizations' });

    await t.call('PATCH', `/api/v1/projects/${project.id}/organization-settings`, { token: project.ownerToken, body: { self_service_creation: true, max_organizations_per_user: 1 } });
    expect((await api.getAs('/me/organizations', user.access_token)).json().can_create).toBe(true);
    const created = await api.post('/me/organizations', { name: 'Mine' }, user.access_token);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Mine', slug: 'mine', role: 'org:admin' });
    expect((await api.getAs('/me/organizations', user.access_token)).json().can_create).toBe(false);
    expect((await api.post('/me/organizations', { name: 'Another' }, user.access_token)).statusCode).toBe(409);
    expect((await api.get(`/organizations/${created.json().id}/members`)).json().members[0]).toMatchObject({ user_id: user.id, role: 'org:admin' });
  });
});

describe('tokens', () => {
  it('carry the active organization, its role and permissions, and public metadata; a change shows at the next refresh', async () => {
    const project = await newProject();
    const api = backend(project);
    await t.call('POST', `/api/v1/projects/${project.id}/roles`, { token: project.ownerToken, body: { key: 'org:billing', name: 'Billing', permissions: ['invoices:read'] } });
    let user = await endUser(project);
    const org = await createOrganization(project, { name: 'Claims Co', slug: 'claims' });
    await api.post(`/organizations/${org.id}/members`, { user_id: user.id, role: 'org:billing' });
    await api.patch(`/users/${user.id}/metadata`, { public_metadata: { plan: 'pro' }, private_metadata: { secret: 1 } });

    const before = await verifiedClaims(project, user.access_token);
    expect(before.org_id).toBeUndefined();

    const switched = await api.post('/auth/switch-organization', { organization_id: org.id }, user.access_token);
    expect(switched.statusCode, switched.body).toBe(200);
    user = { ...user, ...switched.json() };
    const claims = await verifiedClaims(project, user.access_token);
    expect(claims).toMatchObject({ sub: user.id, org_id: org.id, org_slug: 'claims', org_role: 'org:billing', org_permissions: ['invoices:read'], public_metadata: { plan: 'pro' } });
    expect(claims.private_metadata).toBeUndefined();
    expect((await api.getAs('/me/organizations', user.access_token)).json().active_organization_id).toBe(org.id);

    // The session stays in the organization across refreshes; a role change shows at the next one.
    await api.patch(`/organizations/${org.id}/members/${user.id}`, { role: 'org:admin' });
    user = await refresh(project, user);
    expect(await verifiedClaims(project, user.access_token)).toMatchObject({ org_id: org.id, org_role: 'org:admin', org_permissions: ['members:manage', 'invoices:read'] });
    await api.patch(`/organizations/${org.id}/members/${user.id}`, { role: 'org:member' });
    user = await refresh(project, user);
    expect(await verifiedClaims(project, user.access_token)).toMatchObject({ org_id: org.id, org_role: 'org:member', org_permissions: [] });

    // Removed: the next token carries no organization.
    await api.delete(`/organizations/${org.id}/members/${user.id}`);
    user = await refresh(project, user);
    const after = await verifiedClaims(project, user.access_token);
    expect(after.org_id).toBeUndefined();
    expect(after.public_metadata).toEqual({ plan: 'pro' });
  });

  it('refuses to switch into an unknown organization or one the user is not in, and switches out with null', async () => {
    const project = await newProject();
    const api = backend(project);
    let user = await endUser(project);
    const mine = await createOrganization(project, { name: 'Mine', created_by: user.id });
    const notMine = await createOrganization(project, { name: 'Not mine' });
    const unknown = await api.post('/auth/switch-organization', { organization_id: 'nope' }, user.access_token);
    expect(unknown.statusCode).toBe(404);
    const foreign = await api.post('/auth/switch-organization', { organization_id: notMine.id }, user.access_token);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ detail: 'You are not a member of this organization' });
    expect((await api.post('/auth/switch-organization', {}, user.access_token)).statusCode).toBe(422);
    expect((await api.post('/auth/switch-organization', { organization_id: mine.id })).statusCode).toBe(401);

    user = { ...user, ...(await api.post('/auth/switch-organization', { organization_id: mine.id }, user.access_token)).json() };
    expect((await verifiedClaims(project, user.access_token)).org_role).toBe('org:admin');
    const out = await api.post('/auth/switch-organization', { organization_id: null }, user.access_token);
    expect(out.statusCode).toBe(200);
    expect((await verifiedClaims(project, out.json().access_token)).org_id).toBeUndefined();
    // The new pair works; the switch's own answer replaced the earlier refresh token.
    expect((await api.post('/auth/refresh', { refresh_token: out.json().refresh_token })).statusCode).toBe(200);
  });

  it('adds the custom claims of a saved template, never over registered claims, and refuses bad templates', async () => {
    const project = await newProject();
    const api = backend(project);
    const save = (custom_claims: unknown) => t.call('PATCH', `/api/v1/projects/${project.id}/organization-settings`, { token: project.ownerToken, body: { custom_claims } });

    for (const [template, detail] of [
      [{ sub: 'someone-else' }, 'custom_claims cannot set sub: it is a registered claim'],
      [{ org_id: '{{ org.id }}' }, 'custom_claims cannot set org_id: it is a registered claim'],
      [{ plan: '{{ user.public_metadata.plan | no_such_filter }}' }, null],
      [{ plan: '{% include "/etc/passwd" %}' }, null],
      [{ plan: '{{ process.env.SECRET }}' }, 'custom_claims.plan: only user and org can be used, not process'],
      [{ plan: 'x'.repeat(5000) }, 'custom_claims must be at most 4096 bytes of JSON'],
    ] as const) {
      const refused = await save(template);
      expect(refused.statusCode, JSON.stringify(template)).toBe(422);
      if (detail) expect(refused.json()).toEqual({ detail });
      else expect(refused.json().detail).toMatch(/^custom_claims\.plan: /);
    }
    const saved = await save({ plan: '{{ user.public_metadata.plan }}', seats: '{{ user.public_metadata.seats }}', tenant: 'org-{{ org.slug | upcase }}', static: ['a', 1] });
    expect(saved.statusCode, saved.body).toBe(200);

    let user = await endUser(project);
    await api.patch(`/users/${user.id}/metadata`, { public_metadata: { plan: 'team', seats: 5 } });
    const org = await createOrganization(project, { name: 'Tenant', slug: 'tenant', created_by: user.id });
    user = { ...user, ...(await api.post('/auth/switch-organization', { organization_id: org.id }, user.access_token)).json() };
    const claims = await verifiedClaims(project, user.access_token);
    expect(claims).toMatchObject({ plan: 'team', seats: 5, tenant: 'org-TENANT', static: ['a', 1], sub: user.id, iss: `${APP_URL}/projects/${project.key}` });

    expect((await t.call('GET', `/api/v1/projects/${project.id}/organization-settings`, { token: project.ownerToken })).json().custom_claims).toMatchObject({ plan: '{{ user.public_metadata.plan }}' });
  });
});

describe("end users' metadata", () => {
  it('is set by the backend, read whole with the key, public in tokens, and unsafe writable by the user', async () => {
    const project = await newProject();
    const api = backend(project);
    let user = await endUser(project);
    const set = await api.patch(`/users/${user.id}/metadata`, { public_metadata: { tier: 'gold' }, private_metadata: { crm_id: 7 } });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ id: user.id, public_metadata: { tier: 'gold' }, private_metadata: { crm_id: 7 }, unsafe_metadata: {} });
    expect((await api.get(`/users/${user.id}`)).json().private_metadata).toEqual({ crm_id: 7 });

    const own = await api.put('/profile', { unsafe_metadata: { theme: 'dark' } }, user.access_token);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ public_metadata: { tier: 'gold' }, unsafe_metadata: { theme: 'dark' } });
    expect(own.json().private_metadata).toBeUndefined();
    expect((await api.getAs('/profile', user.access_token)).body).not.toContain('crm_id');

    user = await refresh(project, user);
    expect((await verifiedClaims(project, user.access_token)).public_metadata).toEqual({ tier: 'gold' });

    expect((await api.patch(`/users/${user.id}/metadata`, { public_metadata: { big: 'x'.repeat(9000) } })).statusCode).toBe(422);
    expect((await api.patch(`/users/${user.id}/metadata`, { public_metadata: 'text' })).statusCode).toBe(422);
    const stranger = await endUser(await newProject());
    expect((await api.get(`/users/${stranger.id}`)).statusCode).toBe(404);
    expect((await api.patch(`/users/${stranger.id}/metadata`, { public_metadata: {} })).statusCode).toBe(404);
  });
});

describe("the project's roles and organizations in the dashboard", () => {
  it('lists built-in and own roles, refuses duplicates, changes to built-ins and deleting a role in use', async () => {
    const project = await newProject();
    const dashboard = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, token = project.ownerToken) =>
      t.call(method, `/api/v1/projects/${project.id}${path}`, { token, body });
    const initial = (await dashboard('GET', '/roles')).json();
    expect(initial.roles.map((role: { key: string }) => role.key)).toEqual(['org:admin', 'org:member']);
    expect(initial.permissions).toEqual(['members:manage']);

    expect((await dashboard('POST', '/roles', { key: 'org:editor', name: 'Editor', permissions: ['docs:write', 'docs:read', 'docs:read'] })).json()).toMatchObject({
      key: 'org:editor',
      permissions: ['docs:read', 'docs:write'],
      built_in: false,
    });
    expect((await dashboard('POST', '/roles', { key: 'org:editor', name: 'Again' })).statusCode).toBe(409);
    expect((await dashboard('POST', '/roles', { key: 'org:admin', name: 'Mine' })).statusCode).toBe(422);
    expect((await dashboard('POST', '/roles', { key: 'Bad Key', name: 'X' })).statusCode).toBe(422);
    expect((await dashboard('POST', '/roles', { key: 'org:x', name: 'X', permissions: ['NOPE'] })).statusCode).toBe(422);
    expect((await dashboard('PATCH', '/roles/org:admin', { name: 'Boss' })).json()).toEqual({ detail: 'Built-in roles cannot be changed or deleted' });
    expect((await dashboard('DELETE', '/roles/org:member')).statusCode).toBe(400);
    expect((await dashboard('PATCH', '/roles/org:editor', { permissions: ['docs:read'] })).json().permissions).toEqual(['docs:read']);
    expect((await dashboard('DELETE', '/roles/org:nope')).statusCode).toBe(404);

    const user = await endUser(project);
    const org = (await dashboard('POST', '/organizations', { name: 'Dash Org' })).json();
    expect((await dashboard('POST', `/organizations/${org.id}/members`, { user_id: user.id, role: 'org:editor' })).statusCode).toBe(201);
    expect((await dashboard('GET', `/users/${user.id}/organizations`)).json()).toEqual({ organizations: [expect.objectContaining({ id: org.id, name: 'Dash Org', role: 'org:editor' })] });
    expect((await dashboard('GET', '/users/no-such-user/organizations')).statusCode).toBe(404);
    const inUse = await dashboard('DELETE', '/roles/org:editor');
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json()).toEqual({ detail: 'Members still hold this role: give them another role first' });
    await dashboard('DELETE', `/organizations/${org.id}/members/${user.id}`);
    expect((await dashboard('DELETE', '/roles/org:editor')).json()).toEqual({ message: 'Role deleted' });

    // Someone else's developer sees none of it.
    const stranger = await t.signUpAndLogIn(uniqueEmail('stranger'));
    expect((await dashboard('GET', '/roles', undefined, stranger.access_token)).statusCode).toBe(404);
    expect((await dashboard('GET', '/organizations', undefined, stranger.access_token)).statusCode).toBe(404);
  });

  it('lets a viewer read but not change, and audits every change', async () => {
    const project = await newProject();
    const viewerEmail = uniqueEmail('viewer');
    const viewer = await t.signUpAndLogIn(viewerEmail);
    await t.call('POST', `/api/v1/projects/${project.id}/invitations`, { token: project.ownerToken, body: { email: viewerEmail, role: 'viewer' } });
    const invitation = await t.mail.waitFor(viewerEmail, /invited/i);
    const accepted = await t.call('POST', '/api/v1/invitations/accept', { token: viewer.access_token, body: { token: new URL(invitation.link!).searchParams.get('token') } });
    expect(accepted.statusCode, accepted.body).toBe(200);

    const org = await createOrganization(project, { name: 'Audited' });
    expect((await t.call('GET', `/api/v1/projects/${project.id}/organizations`, { token: viewer.access_token })).json().total).toBe(1);
    expect((await t.call('POST', `/api/v1/projects/${project.id}/organizations`, { token: viewer.access_token, body: { name: 'No' } })).statusCode).toBe(403);
    expect((await t.call('POST', `/api/v1/projects/${project.id}/roles`, { token: viewer.access_token, body: { key: 'org:x', name: 'X' } })).statusCode).toBe(403);

    await t.call('PATCH', `/api/v1/projects/${project.id}/organizations/${org.id}`, { token: project.ownerToken, body: { name: 'Audited Corp' } });
    const audit = (await t.call('GET', `/api/v1/projects/${project.id}/audit-log`, { token: project.ownerToken })).json();
    const actions = audit.entries.map((entry: { action: string }) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['organization.created', 'organization.updated']));
    const created = audit.entries.find((entry: { action: string }) => entry.action === 'organization.created');
    expect(created).toMatchObject({ actor_email: 'API key', target_id: org.id });
  });
});

describe('webhooks', () => {
  it('sends organization, membership and invitation events in the transaction of each change', async () => {
    const project = await newProject();
    const api = backend(project);
    const hook = await t.call('POST', `/api/v1/projects/${project.id}/webhooks`, {
      token: project.ownerToken,
      body: {
        url: 'https://hooks.example/organizations',
        event_types: [
          'organization.created',
          'organization.updated',
          'organization.deleted',
          'organization_membership.created',
          'organization_membership.updated',
          'organization_membership.deleted',
          'organization_invitation.created',
          'organization_invitation.accepted',
        ],
      },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const user = await endUser(project);
    const org = await createOrganization(project, { name: 'Hooked', private_metadata: { never: 'sent' } });
    await api.patch(`/organizations/${org.id}`, { name: 'Hooked Inc' });
    await api.post(`/organizations/${org.id}/members`, { user_id: user.id });
    await api.patch(`/organizations/${org.id}/members/${user.id}`, { role: 'org:admin' });
    await api.delete(`/organizations/${org.id}/members/${user.id}`);
    const email = uniqueEmail('hooked');
    await api.post(`/organizations/${org.id}/invitations`, { email });
    const token = new URL((await t.mail.waitFor(email, /Hooked/)).link!).searchParams.get('token')!;
    const invitee = await endUser(project, email);
    expect((await api.post('/invitations/accept', { token }, invitee.access_token)).statusCode).toBe(200);
    await api.delete(`/organizations/${org.id}`);

    // The test's clock stands still, so the events are compared as a set (each change made exactly its own).
    const events = await t.db.selectFrom('webhook_events').select(['type', 'payload']).where('project_id', '=', project.id).execute();
    expect(events.map((event) => event.type).sort()).toEqual([
      'organization.created',
      'organization.updated',
      'organization_membership.created',
      'organization_membership.updated',
      'organization_membership.deleted',
      'organization_invitation.created',
      'organization_invitation.accepted',
      'organization_membership.created',
      'organization.deleted',
    ].sort());
    expect(events.map((event) => event.payload).join('')).not.toContain('never');
    // Each body is as the event catalogue describes it.
    for (const event of events) expect(webhookEventBodySchema(event.type as WebhookEventType).safeParse(JSON.parse(event.payload)).error, event.payload).toBeUndefined();
    const added = events.map((event) => JSON.parse(event.payload)).filter((event) => event.type === 'organization_membership.created');
    expect(added.map((event) => event.data)).toContainEqual({ organization: { id: org.id, slug: 'hooked' }, user_id: user.id, role: 'org:member' });
  });
});

describe('the OpenID Connect provider', () => {
  it('lists memberships for scope organizations, starts the session in the organization asked for, and refuses one the user is not in', async () => {
    const project = await hostedProject(t);
    const apiKey = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: project.ownerToken, body: { name: 'backend' } })).json().secret;
    const headers = { 'x-api-key': apiKey };
    const email = uniqueEmail('oidc-member');
    expect((await t.call('POST', '/public/api/v1/auth/signup', { headers, body: { email, password: STRONG_PASSWORD } })).statusCode).toBe(201);
    const user = await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const orgAnswer = await t.call('POST', '/public/api/v1/organizations', { headers, body: { name: 'OIDC Org', slug: 'oidc-org', created_by: user.id } });
    const org = orgAnswer.json();
    const other = (await t.call('POST', '/public/api/v1/organizations', { headers, body: { name: 'Elsewhere' } })).json();

    const browser = new HostedBrowser(t, project);
    expect((await browser.logIn(email)).statusCode).toBe(200);
    const authorize = async (organization: string) => {
      const verifier = randomBytes(32).toString('base64url');
      const query = new URLSearchParams({
        client_id: project.key,
        redirect_uri: APP_CALLBACK,
        response_type: 'code',
        scope: 'openid email organizations',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        state: 'xyz',
        organization,
      });
      const answer = await browser.request('GET', `/hosted/${project.key}/authorize?${query}`);
      return { location: new URL(answer.headers.location as string), verifier };
    };

    const refused = await authorize(other.id);
    expect(refused.location.searchParams.get('error')).toBe('access_denied');
    expect(refused.location.searchParams.get('code')).toBeNull();

    const { location, verifier } = await authorize('oidc-org');
    const code = location.searchParams.get('code');
    expect(code, location.toString()).toBeTruthy();
    const form = new URLSearchParams({ grant_type: 'authorization_code', client_id: project.key, code: code!, redirect_uri: APP_CALLBACK, code_verifier: verifier });
    const tokens = (await t.call('POST', `/projects/${project.key}/oauth/token`, { body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })).json();
    const access = await verifiedClaims({ id: project.id, key: project.key, apiKey, ownerToken: project.ownerToken }, tokens.access_token);
    expect(access).toMatchObject({ org_id: org.id, org_slug: 'oidc-org', org_role: 'org:admin', public_metadata: {} });
    const idToken = JSON.parse(Buffer.from((tokens.id_token as string).split('.')[1]!, 'base64url').toString('utf8'));
    expect(idToken.organizations).toEqual([{ id: org.id, slug: 'oidc-org', name: 'OIDC Org', role: 'org:admin' }]);
    const info = (await t.call('GET', `/projects/${project.key}/oauth/userinfo`, { token: tokens.access_token })).json();
    expect(info.organizations).toEqual([{ id: org.id, slug: 'oidc-org', name: 'OIDC Org', role: 'org:admin' }]);
    expect(info.public_metadata).toEqual({});

    // The hosted pages' own routes: the same list, and a switch that sets the session cookies anew.
    const listed = await browser.request('GET', `/hosted/${project.key}/api/v1/me/organizations`);
    expect(listed.json().organizations.map((o: { slug: string }) => o.slug)).toEqual(['oidc-org']);
    const cookieBefore = browser.cookies.get('hosted_access_token');
    const switched = await browser.api('/auth/switch-organization', { organization_id: org.id });
    expect(switched.statusCode).toBe(200);
    expect(browser.cookies.get('hosted_access_token')).not.toBe(cookieBefore);
    expect((await browser.request('GET', `/hosted/${project.key}/api/v1/me/organizations`)).json().active_organization_id).toBe(org.id);
  });
});

describe('the last of issue 28', () => {
  it("a deleted organization is out of the session's tokens at the next refresh, and switching back into it is 404", async () => {
    const project = await newProject();
    const api = backend(project);
    let user = await endUser(project);
    const org = await createOrganization(project, { name: 'Short Lived', slug: 'short-lived' });
    await api.post(`/organizations/${org.id}/members`, { user_id: user.id, role: 'org:member' });
    user = { ...user, ...(await api.post('/auth/switch-organization', { organization_id: org.id }, user.access_token)).json() };
    expect(await verifiedClaims(project, user.access_token)).toMatchObject({ org_id: org.id, org_slug: 'short-lived' });

    expect((await api.delete(`/organizations/${org.id}`)).statusCode).toBe(200);
    user = await refresh(project, user);
    const claims = await verifiedClaims(project, user.access_token);
    expect(claims.org_id).toBeUndefined();
    expect(claims.org_slug).toBeUndefined();
    expect((await api.getAs('/me/organizations', user.access_token)).json()).toMatchObject({ organizations: [], active_organization_id: null });
    expect((await api.post('/auth/switch-organization', { organization_id: org.id }, user.access_token)).statusCode).toBe(404);
  });

  it('the hosted pages\' access token carries the active organization too', async () => {
    const project = await hostedProject(t);
    const apiKey = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: project.ownerToken, body: { name: 'backend' } })).json().secret;
    const headers = { 'x-api-key': apiKey };
    const email = uniqueEmail('hosted-member');
    expect((await t.call('POST', '/public/api/v1/auth/signup', { headers, body: { email, password: STRONG_PASSWORD } })).statusCode).toBe(201);
    const user = await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const org = (await t.call('POST', '/public/api/v1/organizations', { headers, body: { name: 'Hosted Org', slug: 'hosted-org', created_by: user.id } })).json();

    const browser = new HostedBrowser(t, project);
    expect((await browser.logIn(email)).statusCode).toBe(200);
    const switched = await browser.api('/auth/switch-organization', { organization_id: org.id });
    expect(switched.statusCode, switched.body).toBe(200);
    const cookie = browser.cookies.get('hosted_access_token')!;
    const claims = await verifiedClaims({ id: project.id, key: project.key, apiKey, ownerToken: project.ownerToken }, cookie);
    expect(claims).toMatchObject({ sub: user.id, org_id: org.id, org_slug: 'hosted-org', org_role: 'org:admin', org_permissions: ['members:manage'], public_metadata: {} });
  });

  it('audits every change to organizations, members, invitations, roles, their settings and metadata, with who did it', async () => {
    const project = await newProject();
    const api = backend(project);
    const dashboard = (method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) =>
      t.call(method, `/api/v1/projects/${project.id}${path}`, { token: project.ownerToken, ...(body !== undefined && { body }) });
    const ok = (answer: { statusCode: number; body: string }) => expect(answer.statusCode, answer.body).toBeLessThan(300);

    const org = await createOrganization(project, { name: 'Every Change' });
    ok(await api.patch(`/organizations/${org.id}`, { name: 'Every Change Inc.' }));
    const member = await endUser(project);
    ok(await api.post(`/organizations/${org.id}/members`, { user_id: member.id, role: 'org:member' }));
    ok(await api.patch(`/organizations/${org.id}/members/${member.id}`, { role: 'org:admin' }));
    ok(await api.delete(`/organizations/${org.id}/members/${member.id}`));
    const revoked = await api.post(`/organizations/${org.id}/invitations`, { email: uniqueEmail('revoked'), role: 'org:member' });
    ok(revoked);
    ok(await api.delete(`/organizations/${org.id}/invitations/${revoked.json().id}`));
    const invitee = uniqueEmail('joins');
    const before = t.mail.messages.length;
    ok(await api.post(`/organizations/${org.id}/invitations`, { email: invitee, role: 'org:member' }));
    const token = new URL((await t.mail.waitFor(invitee, /Every Change/, { after: before })).link!).searchParams.get('token');
    ok(await api.post('/invitations/accept', { token }, (await endUser(project, invitee)).access_token));
    ok(await dashboard('POST', '/roles', { key: 'org:auditor', name: 'Auditor', permissions: ['audit:read'] }));
    ok(await dashboard('PATCH', '/roles/org:auditor', { name: 'Auditors' }));
    ok(await dashboard('DELETE', '/roles/org:auditor'));
    ok(await dashboard('PATCH', '/organization-settings', { self_service_creation: true }));
    ok(await api.patch(`/users/${member.id}/metadata`, { public_metadata: { plan: 'team' } }));
    ok(await api.delete(`/organizations/${org.id}`));

    const entries = (await t.call('GET', `/api/v1/projects/${project.id}/audit-log?per_page=100`, { token: project.ownerToken })).json().entries as { action: string; actor_email: string | null }[];
    const actions = new Set(entries.map((entry) => entry.action));
    const expected = [
      'organization.created',
      'organization.updated',
      'organization.deleted',
      'organization_member.added',
      'organization_member.role_changed',
      'organization_member.removed',
      'organization_invitation.created',
      'organization_invitation.revoked',
      'organization_invitation.accepted',
      'organization_role.created',
      'organization_role.updated',
      'organization_role.deleted',
      'organization_settings.updated',
      'user.metadata_updated',
    ];
    expect(expected.filter((action) => !actions.has(action))).toEqual([]);
    // The backend's changes are the API key's; the dashboard's are the developer's.
    expect(entries.find((entry) => entry.action === 'organization.updated')!.actor_email).toBe('API key');
    expect(entries.find((entry) => entry.action === 'organization_role.created')!.actor_email).toBe(project.ownerEmail);
  });
});
