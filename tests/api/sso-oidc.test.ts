import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, createTestApp, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';
import { CookieJar, followToRedirect, startTestOidcProvider, type TestOidcProvider } from '../helpers/identity-providers.js';

/**
 * Enterprise OpenID Connect connections: the organization's IdP is oidc-provider on loopback (code flow,
 * PKCE, state, nonce, RS256 ID tokens), reached through the public API's SSO start, the connection's
 * callback and social sign-in's exchange. Runs on SQLite and PostgreSQL.
 */

const APP_CALLBACK = 'https://app.example/auth/callback';
let t: TestApp;
let idp: TestOidcProvider;
let seq = 0;

beforeAll(async () => {
  idp = await startTestOidcProvider();
  // The IdP is on loopback: CONNECTIONS_ALLOW_PRIVATE lets this server reach it.
  t = await createTestApp({ env: { SSO_DOMAIN_VERIFICATION: 'off', CONNECTIONS_ALLOW_PRIVATE: 'true' } });
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

async function setUp() {
  const owner = await t.signUpAndLogIn(uniqueEmail('sso-oidc'));
  const project = (await t.call('POST', '/api/v1/projects', { token: owner.access_token, body: { name: 'B2B', redirect_uris: [APP_CALLBACK] } })).json();
  const key = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: owner.access_token, body: { name: 'backend' } })).json();
  const organization = (await t.call('POST', '/public/api/v1/organizations', { headers: { 'x-api-key': key.secret }, body: { name: 'Globex' } })).json();
  const domain = `globex-${process.pid}-${++seq}.example`;
  const clientId = `globex-${seq}`;
  const created = await t.call('POST', `/api/v1/projects/${project.id}/sso-connections`, {
    token: owner.access_token,
    body: { organization_id: organization.id, type: 'oidc', name: 'Globex Entra', domains: [domain], oidc: { issuer: idp.issuer, client_id: clientId, client_secret: 'globex-secret' }, default_role: 'org:admin' },
  });
  expect(created.statusCode, created.body).toBe(201);
  const connection = created.json();
  expect(connection).toMatchObject({ type: 'oidc', saml: null, oidc: { issuer: idp.issuer, client_id: clientId, callback_url: `${APP_URL}/sso/oidc/${connection.id}/callback` } });
  expect(JSON.stringify(connection)).not.toContain('globex-secret');
  await idp.addClient({ client_id: clientId, client_secret: 'globex-secret', redirect_uris: [connection.oidc.callback_url], token_endpoint_auth_method: 'client_secret_post' });
  return { project, apiKey: key.secret as string, token: owner.access_token as string, organizationId: organization.id as string, domain, connection };
}

async function toIdpAndBack(apiKey: string, email: string, connectionCallback: string) {
  const started = await t.call('GET', `/public/api/v1/auth/sso/authorize?${new URLSearchParams({ email, redirect_uri: APP_CALLBACK, state: 'app-state-42' })}`, { headers: { 'x-api-key': apiKey } });
  expect(started.statusCode, started.body).toBe(200);
  const authorization = new URL(started.json().authorization_url);
  expect(authorization.origin).toBe(idp.issuer);
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorization.searchParams.get('nonce')).toBeTruthy();
  return new URL(await followToRedirect(authorization, connectionCallback, { jar: new CookieJar() }));
}

describe('enterprise OpenID Connect sign-in', () => {
  it("round trip: the IdP's user becomes a member with the default role; the tokens carry the organization", async () => {
    const s = await setUp();
    const email = `ops@${s.domain}`;
    idp.setUser({ sub: 'globex-ops', email, email_verified: true, given_name: 'Olga', family_name: 'Ops' });
    idp.nextLogin('globex-ops');
    const back = await toIdpAndBack(s.apiKey, email, s.connection.oidc.callback_url);
    const reply = await t.call('GET', `${back.pathname}${back.search}`);
    expect(reply.statusCode, reply.body).toBe(303);
    const location = new URL(reply.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(APP_CALLBACK);
    expect(location.searchParams.get('state')).toBe('app-state-42');
    const exchanged = await t.call('POST', '/public/api/v1/auth/oauth/exchange', { headers: { 'x-api-key': s.apiKey }, body: { code: location.searchParams.get('code') } });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const answer = exchanged.json();
    expect(answer.user).toMatchObject({ email, is_verified: true, first_name: 'Olga', last_name: 'Ops' });
    const jwks = (await t.call('GET', `/public/api/v1/projects/${s.project.project_key}/jwks.json`)).json();
    const { payload } = await jwtVerify(answer.access_token, createLocalJWKSet(jwks), { issuer: `${APP_URL}/projects/${s.project.project_key}`, audience: s.project.project_key });
    expect(payload).toMatchObject({ org_id: s.organizationId, org_role: 'org:admin' });

    // The callback works once: the same state again is refused, and the app hears nothing new.
    const again = await t.call('GET', `${back.pathname}${back.search}`);
    expect(again.statusCode).toBe(400);
  });

  it('refuses an address outside the verified domains, and a cancelled sign-in, at the app with error', async () => {
    const s = await setUp();
    idp.setUser({ sub: 'outsider', email: 'someone@another.example', email_verified: true });
    idp.nextLogin('outsider');
    const back = await toIdpAndBack(s.apiKey, `someone@${s.domain}`, s.connection.oidc.callback_url);
    const refused = new URL((await t.call('GET', `${back.pathname}${back.search}`)).headers.location as string);
    expect(refused.searchParams.get('error')).toBe('access_denied');
    expect(refused.searchParams.get('code')).toBeNull();

    idp.nextOutcome({ error: 'access_denied' });
    const cancelled = await toIdpAndBack(s.apiKey, `someone@${s.domain}`, s.connection.oidc.callback_url);
    const answer = new URL((await t.call('GET', `${cancelled.pathname}${cancelled.search}`)).headers.location as string);
    expect(answer.searchParams.get('error')).toBe('access_denied');
    expect(answer.searchParams.get('state')).toBe('app-state-42');
  });
});
