import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';

/**
 * Development redirect patterns (issue 32): a development project may register
 * http://localhost:*\/callback (or 127.0.0.1), matching that path on any port, and only while it is
 * development; every other project, and every other host or scheme, is compared exactly. Driven from
 * outside: the dashboard API registers, the provider's authorize, token and logout endpoints match.
 */

const PATTERN = 'http://localhost:*/callback';
let t: TestApp;
let dev: { access_token: string };

async function createProject(body: Record<string, unknown>) {
  return t.call('POST', '/api/v1/projects', { token: dev.access_token, body: { name: 'Local app', ...body } });
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** The provider's authorize endpoint as a browser opens it (with the hosted session's cookies when given). */
function authorize(key: string, redirectUri: string, options: { challenge?: string; cookies?: Record<string, string> } = {}) {
  const query = new URLSearchParams({
    client_id: key,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid email',
    code_challenge: options.challenge ?? pkce().challenge,
    code_challenge_method: 'S256',
    state: 'st',
  });
  return t.call('GET', `/hosted/${key}/authorize?${query}`, { cookies: options.cookies });
}

/** Whether the provider takes `redirectUri` as registered: on to the hosted sign-in, not the "not registered" page. */
async function accepts(key: string, redirectUri: string): Promise<boolean> {
  const response = await authorize(key, redirectUri);
  if (response.statusCode === 303) {
    expect(response.headers.location).toMatch(new RegExp(`^${APP_URL}/hosted/${key}/sign-in\\?interaction=`));
    return true;
  }
  expect(response.statusCode, redirectUri).toBe(400);
  expect(response.body).toContain('Redirect URI not registered');
  return false;
}

/** An end user of the project, verified and signed in on its hosted pages: their cookies. */
async function signedInEndUser(key: string): Promise<Record<string, string>> {
  const email = uniqueEmail('local-user');
  const ip = uniqueIp();
  const before = t.mail.messages.length;
  expect((await t.call('POST', `/hosted/${key}/api/v1/auth/signup`, { ip, body: { email, password: STRONG_PASSWORD } })).statusCode).toBe(201);
  const mail = await t.mail.waitFor(email, /verify/i, { after: before });
  expect((await t.call('POST', `/hosted/${key}/api/v1/auth/verify-email`, { ip, body: { token: new URL(mail.link!).searchParams.get('token') } })).statusCode).toBe(200);
  const login = await t.call('POST', `/hosted/${key}/api/v1/auth/login`, { ip, body: { email, password: STRONG_PASSWORD } });
  expect(login.statusCode, login.body).toBe(200);
  return Object.fromEntries(login.cookies.map((cookie) => [cookie.name, cookie.value]));
}

beforeAll(async () => {
  t = await createTestApp();
  dev = await t.signUpAndLogIn(uniqueEmail('local-dev'));
});
afterAll(() => t.close());

describe('registering a loopback pattern', () => {
  it('is accepted on a development project, for redirect and post-logout URIs', async () => {
    const created = await createProject({ environment: 'development', redirect_uris: [PATTERN, 'http://127.0.0.1:*/cb'], post_logout_redirect_uris: ['http://localhost:*/'] });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ redirect_uris: [PATTERN, 'http://127.0.0.1:*/cb'], post_logout_redirect_uris: ['http://localhost:*/'] });
  });

  it('is refused with a detail on a staging or production project, created or changed', async () => {
    for (const environment of ['staging', 'production']) {
      const refused = await createProject({ environment, redirect_uris: [PATTERN] });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().detail).toBe(`${PATTERN}: an address with any port is for development projects only; a ${environment} project registers each address exactly`);
    }
    const production = (await createProject({ environment: 'production' })).json();
    const added = await t.call('PATCH', `/api/v1/projects/${production.id}`, { token: dev.access_token, body: { post_logout_redirect_uris: ['http://localhost:*/'] } });
    expect(added.statusCode).toBe(422);
    expect(added.json().detail).toBe('http://localhost:*/: an address with any port is for development projects only; a production project registers each address exactly');
    // Turning a project to production while adding a pattern in the same change is refused too.
    const development = (await createProject({ environment: 'development' })).json();
    const both = await t.call('PATCH', `/api/v1/projects/${development.id}`, { token: dev.access_token, body: { environment: 'production', redirect_uris: [PATTERN] } });
    expect(both.statusCode).toBe(422);
  });

  it('takes only a wildcard port on localhost or 127.0.0.1 over http', async () => {
    for (const uri of ['https://localhost:*/cb', 'http://example.com:*/cb', 'http://localhost:*/cb#x', 'http://localhost:5*/cb', 'http://[::1]:*/cb']) {
      const refused = await createProject({ environment: 'development', redirect_uris: [uri] });
      expect(refused.statusCode, uri).toBe(422);
      expect(refused.json().detail, uri).toMatch(/^Each redirect URI must be an absolute URL without a fragment/);
    }
  });
});

describe('matching a loopback pattern', () => {
  let project: { id: string; project_key: string };
  beforeAll(async () => {
    project = (await createProject({ environment: 'development', redirect_uris: [PATTERN, 'https://app.example/callback'] })).json();
  });

  it('takes the path on any port of localhost, and nothing else', async () => {
    for (const uri of ['http://localhost:5173/callback', 'http://localhost:3000/callback', 'http://localhost:65535/callback', 'https://app.example/callback']) {
      expect(await accepts(project.project_key, uri), uri).toBe(true);
    }
    for (const uri of [
      'http://localhost.evil.com/callback',
      'http://localhost.evil.com:5173/callback',
      'https://evil.com/localhost:1',
      'https://evil.com/localhost:1/callback',
      'http://localhost:5173@evil.com/callback',
      'https://localhost:5173/callback',
      'http://127.0.0.1:5173/callback',
      'http://localhost:5173/callback/more',
      'http://localhost:5173/callbacks',
      'http://localhost:5173/callback?next=x',
      'http://localhost:0/callback',
      'http://localhost:65536/callback',
      PATTERN,
    ]) {
      expect(await accepts(project.project_key, uri), uri).toBe(false);
    }
  });

  it('runs a whole sign-in to a port nobody registered, and the code is bound to that exact address', async () => {
    const cookies = await signedInEndUser(project.project_key);
    const { verifier, challenge } = pkce();
    const redirectUri = 'http://localhost:5173/callback';
    const answer = await authorize(project.project_key, redirectUri, { challenge, cookies });
    expect(answer.statusCode).toBe(303);
    const callback = new URL(answer.headers.location as string);
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    const code = callback.searchParams.get('code')!;
    const exchange = (uri: string) =>
      t.call('POST', `/projects/${project.project_key}/oauth/token`, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', client_id: project.project_key, code, redirect_uri: uri, code_verifier: verifier }).toString(),
      });
    // Another port of the same pattern is another address: the code was not issued for it.
    const otherPort = await exchange('http://localhost:5174/callback');
    expect(otherPort.json()).toMatchObject({ error: 'invalid_grant' });
    const tokens = await exchange(redirectUri);
    expect(tokens.statusCode, tokens.body).toBe(200);
    expect(tokens.json()).toMatchObject({ token_type: 'Bearer', id_token: expect.any(String) });
  });

  it('lets a post-logout pattern bring the user back to any port', async () => {
    const withLogout = (await createProject({ environment: 'development', post_logout_redirect_uris: ['http://localhost:*/'] })).json();
    const logout = (uri: string) => t.call('GET', `/hosted/${withLogout.project_key}/logout?${new URLSearchParams({ post_logout_redirect_uri: uri, state: 'bye' })}`);
    const back = await logout('http://localhost:8080/');
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('http://localhost:8080/?state=bye');
    const elsewhere = await logout('http://localhost.evil.com:8080/');
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.body).toContain('Sign-out address not registered');
  });

  it('stops matching once the project is switched to production, and the exact addresses keep working', async () => {
    const switching = (await createProject({ environment: 'development', redirect_uris: [PATTERN, 'https://app.example/callback'] })).json();
    expect(await accepts(switching.project_key, 'http://localhost:5173/callback')).toBe(true);
    const toProduction = await t.call('PATCH', `/api/v1/projects/${switching.id}`, { token: dev.access_token, body: { environment: 'production' } });
    expect(toProduction.statusCode, toProduction.body).toBe(200);
    expect(await accepts(switching.project_key, 'http://localhost:5173/callback')).toBe(false);
    expect(await accepts(switching.project_key, PATTERN)).toBe(false);
    expect(await accepts(switching.project_key, 'https://app.example/callback')).toBe(true);
    // Saving the list again while it holds the pattern says why, rather than keeping it silently.
    const resaved = await t.call('PATCH', `/api/v1/projects/${switching.id}`, { token: dev.access_token, body: { redirect_uris: [PATTERN, 'https://app.example/callback'] } });
    expect(resaved.statusCode).toBe(422);
    await t.call('PATCH', `/api/v1/projects/${switching.id}`, { token: dev.access_token, body: { environment: 'development' } });
    expect(await accepts(switching.project_key, 'http://localhost:5173/callback')).toBe(true);
  });
});

describe("the dashboard's test sign-in", () => {
  it('comes back to this server\'s own test page for any project, and to no other page of it', async () => {
    const project = (await createProject({ environment: 'production' })).json();
    expect(await accepts(project.project_key, `${APP_URL}/test-sign-in/callback`)).toBe(true);
    for (const uri of [`${APP_URL}/test-sign-in/callback/x`, `${APP_URL}/test-sign-in/callback?x=1`, `${APP_URL}/dashboard`, 'http://evil.example/test-sign-in/callback']) {
      expect(await accepts(project.project_key, uri), uri).toBe(false);
    }
  });
});
