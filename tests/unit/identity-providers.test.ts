import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  followToRedirect,
  startTestGitHub,
  startTestOidcProvider,
  type TestGitHub,
  type TestOidcProvider,
} from '../helpers/identity-providers.js';

const CALLBACK = 'http://127.0.0.1:9/auth/callback';

describe('test OpenID provider', () => {
  let op: TestOidcProvider;

  beforeAll(async () => {
    op = await startTestOidcProvider({
      clients: [{ client_id: 'app', client_secret: 'app-secret', redirect_uris: [CALLBACK] }],
      users: [
        { sub: 'ada', email: 'ada@example.com', email_verified: true, name: 'Ada Lovelace', given_name: 'Ada', family_name: 'Lovelace' },
        { sub: 'bob', email: 'bob@example.com', email_verified: false },
      ],
    });
  });
  afterAll(() => op.close());

  async function signIn(config: client.Configuration) {
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
      state,
    });
    const callback = await followToRedirect(url, CALLBACK);
    return { callback, verifier, nonce, state };
  }

  const discover = (clientId: string, secret: string, auth = client.ClientSecretBasic(secret)) =>
    client.discovery(new URL(op.issuer), clientId, undefined, auth, { execute: [client.allowInsecureRequests] });

  it('signs in the queued user with code + PKCE: ID token with email, amr and nonce; userinfo agrees', async () => {
    const config = await discover('app', 'app-secret');
    expect(config.serverMetadata().id_token_signing_alg_values_supported).toContain('RS256');

    op.nextLogin('ada', { amr: ['pwd', 'mfa'] });
    const { callback, verifier, nonce, state } = await signIn(config);
    expect(op.requests.at(-1)).toMatchObject({ nonce, state, code_challenge_method: 'S256', scope: 'openid email profile' });

    const tokens = await client.authorizationCodeGrant(config, new URL(callback), {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: state,
      idTokenExpected: true,
    });
    expect(tokens.claims()).toMatchObject({
      iss: op.issuer,
      aud: 'app',
      sub: 'ada',
      nonce,
      email: 'ada@example.com',
      email_verified: true,
      name: 'Ada Lovelace',
      given_name: 'Ada',
      family_name: 'Lovelace',
      amr: ['pwd', 'mfa'],
    });
    const header = JSON.parse(Buffer.from(tokens.id_token!.split('.')[0]!, 'base64url').toString());
    expect(header.alg).toBe('RS256');

    const userinfo = await client.fetchUserInfo(config, tokens.access_token, 'ada');
    expect(userinfo).toMatchObject({ sub: 'ada', email: 'ada@example.com', email_verified: true });
  });

  it('asks afresh on every authorization, so the next queued user (or the default) applies', async () => {
    await op.addClient({
      client_id: 'late',
      client_secret: 'late-secret',
      redirect_uris: [CALLBACK],
      token_endpoint_auth_method: 'client_secret_post',
    });
    const config = await discover('late', 'late-secret', client.ClientSecretPost('late-secret'));

    op.nextLogin('ada');
    const first = await signIn(config);
    op.nextLogin('bob');
    const second = await signIn(config);
    const claims = async ({ callback, verifier, nonce, state }: Awaited<ReturnType<typeof signIn>>) =>
      (await client.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: state })).claims();

    expect(await claims(first)).toMatchObject({ sub: 'ada' });
    const bob = await claims(second);
    expect(bob).toMatchObject({ sub: 'bob', email: 'bob@example.com', email_verified: false });
    expect(bob).not.toHaveProperty('amr');
  });

  it('returns a queued error, or access_denied when nobody is queued, to the redirect_uri with the state', async () => {
    const config = await discover('app', 'app-secret');

    op.nextOutcome({ error: 'server_error', error_description: 'the directory is down' });
    const failed = await signIn(config);
    const params = new URL(failed.callback).searchParams;
    expect(Object.fromEntries(params)).toMatchObject({
      error: 'server_error',
      error_description: 'the directory is down',
      state: failed.state,
      iss: op.issuer,
    });

    const denied = await signIn(config);
    await expect(
      client.authorizationCodeGrant(config, new URL(denied.callback), { pkceCodeVerifier: denied.verifier, expectedState: denied.state }),
    ).rejects.toMatchObject({ error: 'access_denied' });
  });

  it('refuses an authorization request without PKCE', async () => {
    const config = await discover('app', 'app-secret');
    const url = client.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'openid', state: 's' });
    const callback = new URL(await followToRedirect(url, CALLBACK));
    expect(callback.searchParams.get('error')).toBe('invalid_request');
    expect(callback.searchParams.get('error_description')).toMatch(/PKCE/);
  });
});

describe('test GitHub', () => {
  let github: TestGitHub;
  const ada = {
    id: 1001,
    login: 'ada',
    name: 'Ada Lovelace',
    emails: [
      { email: 'ada@example.com', primary: true, verified: true, visibility: 'public' as const },
      { email: 'ada@old.example', primary: false, verified: false },
    ],
  };

  beforeAll(async () => {
    github = await startTestGitHub({
      clients: [{ client_id: 'gh-app', client_secret: 'gh-secret' }],
      users: [ada, { id: 1002, login: 'quiet', emails: [] }],
    });
  });
  afterAll(() => github.close());

  async function authorize(params: Record<string, string> = {}) {
    const verifier = client.randomPKCECodeVerifier();
    const url = new URL(github.authorizeUrl);
    url.search = new URLSearchParams({
      client_id: 'gh-app',
      redirect_uri: CALLBACK,
      scope: 'read:user user:email',
      state: 'st4te',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...params,
    }).toString();
    const callback = new URL(await followToRedirect(url, CALLBACK));
    return { callback, verifier, code: callback.searchParams.get('code') ?? '' };
  }

  const exchange = (body: Record<string, string>, headers: Record<string, string> = { accept: 'application/json' }) =>
    fetch(github.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(body),
    });

  const api = (path: string, authorization?: string) =>
    fetch(`${github.apiBaseUrl}${path}`, { headers: authorization ? { authorization, accept: 'application/vnd.github+json' } : {} });

  it('round trip: authorize, exchange the code with PKCE, read the user and their e-mails', async () => {
    github.nextLogin(1001);
    const { callback, verifier, code } = await authorize();
    expect(callback.searchParams.get('state')).toBe('st4te');
    expect(github.requests.at(-1)).toMatchObject({ client_id: 'gh-app', code_challenge_method: 'S256' });

    const response = await exchange({ client_id: 'gh-app', client_secret: 'gh-secret', code, redirect_uri: CALLBACK, code_verifier: verifier });
    expect(response.status).toBe(200);
    const token = (await response.json()) as { access_token: string; token_type: string; scope: string };
    expect(token).toMatchObject({ token_type: 'bearer', scope: 'read:user,user:email' });

    const user = await api('/user', `Bearer ${token.access_token}`);
    expect(user.status).toBe(200);
    expect(await user.json()).toMatchObject({ id: 1001, login: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' });

    const emails = await api('/user/emails', `token ${token.access_token}`);
    expect(await emails.json()).toEqual([
      { email: 'ada@example.com', primary: true, verified: true, visibility: 'public' },
      { email: 'ada@old.example', primary: false, verified: false, visibility: null },
    ]);

    const reused = await exchange({ client_id: 'gh-app', client_secret: 'gh-secret', code, code_verifier: verifier });
    expect(await reused.json()).toMatchObject({ error: 'bad_verification_code' });
  });

  it('answers token errors with HTTP 200, form-encoded unless JSON is asked for, and checks the PKCE verifier', async () => {
    github.nextLogin(1001);
    const { code, verifier } = await authorize();

    const wrongSecret = await exchange({ client_id: 'gh-app', client_secret: 'nope', code }, {});
    expect(wrongSecret.status).toBe(200);
    expect(wrongSecret.headers.get('content-type')).toMatch(/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(await wrongSecret.text()))).toMatchObject({
      error: 'incorrect_client_credentials',
      error_uri: expect.stringContaining('docs.github.com'),
    });

    const basic = `Basic ${Buffer.from('gh-app:gh-secret').toString('base64')}`;
    const wrongUri = await exchange({ code, redirect_uri: 'http://127.0.0.1:9/elsewhere', code_verifier: verifier }, { authorization: basic, accept: 'application/json' });
    expect(wrongUri.status).toBe(200);
    expect(await wrongUri.json()).toMatchObject({ error: 'redirect_uri_mismatch' });

    const wrongVerifier = await exchange({ client_id: 'gh-app', client_secret: 'gh-secret', code, code_verifier: client.randomPKCECodeVerifier() });
    expect(await wrongVerifier.json()).toMatchObject({ error: 'invalid_grant' });

    const bogus = await exchange({ client_id: 'gh-app', client_secret: 'gh-secret', code: 'bogus' });
    expect(await bogus.json()).toMatchObject({ error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });

    const json = await fetch(github.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ client_id: 'gh-app', client_secret: 'gh-secret', code, code_verifier: verifier }),
    });
    expect(await json.json()).toMatchObject({ access_token: expect.stringMatching(/^gho_/), token_type: 'bearer' });
  });

  it('sends a queued or default denial back as access_denied with the state, and 404s unknown apps', async () => {
    github.nextOutcome({ error: 'access_denied', error_description: 'The user has denied your application access.' });
    const denied = await authorize();
    expect(Object.fromEntries(denied.callback.searchParams)).toMatchObject({
      error: 'access_denied',
      error_description: 'The user has denied your application access.',
      state: 'st4te',
    });
    expect((await authorize()).callback.searchParams.get('error')).toBe('access_denied');

    const unknown = await fetch(`${github.authorizeUrl}?client_id=nobody&redirect_uri=${encodeURIComponent(CALLBACK)}`, { redirect: 'manual' });
    expect(unknown.status).toBe(404);
  });

  it('answers the API like GitHub: 401 shapes, private e-mail, 404 for e-mails without the scope', async () => {
    const missing = await api('/user');
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ message: 'Requires authentication', documentation_url: expect.any(String) });

    const bad = await api('/user', 'Bearer gho_nope');
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });

    github.nextLogin(1002);
    const { code, verifier } = await authorize({ scope: 'read:user' });
    const token = (await (await exchange({ client_id: 'gh-app', client_secret: 'gh-secret', code, code_verifier: verifier })).json()) as { access_token: string };
    expect(await (await api('/user', `Bearer ${token.access_token}`)).json()).toMatchObject({ id: 1002, login: 'quiet', name: null, email: null });
    expect((await api('/user/emails', `Bearer ${token.access_token}`)).status).toBe(404);
  });

  it('accepts any client when asked to', async () => {
    const open = await startTestGitHub({ acceptAnyClient: true, users: [ada], defaultUserId: 1001 });
    try {
      const callback = new URL(await followToRedirect(`${open.authorizeUrl}?client_id=whatever&redirect_uri=${encodeURIComponent(CALLBACK)}&scope=user:email`, CALLBACK));
      const response = await fetch(open.tokenUrl, {
        method: 'POST',
        headers: { accept: 'application/json' },
        body: new URLSearchParams({ client_id: 'whatever', client_secret: 'anything', code: callback.searchParams.get('code') ?? '' }),
      });
      expect(await response.json()).toMatchObject({ token_type: 'bearer', scope: 'user:email' });
    } finally {
      await open.close();
    }
  });
});
