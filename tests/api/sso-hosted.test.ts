import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSO_MESSAGES } from '../../shared/schemas/sso.js';
import { APP_URL, STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { APP_CALLBACK, HostedBrowser, exchangeAtApp, hostedProject, type HostedProject } from '../helpers/hosted-browser.js';
import { CookieJar, followToRedirect, startTestOidcProvider, type TestOidcProvider } from '../helpers/identity-providers.js';
import { IDP_SSO_URL, idpMetadataXml, readAuthnRequest, samlResponse } from '../helpers/identity-providers/saml.js';

/**
 * Enterprise SSO on the hosted pages (issue 29): home-realm discovery by the address's verified
 * domain; the SAML round trip started on the hosted pages, through the test IdP and the ACS, ending
 * in the hosted session cookies in the browser that started it (its state cookie), on the account
 * page or the OpenID Connect provider's continuation; authorize's login_hint straight to the IdP;
 * enforced connections refusing the password in the public API and on the hosted pages.
 * Domains are unverified until a test marks them (the DNS proof itself is sso-domains.test.ts's).
 * Runs on SQLite and PostgreSQL.
 */

const DISCOVERY_LIMIT = 5;
let t: TestApp;
let oidcIdp: TestOidcProvider;
let domainSeq = 0;

interface Project extends HostedProject {
  apiKey: string;
  organizationId: string;
  domain: string;
}

const uniqueDomain = () => `corp-${process.pid}-${++domainSeq}.example`;

beforeAll(async () => {
  oidcIdp = await startTestOidcProvider();
  // The OpenID Connect IdP is on loopback: CONNECTIONS_ALLOW_PRIVATE lets this server reach it.
  t = await createTestApp({ env: { CONNECTIONS_ALLOW_PRIVATE: 'true' }, limits: { ssoDiscoveryPerIp: { points: DISCOVERY_LIMIT, durationS: 60 } } });
});
afterAll(async () => {
  await t.close();
  await oidcIdp.close();
});

async function newProject(): Promise<Project> {
  const project = await hostedProject(t);
  const key = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: project.ownerToken, body: { name: 'backend' } })).json();
  const organization = await t.call('POST', '/public/api/v1/organizations', { headers: { 'x-api-key': key.secret }, body: { name: 'Corp Inc.' } });
  expect(organization.statusCode, organization.body).toBe(201);
  return { ...project, apiKey: key.secret, organizationId: organization.json().id, domain: uniqueDomain() };
}

async function createConnection(project: Project, body: Record<string, unknown> = {}, options: { verified?: boolean } = {}) {
  const created = await t.call('POST', `/api/v1/projects/${project.id}/sso-connections`, {
    token: project.ownerToken,
    body: { organization_id: project.organizationId, type: 'saml', name: 'Corp Okta', domains: [project.domain], saml: { idp_metadata_xml: idpMetadataXml() }, ...body },
  });
  expect(created.statusCode, created.body).toBe(201);
  const connection = created.json() as { id: string; domains: { domain: string; verified: boolean }[] };
  expect(connection.domains.every((domain) => !domain.verified)).toBe(true);
  if (options.verified !== false) {
    // As if its DNS TXT record had been seen.
    await t.db.updateTable('sso_domains').set({ verified_at: new Date().toISOString() }).where('connection_id', '=', connection.id).execute();
  }
  return connection;
}

const discover = (project: Project, email: string, ip = uniqueIp()) =>
  t.call('GET', `/hosted/${project.key}/api/v1/auth/sso/discover?${new URLSearchParams({ email })}`, { ip });

const pathOf = (location: unknown) => {
  const url = new URL(location as string, APP_URL);
  expect(url.origin).toBe(APP_URL);
  return `${url.pathname}${url.search}`;
};

/** The IdP POSTs the response to the ACS through the browser: a cross-site form, so the Lax cookies stay behind. */
function postToAcs(acsUrl: string, response: string) {
  return t.call('POST', new URL(acsUrl).pathname, {
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.example', 'sec-fetch-site': 'cross-site' },
    body: new URLSearchParams({ SAMLResponse: response }).toString(),
  });
}

/** The browser at the IdP's SSO URL: the user signs in there and the IdP answers our AuthnRequest at the ACS; answers where the ACS sends the browser. */
async function idpSignsIn(idpUrl: string, email: string): Promise<string> {
  expect(idpUrl.startsWith(`${IDP_SSO_URL}?`)).toBe(true);
  const request = readAuthnRequest(idpUrl);
  const acs = await postToAcs(request.acsUrl, samlResponse({ acsUrl: request.acsUrl, audience: request.issuer, nameId: email, inResponseTo: request.id, attributes: { firstName: 'Jane', lastName: 'Doe' } }));
  expect(acs.statusCode, acs.body).toBe(303);
  return acs.headers.location as string;
}

/** The hosted sign-in page's "Continue with SSO": the start route sends the browser to the IdP with a state cookie. */
async function startHosted(browser: HostedBrowser, project: Project, query: Record<string, string>): Promise<string> {
  const started = await browser.request('GET', `/hosted/${project.key}/api/v1/auth/sso/start?${new URLSearchParams(query)}`);
  expect(started.statusCode, started.body).toBe(302);
  expect(browser.cookies.has('sso_state')).toBe(true);
  return started.headers.location as string;
}

describe('home-realm discovery on the hosted pages', () => {
  it('names the connection of a verified, routed domain only, and the answer depends on the domain alone', async () => {
    const project = await newProject();
    const connection = await createConnection(project);
    // Whether or not the address has an account: the same answer.
    const before = t.mail.messages.length;
    const member = `member@${project.domain}`;
    await t.call('POST', '/public/api/v1/auth/signup', { headers: { 'x-api-key': project.apiKey }, body: { email: member, password: STRONG_PASSWORD }, ip: uniqueIp() });
    await t.mail.waitFor(member, /verify/i, { after: before });
    const routed = await discover(project, `Member@${project.domain.toUpperCase()}`);
    expect(routed.statusCode, routed.body).toBe(200);
    expect(routed.json()).toEqual({ sso: true, connection_id: connection.id, name: 'Corp Okta', enforced: false });
    expect((await discover(project, `nobody@${project.domain}`)).json()).toEqual(routed.json());

    const none = { sso: false, connection_id: null, name: null, enforced: false };
    // Another domain, and the same domain on another project, route nowhere.
    expect((await discover(project, uniqueEmail('outsider'))).json()).toEqual(none);
    expect((await discover(await newProject(), member)).json()).toEqual(none);
    // An unverified domain, and a disabled connection's, route nowhere.
    const unverified = await newProject();
    await createConnection(unverified, {}, { verified: false });
    expect((await discover(unverified, `jo@${unverified.domain}`)).json()).toEqual(none);
    await t.call('PATCH', `/api/v1/projects/${project.id}/sso-connections/${connection.id}`, { token: project.ownerToken, body: { enabled: false } });
    expect((await discover(project, member)).json()).toEqual(none);

    const bad = await discover(project, 'not-an-address');
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toHaveProperty('detail');
  });

  it('is limited per client network', async () => {
    const project = await newProject();
    await createConnection(project);
    const ip = uniqueIp();
    for (let i = 0; i < DISCOVERY_LIMIT; i += 1) expect((await discover(project, `a${i}@${project.domain}`, ip)).statusCode).toBe(200);
    const limited = await discover(project, `late@${project.domain}`, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toHaveProperty('detail');
    expect((await discover(project, `late@${project.domain}`)).statusCode).toBe(200);
  });
});

describe('the hosted SAML round trip', () => {
  it("ends signed in on the hosted pages (cookies, account page) as a member of the connection's organization", async () => {
    const project = await newProject();
    await createConnection(project, { default_role: 'org:admin' });
    const browser = new HostedBrowser(t, project);
    const email = `jane@${project.domain}`;
    const idpUrl = await startHosted(browser, project, { email });
    const finish = await idpSignsIn(idpUrl, email);
    expect(finish.startsWith(`${APP_URL}/hosted/${project.key}/api/v1/auth/sso/finish?code=`)).toBe(true);
    expect(browser.signedIn()).toBe(false);

    const landed = await browser.request('GET', pathOf(finish));
    expect(landed.statusCode, landed.body).toBe(302);
    expect(landed.headers.location).toBe(`/hosted/${project.key}/account`);
    expect(browser.signedIn()).toBe(true);
    expect(browser.cookies.has('sso_state')).toBe(false);
    expect((await browser.request('GET', `/hosted/${project.key}/api/v1/profile`)).json()).toMatchObject({ email, first_name: 'Jane', last_name: 'Doe' });
    const organizations = (await browser.request('GET', `/hosted/${project.key}/api/v1/me/organizations`)).json();
    expect(organizations.active_organization_id).toBe(project.organizationId);
    expect(organizations.organizations).toEqual([expect.objectContaining({ id: project.organizationId, role: 'org:admin' })]);

    // The code works once.
    const again = await browser.request('GET', pathOf(finish));
    expect(again.headers.location).toMatch(new RegExp(`^/hosted/${project.key}/sign-in\\?social_error=expired`));

    // The user page names the connection it signed in through.
    const user = await t.db.selectFrom('users').select('id').where('project_id', '=', project.id).where('email', '=', email).executeTakeFirstOrThrow();
    const detail = (await t.call('GET', `/api/v1/projects/${project.id}/users/${user.id}`, { token: project.ownerToken })).json();
    expect(detail.enterprise_identities).toEqual([{ connection_id: expect.any(String), name: 'Corp Okta', type: 'saml', last_sign_in_at: expect.any(String), scim: false }]);
  });

  it('goes on to the return_to of the start, a page of these hosted pages only', async () => {
    const project = await newProject();
    await createConnection(project);
    const browser = new HostedBrowser(t, project);
    const email = `ret@${project.domain}`;
    const idpUrl = await startHosted(browser, project, { email, return_to: `/hosted/${project.key}/account?tab=security` });
    const landed = await browser.request('GET', pathOf(await idpSignsIn(idpUrl, email)));
    expect(landed.headers.location).toBe(`/hosted/${project.key}/account?tab=security`);

    const elsewhere = new HostedBrowser(t, project);
    const idpUrl2 = await startHosted(elsewhere, project, { email, return_to: 'https://evil.example/steal' });
    const landed2 = await elsewhere.request('GET', pathOf(await idpSignsIn(idpUrl2, email)));
    expect(landed2.headers.location).toBe(`/hosted/${project.key}/account`);
  });

  it('refuses to finish in another browser, or without the state cookie: nobody is signed in', async () => {
    const project = await newProject();
    await createConnection(project);
    const email = `victim@${project.domain}`;
    // Someone starts a sign-in and hands the finish to another browser (or the IdP's answer reaches another one).
    const starter = new HostedBrowser(t, project);
    const finish = await idpSignsIn(await startHosted(starter, project, { email }), email);
    const other = new HostedBrowser(t, project);
    other.cookies.set('sso_state', 'a-state-of-its-own');
    const refused = await other.request('GET', pathOf(finish));
    expect(refused.statusCode).toBe(302);
    expect(refused.headers.location).toBe(`/hosted/${project.key}/sign-in?social_error=state_mismatch`);
    expect(other.signedIn()).toBe(false);
    // Spent by the refusal: the starter cannot use it afterwards either.
    expect((await starter.request('GET', pathOf(finish))).headers.location).toContain('social_error=expired');
    expect(starter.signedIn()).toBe(false);

    const bare = new HostedBrowser(t, project);
    const finish2 = await idpSignsIn(await startHosted(bare, project, { email }), email);
    bare.cookies.delete('sso_state');
    expect((await bare.request('GET', pathOf(finish2))).headers.location).toContain('social_error=state_mismatch');
    expect(bare.signedIn()).toBe(false);
  });

  it('a refused assertion ends on the sign-in page; an address with no routed domain is not sent anywhere', async () => {
    const project = await newProject();
    await createConnection(project);
    const browser = new HostedBrowser(t, project);
    const idpUrl = await startHosted(browser, project, { email: `jo@${project.domain}` });
    const request = readAuthnRequest(idpUrl);
    // The IdP asserts an address outside the connection's domains.
    const acs = await postToAcs(request.acsUrl, samlResponse({ acsUrl: request.acsUrl, audience: request.issuer, nameId: uniqueEmail('outside'), inResponseTo: request.id }));
    expect(acs.statusCode).toBe(303);
    expect(acs.headers.location).toBe(`${APP_URL}/hosted/${project.key}/api/v1/auth/sso/finish?error=access_denied`);
    expect((await browser.request('GET', pathOf(acs.headers.location))).headers.location).toBe(`/hosted/${project.key}/sign-in?social_error=provider_error`);
    expect(browser.signedIn()).toBe(false);

    const unrouted = await browser.request('GET', `/hosted/${project.key}/api/v1/auth/sso/start?${new URLSearchParams({ email: uniqueEmail('nowhere') })}`);
    expect(unrouted.statusCode).toBe(302);
    expect(unrouted.headers.location).toBe(`/hosted/${project.key}/sign-in?social_error=unavailable`);
  });
});

describe('the hosted OpenID Connect round trip', () => {
  it("ends signed in on the hosted pages through the connection's callback", async () => {
    const project = await newProject();
    const clientId = `hosted-oidc-${domainSeq}`;
    const connection = await createConnection(project, { type: 'oidc', name: 'Corp Entra', saml: undefined, oidc: { issuer: oidcIdp.issuer, client_id: clientId, client_secret: 'corp-secret' } });
    const callbackUrl = `${APP_URL}/sso/oidc/${connection.id}/callback`;
    await oidcIdp.addClient({ client_id: clientId, client_secret: 'corp-secret', redirect_uris: [callbackUrl], token_endpoint_auth_method: 'client_secret_post' });
    const email = `ops@${project.domain}`;
    oidcIdp.setUser({ sub: `corp-ops-${domainSeq}`, email, email_verified: true, given_name: 'Olga', family_name: 'Ops' });
    oidcIdp.nextLogin(`corp-ops-${domainSeq}`);

    const browser = new HostedBrowser(t, project);
    const authorization = new URL(await startHosted(browser, project, { connection_id: connection.id }));
    expect(authorization.origin).toBe(oidcIdp.issuer);
    const back = new URL(await followToRedirect(authorization, callbackUrl, { jar: new CookieJar() }));
    const callback = await t.call('GET', `${back.pathname}${back.search}`);
    expect(callback.statusCode, callback.body).toBe(303);
    const finish = callback.headers.location as string;
    expect(finish.startsWith(`${APP_URL}/hosted/${project.key}/api/v1/auth/sso/finish?code=`)).toBe(true);
    const landed = await browser.request('GET', pathOf(finish));
    expect(landed.headers.location).toBe(`/hosted/${project.key}/account`);
    expect(browser.signedIn()).toBe(true);
    expect((await browser.request('GET', `/hosted/${project.key}/api/v1/profile`)).json()).toMatchObject({ email, first_name: 'Olga' });
  });
});

describe("the OpenID Connect provider's login_hint", () => {
  async function authorize(browser: HostedBrowser, project: Project, loginHint: string) {
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      client_id: project.key,
      redirect_uri: APP_CALLBACK,
      response_type: 'code',
      scope: 'openid email',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'app-state',
      login_hint: loginHint,
    });
    const response = await browser.request('GET', `/hosted/${project.key}/authorize?${query}`);
    expect(response.statusCode, response.body).toBe(303);
    return { location: response.headers.location as string, verifier };
  }

  it('with an address of a routed domain goes straight to its IdP, and the app gets its code after the round trip', async () => {
    const project = await newProject();
    await createConnection(project);
    const browser = new HostedBrowser(t, project);
    const email = `hinted@${project.domain}`;
    const { location, verifier } = await authorize(browser, project, email);
    const start = new URL(location);
    expect(`${start.origin}${start.pathname}`).toBe(`${APP_URL}/hosted/${project.key}/api/v1/auth/sso/start`);
    expect(start.searchParams.get('email')).toBe(email);
    const toIdp = await browser.request('GET', pathOf(location));
    expect(toIdp.statusCode).toBe(302);
    expect((toIdp.headers.location as string).startsWith(`${IDP_SSO_URL}?`)).toBe(true);

    const landed = await browser.request('GET', pathOf(await idpSignsIn(toIdp.headers.location as string, email)));
    expect(landed.statusCode).toBe(302);
    const continuation = new URL(landed.headers.location as string, APP_URL);
    expect(continuation.pathname).toBe(`/hosted/${project.key}/authorize/continue`);
    const back = await browser.continueAppSignIn(continuation.searchParams.get('interaction')!);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toMatch(new RegExp(`^${APP_CALLBACK}\\?code=.*state=app-state`));
    expect(await exchangeAtApp(t, project, back.headers.location as string, verifier)).toMatchObject({ email, email_verified: true });
  });

  it('with any other address shows the sign-in page with the address filled in', async () => {
    const project = await newProject();
    await createConnection(project, {}, { verified: false });
    const browser = new HostedBrowser(t, project);
    for (const hint of [uniqueEmail('plain'), `unverified@${project.domain}`]) {
      const page = new URL((await authorize(browser, project, hint)).location);
      expect(page.pathname).toBe(`/hosted/${project.key}/sign-in`);
      expect(page.searchParams.get('login_hint')).toBe(hint);
    }
  });
});

describe('enforced connections refuse the password', () => {
  it('sign-in and sign-up, in the public API and on the hosted pages; discovery says so; other domains are not affected', async () => {
    const project = await newProject();
    const publicApi = (path: string, body: unknown) => t.call('POST', `/public/api/v1${path}`, { headers: { 'x-api-key': project.apiKey }, body, ip: uniqueIp() });
    const alice = `alice@${project.domain}`;
    const before = t.mail.messages.length;
    expect((await publicApi('/auth/signup', { email: alice, password: STRONG_PASSWORD })).statusCode).toBe(201);
    const link = new URL((await t.mail.waitFor(alice, /verify/i, { after: before })).link!);
    expect((await publicApi('/auth/verify-email', { token: link.searchParams.get('token') })).statusCode).toBe(200);

    const connection = await createConnection(project, { enforce: true });
    expect((await discover(project, alice)).json()).toEqual({ sso: true, connection_id: connection.id, name: 'Corp Okta', enforced: true });
    const browser = new HostedBrowser(t, project);
    const refusals = [
      await publicApi('/auth/login', { email: alice, password: STRONG_PASSWORD }),
      await publicApi('/auth/signup', { email: `bob@${project.domain}`, password: STRONG_PASSWORD }),
      await publicApi('/auth/signup', { email: alice, password: STRONG_PASSWORD }),
      await browser.logIn(alice),
      await browser.logIn(`nobody@${project.domain}`, 'Wrong-Password-1'),
      await browser.api('/auth/signup', { email: `carol@${project.domain}`, password: STRONG_PASSWORD }),
    ];
    for (const refused of refusals) {
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toEqual({ detail: SSO_MESSAGES.enforced });
    }
    expect(browser.signedIn()).toBe(false);
    expect(await t.db.selectFrom('users').select('email').where('project_id', '=', project.id).where('email', 'in', [`bob@${project.domain}`, `carol@${project.domain}`]).execute()).toEqual([]);

    // The IdP still signs Alice in, on the hosted pages.
    const finish = await idpSignsIn(await startHosted(browser, project, { email: alice }), alice);
    await browser.request('GET', pathOf(finish));
    expect(browser.signedIn()).toBe(true);

    // Another domain signs up and in with a password as before.
    const outsider = uniqueEmail('outsider');
    expect((await new HostedBrowser(t, project).api('/auth/signup', { email: outsider, password: STRONG_PASSWORD })).statusCode).toBe(201);
  });
});

describe("an enterprise connection among the project's sign-in methods", () => {
  it("joins sign_in_methods as sso:<id>; turned off, it is neither offered nor started (403), and on again it is", async () => {
    const project = await newProject();
    const connection = await createConnection(project);
    const key = `sso:${connection.id}`;
    const settings = (body?: unknown) =>
      t.call(body ? 'PATCH' : 'GET', `/api/v1/projects/${project.id}/settings`, { token: project.ownerToken, ...(body ? { body } : {}) });
    expect((await settings()).json().sign_in_methods.connections).toEqual({ [key]: true });
    const alice = `alice@${project.domain}`;
    const authorize = () =>
      t.call('GET', `/public/api/v1/auth/sso/authorize?${new URLSearchParams({ email: alice, redirect_uri: APP_CALLBACK, state: 'app-state' })}`, {
        headers: { 'x-api-key': project.apiKey },
        ip: uniqueIp(),
      });

    const off = await settings({ sign_in_methods: { connections: { [key]: false } } });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().sign_in_methods.connections).toEqual({ [key]: false });
    expect((await discover(project, alice)).json()).toEqual({ sso: false, connection_id: null, name: null, enforced: false });
    const refused = await authorize();
    expect([refused.statusCode, refused.json()]).toEqual([403, { detail: 'This sign-in method is disabled' }]);
    const hostedStart = await new HostedBrowser(t, project).request('GET', `/hosted/${project.key}/api/v1/auth/sso/start?${new URLSearchParams({ email: alice })}`);
    expect(hostedStart.statusCode).toBe(302);
    expect(String(hostedStart.headers.location)).not.toContain(IDP_SSO_URL);

    expect((await settings({ sign_in_methods: { connections: { [key]: true } } })).statusCode).toBe(200);
    expect((await discover(project, alice)).json()).toMatchObject({ sso: true, connection_id: connection.id });
    const started = await authorize();
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().authorization_url.startsWith(`${IDP_SSO_URL}?`)).toBe(true);
  });
});
