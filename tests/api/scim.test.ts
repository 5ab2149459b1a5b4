import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, createTestApp, STRONG_PASSWORD, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { CookieJar, followToRedirect, startTestOidcProvider, type TestOidcProvider } from '../helpers/identity-providers.js';
import { sessionIdOf } from '../helpers/project-end-users.js';
import { until } from '../helpers/until.js';

/**
 * SCIM 2.0 provisioning of enterprise connections (RFC 7643/7644), with calls shaped like Okta's and
 * Microsoft Entra ID's documented sequences: the token (shown once, rotated, revoked, limited per
 * network), discovery, users and groups, deactivation ending sessions and refusing sign-in, groups
 * mapped to organization roles, and one connection's token reaching nothing of another. Runs on SQLite
 * and PostgreSQL.
 */

const APP_CALLBACK = 'https://app.example/auth/callback';
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const WRONG_TOKENS_PER_IP = 5;

let t: TestApp;
let idp: TestOidcProvider;
let seq = 0;

beforeAll(async () => {
  idp = await startTestOidcProvider();
  t = await createTestApp({
    env: { SSO_DOMAIN_VERIFICATION: 'off', CONNECTIONS_ALLOW_PRIVATE: 'true' },
    limits: { wrongScimTokensPerIp: { points: WRONG_TOKENS_PER_IP, durationS: 900 } },
  });
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

interface Setup {
  project: { id: string; project_key: string };
  apiKey: string;
  token: string;
  organizationId: string;
  domain: string;
  connection: { id: string; oidc: { callback_url: string } };
  scim: { token: string; base_url: string; created_at: string };
  /** A SCIM call with the connection's token (or `as`), from one client address per setup. */
  call(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown, as?: string): ReturnType<TestApp['call']>;
}

async function setUp(options: { groupRoles?: Record<string, string> } = {}): Promise<Setup> {
  const owner = await t.signUpAndLogIn(uniqueEmail('scim'));
  const project = (await t.call('POST', '/api/v1/projects', { token: owner.access_token, body: { name: 'B2B', redirect_uris: [APP_CALLBACK] } })).json();
  const key = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: owner.access_token, body: { name: 'backend' } })).json();
  const organization = (await t.call('POST', '/public/api/v1/organizations', { headers: { 'x-api-key': key.secret }, body: { name: 'Initech' } })).json();
  const domain = `initech-${process.pid}-${++seq}.example`;
  const clientId = `initech-${seq}`;
  const created = await t.call('POST', `/api/v1/projects/${project.id}/sso-connections`, {
    token: owner.access_token,
    body: {
      organization_id: organization.id,
      type: 'oidc',
      name: 'Initech IdP',
      domains: [domain],
      oidc: { issuer: idp.issuer, client_id: clientId, client_secret: 'initech-secret' },
      default_role: 'org:member',
      ...(options.groupRoles && { attribute_mapping: { group_roles: options.groupRoles } }),
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const connection = created.json();
  expect(connection.scim).toEqual({ enabled: false, base_url: `${APP_URL}/scim/v2/${connection.id}`, token_created_at: null });
  await idp.addClient({ client_id: clientId, client_secret: 'initech-secret', redirect_uris: [connection.oidc.callback_url], token_endpoint_auth_method: 'client_secret_post' });
  const issued = await t.call('POST', `/api/v1/projects/${project.id}/sso-connections/${connection.id}/scim-token`, { token: owner.access_token });
  expect(issued.statusCode, issued.body).toBe(201);
  const scim = issued.json();
  const ip = uniqueIp();
  const call: Setup['call'] = (method, path, body, as) =>
    t.call(method, `/scim/v2/${connection.id}${path}`, {
      ip,
      headers: { authorization: `Bearer ${as ?? scim.token}`, ...(body !== undefined && { 'content-type': 'application/scim+json' }) },
      ...(body !== undefined && { body }),
    });
  return { project, apiKey: key.secret, token: owner.access_token, organizationId: organization.id, domain, connection, scim, call };
}

const members = async (s: Setup) =>
  (await t.call('GET', `/public/api/v1/organizations/${s.organizationId}/members`, { headers: { 'x-api-key': s.apiKey } })).json().members as { user_id: string; email: string; role: string }[];

const logIn = (s: Setup, email: string) => t.call('POST', '/public/api/v1/auth/login', { headers: { 'x-api-key': s.apiKey }, body: { email, password: STRONG_PASSWORD } });
const refresh = (s: Setup, refresh_token: string) => t.call('POST', '/public/api/v1/auth/refresh', { headers: { 'x-api-key': s.apiKey }, body: { refresh_token } });

function expectScimError(reply: { statusCode: number; headers: Record<string, unknown>; json(): any }, status: number, scimType?: string) {
  expect(reply.statusCode).toBe(status);
  expect(String(reply.headers['content-type'])).toMatch(/^application\/scim\+json/);
  const body = reply.json();
  expect(body).toMatchObject({ schemas: [ERROR_SCHEMA], status: String(status) });
  expect(typeof body.detail).toBe('string');
  if (scimType) expect(body.scimType).toBe(scimType);
}

/** Through the OIDC IdP and back to the app: the redirect's query (a code, or an error). */
async function ssoSignIn(s: Setup, email: string, sub: string): Promise<URL> {
  idp.setUser({ sub, email, email_verified: true });
  idp.nextLogin(sub);
  const started = await t.call('GET', `/public/api/v1/auth/sso/authorize?${new URLSearchParams({ email, redirect_uri: APP_CALLBACK, state: 'app-state-42' })}`, { headers: { 'x-api-key': s.apiKey } });
  expect(started.statusCode, started.body).toBe(200);
  const back = new URL(await followToRedirect(new URL(started.json().authorization_url), s.connection.oidc.callback_url, { jar: new CookieJar() }));
  const reply = await t.call('GET', `${back.pathname}${back.search}`);
  expect(reply.statusCode, reply.body).toBe(303);
  return new URL(reply.headers.location as string);
}

describe('the SCIM token', () => {
  it('is shown once, hashed at rest; rotation refuses the old one at once; revoking turns SCIM off', async () => {
    const s = await setUp();
    expect(s.scim).toMatchObject({ base_url: `${APP_URL}/scim/v2/${s.connection.id}` });
    expect(s.scim.token.length).toBeGreaterThan(40);
    const shown = (await t.call('GET', `/api/v1/projects/${s.project.id}/sso-connections/${s.connection.id}`, { token: s.token })).json();
    expect(shown.scim).toEqual({ enabled: true, base_url: s.scim.base_url, token_created_at: s.scim.created_at });
    expect(JSON.stringify(shown)).not.toContain(s.scim.token);
    const stored = await t.db.selectFrom('sso_connections').select('scim_token_hash').where('id', '=', s.connection.id).executeTakeFirstOrThrow();
    expect(stored.scim_token_hash).not.toBe(s.scim.token);
    expect(stored.scim_token_hash).toMatch(/^[0-9a-f]{64}$/);

    expect((await s.call('GET', '/Users')).statusCode).toBe(200);
    const rotated = await t.call('POST', `/api/v1/projects/${s.project.id}/sso-connections/${s.connection.id}/scim-token`, { token: s.token });
    expect(rotated.statusCode).toBe(201);
    expect(rotated.json().token).not.toBe(s.scim.token);
    expectScimError(await s.call('GET', '/Users'), 401);
    expect((await s.call('GET', '/Users', undefined, rotated.json().token)).statusCode).toBe(200);

    const revoked = await t.call('DELETE', `/api/v1/projects/${s.project.id}/sso-connections/${s.connection.id}/scim-token`, { token: s.token });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expectScimError(await s.call('GET', '/Users', undefined, rotated.json().token), 401);
    expect((await t.call('GET', `/api/v1/projects/${s.project.id}/sso-connections/${s.connection.id}`, { token: s.token })).json().scim).toMatchObject({ enabled: false, token_created_at: null });
    expect((await t.call('DELETE', `/api/v1/projects/${s.project.id}/sso-connections/${s.connection.id}/scim-token`, { token: s.token })).statusCode).toBe(404);
  });

  it('only the project team may make it; a stranger developer gets 404', async () => {
    const s = await setUp();
    const stranger = await t.signUpAndLogIn(uniqueEmail('scim-stranger'));
    const reply = await t.call('POST', `/api/v1/projects/${s.project.id}/sso-connections/${s.connection.id}/scim-token`, { token: stranger.access_token });
    expect(reply.statusCode).toBe(404);
    expect((await s.call('GET', '/Users')).statusCode).toBe(200);
  });

  it('wrong, missing and unknown-connection tokens are one 401; past the per-network limit even the right one waits', async () => {
    const s = await setUp();
    expectScimError(await t.call('GET', `/scim/v2/${s.connection.id}/Users`, { ip: uniqueIp() }), 401);
    expectScimError(await t.call('GET', `/scim/v2/no-such-connection/Users`, { ip: uniqueIp(), headers: { authorization: `Bearer ${s.scim.token}` } }), 401);
    // The right token is refunded: many calls never reach the limit.
    for (let i = 0; i < WRONG_TOKENS_PER_IP + 2; i++) expect((await s.call('GET', '/ServiceProviderConfig')).statusCode).toBe(200);
    for (let i = 0; i < WRONG_TOKENS_PER_IP; i++) expectScimError(await s.call('GET', '/Users', undefined, `scim_wrong-${i}`), 401);
    const limited = await s.call('GET', '/Users', undefined, 'scim_wrong-again');
    expectScimError(limited, 429);
    expect(limited.headers['retry-after']).toBeDefined();
    expectScimError(await s.call('GET', '/Users'), 429);
  });

  it("connection A's token reads nothing of connection B", async () => {
    const a = await setUp();
    const b = await setUp();
    const created = await b.call('POST', '/Users', { schemas: [USER_SCHEMA], userName: `bob@${b.domain}` });
    expect(created.statusCode, created.body).toBe(201);
    const bob = created.json();
    // A's token at B's base URL, and B's user at A's base URL.
    expectScimError(await t.call('GET', `/scim/v2/${b.connection.id}/Users`, { ip: uniqueIp(), headers: { authorization: `Bearer ${a.scim.token}` } }), 401);
    expectScimError(await a.call('GET', `/Users/${bob.id}`), 404);
    expectScimError(await a.call('PATCH', `/Users/${bob.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] }), 404);
    expectScimError(await a.call('DELETE', `/Users/${bob.id}`), 404);
    expect((await a.call('GET', '/Users')).json()).toMatchObject({ totalResults: 0, Resources: [] });
    // A may not provision an address of B's domain either.
    expectScimError(await a.call('POST', '/Users', { schemas: [USER_SCHEMA], userName: `eve@${b.domain}` }), 400, 'invalidValue');
    expect((await b.call('GET', `/Users/${bob.id}`)).json()).toMatchObject({ active: true });
  });
});

describe('discovery', () => {
  it('answers ServiceProviderConfig, ResourceTypes and Schemas as application/scim+json', async () => {
    const s = await setUp();
    const config = await s.call('GET', '/ServiceProviderConfig');
    expect(config.statusCode).toBe(200);
    expect(String(config.headers['content-type'])).toMatch(/^application\/scim\+json/);
    expect(config.json()).toMatchObject({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true },
      authenticationSchemes: [{ type: 'oauthbearertoken' }],
    });
    const types = (await s.call('GET', '/ResourceTypes')).json();
    expect(types.Resources.map((type: { id: string; endpoint: string }) => [type.id, type.endpoint])).toEqual([
      ['User', '/Users'],
      ['Group', '/Groups'],
    ]);
    expect((await s.call('GET', '/ResourceTypes/User')).json()).toMatchObject({ schema: USER_SCHEMA });
    const schemas = (await s.call('GET', '/Schemas')).json();
    expect(schemas.Resources.map((schema: { id: string }) => schema.id)).toEqual([USER_SCHEMA, GROUP_SCHEMA]);
    expect((await s.call('GET', `/Schemas/${USER_SCHEMA}`)).json().attributes.map((attribute: { name: string }) => attribute.name)).toContain('userName');
    expectScimError(await s.call('GET', '/Schemas/urn:nope'), 404);
    expectScimError(await s.call('GET', '/Nothing'), 404);
  });
});

describe('users', () => {
  it("Okta's sequence: filter finds nobody, POST, PATCH active false, GET; the user signed in with a password is signed out and refused", async () => {
    const s = await setUp();
    const email = `Alice.Okta@${s.domain}`;
    const lookup = await s.call('GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}&startIndex=1&count=100`);
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toEqual({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });

    const created = await s.call('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName: email,
      name: { givenName: 'Alice', familyName: 'Okta' },
      emails: [{ primary: true, value: email, type: 'work' }],
      displayName: 'Alice Okta',
      locale: 'en-US',
      externalId: '00u1okta',
      groups: [],
      password: STRONG_PASSWORD,
      active: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const user = created.json();
    expect(created.headers.location).toBe(`${APP_URL}/scim/v2/${s.connection.id}/Users/${user.id}`);
    expect(user).toMatchObject({ schemas: [USER_SCHEMA], userName: email.toLowerCase(), externalId: '00u1okta', active: true, name: { givenName: 'Alice', familyName: 'Okta' }, emails: [{ value: email.toLowerCase(), primary: true }] });
    expect(user).not.toHaveProperty('password');
    // Found again by userName (any case), by externalId and by the work e-mail; a repeat POST is a uniqueness clash.
    for (const filter of [`userName eq "${email.toUpperCase()}"`, 'externalId eq "00u1okta"', `emails[type eq "work"].value eq "${email}"`]) {
      const found = (await s.call('GET', `/Users?filter=${encodeURIComponent(filter)}`)).json();
      expect(found.totalResults, filter).toBe(1);
      expect(found.Resources[0].id).toBe(user.id);
    }
    expect((await s.call('GET', `/Users?filter=${encodeURIComponent('externalId eq "00U1OKTA"')}`)).json().totalResults).toBe(0);
    expectScimError(await s.call('POST', '/Users', { schemas: [USER_SCHEMA], userName: email }), 409, 'uniqueness');

    // A verified member of the organization with the default role, who signs in with the password Okta set.
    expect((await members(s)).find((member) => member.user_id === user.id)).toMatchObject({ role: 'org:member' });
    const login = await logIn(s, email);
    expect(login.statusCode, login.body).toBe(200);
    const tokens = login.json();
    expect(tokens.user).toMatchObject({ is_verified: true });

    const patched = await s.call('PATCH', `/Users/${user.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ id: user.id, active: false });
    expect((await s.call('GET', `/Users/${user.id}`)).json()).toMatchObject({ active: false, userName: email.toLowerCase() });

    // Signed out at once: the refresh token no longer works, the feed lists the session; sign-in is refused.
    expect((await refresh(s, tokens.refresh_token)).statusCode).toBe(401);
    const sid = sessionIdOf(tokens.access_token);
    await until(async () => {
      const feed = (await t.call('GET', `/public/api/v1/projects/${s.project.project_key}/revocations`, { headers: { 'x-api-key': s.apiKey } })).json();
      return feed.revocations.some((row: { session_id: string }) => row.session_id === sid);
    }, 'the revocation feed to list the session', 5000);
    expect((await logIn(s, email)).statusCode).toBe(403);

    // active true again: signing in works again.
    const restored = await s.call('PATCH', `/Users/${user.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: true }] });
    expect(restored.json()).toMatchObject({ active: true });
    expect((await logIn(s, email)).statusCode).toBe(200);
  });

  it("Entra ID's sequence: POST with externalId, PATCH Replace with active \"False\", attribute PATCHes, PUT and DELETE", async () => {
    const s = await setUp();
    const email = `bert@${s.domain}`;
    const existsCheck = (await s.call('GET', `/Users?filter=${encodeURIComponent('userName eq "bert@' + s.domain + '"')}`)).json();
    expect(existsCheck.totalResults).toBe(0);
    const created = await s.call('POST', '/Users', {
      schemas: [USER_SCHEMA, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: 'bert',
      userName: email,
      active: true,
      emails: [{ primary: true, type: 'work', value: email }],
      meta: { resourceType: 'User' },
      name: { formatted: 'Bert Entra', familyName: 'Entra', givenName: 'Bert' },
      roles: [],
    });
    expect(created.statusCode, created.body).toBe(201);
    const user = created.json();
    expect(user).toMatchObject({ externalId: 'bert', active: true });

    const renamed = await s.call('PATCH', `/Users/${user.id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'Replace', path: 'name.givenName', value: 'Bertram' },
        { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Ops' },
        { op: 'Replace', path: 'externalId', value: 'bert-2' },
      ],
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ externalId: 'bert-2', name: { givenName: 'Bertram', familyName: 'Entra' } });

    const off = await s.call('PATCH', `/Users/${user.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().active).toBe(false);
    expect((await s.call('GET', `/Users?filter=${encodeURIComponent('externalId eq "bert-2"')}`)).json().Resources[0]).toMatchObject({ id: user.id, active: false });
    const on = await s.call('PATCH', `/Users/${user.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: 'True' }] });
    expect(on.json().active).toBe(true);

    // PUT replaces (Okta's update); active false in a PUT deactivates too.
    const put = await s.call('PUT', `/Users/${user.id}`, { schemas: [USER_SCHEMA], userName: email, externalId: 'bert-2', name: { givenName: 'Bert', familyName: 'Put' }, emails: [{ value: email, primary: true }], active: false });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ active: false, name: { givenName: 'Bert', familyName: 'Put' } });

    // Bad input is SCIM's 400, never a 500.
    expectScimError(await s.call('PATCH', `/Users/${user.id}`, { Operations: [] }), 400, 'invalidSyntax');
    expectScimError(await s.call('PATCH', `/Users/${user.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'explode', path: 'active' }] }), 400);
    expectScimError(await s.call('POST', '/Users', { schemas: [USER_SCHEMA] }), 400, 'invalidValue');
    expectScimError(await s.call('GET', `/Users?filter=${encodeURIComponent('userName eq')}`), 400, 'invalidFilter');
    const broken = await t.call('POST', `/scim/v2/${s.connection.id}/Users`, { headers: { authorization: `Bearer ${s.scim.token}`, 'content-type': 'application/scim+json' }, body: '{not json' });
    expectScimError(broken, 400, 'invalidSyntax');

    // DELETE: out of the organization, deactivated, no longer the connection's.
    expect((await s.call('DELETE', `/Users/${user.id}`)).statusCode).toBe(204);
    expectScimError(await s.call('GET', `/Users/${user.id}`), 404);
    expect((await members(s)).some((member) => member.user_id === user.id)).toBe(false);
    const account = await t.db.selectFrom('users').select(['is_active']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(account.is_active).toBe(0);
    // A later POST of the address links the same account and turns it on again.
    const again = await s.call('POST', '/Users', { schemas: [USER_SCHEMA], userName: email, externalId: 'bert-3' });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toMatchObject({ id: user.id, active: true });
  });

  it('pages with startIndex and count, and keeps e-mail addresses unique within the project', async () => {
    const s = await setUp();
    for (const name of ['ann', 'ben', 'cat']) expect((await s.call('POST', '/Users', { schemas: [USER_SCHEMA], userName: `${name}@${s.domain}` })).statusCode).toBe(201);
    const page = (await s.call('GET', '/Users?startIndex=2&count=1')).json();
    expect(page).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
    expect(page.Resources[0].userName).toBe(`ben@${s.domain}`);
    const ann = (await s.call('GET', `/Users?filter=${encodeURIComponent(`userName eq "ann@${s.domain}"`)}`)).json().Resources[0];
    // A second userName with Ben's address, and Ann moved to it, are uniqueness clashes.
    expectScimError(await s.call('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'ben-alias', emails: [{ value: `ben@${s.domain}`, primary: true }] }), 409, 'uniqueness');
    expectScimError(await s.call('PATCH', `/Users/${ann.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'emails[type eq "work"].value', value: `ben@${s.domain}` }] }), 409, 'uniqueness');
    expect((await s.call('GET', `/Users/${ann.id}`)).json().emails[0].value).toBe(`ann@${s.domain}`);
  });

  it("a SCIM-provisioned user signs in through the connection's IdP until deactivated; its sessions then end", async () => {
    const s = await setUp();
    const email = `sso-user@${s.domain}`;
    const user = (await s.call('POST', '/Users', { schemas: [USER_SCHEMA], userName: email, externalId: 'sso-1' })).json();
    const enterpriseIdentities = async () => (await t.call('GET', `/api/v1/projects/${s.project.id}/users/${user.id}`, { token: s.token })).json().enterprise_identities;
    expect(await enterpriseIdentities()).toEqual([{ connection_id: s.connection.id, name: expect.any(String), type: 'oidc', last_sign_in_at: null, scim: true }]);
    const location = await ssoSignIn(s, email, 'sso-user-sub');
    expect(location.searchParams.get('error')).toBeNull();
    const exchanged = await t.call('POST', '/public/api/v1/auth/oauth/exchange', { headers: { 'x-api-key': s.apiKey }, body: { code: location.searchParams.get('code') } });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const tokens = exchanged.json();
    expect(tokens.user.id).toBe(user.id);
    expect((await refresh(s, tokens.refresh_token)).statusCode).toBe(200);
    expect(await enterpriseIdentities()).toEqual([expect.objectContaining({ connection_id: s.connection.id, scim: true, last_sign_in_at: expect.any(String) })]);

    expect((await s.call('PATCH', `/Users/${user.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] })).statusCode).toBe(200);
    const live = await t.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).where('revoked_at', 'is', null).execute();
    expect(live).toEqual([]);
    // The IdP still vouches for the address: the app hears access_denied, and no code.
    const refused = await ssoSignIn(s, email, 'sso-user-sub');
    expect(refused.searchParams.get('error')).toBe('access_denied');
    expect(refused.searchParams.get('code')).toBeNull();
    expect(await t.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).where('revoked_at', 'is', null).execute()).toEqual([]);

    // Deprovisioned, an SSO attempt is refused too and does not make the membership again.
    expect((await s.call('DELETE', `/Users/${user.id}`)).statusCode).toBe(204);
    expect((await ssoSignIn(s, email, 'sso-user-sub')).searchParams.get('error')).toBe('access_denied');
    expect((await members(s)).some((member) => member.user_id === user.id)).toBe(false);
  });
});

describe('groups', () => {
  it("Entra ID's group calls: POST with members, PATCH Add/Remove members; the mapped role shows in the organization's members", async () => {
    const s = await setUp({ groupRoles: { 'Initech Admins': 'org:admin' } });
    const ada = (await s.call('POST', '/Users', { schemas: [USER_SCHEMA], userName: `ada@${s.domain}`, externalId: 'ada' })).json();
    const bob = (await s.call('POST', '/Users', { schemas: [USER_SCHEMA], userName: `bob@${s.domain}`, externalId: 'bob' })).json();
    const roleOf = async (id: string) => (await members(s)).find((member) => member.user_id === id)?.role;
    expect(await roleOf(ada.id)).toBe('org:member');

    expect((await s.call('GET', `/Groups?filter=${encodeURIComponent('displayName eq "Initech Admins"')}&excludedAttributes=members`)).json().totalResults).toBe(0);
    const created = await s.call('POST', '/Groups', { schemas: [GROUP_SCHEMA], externalId: 'grp-admins', displayName: 'Initech Admins', members: [{ value: ada.id }] });
    expect(created.statusCode, created.body).toBe(201);
    const group = created.json();
    expect(group).toMatchObject({ displayName: 'Initech Admins', externalId: 'grp-admins', members: [{ value: ada.id, display: `ada@${s.domain}` }] });
    expect(await roleOf(ada.id)).toBe('org:admin');
    expect((await s.call('GET', `/Users/${ada.id}`)).json().groups).toEqual([expect.objectContaining({ value: group.id, display: 'Initech Admins' })]);
    expectScimError(await s.call('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'initech admins' }), 409, 'uniqueness');

    const added = await s.call('PATCH', `/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Add', path: 'members', value: [{ value: bob.id }] }] });
    expect(added.statusCode, added.body).toBe(200);
    expect(await roleOf(bob.id)).toBe('org:admin');
    const removed = await s.call('PATCH', `/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Remove', path: 'members', value: [{ value: ada.id }] }] });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().members.map((member: { value: string }) => member.value)).toEqual([bob.id]);
    expect(await roleOf(ada.id)).toBe('org:member');

    // Okta's forms: remove by a filtered path, replace the display name (the group then maps to no role).
    const oktaRemove = await s.call('PATCH', `/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'remove', path: `members[value eq "${bob.id}"]` }] });
    expect(oktaRemove.statusCode, oktaRemove.body).toBe(200);
    expect(await roleOf(bob.id)).toBe('org:member');
    await s.call('PATCH', `/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: bob.id, display: 'bob' }] }] });
    expect(await roleOf(bob.id)).toBe('org:admin');
    const renamed = await s.call('PATCH', `/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { id: group.id, displayName: 'Initech Everyone' } }] });
    expect(renamed.json()).toMatchObject({ displayName: 'Initech Everyone', members: [{ value: bob.id }] });
    expect(await roleOf(bob.id)).toBe('org:member');

    expectScimError(await s.call('PATCH', `/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: 'not-a-user' }] }] }), 400, 'invalidValue');
    expect((await s.call('GET', `/Groups/${group.id}?excludedAttributes=members`)).json()).not.toHaveProperty('members');
    expect((await s.call('GET', `/Groups?filter=${encodeURIComponent('externalId eq "grp-admins"')}`)).json().totalResults).toBe(1);
    expect((await s.call('DELETE', `/Groups/${group.id}`)).statusCode).toBe(204);
    expectScimError(await s.call('GET', `/Groups/${group.id}`), 404);
  });

  it('PUT replaces the members; deleting a group gives its members their other roles back', async () => {
    const s = await setUp({ groupRoles: { Admins: 'org:admin' } });
    const cy = (await s.call('POST', '/Users', { schemas: [USER_SCHEMA], userName: `cy@${s.domain}` })).json();
    const group = (await s.call('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Staff' })).json();
    const put = await s.call('PUT', `/Groups/${group.id}`, { schemas: [GROUP_SCHEMA], displayName: 'Admins', members: [{ value: cy.id }] });
    expect(put.statusCode, put.body).toBe(200);
    expect((await members(s)).find((member) => member.user_id === cy.id)?.role).toBe('org:admin');
    expect((await s.call('DELETE', `/Groups/${group.id}`)).statusCode).toBe(204);
    expect((await members(s)).find((member) => member.user_id === cy.id)?.role).toBe('org:member');
  });
});
