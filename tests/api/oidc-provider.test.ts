import { decodeProtectedHeader } from 'jose';
import * as OTPAuth from 'otpauth';
import * as oidc from 'openid-client';
import { HttpBrowser } from '../helpers/http-browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAccessToken } from '../../packages/api/src/index.js';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { freePort } from '../helpers/tcp-probe.js';

/**
 * Each project as an OpenID Connect provider, driven by openid-client as a real relying party over
 * HTTP, with a tiny cookie-keeping "browser" for the hosted sign-in in between.
 */

const clock = { offsetS: 0, now: () => new Date(Date.now() + clock.offsetS * 1000) };
const APP_CALLBACK = 'https://app.example/callback';
const APP_ORIGIN = 'https://app.example';
const AFTER_LOGOUT = 'https://app.example/signed-out';
const insecure = { execute: [oidc.allowInsecureRequests] };

let t: TestApp;
let appUrl: string;
let dev: { access_token: string };
let shop: TestProject;
let blog: TestProject;

interface TestProject {
  id: string;
  key: string;
  apiKey: string;
  issuer: string;
}

async function createProject(name: string): Promise<TestProject> {
  const created = await t.call('POST', '/api/v1/projects', {
    token: dev.access_token,
    body: { name, redirect_uris: [APP_CALLBACK], post_logout_redirect_uris: [AFTER_LOGOUT], allowed_origins: [APP_ORIGIN] },
  });
  expect(created.statusCode).toBe(201);
  const project = created.json();
  const key = await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: dev.access_token, body: { name: 'backend' } });
  return { id: project.id, key: project.project_key, apiKey: key.json().secret, issuer: project.issuer };
}

/** A browser tab: keeps the cookies the server sets, follows nothing by itself. */
/** A browser on the hosted pages whose redirects the tests read as URLs. */
class Browser extends HttpBrowser {
  constructor() {
    super(appUrl);
  }

  async redirectedTo(url: string): Promise<URL> {
    return new URL(await this.location(url));
  }
}

async function signUpEndUser(project: TestProject, email: string, names = { first_name: 'Ada', last_name: 'Lovelace' }) {
  const browser = new Browser();
  const before = t.mail.messages.length;
  const signup = await browser.post(`/hosted/${project.key}/api/v1/auth/signup`, { email, password: STRONG_PASSWORD, ...names });
  expect(signup.status).toBe(201);
  const mail = await t.mail.waitFor(email, /verify/i, { after: before });
  const link = new URL(mail.link!);
  const verified = await browser.post(`/hosted/${project.key}/api/v1/auth/verify-email`, { token: link.searchParams.get('token') });
  expect(verified.status).toBe(200);
  return { browser, verifyLink: link };
}

async function signInOnHostedPage(browser: Browser, project: TestProject, email: string) {
  const login = await browser.post(`/hosted/${project.key}/api/v1/auth/login`, { email, password: STRONG_PASSWORD });
  expect(login.status, await login.clone().text()).toBe(200);
}

/** The relying party's configuration from the project's discovery document. */
function discover(project: TestProject, auth: oidc.ClientAuth = oidc.None(), clientSecret?: string) {
  return oidc.discovery(new URL(project.issuer), project.key, clientSecret, auth, insecure);
}

interface Started {
  url: URL;
  verifier: string;
  state: string;
  nonce: string;
}

async function startAuthorization(config: oidc.Configuration, extra: Record<string, string> = {}): Promise<Started> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: APP_CALLBACK,
    scope: 'openid email profile offline_access',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  return { url, verifier, state, nonce };
}

/** The whole front channel: authorize → hosted sign-in → continue → back at the app with a code. */
async function signInThroughProvider(project: TestProject, email: string, config: oidc.Configuration, browser = new Browser()) {
  const started = await startAuthorization(config);
  let callback = await browser.redirectedTo(started.url.href);
  if (callback.href.startsWith(`${appUrl}/hosted/`)) {
    // Not signed in on the hosted pages yet: sign in there, then carry on with the request.
    expect(`${callback.origin}${callback.pathname}`).toBe(`${appUrl}/hosted/${project.key}/sign-in`);
    await signInOnHostedPage(browser, project, email);
    callback = await browser.redirectedTo(`/hosted/${project.key}/authorize/continue?interaction=${callback.searchParams.get('interaction')}`);
  }
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: started.verifier, expectedState: started.state, expectedNonce: started.nonce });
  return { tokens, browser, callback, started };
}

async function oauthError(promise: Promise<unknown>): Promise<{ error?: string; status?: number }> {
  const caught = (await promise.catch((error: unknown) => error)) as { error?: string; status?: number; cause?: { error?: string } };
  expect(caught).toBeInstanceOf(Error);
  return { error: caught.error ?? caught.cause?.error, status: caught.status };
}

beforeAll(async () => {
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({ clock, env: { APP_URL: appUrl, TRUST_PROXY: '127.0.0.1' } });
  await t.app.listen({ port, host: '127.0.0.1' });
  dev = await t.signUpAndLogIn(uniqueEmail('dev'));
  shop = await createProject('Shop');
  blog = await createProject('Blog');
});
afterAll(() => t.close());

describe('discovery', () => {
  it('publishes the OpenID Connect endpoints under the issuer the tokens already name', async () => {
    const config = await discover(shop);
    const metadata = config.serverMetadata();
    expect(metadata).toMatchObject({
      issuer: `${appUrl}/projects/${shop.key}`,
      authorization_endpoint: `${appUrl}/hosted/${shop.key}/authorize`,
      token_endpoint: `${appUrl}/projects/${shop.key}/oauth/token`,
      jwks_uri: `${appUrl}/public/api/v1/projects/${shop.key}/jwks.json`,
      end_session_endpoint: `${appUrl}/hosted/${shop.key}/logout`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      id_token_signing_alg_values_supported: ['ES256'],
    });
    expect(metadata.scopes_supported).toEqual(['openid', 'email', 'profile', 'offline_access', 'organizations']);
  });

  it('lets a browser app read the discovery document and the keys from its own origin', async () => {
    for (const url of [`${shop.issuer}/.well-known/openid-configuration`, `${appUrl}/public/api/v1/projects/${shop.key}/jwks.json`]) {
      const response = await fetch(url, { headers: { origin: 'https://spa.example' } });
      expect(response.headers.get('access-control-allow-origin'), url).toBe('*');
    }
  });

  it('answers 404 for an unknown project', async () => {
    const response = await fetch(`${appUrl}/projects/pk_nope/.well-known/openid-configuration`);
    expect(response.status).toBe(404);
  });
});

describe('authorization code with PKCE, as a public client', () => {
  it('signs in on the hosted page and hands the app standard, verifiable tokens of an ordinary session', async () => {
    const email = uniqueEmail('ada');
    const { verifyLink } = await signUpEndUser(shop, email);
    // A project without a website_url: its mail links open the hosted pages.
    expect(`${verifyLink.origin}${verifyLink.pathname}`).toBe(`${appUrl}/hosted/${shop.key}/verify-email`);

    const config = await discover(shop);
    const { tokens, callback, started } = await signInThroughProvider(shop, email, config);
    expect(callback.searchParams.get('iss')).toBe(shop.issuer);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({
      iss: shop.issuer,
      aud: shop.key,
      email,
      email_verified: true,
      given_name: 'Ada',
      family_name: 'Lovelace',
      name: 'Ada Lovelace',
      amr: ['pwd'],
      nonce: started.nonce,
    });
    expect(claims.auth_time).toEqual(expect.any(Number));
    expect(claims.sid).toEqual(expect.any(String));
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.refresh_token).toEqual(expect.any(String));

    // ES256 with the project's key id.
    const jwks = await (await fetch(`${appUrl}/public/api/v1/projects/${shop.key}/jwks.json`)).json();
    for (const jwt of [tokens.id_token!, tokens.access_token]) {
      expect(decodeProtectedHeader(jwt)).toMatchObject({ alg: 'ES256', kid: jwks.keys[0].kid });
    }

    // The access token is the project's: userinfo, the SDK's offline check and the public API all take it.
    expect(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)).toMatchObject({ sub: claims.sub, email, email_verified: true, name: 'Ada Lovelace' });
    expect(await verifyAccessToken(tokens.access_token, { appUrl, projectKey: shop.key })).toMatchObject({ userId: claims.sub, sessionId: claims.sid });
    const profile = await t.call('GET', '/public/api/v1/profile', { token: tokens.access_token, headers: { 'x-api-key': shop.apiKey } });
    expect(profile.json()).toMatchObject({ id: claims.sub, email });

    // The app's session is one of the project's sessions, shown to its owner.
    const sessions = await t.call('GET', `/api/v1/projects/${shop.id}/sessions`, { token: dev.access_token });
    expect(sessions.json().sessions.map((session: { id: string }) => session.id)).toContain(claims.sid);
  });

  it('rotates refresh tokens like the public API: a spent one revokes the session', async () => {
    const email = uniqueEmail('rotate');
    await signUpEndUser(shop, email);
    const config = await discover(shop);
    const { tokens } = await signInThroughProvider(shop, email, config);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.claims()).toMatchObject({ sub: tokens.claims()!.sub, sid: tokens.claims()!.sid, email });
    expect(await oidc.fetchUserInfo(config, refreshed.access_token, tokens.claims()!.sub)).toMatchObject({ email });

    clock.offsetS += 120; // past the benign-replay window
    try {
      expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toMatchObject({ error: 'invalid_grant' });
    } finally {
      clock.offsetS -= 120;
    }
    expect(await oauthError(oidc.refreshTokenGrant(config, refreshed.refresh_token!))).toMatchObject({ error: 'invalid_grant' });
    expect(await oauthError(oidc.fetchUserInfo(config, refreshed.access_token, tokens.claims()!.sub))).toMatchObject({ status: 401 });
  });

  it("issues tokens with the project's own lifetimes (its settings)", async () => {
    const project = await createProject('Lifetimes');
    const patched = await t.call('PATCH', `/api/v1/projects/${project.id}/settings`, { token: dev.access_token, body: { access_token_ttl_s: 900, refresh_token_ttl_s: 7200 } });
    expect(patched.statusCode).toBe(200);
    const email = uniqueEmail('lifetimes');
    await signUpEndUser(project, email);
    const config = await discover(project);
    const { tokens } = await signInThroughProvider(project, email, config);
    expect(tokens.expires_in).toBe(900);
    const access = JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()) as { iat: number; exp: number };
    expect(access.exp - access.iat).toBe(900);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.expires_in).toBe(900);
  });

  it('gives no refresh token without offline_access, and userinfo only the claims of the granted scopes', async () => {
    const email = uniqueEmail('narrow');
    const { browser } = await signUpEndUser(shop, email);
    const config = await discover(shop);
    const started = await startAuthorization(config, { scope: 'openid email' });
    await signInOnHostedPage(browser, shop, email);
    // Signed in already: the provider answers straight away.
    const callback = await browser.redirectedTo(started.url.href);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: started.verifier, expectedState: started.state, expectedNonce: started.nonce });
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.scope).toBe('openid email');
    const info = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
    expect(info).toEqual({ sub: tokens.claims()!.sub, email, email_verified: true, public_metadata: {} });
  });

  it('revokes with RFC 7009 and ends both sessions with RP-initiated logout', async () => {
    const email = uniqueEmail('logout');
    await signUpEndUser(shop, email);
    const config = await discover(shop);
    const first = await signInThroughProvider(shop, email, config);
    await oidc.tokenRevocation(config, first.tokens.refresh_token!);
    expect(await oauthError(oidc.fetchUserInfo(config, first.tokens.access_token, first.tokens.claims()!.sub))).toMatchObject({ status: 401 });

    const second = await signInThroughProvider(shop, email, config);
    const logout = oidc.buildEndSessionUrl(config, { id_token_hint: second.tokens.id_token!, post_logout_redirect_uri: AFTER_LOGOUT, state: 'bye' });
    const back = await second.browser.redirectedTo(logout.href);
    expect(back.href).toBe(`${AFTER_LOGOUT}?state=bye`);
    expect(await oauthError(oidc.refreshTokenGrant(config, second.tokens.refresh_token!))).toMatchObject({ error: 'invalid_grant' });
    // The hosted session ended too: the next authorization asks to sign in again.
    const again = await startAuthorization(config);
    expect((await second.browser.redirectedTo(again.url.href)).pathname).toBe(`/hosted/${shop.key}/sign-in`);
  });

  it('asks the user to confirm a logout that carries no id_token_hint, and refuses an unregistered return address', async () => {
    const email = uniqueEmail('confirm');
    const { browser } = await signUpEndUser(shop, email);
    await signInOnHostedPage(browser, shop, email);
    const confirm = await browser.redirectedTo(`/hosted/${shop.key}/logout?post_logout_redirect_uri=${encodeURIComponent(AFTER_LOGOUT)}&client_id=${shop.key}`);
    expect(confirm.pathname).toBe(`/hosted/${shop.key}/sign-out`);
    expect(confirm.searchParams.get('post_logout_redirect_uri')).toBe(AFTER_LOGOUT);

    const refused = await browser.fetch(`/hosted/${shop.key}/logout?post_logout_redirect_uri=${encodeURIComponent('https://evil.example/')}`);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
    expect(await refused.text()).toContain('not registered');
  });
});

describe('confidential clients and introspection', () => {
  it('authenticates with an API key as client_secret_basic or client_secret_post, and introspects', async () => {
    const email = uniqueEmail('backend');
    await signUpEndUser(shop, email);
    for (const auth of [oidc.ClientSecretBasic(shop.apiKey), oidc.ClientSecretPost(shop.apiKey)]) {
      const config = await discover(shop, auth, shop.apiKey);
      const { tokens } = await signInThroughProvider(shop, email, config);
      expect(await oidc.tokenIntrospection(config, tokens.access_token)).toMatchObject({ active: true, sub: tokens.claims()!.sub, client_id: shop.key, username: email });
      expect(await oidc.tokenIntrospection(config, tokens.refresh_token!)).toMatchObject({ active: true, token_type: 'refresh_token' });
      await oidc.tokenRevocation(config, tokens.access_token);
      expect(await oidc.tokenIntrospection(config, tokens.access_token)).toEqual({ active: false });
    }
  });

  it('refuses another project\'s API key as the secret, and introspection without one', async () => {
    const wrong = await discover(shop, oidc.ClientSecretBasic(blog.apiKey), blog.apiKey);
    const started = await startAuthorization(wrong);
    expect(started.url.searchParams.get('client_id')).toBe(shop.key);
    const token = await fetch(`${appUrl}/projects/${shop.key}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${shop.key}:${blog.apiKey}`).toString('base64')}` },
      body: 'grant_type=authorization_code&code=x&redirect_uri=x&code_verifier=x',
    });
    expect(token.status).toBe(401);
    expect(await token.json()).toMatchObject({ error: 'invalid_client', detail: 'Invalid client secret' });

    const introspection = await fetch(`${appUrl}/projects/${shop.key}/oauth/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `client_id=${shop.key}&token=x`,
    });
    expect(introspection.status).toBe(401);
    expect(await introspection.json()).toMatchObject({ error: 'invalid_client' });
  });
});

describe('what the provider refuses', () => {
  let email: string;
  let browser: Browser;
  let config: oidc.Configuration;

  beforeAll(async () => {
    email = uniqueEmail('refused');
    ({ browser } = await signUpEndUser(shop, email));
    await signInOnHostedPage(browser, shop, email);
    config = await discover(shop);
  });

  it('shows an error page, never a redirect, for an unregistered redirect_uri or another client', async () => {
    const started = await startAuthorization(config);
    const changes: [string, string][] = [
      ['redirect_uri', 'https://evil.example/callback'],
      ['client_id', blog.key],
    ];
    for (const [name, value] of changes) {
      const url = new URL(started.url);
      url.searchParams.set(name, value);
      const response = await browser.fetch(url.href);
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toMatch(/text\/html/);
    }
  });

  it('cannot be framed (clickjacking)', async () => {
    const started = await startAuthorization(config);
    const response = await browser.fetch(started.url.href);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('sends PKCE and request errors back to the app with the state', async () => {
    const started = await startAuthorization(config);
    const cases: [Record<string, string | null>, string][] = [
      [{ code_challenge: null, code_challenge_method: null }, 'invalid_request'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ scope: 'email' }, 'invalid_scope'],
    ];
    for (const [changes, error] of cases) {
      const url = new URL(started.url);
      for (const [name, value] of Object.entries(changes)) {
        if (value === null) url.searchParams.delete(name);
        else url.searchParams.set(name, value);
      }
      const back = await browser.redirectedTo(url.href);
      expect(`${back.origin}${back.pathname}`).toBe(APP_CALLBACK);
      expect(back.searchParams.get('error')).toBe(error);
      expect(back.searchParams.get('state')).toBe(started.state);
    }
  });

  it('refuses a wrong verifier, a replayed code (revoking what it gave) and a code past 60 seconds', async () => {
    const wrongVerifier = await startAuthorization(config);
    const callback = await browser.redirectedTo(wrongVerifier.url.href);
    expect(
      await oauthError(oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: oidc.randomPKCECodeVerifier(), expectedState: wrongVerifier.state, expectedNonce: wrongVerifier.nonce })),
    ).toMatchObject({ error: 'invalid_grant' });

    const replayed = await startAuthorization(config);
    const replayCallback = await browser.redirectedTo(replayed.url.href);
    const checks = { pkceCodeVerifier: replayed.verifier, expectedState: replayed.state, expectedNonce: replayed.nonce };
    const tokens = await oidc.authorizationCodeGrant(config, replayCallback, checks);
    expect(await oauthError(oidc.authorizationCodeGrant(config, replayCallback, checks))).toMatchObject({ error: 'invalid_grant' });
    expect(await oauthError(oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub))).toMatchObject({ status: 401 });

    const late = await startAuthorization(config);
    const lateCallback = await browser.redirectedTo(late.url.href);
    clock.offsetS += 61;
    try {
      expect(await oauthError(oidc.authorizationCodeGrant(config, lateCallback, { pkceCodeVerifier: late.verifier, expectedState: late.state, expectedNonce: late.nonce }))).toMatchObject({
        error: 'invalid_grant',
      });
    } finally {
      clock.offsetS -= 61;
    }
  });

  it('an intercepted code cannot be burned without its verifier: the attacker gets invalid_grant, the app still exchanges it, and only its own replay revokes', async () => {
    const started = await startAuthorization(config);
    const callback = await browser.redirectedTo(started.url.href);
    const code = callback.searchParams.get('code')!;
    const attacker = (changes: { code_verifier?: string; redirect_uri?: string }) =>
      fetch(`${appUrl}/projects/${shop.key}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', client_id: shop.key, code, redirect_uri: APP_CALLBACK, ...changes }),
      });
    const attempts = [
      { code_verifier: oidc.randomPKCECodeVerifier() },
      { code_verifier: started.verifier, redirect_uri: 'https://evil.example/callback' },
      {},
    ];
    for (const changes of attempts) {
      const refused = await attacker(changes);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: 'invalid_grant' });
    }

    const checks = { pkceCodeVerifier: started.verifier, expectedState: started.state, expectedNonce: started.nonce };
    const tokens = await oidc.authorizationCodeGrant(config, callback, checks);
    const sub = tokens.claims()!.sub;
    expect(await oidc.fetchUserInfo(config, tokens.access_token, sub)).toMatchObject({ sub });

    // Presented again without the verifier, the spent code is refused and what it gave stays.
    expect(await (await attacker({ code_verifier: oidc.randomPKCECodeVerifier() })).json()).toMatchObject({ error: 'invalid_grant' });
    expect(await oidc.fetchUserInfo(config, tokens.access_token, sub)).toMatchObject({ sub });

    expect(await oauthError(oidc.authorizationCodeGrant(config, callback, checks))).toMatchObject({ error: 'invalid_grant' });
    expect(await oauthError(oidc.fetchUserInfo(config, tokens.access_token, sub))).toMatchObject({ status: 401 });
  });

  it("refuses another project's code and another project's token", async () => {
    const started = await startAuthorization(config);
    const callback = await browser.redirectedTo(started.url.href);
    const blogConfig = await discover(blog);
    const code = callback.searchParams.get('code')!;
    const exchange = await fetch(`${appUrl}/projects/${blog.key}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: blog.key, code, redirect_uri: APP_CALLBACK, code_verifier: started.verifier }),
    });
    expect(exchange.status).toBe(400);
    expect(await exchange.json()).toMatchObject({ error: 'invalid_grant' });

    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: started.verifier, expectedState: started.state, expectedNonce: started.nonce });
    expect(await oauthError(oidc.fetchUserInfo(blogConfig, tokens.access_token, tokens.claims()!.sub))).toMatchObject({ status: 401 });
    expect(await oauthError(oidc.refreshTokenGrant(blogConfig, tokens.refresh_token!))).toMatchObject({ error: 'invalid_grant' });
  });

  it('answers prompt=none with login_required when there is no hosted session, and prompt=login / create with the hosted pages', async () => {
    const stranger = new Browser();
    const none = await startAuthorization(config, { prompt: 'none' });
    const back = await stranger.redirectedTo(none.url.href);
    expect(back.searchParams.get('error')).toBe('login_required');
    expect(back.searchParams.get('state')).toBe(none.state);

    const login = await startAuthorization(config, { prompt: 'login' });
    const page = await browser.redirectedTo(login.url.href);
    expect(page.pathname).toBe(`/hosted/${shop.key}/sign-in`);
    // The session from before the request does not answer prompt=login: the user signs in again first.
    const interaction = page.searchParams.get('interaction');
    expect((await browser.redirectedTo(`/hosted/${shop.key}/authorize/continue?interaction=${interaction}`)).pathname).toBe(`/hosted/${shop.key}/sign-in`);
    clock.offsetS += 1;
    try {
      await signInOnHostedPage(browser, shop, email);
    } finally {
      clock.offsetS -= 1;
    }
    const callback = await browser.redirectedTo(`/hosted/${shop.key}/authorize/continue?interaction=${interaction}`);
    expect(callback.searchParams.get('code')).toEqual(expect.any(String));

    const create = await startAuthorization(config, { prompt: 'create' });
    expect((await stranger.redirectedTo(create.url.href)).pathname).toBe(`/hosted/${shop.key}/sign-up`);
  });

  it('ends the app sessions on every existing revocation path (here: the owner revokes it in monitoring)', async () => {
    const { tokens } = await signInThroughProvider(shop, email, config, browser);
    const revoked = await t.call('DELETE', `/api/v1/projects/${shop.id}/sessions/${tokens.claims()!.sid}`, { token: dev.access_token });
    expect(revoked.statusCode).toBe(200);
    expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toMatchObject({ error: 'invalid_grant' });
    // The refusal says the session was ended, not that it ran out (a browser SDK signs out with reason "revoked").
    const refused = await fetch(`${appUrl}/projects/${shop.key}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: shop.key, refresh_token: tokens.refresh_token! }),
    });
    expect(await refused.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/revoked/) });
  });

  it('says a refresh token whose session ran out has expired', async () => {
    const { tokens } = await signInThroughProvider(shop, email, config, browser);
    clock.offsetS += 400 * 24 * 3600;
    try {
      const refused = await fetch(`${appUrl}/projects/${shop.key}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', client_id: shop.key, refresh_token: tokens.refresh_token! }),
      });
      expect(await refused.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/expired/) });
    } finally {
      clock.offsetS -= 400 * 24 * 3600;
    }
  });

  it('answers CORS only for the project\'s allowed origins', async () => {
    const preflight = (origin: string) =>
      fetch(`${appUrl}/projects/${shop.key}/oauth/token`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
    const allowed = await preflight(APP_ORIGIN);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('the hosted pages apply the sign-in defences', () => {
  it('records failed attempts in the project, and refuses a deactivated end user', async () => {
    const email = uniqueEmail('defended');
    const { browser } = await signUpEndUser(shop, email);
    const wrong = await browser.post(`/hosted/${shop.key}/api/v1/auth/login`, { email, password: 'Wrong-Horse-42' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ detail: 'Incorrect email or password' });
    const attempts = await t.call('GET', `/api/v1/projects/${shop.id}/login-attempts`, { token: dev.access_token });
    expect(attempts.json().attempts).toContainEqual(expect.objectContaining({ email, success: false }));

    const users = await t.call('GET', `/api/v1/projects/${shop.id}/users`, { token: dev.access_token });
    const user = users.json().users.find((item: { email: string }) => item.email === email);
    const toggled = await t.call('PATCH', `/api/v1/projects/${shop.id}/users/${user.id}/toggle-active`, { token: dev.access_token });
    expect(toggled.json()).toMatchObject({ is_active: false });
    const refused = await browser.post(`/hosted/${shop.key}/api/v1/auth/login`, { email, password: STRONG_PASSWORD });
    expect(refused.status).toBe(403);
  });
});

describe('tokens of one kind are never taken for the other', () => {
  it('refuses an ID token as an access token (typed at+jwt)', async () => {
    const email = uniqueEmail('confused');
    await signUpEndUser(shop, email);
    const { tokens } = await signInThroughProvider(shop, email, await discover(shop));
    expect(decodeProtectedHeader(tokens.access_token).typ).toBe('at+jwt');
    const profile = await t.call('GET', '/public/api/v1/profile', { token: tokens.id_token!, headers: { 'x-api-key': shop.apiKey } });
    expect(profile.statusCode).toBe(401);
    await expect(verifyAccessToken(tokens.id_token!, { appUrl, projectKey: shop.key })).rejects.toMatchObject({ code: 'invalid' });
  });
});

describe('client settings', () => {
  it('are validated, kept and shown with the issuer and hosted pages address', async () => {
    const update = (body: unknown) => t.call('PATCH', `/api/v1/projects/${blog.id}`, { token: dev.access_token, body });
    for (const [body, detail] of [
      [{ redirect_uris: ['javascript:alert(1)'] }, /redirect URI/],
      [{ redirect_uris: ['https://app.example/cb#fragment'] }, /redirect URI/],
      [{ allowed_origins: ['https://app.example/path'] }, /allowed origin/],
      [{ accent_color: 'blue' }, /accent colour/],
    ] as const) {
      const refused = await update(body);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().detail).toMatch(detail);
    }
    const saved = await update({ redirect_uris: ['com.example.app:/callback', 'http://localhost:5173/callback'], accent_color: '#3B5BDB', logo_url: 'https://cdn.example/logo.png' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      redirect_uris: ['com.example.app:/callback', 'http://localhost:5173/callback'],
      post_logout_redirect_uris: [AFTER_LOGOUT],
      allowed_origins: [APP_ORIGIN],
      accent_color: '#3b5bdb',
      logo_url: 'https://cdn.example/logo.png',
      issuer: blog.issuer,
      hosted_pages_url: `${appUrl}/hosted/${blog.key}`,
    });
    const branding = await fetch(`${appUrl}/hosted/${blog.key}/api/v1/project`);
    expect(await branding.json()).toEqual({ name: 'Blog', project_key: blog.key, logo_url: 'https://cdn.example/logo.png', accent_color: '#3b5bdb', website_url: null, app_url: 'http://localhost:5173/', string_overrides: {}, sign_in_methods: { password: true, magic_link: false, email_code: false, passkey: true } });
  });
});

describe('two factors on the hosted pages', () => {
  it('asks for the second factor and says so in amr', async () => {
    const email = uniqueEmail('twofactor');
    const { browser } = await signUpEndUser(shop, email);
    await signInOnHostedPage(browser, shop, email);
    const setup = await (await browser.post(`/hosted/${shop.key}/api/v1/auth/mfa/totp/setup`, {})).json();
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(setup.secret), digits: 6, period: 30, algorithm: 'SHA1' });
    const confirmed = await browser.post(`/hosted/${shop.key}/api/v1/auth/mfa/totp/confirm`, { code: totp.generate() });
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
    await browser.post(`/hosted/${shop.key}/api/v1/auth/logout`, {});

    const config = await discover(shop);
    const started = await startAuthorization(config);
    const page = await browser.redirectedTo(started.url.href);
    const first = await (await browser.post(`/hosted/${shop.key}/api/v1/auth/login`, { email, password: STRONG_PASSWORD })).json();
    expect(first).toMatchObject({ mfa_required: true });
    // The password alone does not finish the request.
    expect((await browser.redirectedTo(`/hosted/${shop.key}/authorize/continue?interaction=${page.searchParams.get('interaction')}`)).pathname).toBe(`/hosted/${shop.key}/sign-in`);
    clock.offsetS += 30; // a fresh TOTP step: the setup's code is spent
    try {
      const second = await browser.post(`/hosted/${shop.key}/api/v1/auth/mfa/verify`, { mfa_token: first.mfa_token, code: totp.generate({ timestamp: clock.now().getTime() }) });
      expect(second.status, await second.clone().text()).toBe(200);
      const callback = await browser.redirectedTo(`/hosted/${shop.key}/authorize/continue?interaction=${page.searchParams.get('interaction')}`);
      const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: started.verifier, expectedState: started.state, expectedNonce: started.nonce });
      expect(tokens.claims()!.amr).toEqual(['pwd', 'otp', 'mfa']);
    } finally {
      clock.offsetS -= 30;
    }
  });
});
