import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { SSO_MESSAGES } from '../../shared/schemas/sso.js';
import { X509Certificate } from 'node:crypto';
import {
  encryptedSamlResponse,
  IDP_ENTITY_ID,
  IDP_SSO_URL,
  idpMetadataXml,
  readAuthnRequest,
  samlResponse,
  verifyRedirectSignature,
  wrappedSamlResponse,
  type ResponseOptions,
} from '../helpers/identity-providers/saml.js';
import { OTHER_CERT, OTHER_KEY } from '../helpers/identity-providers/saml-keys.js';

/**
 * Enterprise SAML connections from outside: the team's CRUD, the SP metadata, and the public API's
 * SP-initiated sign-in through a test IdP (xml-crypto signing whatever a test needs) to the one-time
 * code and tokens whose org_id is the connection's organization, verified against the project's JWKS.
 * Domains count as verified at once (SSO_DOMAIN_VERIFICATION=off); sso-domains.test.ts covers the DNS proof.
 * Runs on SQLite and PostgreSQL.
 */

const APP_CALLBACK = 'https://app.example/auth/callback';
const STATE = 'state-from-the-app';
let t: TestApp;
let domainSeq = 0;

interface Project {
  id: string;
  key: string;
  apiKey: string;
  ownerToken: string;
  organizationId: string;
  domain: string;
}

const uniqueDomain = () => `acme-${process.pid}-${++domainSeq}.example`;

async function newProject(): Promise<Project> {
  const owner = await t.signUpAndLogIn(uniqueEmail('sso-owner'));
  const project = (await t.call('POST', '/api/v1/projects', { token: owner.access_token, body: { name: 'B2B SaaS', redirect_uris: [APP_CALLBACK] } })).json();
  const key = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: owner.access_token, body: { name: 'backend' } })).json();
  const organization = await t.call('POST', '/public/api/v1/organizations', { headers: { 'x-api-key': key.secret }, body: { name: 'Acme Inc.' } });
  expect(organization.statusCode, organization.body).toBe(201);
  return { id: project.id, key: project.project_key, apiKey: key.secret, ownerToken: owner.access_token, organizationId: organization.json().id, domain: uniqueDomain() };
}

async function createConnection(project: Project, body: Record<string, unknown> = {}) {
  const created = await t.call('POST', `/api/v1/projects/${project.id}/sso-connections`, {
    token: project.ownerToken,
    body: { organization_id: project.organizationId, type: 'saml', name: 'Acme Okta', domains: [project.domain], saml: { idp_metadata_xml: idpMetadataXml() }, ...body },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as { id: string; saml: { sp_entity_id: string; acs_url: string; sp_metadata_url: string; sp_certificate: string; sign_authn_requests: boolean; require_encrypted_assertions: boolean } };
}

/** The backend starts the sign-in; the browser reaches the IdP with our AuthnRequest. */
async function startSignIn(project: Project, query: Record<string, string>) {
  const params = new URLSearchParams({ redirect_uri: APP_CALLBACK, state: STATE, ...query });
  const started = await t.call('GET', `/public/api/v1/auth/sso/authorize?${params}`, { headers: { 'x-api-key': project.apiKey } });
  return started;
}

async function authnRequestFor(project: Project, email: string) {
  const started = await startSignIn(project, { email });
  expect(started.statusCode, started.body).toBe(200);
  const url = started.json().authorization_url as string;
  expect(url.startsWith(`${IDP_SSO_URL}?`)).toBe(true);
  return readAuthnRequest(url);
}

/** The IdP POSTs the response to the ACS through the browser (a cross-site form). */
function postToAcs(acsUrl: string, response: string, relayState?: string) {
  const form = new URLSearchParams({ SAMLResponse: response, ...(relayState !== undefined && { RelayState: relayState }) });
  return t.call('POST', new URL(acsUrl).pathname, { headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.example', 'sec-fetch-site': 'cross-site' }, body: form.toString() });
}

function exchange(project: Project, code: string) {
  return t.call('POST', '/public/api/v1/auth/oauth/exchange', { headers: { 'x-api-key': project.apiKey }, body: { code } });
}

async function verifiedClaims(project: Project, token: string): Promise<JWTPayload & Record<string, unknown>> {
  const jwks = (await t.call('GET', `/public/api/v1/projects/${project.key}/jwks.json`)).json();
  const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: `${APP_URL}/projects/${project.key}`, audience: project.key });
  return payload as JWTPayload & Record<string, unknown>;
}

/** A full SP-initiated round: authorize, the IdP's response (shaped by `shape`), the ACS; answers the ACS's reply. */
async function signInThroughIdp(project: Project, connection: { saml: { sp_entity_id: string } }, email: string, shape: (base: ResponseOptions) => string | Promise<string> = samlResponse) {
  const request = await authnRequestFor(project, email);
  const base: ResponseOptions = { acsUrl: request.acsUrl, audience: request.issuer, nameId: email, inResponseTo: request.id, attributes: { firstName: 'Jane', lastName: 'Doe' } };
  expect(request.issuer).toBe(connection.saml.sp_entity_id);
  return { reply: await postToAcs(request.acsUrl, await shape(base)), request, base };
}

function callbackOf(reply: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  expect(reply.statusCode, reply.body).toBe(303);
  const location = new URL(reply.headers.location as string);
  expect(`${location.origin}${location.pathname}`).toBe(APP_CALLBACK);
  return location.searchParams;
}

function expectRefused(reply: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  const params = callbackOf(reply);
  expect(params.get('error')).toBe('access_denied');
  expect(params.get('state')).toBe(STATE);
  expect(params.get('code')).toBeNull();
}

beforeAll(async () => {
  t = await createTestApp({ env: { SSO_DOMAIN_VERIFICATION: 'off' } });
});
afterAll(() => t.close());

describe('SAML connections: the team manages them', () => {
  it('creates a connection from IdP metadata and answers what the IdP needs; lists, reads, changes and deletes it', async () => {
    const project = await newProject();
    const connection = await createConnection(project, { default_role: 'org:admin', attribute_mapping: { email: 'mail' } });
    expect(connection).toMatchObject({
      type: 'saml',
      name: 'Acme Okta',
      organization_id: project.organizationId,
      default_role: 'org:admin',
      allow_idp_initiated: false,
      enforce: false,
      attribute_mapping: { email: 'mail' },
      domains: [{ domain: project.domain, verified: true, txt_record_name: `_authplatform-verification.${project.domain}` }],
      saml: {
        idp_entity_id: IDP_ENTITY_ID,
        idp_sso_url: IDP_SSO_URL,
        sp_entity_id: `${APP_URL}/sso/saml/${connection.id}`,
        acs_url: `${APP_URL}/sso/saml/${connection.id}/acs`,
        sp_metadata_url: `${APP_URL}/sso/saml/${connection.id}/metadata`,
      },
      oidc: null,
    });
    const path = `/api/v1/projects/${project.id}/sso-connections`;
    expect((await t.call('GET', path, { token: project.ownerToken })).json().connections.map((c: { id: string }) => c.id)).toEqual([connection.id]);
    expect((await t.call('GET', `${path}/${connection.id}`, { token: project.ownerToken })).json()).toEqual(connection);

    const changed = await t.call('PATCH', `${path}/${connection.id}`, { token: project.ownerToken, body: { name: 'Acme Entra', allow_idp_initiated: true, domains: [project.domain, 'acme-extra.example'] } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Acme Entra', allow_idp_initiated: true });
    expect(changed.json().domains.map((d: { domain: string }) => d.domain).sort()).toEqual(['acme-extra.example', project.domain].sort());

    const audit = (await t.call('GET', `/api/v1/projects/${project.id}/audit-log`, { token: project.ownerToken })).json();
    expect(JSON.stringify(audit)).toContain('sso_connection.updated');

    expect((await t.call('DELETE', `${path}/${connection.id}`, { token: project.ownerToken })).statusCode).toBe(200);
    expect((await t.call('GET', `${path}/${connection.id}`, { token: project.ownerToken })).statusCode).toBe(404);
  });

  it('serves the SP metadata as XML at sp_metadata_url', async () => {
    const project = await newProject();
    const connection = await createConnection(project);
    const metadata = await t.call('GET', new URL(connection.saml.sp_metadata_url).pathname);
    expect(metadata.statusCode).toBe(200);
    expect(metadata.headers['content-type']).toContain('application/samlmetadata+xml');
    expect(metadata.body).toContain(`entityID="${connection.saml.sp_entity_id}"`);
    expect(metadata.body).toContain(`Location="${connection.saml.acs_url}"`);
    expect(metadata.body).toContain('urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST');
    expect((await t.call('GET', '/sso/saml/no-such-connection/metadata')).statusCode).toBe(404);
  });

  it('refuses IdP metadata it cannot use with a 422 that says why', async () => {
    const project = await newProject();
    const attempt = (saml: unknown) =>
      t.call('POST', `/api/v1/projects/${project.id}/sso-connections`, { token: project.ownerToken, body: { organization_id: project.organizationId, type: 'saml', name: 'Bad', domains: [], saml } });
    const garbage = await attempt({ idp_metadata_xml: 'not xml at all <' });
    expect(garbage.statusCode).toBe(422);
    expect(garbage.json().detail).toMatch(/^The IdP metadata is not usable/);
    const noCert = await attempt({ idp_metadata_xml: idpMetadataXml().replace(/<md:KeyDescriptor[\s\S]*<\/md:KeyDescriptor>/, '') });
    expect(noCert.json()).toEqual({ detail: 'The IdP metadata is not usable: no signing certificate (KeyDescriptor with an X509Certificate)' });
    const noRedirect = await attempt({ idp_metadata_xml: idpMetadataXml().replace(/<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"[^>]*>/, '') });
    expect(noRedirect.json().detail).toContain('HTTP-Redirect');
    const doctype = await attempt({ idp_metadata_xml: `<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>${idpMetadataXml().replace(/^<\?xml[^>]*>/, '')}` });
    expect(doctype.statusCode).toBe(422);
    const privateUrl = await attempt({ idp_metadata_url: 'http://127.0.0.1:9/metadata' });
    expect(privateUrl.json()).toEqual({ detail: 'idp_metadata_url must be a public address: this server does not reach identity providers on private or local networks' });
    const missing = await t.call('POST', `/api/v1/projects/${project.id}/sso-connections`, { token: project.ownerToken, body: { organization_id: project.organizationId, type: 'saml', name: 'No metadata' } });
    expect(missing.statusCode).toBe(422);
    const unknownRole = await attempt({ idp_metadata_xml: idpMetadataXml() }).then(() =>
      t.call('POST', `/api/v1/projects/${project.id}/sso-connections`, { token: project.ownerToken, body: { organization_id: project.organizationId, type: 'saml', name: 'Role', saml: { idp_metadata_xml: idpMetadataXml() }, default_role: 'org:nope' } }),
    );
    expect(unknownRole.statusCode).toBe(422);
  });

  it("only the project's team reaches its connections, and a domain is verified for one connection per project", async () => {
    const project = await newProject();
    const connection = await createConnection(project);
    const stranger = await t.signUpAndLogIn(uniqueEmail('stranger'));
    expect((await t.call('GET', `/api/v1/projects/${project.id}/sso-connections/${connection.id}`, { token: stranger.access_token })).statusCode).toBe(404);
    const second = await t.call('POST', `/api/v1/projects/${project.id}/sso-connections`, {
      token: project.ownerToken,
      body: { organization_id: project.organizationId, type: 'saml', name: 'Copy', domains: [project.domain], saml: { idp_metadata_xml: idpMetadataXml() } },
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().detail).toContain(project.domain);
  });
});

describe('SAML sign-in, SP-initiated through the public API', () => {
  it('signs in by e-mail domain: the first sign-in makes the verified user and the membership; the tokens carry the organization', async () => {
    const project = await newProject();
    const connection = await createConnection(project);
    const email = `jane@${project.domain}`;
    const { reply } = await signInThroughIdp(project, connection, email);
    const params = callbackOf(reply);
    expect(params.get('state')).toBe(STATE);
    const exchanged = await exchange(project, params.get('code')!);
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const answer = exchanged.json();
    expect(answer.user).toMatchObject({ email, is_verified: true, first_name: 'Jane', last_name: 'Doe' });
    const claims = await verifiedClaims(project, answer.access_token);
    expect(claims).toMatchObject({ sub: answer.user.id, org_id: project.organizationId, org_role: 'org:member' });
    // The code works once.
    expect((await exchange(project, params.get('code')!)).statusCode).toBe(400);

    const members = (await t.call('GET', `/public/api/v1/organizations/${project.organizationId}/members`, { headers: { 'x-api-key': project.apiKey } })).json();
    expect(members.members).toEqual([expect.objectContaining({ user_id: answer.user.id, role: 'org:member' })]);

    // A second sign-in finds the same account, by connection_id this time.
    const again = await t.call('GET', `/public/api/v1/auth/sso/authorize?${new URLSearchParams({ connection_id: connection.id, redirect_uri: APP_CALLBACK, state: STATE })}`, { headers: { 'x-api-key': project.apiKey } });
    const request = readAuthnRequest(again.json().authorization_url);
    const second = callbackOf(await postToAcs(request.acsUrl, samlResponse({ acsUrl: request.acsUrl, audience: request.issuer, nameId: email, inResponseTo: request.id })));
    expect((await exchange(project, second.get('code')!)).json().user.id).toBe(answer.user.id);
  });

  it('maps attributes: the e-mail and names from named attributes, IdP groups to organization roles', async () => {
    const project = await newProject();
    await t.call('POST', `/api/v1/projects/${project.id}/roles`, { token: project.ownerToken, body: { key: 'org:billing', name: 'Billing', permissions: ['invoices:read'] } });
    const connection = await createConnection(project, {
      attribute_mapping: { email: 'mail', first_name: 'given', last_name: 'family', groups: 'groups', group_roles: { 'Finance Team': 'org:billing', Admins: 'org:admin' } },
    });
    const email = `ann@${project.domain}`;
    const { reply } = await signInThroughIdp(project, connection, email, (base) =>
      samlResponse({ ...base, nameId: 'opaque-id-123', attributes: { mail: email, given: 'Ann', family: 'Smith', groups: ['Everyone', 'Finance Team'] } }),
    );
    const answer = (await exchange(project, callbackOf(reply).get('code')!)).json();
    expect(answer.user).toMatchObject({ email, first_name: 'Ann', last_name: 'Smith' });
    expect(await verifiedClaims(project, answer.access_token)).toMatchObject({ org_id: project.organizationId, org_role: 'org:billing', org_permissions: ['invoices:read'] });
  });

  it('refuses an unregistered redirect_uri, an unknown domain and an unknown connection', async () => {
    const project = await newProject();
    await createConnection(project);
    expect((await startSignIn(project, { email: `a@${project.domain}`, redirect_uri: 'https://evil.example/cb' })).statusCode).toBe(400);
    const unknown = await startSignIn(project, { email: 'a@elsewhere.example' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'No single sign-on connection for this e-mail domain' });
    expect((await startSignIn(project, { connection_id: 'nope' })).statusCode).toBe(404);
    expect((await startSignIn(project, {})).statusCode).toBe(422);
  });

  describe('refuses responses that do not hold', () => {
    let project: Project;
    let connection: Awaited<ReturnType<typeof createConnection>>;
    beforeAll(async () => {
      project = await newProject();
      connection = await createConnection(project);
    });
    const email = () => `bob@${project.domain}`;

    it('an unsigned response and assertion', async () => {
      expectRefused((await signInThroughIdp(project, connection, email(), (base) => samlResponse({ ...base, sign: 'none' }))).reply);
    });

    it('one signed by another key', async () => {
      expectRefused((await signInThroughIdp(project, connection, email(), (base) => samlResponse({ ...base, key: OTHER_KEY, cert: OTHER_CERT }))).reply);
      expectRefused((await signInThroughIdp(project, connection, email(), (base) => samlResponse({ ...base, sign: 'response', key: OTHER_KEY, cert: OTHER_CERT }))).reply);
    });

    it('accepts a signed response around an unsigned assertion', async () => {
      const { reply } = await signInThroughIdp(project, connection, email(), (base) => samlResponse({ ...base, sign: 'response' }));
      expect(callbackOf(reply).get('code')).toBeTruthy();
    });

    it('an expired assertion, and one not yet valid (beyond the clock skew)', async () => {
      const now = Date.now();
      expectRefused((await signInThroughIdp(project, connection, email(), (base) => samlResponse({ ...base, notBefore: new Date(now - 20 * 60_000), notOnOrAfter: new Date(now - 5 * 60_000) }))).reply);
      expectRefused((await signInThroughIdp(project, connection, email(), (base) => samlResponse({ ...base, notBefore: new Date(now + 10 * 60_000), notOnOrAfter: new Date(now + 20 * 60_000) }))).reply);
    });

    it('another audience, another recipient, another destination, another issuer', async () => {
      expectRefused((await signInThroughIdp(project, connection, email(), (base) => samlResponse({ ...base, audience: 'https://other-sp.example' }))).reply);
      expectRefused((await signInThroughIdp(project, connection, email(), (base) => samlResponse({ ...base, recipient: 'https://other-sp.example/acs' }))).reply);
      expectRefused((await signInThroughIdp(project, connection, email(), (base) => samlResponse({ ...base, sign: 'both', destination: 'https://other-sp.example/acs' }))).reply);
      expectRefused((await signInThroughIdp(project, connection, email(), (base) => samlResponse({ ...base, issuer: 'https://other-idp.example' }))).reply);
    });

    it('an InResponseTo of no request of ours, and a replayed response', async () => {
      // Nothing of ours to answer: no app to return to, a page.
      const notOurs = (await signInThroughIdp(project, connection, email(), (base) => samlResponse({ ...base, inResponseTo: '_not-ours' }))).reply;
      expect(notOurs.statusCode).toBe(400);
      expect(notOurs.body).toContain('Sign-in failed');
      const { reply, base } = await signInThroughIdp(project, connection, email(), (options) => {
        const response = samlResponse(options);
        (options as ResponseOptions & { response?: string }).response = response;
        return response;
      });
      expect(callbackOf(reply).get('code')).toBeTruthy();
      const replayed = await postToAcs(base.acsUrl, (base as ResponseOptions & { response?: string }).response!);
      expect(replayed.statusCode).toBe(400);
      expect(replayed.headers['content-type']).toContain('text/html');
    });

    it('XML signature wrapping: a forged assertion around or beside the signed one', async () => {
      for (const variant of ['advice', 'sibling'] as const) {
        const { reply } = await signInThroughIdp(project, connection, email(), (base) => wrappedSamlResponse(base, `attacker@${project.domain}`, variant));
        expectRefused(reply);
      }
    });

    it('an address outside the connection\'s verified domains', async () => {
      expectRefused((await signInThroughIdp(project, connection, email(), (base) => samlResponse({ ...base, nameId: 'ceo@other-company.example' }))).reply);
    });
  });
});

describe('IdP-initiated SAML sign-in', () => {
  it('is refused unless the connection allows it; then it goes to the registered redirect URI, and an assertion works once', async () => {
    const project = await newProject();
    const connection = await createConnection(project);
    const acsUrl = connection.saml.acs_url;
    const unsolicited = () => samlResponse({ acsUrl, audience: connection.saml.sp_entity_id, nameId: `carol@${project.domain}` });
    const refused = await postToAcs(acsUrl, unsolicited());
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Sign-in failed');

    await t.call('PATCH', `/api/v1/projects/${project.id}/sso-connections/${connection.id}`, { token: project.ownerToken, body: { allow_idp_initiated: true } });
    const response = unsolicited();
    const accepted = await postToAcs(acsUrl, response, 'https://evil.example/steal');
    const params = callbackOf(accepted);
    expect(params.get('state')).toBeNull();
    const answer = (await exchange(project, params.get('code')!)).json();
    expect(await verifiedClaims(project, answer.access_token)).toMatchObject({ org_id: project.organizationId });
    // The same assertion again is a replay: remembered in the database until it expires.
    const replayed = await postToAcs(acsUrl, response);
    expect(replayed.statusCode).toBe(400);
  });
});

describe('enforced single sign-on', () => {
  it("refuses the password of the connection's domains (known address or not), and no other domain's; lifted with enforce off", async () => {
    const project = await newProject();
    const api = (path: string, body: unknown) => t.call('POST', `/public/api/v1${path}`, { headers: { 'x-api-key': project.apiKey }, body, ip: uniqueIp() });
    const alice = `alice@${project.domain}`;
    const before = t.mail.messages.length;
    expect((await api('/auth/signup', { email: alice, password: STRONG_PASSWORD })).statusCode).toBe(201);
    const link = new URL((await t.mail.waitFor(alice, /verify/i, { after: before })).link!);
    expect((await api('/auth/verify-email', { token: link.searchParams.get('token') })).statusCode).toBe(200);
    expect((await api('/auth/login', { email: alice, password: STRONG_PASSWORD })).statusCode).toBe(200);

    const connection = await createConnection(project, { enforce: true });
    const refused = await api('/auth/login', { email: alice, password: STRONG_PASSWORD });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: SSO_MESSAGES.enforced });
    // The same answer for an address with no account and for a wrong password: nothing about the account leaks.
    expect((await api('/auth/login', { email: `nobody@${project.domain}`, password: STRONG_PASSWORD })).json()).toEqual({ detail: SSO_MESSAGES.enforced });
    expect((await api('/auth/login', { email: alice, password: 'Wrong-Password-1' })).json()).toEqual({ detail: SSO_MESSAGES.enforced });
    // The IdP still signs her in, into the same account.
    const { reply } = await signInThroughIdp(project, connection, alice);
    const answer = (await exchange(project, callbackOf(reply).get('code')!)).json();
    expect(answer.user.email).toBe(alice);
    expect(await verifiedClaims(project, answer.access_token)).toMatchObject({ org_id: project.organizationId });
    // Another domain signs in with its password as before.
    const outsider = uniqueEmail('outsider');
    await api('/auth/signup', { email: outsider, password: STRONG_PASSWORD });
    expect((await api('/auth/login', { email: outsider, password: STRONG_PASSWORD })).statusCode).toBe(200);

    await t.call('PATCH', `/api/v1/projects/${project.id}/sso-connections/${connection.id}`, { token: project.ownerToken, body: { enforce: false } });
    expect((await api('/auth/login', { email: alice, password: STRONG_PASSWORD })).statusCode).toBe(200);
  });
});

describe("the connection's own key pair (sp_certificate)", () => {
  const base64Of = (pem: string) => new X509Certificate(pem).raw.toString('base64');

  it('is made with the connection: an RSA-2048 self-signed certificate, answered as PEM and listed in the SP metadata for signing and encryption', async () => {
    const project = await newProject();
    const connection = await createConnection(project);
    expect(connection.saml).toMatchObject({ sign_authn_requests: false, require_encrypted_assertions: false });
    const certificate = new X509Certificate(connection.saml.sp_certificate);
    expect(certificate.publicKey.asymmetricKeyType).toBe('rsa');
    expect(certificate.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(certificate.subject).toContain(connection.id);
    expect(certificate.checkIssued(certificate)).toBe(true);
    expect(certificate.verify(certificate.publicKey)).toBe(true);

    const metadata = (await t.call('GET', new URL(connection.saml.sp_metadata_url).pathname)).body;
    for (const use of ['signing', 'encryption']) {
      expect(metadata).toMatch(new RegExp(`<KeyDescriptor[^>]*use="${use}"[\\s\\S]*?${base64Of(connection.saml.sp_certificate).slice(0, 64).replace(/[+/]/g, '\\$&')}`));
    }
    expect(metadata).toContain('AuthnRequestsSigned="false"');
    expect(metadata).not.toContain('PRIVATE KEY');
    // Each connection has its own.
    const other = await createConnection(await newProject());
    expect(other.saml.sp_certificate).not.toBe(connection.saml.sp_certificate);
    // The private key is never answered.
    const read = await t.call('GET', `/api/v1/projects/${project.id}/sso-connections/${connection.id}`, { token: project.ownerToken });
    expect(read.body).not.toContain('PRIVATE KEY');
  });

  it('is made the first time it is needed for a connection that predates keys: the answer, the metadata and sign-in work', async () => {
    const project = await newProject();
    const connection = await createConnection(project);
    await t.db.updateTable('sso_connections').set({ saml_sp_private_key: null, saml_sp_certificate: null }).where('id', '=', connection.id).execute();

    const metadata = await t.call('GET', new URL(connection.saml.sp_metadata_url).pathname);
    expect(metadata.statusCode).toBe(200);
    const read = (await t.call('GET', `/api/v1/projects/${project.id}/sso-connections/${connection.id}`, { token: project.ownerToken })).json();
    expect(read.saml.sp_certificate).toContain('BEGIN CERTIFICATE');
    expect(read.saml.sp_certificate).not.toBe(connection.saml.sp_certificate);
    expect(metadata.body).toContain(base64Of(read.saml.sp_certificate).slice(0, 64));
    const listed = (await t.call('GET', `/api/v1/projects/${project.id}/sso-connections`, { token: project.ownerToken })).json();
    expect(listed.connections[0].saml.sp_certificate).toBe(read.saml.sp_certificate);

    const { reply } = await signInThroughIdp(project, connection, `kim@${project.domain}`);
    expect(callbackOf(reply).get('code')).toBeTruthy();
  });
});

describe('signed AuthnRequests (saml.sign_authn_requests)', () => {
  it('are off by default: the request carries no signature', async () => {
    const project = await newProject();
    await createConnection(project);
    const started = await startSignIn(project, { email: `a@${project.domain}` });
    const url = started.json().authorization_url as string;
    expect(readAuthnRequest(url).signature).toBeNull();
    expect(new URL(url).searchParams.has('SigAlg')).toBe(false);
  });

  it('when on, the HTTP-Redirect request is signed (RSA-SHA256) by the answered sp_certificate; a tampered query does not verify', async () => {
    const project = await newProject();
    const connection = await createConnection(project, { saml: { idp_metadata_xml: idpMetadataXml(), sign_authn_requests: true } });
    expect(connection.saml.sign_authn_requests).toBe(true);
    const started = await startSignIn(project, { email: `a@${project.domain}` });
    const url = started.json().authorization_url as string;
    expect(readAuthnRequest(url).signature).toMatchObject({ sigAlg: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256' });
    expect(verifyRedirectSignature(url, connection.saml.sp_certificate)).toBe(true);
    expect(verifyRedirectSignature(url, OTHER_CERT)).toBe(false);
    expect(verifyRedirectSignature(`${url}&RelayState=evil`, connection.saml.sp_certificate)).toBe(false);
    const request = new URL(url).searchParams.get('SAMLRequest')!;
    const tampered = url.replace(encodeURIComponent(request), encodeURIComponent(`${request.slice(0, 10)}${request[10] === 'A' ? 'B' : 'A'}${request.slice(11)}`));
    expect(tampered).not.toBe(url);
    expect(verifyRedirectSignature(tampered, connection.saml.sp_certificate)).toBe(false);

    // The sign-in completes as usual.
    const { reply } = await signInThroughIdp(project, connection, `lee@${project.domain}`);
    expect(callbackOf(reply).get('code')).toBeTruthy();
  });

  it('is turned on and off by PATCH without new metadata; saml options alone do not make a connection', async () => {
    const project = await newProject();
    const connection = await createConnection(project);
    const path = `/api/v1/projects/${project.id}/sso-connections/${connection.id}`;
    const on = await t.call('PATCH', path, { token: project.ownerToken, body: { saml: { sign_authn_requests: true } } });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().saml).toMatchObject({ sign_authn_requests: true, require_encrypted_assertions: false, idp_entity_id: IDP_ENTITY_ID, sp_certificate: connection.saml.sp_certificate });
    expect((await t.call('GET', new URL(connection.saml.sp_metadata_url).pathname)).body).toContain('AuthnRequestsSigned="true"');
    const signed = (await startSignIn(project, { email: `a@${project.domain}` })).json().authorization_url as string;
    expect(verifyRedirectSignature(signed, connection.saml.sp_certificate)).toBe(true);
    const audit = (await t.call('GET', `/api/v1/projects/${project.id}/audit-log`, { token: project.ownerToken })).json();
    expect(JSON.stringify(audit)).toContain('sign_authn_requests');

    const off = await t.call('PATCH', path, { token: project.ownerToken, body: { saml: { sign_authn_requests: false } } });
    expect(off.json().saml.sign_authn_requests).toBe(false);
    expect(readAuthnRequest((await startSignIn(project, { email: `a@${project.domain}` })).json().authorization_url).signature).toBeNull();

    const bad = await t.call('PATCH', path, { token: project.ownerToken, body: { saml: { sign_authn_requests: 'yes' } } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toBeTruthy();
    const bare = await t.call('POST', `/api/v1/projects/${project.id}/sso-connections`, {
      token: project.ownerToken,
      body: { organization_id: project.organizationId, type: 'saml', name: 'Bare', domains: [], saml: { sign_authn_requests: true } },
    });
    expect(bare.statusCode).toBe(422);
    expect(bare.json().detail).toContain('idp_metadata_xml');
  });
});

describe('encrypted assertions', () => {
  let project: Project;
  let connection: Awaited<ReturnType<typeof createConnection>>;
  beforeAll(async () => {
    project = await newProject();
    connection = await createConnection(project);
  });
  const email = () => `eve-${randomSuffix()}@${project.domain}`;
  let seq = 0;
  const randomSuffix = () => `${process.pid}-${++seq}`;

  it('sign in when encrypted to sp_certificate: a signed assertion inside (AES-256-GCM), or a signed response around it (AES-256-CBC)', async () => {
    const first = await signInThroughIdp(project, connection, email(), (base) => encryptedSamlResponse(base, connection.saml.sp_certificate, 'aes256-gcm'));
    const answer = (await exchange(project, callbackOf(first.reply).get('code')!)).json();
    expect(answer.user).toMatchObject({ first_name: 'Jane', last_name: 'Doe' });
    expect(await verifiedClaims(project, answer.access_token)).toMatchObject({ org_id: project.organizationId });
    const second = await signInThroughIdp(project, connection, email(), (base) => encryptedSamlResponse({ ...base, sign: 'response' }, connection.saml.sp_certificate, 'aes256-cbc'));
    expect(callbackOf(second.reply).get('code')).toBeTruthy();
  });

  it('refuses one encrypted to another key, an unsigned one, and one signed by another key', async () => {
    expectRefused((await signInThroughIdp(project, connection, email(), (base) => encryptedSamlResponse(base, OTHER_CERT))).reply);
    expectRefused((await signInThroughIdp(project, connection, email(), (base) => encryptedSamlResponse({ ...base, sign: 'none' }, connection.saml.sp_certificate))).reply);
    expectRefused((await signInThroughIdp(project, connection, email(), (base) => encryptedSamlResponse({ ...base, key: OTHER_KEY, cert: OTHER_CERT }, connection.saml.sp_certificate))).reply);
  });

  it('saml.require_encrypted_assertions refuses a plain assertion (accepted while it is off), still takes an encrypted one', async () => {
    const own = await newProject();
    const plainFirst = await createConnection(own);
    expect(callbackOf((await signInThroughIdp(own, plainFirst, `p1@${own.domain}`)).reply).get('code')).toBeTruthy();
    const path = `/api/v1/projects/${own.id}/sso-connections/${plainFirst.id}`;
    const on = await t.call('PATCH', path, { token: own.ownerToken, body: { saml: { require_encrypted_assertions: true } } });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().saml.require_encrypted_assertions).toBe(true);
    expectRefused((await signInThroughIdp(own, plainFirst, `p2@${own.domain}`)).reply);
    expectRefused((await signInThroughIdp(own, plainFirst, `p3@${own.domain}`, (base) => samlResponse({ ...base, sign: 'both' }))).reply);
    expect(callbackOf((await signInThroughIdp(own, plainFirst, `p4@${own.domain}`, (base) => encryptedSamlResponse(base, plainFirst.saml.sp_certificate))).reply).get('code')).toBeTruthy();
    // A plain assertion hidden beside the encrypted one is refused too.
    expectRefused(
      (
        await signInThroughIdp(own, plainFirst, `p5@${own.domain}`, async (base) => {
          const encrypted = Buffer.from(await encryptedSamlResponse(base, plainFirst.saml.sp_certificate), 'base64').toString('utf8');
          const plain = Buffer.from(samlResponse(base), 'base64').toString('utf8');
          const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(plain)![0];
          return Buffer.from(encrypted.replace('<saml:EncryptedAssertion>', `${assertion}<saml:EncryptedAssertion>`)).toString('base64');
        })
      ).reply,
    );

    const created = await createConnection(await newProject(), { saml: { idp_metadata_xml: idpMetadataXml(), require_encrypted_assertions: true } });
    expect(created.saml.require_encrypted_assertions).toBe(true);
  });
});
