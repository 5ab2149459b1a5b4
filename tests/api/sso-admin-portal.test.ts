import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, createTestApp, manualClock, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';
import { CookieJar, followToRedirect, startTestOidcProvider, type TestOidcProvider } from '../helpers/identity-providers.js';
import { idpMetadataXml, readAuthnRequest, samlResponse } from '../helpers/identity-providers/saml.js';

/**
 * The self-serve setup portal of enterprise SSO from outside: the team's one-time link, the IT admin's
 * portal session (a cookie scoped to /portal) that reaches one organization's connections only, the
 * test round trip through the SAML and OpenID Connect test IdPs that provisions nothing, and the SCIM
 * token made in the portal working at /scim/v2. Runs on SQLite and PostgreSQL.
 */

let t: TestApp;
let idp: TestOidcProvider;
let seq = 0;
// Never moved: the expiry tests have their own app and clock.
const clock = manualClock(new Date());

beforeAll(async () => {
  idp = await startTestOidcProvider();
  t = await createTestApp({ clock, env: { SSO_DOMAIN_VERIFICATION: 'off', CONNECTIONS_ALLOW_PRIVATE: 'true' } });
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

async function newProject(app: TestApp = t) {
  const t = app;
  const owner = await t.signUpAndLogIn(uniqueEmail('portal-owner'));
  const project = (await t.call('POST', '/api/v1/projects', { token: owner.access_token, body: { name: 'B2B SaaS', redirect_uris: ['https://app.example/cb'] } })).json();
  const key = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: owner.access_token, body: { name: 'backend' } })).json();
  const org = async (name: string) => (await t.call('POST', '/public/api/v1/organizations', { headers: { 'x-api-key': key.secret }, body: { name } })).json() as { id: string };
  const acme = await org('Acme Inc.');
  const globex = await org('Globex');
  return { id: project.id as string, ownerToken: owner.access_token as string, apiKey: key.secret as string, acme, globex, domain: `acme-portal-${process.pid}-${++seq}.example` };
}
type Project = Awaited<ReturnType<typeof newProject>>;

function createLink(project: Project, organizationId: string, body: Record<string, unknown> = {}, token = project.ownerToken, app: TestApp = t) {
  return app.call('POST', `/api/v1/projects/${project.id}/organizations/${organizationId}/admin-portal-links`, { token, body });
}

function open(url: string, app: TestApp = t) {
  return app.call('POST', '/portal/api/v1/session', { body: { token: new URL(url).pathname.split('/').pop() } });
}

/** The IT admin's browser: the portal cookie of one opened link. */
async function portalOf(project: Project, organizationId = project.acme.id) {
  const link = await createLink(project, organizationId);
  expect(link.statusCode, link.body).toBe(201);
  const opened = await open(link.json().url);
  expect(opened.statusCode, opened.body).toBe(201);
  const cookie = opened.cookies.find((c) => c.name === 'portal_session')!;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) => t.call(method, `/portal/api/v1${path}`, { cookies: { portal_session: cookie.value }, ...(body !== undefined && { body }) });
  return { cookie, call, opened: opened.json() };
}

async function samlConnectionVia(call: Awaited<ReturnType<typeof portalOf>>['call'], domain: string) {
  const created = await call('POST', '/connections', { type: 'saml', name: 'Acme Okta', domains: [domain], saml: { idp_metadata_xml: idpMetadataXml() } });
  expect(created.statusCode, created.body).toBe(201);
  return created.json();
}

describe('setup links', () => {
  it('are made by the owner or an admin, not by a viewer, a stranger or for another project\'s organization; answer a URL and its expiry (24 h by default)', async () => {
    const project = await newProject();
    const made = await createLink(project, project.acme.id);
    expect(made.statusCode, made.body).toBe(201);
    const link = made.json();
    expect(link.url).toMatch(new RegExp(`^${APP_URL}/portal/[A-Za-z0-9_-]{20,}$`));
    expect(new Date(link.expires_at).getTime() - clock.now().getTime()).toBe(24 * 3600_000);
    expect(new Date((await createLink(project, project.acme.id, { expires_in_hours: 2 })).json().expires_at).getTime() - clock.now().getTime()).toBe(2 * 3600_000);
    for (const hours of [0, 169, 1.5]) {
      const refused = await createLink(project, project.acme.id, { expires_in_hours: hours });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().detail).toBeTruthy();
    }

    const viewer = await t.signUpAndLogIn(uniqueEmail('portal-viewer'));
    await t.db.insertInto('project_members').values({ project_id: project.id, user_id: viewer.user.id, role: 'viewer', created_at: new Date().toISOString() }).execute();
    expect((await createLink(project, project.acme.id, {}, viewer.access_token)).statusCode).toBe(403);
    const stranger = await t.signUpAndLogIn(uniqueEmail('portal-stranger'));
    expect((await createLink(project, project.acme.id, {}, stranger.access_token)).statusCode).toBe(404);
    const other = await newProject();
    const foreign = await createLink(project, other.acme.id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().detail).toBeTruthy();

    const audit = (await t.call('GET', `/api/v1/projects/${project.id}/audit-log`, { token: project.ownerToken })).json();
    expect(JSON.stringify(audit)).toContain('admin_portal_link.created');
    // Only the token's SHA-256 is stored.
    const rows = await t.db.selectFrom('admin_portal_links').select('token_hash').where('project_id', '=', project.id).execute();
    expect(rows.some((row) => link.url.endsWith(row.token_hash))).toBe(false);
  });

  it('opens once: the second opening is a 401 with detail, as is an unknown token', async () => {
    const project = await newProject();
    const { url } = (await createLink(project, project.acme.id)).json();
    const first = await open(url);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().organization).toEqual({ id: project.acme.id, name: 'Acme Inc.' });
    const cookie = first.cookies.find((c) => c.name === 'portal_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, path: '/portal', sameSite: 'Lax' });
    // An hour at most.
    expect(new Date(first.json().expires_at).getTime() - clock.now().getTime()).toBe(3600_000);

    const second = await open(url);
    expect(second.statusCode).toBe(401);
    expect(second.json().detail).toMatch(/already opened/);
    expect(second.cookies.find((c) => c.name === 'portal_session')).toBeUndefined();
    const unknown = await t.call('POST', '/portal/api/v1/session', { body: { token: 'not-a-real-token' } });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().detail).toMatch(/not valid/);
    const audit = (await t.call('GET', `/api/v1/projects/${project.id}/audit-log`, { token: project.ownerToken })).json();
    expect(JSON.stringify(audit)).toContain('admin_portal.opened');
  });
});

describe('the portal session', () => {
  it("reaches its organization's connections only, through the team's validation, audited as the link", async () => {
    const project = await newProject();
    // The team's connection for another organization of the project.
    const theirs = await t.call('POST', `/api/v1/projects/${project.id}/sso-connections`, {
      token: project.ownerToken,
      body: { organization_id: project.globex.id, type: 'saml', name: 'Globex Okta', domains: [`globex-${project.domain}`], saml: { idp_metadata_xml: idpMetadataXml() } },
    });
    expect(theirs.statusCode, theirs.body).toBe(201);
    const other = theirs.json().id as string;

    const { call } = await portalOf(project);
    const overview = await call('GET', '/organization');
    expect(overview.statusCode, overview.body).toBe(200);
    expect(overview.json()).toMatchObject({ organization: { id: project.acme.id, name: 'Acme Inc.' }, connections: [] });
    // The guides show the next connection's values before it exists; the connection made gets them.
    const next = overview.json().next_connection;

    // organization_id is not the portal's to choose.
    expect((await call('POST', '/connections', { organization_id: project.globex.id, type: 'saml', name: 'x', saml: { idp_metadata_xml: idpMetadataXml() } })).statusCode).toBe(422);
    const broken = await call('POST', '/connections', { type: 'saml', name: 'Acme', saml: { idp_metadata_xml: '<nope/>' } });
    expect(broken.statusCode).toBe(422);
    expect(broken.json().detail).toMatch(/metadata/);
    const mine = await samlConnectionVia(call, project.domain);
    expect(mine).toMatchObject({ organization_id: project.acme.id, saml: { acs_url: next.acs_url, sp_entity_id: next.sp_entity_id, sp_metadata_url: next.sp_metadata_url } });
    expect(next.acs_url).toBe(`${APP_URL}/sso/saml/${mine.id}/acs`);
    expect((await call('GET', '/organization')).json().next_connection.acs_url).not.toBe(next.acs_url);
    expect((await call('GET', '/organization')).json().connections.map((c: { id: string }) => c.id)).toEqual([mine.id]);

    for (const [method, path] of [
      ['GET', `/connections/${other}`],
      ['PATCH', `/connections/${other}`],
      ['DELETE', `/connections/${other}`],
      ['POST', `/connections/${other}/verify-domains`],
      ['POST', `/connections/${other}/scim-token`],
      ['POST', `/connections/${other}/test`],
    ] as const) {
      const reply = await call(method, path, method === 'PATCH' ? { name: 'Hijacked' } : undefined);
      expect(reply.statusCode, `${method} ${path}`).toBe(404);
      expect(reply.json().detail).toBe('SSO connection not found');
    }
    const untouched = (await t.call('GET', `/api/v1/projects/${project.id}/sso-connections/${other}`, { token: project.ownerToken })).json();
    expect(untouched).toMatchObject({ name: 'Globex Okta', scim: { enabled: false } });

    const renamed = await call('PATCH', `/connections/${mine.id}`, { name: 'Acme Okta (prod)', domains: [project.domain, `eu.${project.domain}`] });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const verified = await call('POST', `/connections/${mine.id}/verify-domains`);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().domains.every((d: { verified: boolean }) => d.verified)).toBe(true);

    const audit = (await t.call('GET', `/api/v1/projects/${project.id}/audit-log`, { token: project.ownerToken })).json();
    const entries = JSON.stringify(audit);
    expect(entries).toContain('sso_connection.created');
    expect(entries).toContain('sso_connection.updated');
    expect(entries).toMatch(/Setup portal link [A-Za-z0-9-]+/);

    expect((await call('DELETE', `/connections/${mine.id}`)).statusCode).toBe(200);
    expect((await call('GET', '/organization')).json().connections).toEqual([]);
  });

  it("opens no developer route, and a developer's token opens no portal route", async () => {
    const project = await newProject();
    const { cookie, call } = await portalOf(project);
    for (const path of [`/api/v1/projects/${project.id}/sso-connections`, `/api/v1/projects/${project.id}/organizations`, '/api/v1/projects', '/api/v1/auth/me']) {
      expect((await t.call('GET', path, { cookies: { portal_session: cookie.value } })).statusCode, path).toBe(401);
    }
    const noCookie = await t.call('GET', '/portal/api/v1/organization', { token: project.ownerToken });
    expect(noCookie.statusCode).toBe(401);
    expect(noCookie.json().detail).toMatch(/setup session/);
    // Leaving ends the session.
    expect((await call('DELETE', '/session')).statusCode).toBe(200);
    expect((await call('GET', '/organization')).statusCode).toBe(401);
  });

  it('makes the SCIM token, shown once, that works at /scim/v2', async () => {
    const project = await newProject();
    const { call } = await portalOf(project);
    const connection = await samlConnectionVia(call, project.domain);
    const issued = await call('POST', `/connections/${connection.id}/scim-token`);
    expect(issued.statusCode, issued.body).toBe(201);
    const scim = issued.json();
    expect(scim.base_url).toBe(`${APP_URL}/scim/v2/${connection.id}`);
    expect((await call('GET', `/connections/${connection.id}`)).json()).toMatchObject({ scim: { enabled: true } });
    expect(JSON.stringify((await call('GET', `/connections/${connection.id}`)).json())).not.toContain(scim.token);
    const users = await t.call('GET', `/scim/v2/${connection.id}/Users`, { headers: { authorization: `Bearer ${scim.token}` } });
    expect(users.statusCode, users.body).toBe(200);
    expect(users.json().totalResults).toBe(0);
    const provisioned = await t.call('POST', `/scim/v2/${connection.id}/Users`, {
      headers: { authorization: `Bearer ${scim.token}`, 'content-type': 'application/scim+json' },
      body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `scim@${project.domain}`, emails: [{ value: `scim@${project.domain}`, primary: true }], active: true },
    });
    expect(provisioned.statusCode, provisioned.body).toBe(201);
    const audit = JSON.stringify((await t.call('GET', `/api/v1/projects/${project.id}/audit-log`, { token: project.ownerToken })).json());
    expect(audit).toContain('scim_token.created');
  });
});

describe('testing a connection', () => {
  async function usersOf(project: Project) {
    return t.db.selectFrom('users').select('email').where('project_id', '=', project.id).execute();
  }

  it('SAML: a round trip through the IdP ends on the portal with the attributes received, provisioning nothing', async () => {
    const project = await newProject();
    const { call } = await portalOf(project);
    const connection = await samlConnectionVia(call, project.domain);
    expect((await call('GET', '/test-result')).json()).toEqual({ result: null });

    const started = await call('POST', `/connections/${connection.id}/test`);
    expect(started.statusCode, started.body).toBe(200);
    const request = readAuthnRequest(started.json().authorization_url);
    const email = `jane@${project.domain}`;
    const now = clock.now();
    const response = samlResponse({
      acsUrl: request.acsUrl,
      audience: request.issuer,
      nameId: email,
      inResponseTo: request.id,
      notBefore: new Date(now.getTime() - 60_000),
      notOnOrAfter: new Date(now.getTime() + 300_000),
      attributes: { firstName: 'Jane', lastName: 'Doe', groups: ['Engineering', 'Admins'] },
    });
    await call('PATCH', `/connections/${connection.id}`, { attribute_mapping: { groups: 'groups' } });
    const acs = await t.call('POST', new URL(request.acsUrl).pathname, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.example', 'sec-fetch-site': 'cross-site' },
      body: new URLSearchParams({ SAMLResponse: response }).toString(),
    });
    expect(acs.statusCode, acs.body).toBe(303);
    expect(acs.headers.location, JSON.stringify((await call('GET', '/test-result')).json())).toBe(`${APP_URL}/portal?test=ok`);
    expect(acs.cookies.length).toBe(0);

    const result = (await call('GET', '/test-result')).json().result;
    expect(result).toMatchObject({ connection_id: connection.id, ok: true, error: null, email, first_name: 'Jane', last_name: 'Doe', groups: ['Engineering', 'Admins'], domain_verified: true });
    // No account, membership or session was made.
    expect(await usersOf(project)).toEqual([]);
    expect((await t.call('GET', `/public/api/v1/organizations/${project.acme.id}/members`, { headers: { 'x-api-key': project.apiKey } })).json().members).toEqual([]);
    const audit = JSON.stringify((await t.call('GET', `/api/v1/projects/${project.id}/audit-log`, { token: project.ownerToken })).json());
    expect(audit).toContain('sso_connection.tested');

    // Another portal session of the same organization does not see this one's result.
    const other = await portalOf(project);
    expect((await other.call('GET', '/test-result')).json()).toEqual({ result: null });
  });

  it('SAML: a refused answer (another signer) comes back as a failed test with its reason', async () => {
    const project = await newProject();
    const { call } = await portalOf(project);
    const connection = await samlConnectionVia(call, project.domain);
    const request = readAuthnRequest((await call('POST', `/connections/${connection.id}/test`)).json().authorization_url);
    const now = clock.now();
    const { OTHER_CERT, OTHER_KEY } = await import('../helpers/identity-providers/saml-keys.js');
    const response = samlResponse({
      acsUrl: request.acsUrl,
      audience: request.issuer,
      nameId: `jane@${project.domain}`,
      inResponseTo: request.id,
      notBefore: new Date(now.getTime() - 60_000),
      notOnOrAfter: new Date(now.getTime() + 300_000),
      key: OTHER_KEY,
      cert: OTHER_CERT,
    });
    const acs = await t.call('POST', new URL(request.acsUrl).pathname, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ SAMLResponse: response }).toString() });
    expect(acs.statusCode, acs.body).toBe(303);
    expect(acs.headers.location).toBe(`${APP_URL}/portal?test=failed`);
    const result = (await call('GET', '/test-result')).json().result;
    expect(result).toMatchObject({ connection_id: connection.id, ok: false, email: null });
    expect(result.error).toBeTruthy();
  });

  it('OpenID Connect: the IdP\'s claims come back to the portal; no account is made', async () => {
    const project = await newProject();
    const { call } = await portalOf(project);
    const clientId = `acme-portal-${seq}`;
    const created = await call('POST', '/connections', { type: 'oidc', name: 'Acme Entra', domains: [project.domain], oidc: { issuer: idp.issuer, client_id: clientId, client_secret: 'acme-secret' } });
    expect(created.statusCode, created.body).toBe(201);
    const connection = created.json();
    await idp.addClient({ client_id: clientId, client_secret: 'acme-secret', redirect_uris: [connection.oidc.callback_url], token_endpoint_auth_method: 'client_secret_post' });
    const email = `olga@${project.domain}`;
    idp.setUser({ sub: 'acme-olga', email, email_verified: true, given_name: 'Olga', family_name: 'Ops' });
    idp.nextLogin('acme-olga');
    const started = await call('POST', `/connections/${connection.id}/test`);
    expect(started.statusCode, started.body).toBe(200);
    const back = new URL(await followToRedirect(new URL(started.json().authorization_url), connection.oidc.callback_url, { jar: new CookieJar() }));
    const reply = await t.call('GET', `${back.pathname}${back.search}`);
    expect(reply.statusCode, reply.body).toBe(303);
    expect(reply.headers.location).toBe(`${APP_URL}/portal?test=ok`);
    expect((await call('GET', '/test-result')).json().result).toMatchObject({ ok: true, email, first_name: 'Olga', last_name: 'Ops', domain_verified: true });
    expect(await usersOf(project)).toEqual([]);
  });
});

describe('expiry (its own app, whose clock moves)', () => {
  const later = manualClock(new Date());
  let tc: TestApp;
  beforeAll(async () => {
    tc = await createTestApp({ clock: later });
  });
  afterAll(() => tc.close());

  it('expire: an unopened link after its hours, a portal session after its hour (or its link\'s end)', async () => {
    const project = await newProject(tc);
    const late = (await createLink(project, project.acme.id, { expires_in_hours: 1 }, project.ownerToken, tc)).json();
    const short = (await createLink(project, project.acme.id, { expires_in_hours: 1 }, project.ownerToken, tc)).json();
    later.advance(30 * 60);
    const opened = await open(short.url, tc);
    expect(opened.statusCode).toBe(201);
    // The link ends in 30 minutes: so does its session.
    expect(opened.json().expires_at).toBe(short.expires_at);
    const cookie = opened.cookies.find((c) => c.name === 'portal_session')!.value;
    expect((await tc.call('GET', '/portal/api/v1/organization', { cookies: { portal_session: cookie } })).statusCode).toBe(200);
    later.advance(31 * 60);
    const ended = await tc.call('GET', '/portal/api/v1/organization', { cookies: { portal_session: cookie } });
    expect(ended.statusCode).toBe(401);
    expect(ended.json().detail).toMatch(/session has ended/);
    const expired = await open(late.url, tc);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().detail).toMatch(/expired/);

    // A day's link: its session still ends after an hour.
    const day = (await createLink(project, project.acme.id, {}, project.ownerToken, tc)).json();
    const session = (await open(day.url, tc)).cookies.find((c) => c.name === 'portal_session')!.value;
    later.advance(59 * 60);
    expect((await tc.call('GET', '/portal/api/v1/organization', { cookies: { portal_session: session } })).statusCode).toBe(200);
    later.advance(2 * 60);
    expect((await tc.call('GET', '/portal/api/v1/organization', { cookies: { portal_session: session } })).statusCode).toBe(401);
  });
});
