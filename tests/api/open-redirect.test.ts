import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { CookieJar, followToRedirect, startTestGitHub, type TestGitHub } from '../helpers/identity-providers.js';

/**
 * An open redirect through `return_to`: a link to our sign-in that lands the freshly signed-in browser
 * on another site. Every Location we answer is resolved the way a browser does (WHATWG URL: tabs and
 * newlines dropped, `\` read as `/`) and must stay on APP_URL's origin.
 */

const HOSTILE_RETURN_TO = [
  '//evil.example',
  '//evil.example/x',
  '/%09/evil.example',
  '/\t/evil.example',
  '/%0a/evil.example',
  '/\\evil.example',
  '/%5Cevil.example',
  '\\\\evil.example',
  ' //evil.example',
  '/.//evil.example',
  '/%2e//evil.example',
  'https://evil.example',
  'https://evil.example/dashboard',
  'https:evil.example',
  'https:/\\evil.example',
  'javascript:alert(document.domain)',
  'java%09script:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '/%252509/evil.example',
];

let t: TestApp;
let github: TestGitHub;
let nextGitHubId = 5000;

function nextGitHubUser() {
  nextGitHubId += 1;
  github.setUser({ id: nextGitHubId, login: `redirect${nextGitHubId}`, name: 'Eve', emails: [{ email: uniqueEmail('redirect'), primary: true, verified: true }] });
  github.nextLogin(nextGitHubId);
}

/** The browser's reading of a Location we answered. */
function landing(res: { statusCode: number; headers: Record<string, unknown> }): URL {
  expect(res.statusCode).toBe(302);
  return new URL(String(res.headers.location), APP_URL);
}

/** Start (with `return_to`), through the GitHub stand-in, and our callback's answer. */
async function signInWithGitHub(startPath: string, returnTo: string, callbackPrefix: string) {
  nextGitHubUser();
  const ip = uniqueIp();
  const started = await t.call('GET', `${startPath}?return_to=${encodeURIComponent(returnTo)}`, { ip });
  expect(started.statusCode, started.body).toBe(302);
  const state = started.cookies.find((cookie) => cookie.name === 'oauth_state')?.value;
  const back = new URL(await followToRedirect(new URL(String(started.headers.location)), callbackPrefix, { jar: new CookieJar() }));
  return t.call('GET', `${back.pathname}${back.search}`, { ip, cookies: state ? { oauth_state: state } : {} });
}

beforeAll(async () => {
  github = await startTestGitHub({ clients: [{ client_id: 'platform-github', client_secret: 'platform-github-secret' }] });
  t = await createTestApp({
    env: {
      GITHUB_CLIENT_ID: 'platform-github',
      GITHUB_CLIENT_SECRET: 'platform-github-secret',
      GITHUB_AUTHORIZE_URL: github.authorizeUrl,
      GITHUB_TOKEN_URL: github.tokenUrl,
      GITHUB_API_URL: github.apiBaseUrl,
      CONNECTIONS_ALLOW_PRIVATE: 'on',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await github?.close();
});

describe('return_to after a sign-in with a provider on the platform', () => {
  const PLATFORM_START = '/api/v1/auth/oauth/github/authorize';
  const PLATFORM_CALLBACK = `${APP_URL}/api/v1/auth/oauth/github/callback`;

  it.each(HOSTILE_RETURN_TO)('%j lands on the dashboard, never off the site', async (returnTo) => {
    const res = await signInWithGitHub(PLATFORM_START, returnTo, PLATFORM_CALLBACK);
    expect(res.cookies.some((cookie) => cookie.name === 'access_token' && cookie.value)).toBe(true);
    expect(landing(res).origin).toBe(APP_URL);
    expect(res.headers.location).toBe('/dashboard');
  });

  it('keeps a path of the site with its query and fragment, and answers an address of the site as its path', async () => {
    const res = await signInWithGitHub(PLATFORM_START, '/projects?page=2#keys', PLATFORM_CALLBACK);
    expect(res.headers.location).toBe('/projects?page=2#keys');
    const absolute = await signInWithGitHub(PLATFORM_START, `${APP_URL}/settings`, PLATFORM_CALLBACK);
    expect(absolute.headers.location).toBe('/settings');
  });

  it.each(HOSTILE_RETURN_TO)('%j on a refused start (connecting while signed out) lands on the settings page', async (returnTo) => {
    const res = await t.call('GET', `${PLATFORM_START}?intent=link&return_to=${encodeURIComponent(returnTo)}`);
    const at = landing(res);
    expect(at.origin).toBe(APP_URL);
    expect(at.pathname).toBe('/settings');
    expect(at.searchParams.get('social_error')).toBe('link_not_signed_in');
  });

  describe('on a server without the provider (the start is refused)', () => {
    // One app for every value: each app is a fresh database, which on PostgreSQL costs seconds.
    let bare: TestApp;
    beforeAll(async () => {
      bare = await createTestApp();
    });
    afterAll(() => bare?.close());

    it.each(HOSTILE_RETURN_TO)('%j is not carried to the sign-in page after a refusal', async (returnTo) => {
      const res = await bare.call('GET', `${PLATFORM_START}?return_to=${encodeURIComponent(returnTo)}`);
      const at = landing(res);
      expect(at.origin).toBe(APP_URL);
      expect(at.pathname).toBe('/login');
      expect(at.searchParams.get('social_error')).toBe('unavailable');
      expect(at.searchParams.get('return_to')).toBeNull();
    });
  });
});

describe("return_to after a sign-in with a provider on a project's hosted pages", () => {
  let project: { id: string; project_key: string };
  let other: { project_key: string };
  const start = () => `/hosted/${project.project_key}/api/v1/auth/oauth/github/authorize`;
  const callback = () => `${APP_URL}/hosted/${project.project_key}/api/v1/auth/oauth/github/callback`;

  beforeAll(async () => {
    const developer = await t.signUpAndLogIn(uniqueEmail('redirect-dev'));
    const create = (name: string) => t.call('POST', '/api/v1/projects', { token: developer.access_token, body: { name } });
    project = (await create('Shop')).json();
    other = (await create('Other shop')).json();
    github.addClient({ client_id: 'shop-github', client_secret: 'shop-github-secret' });
    const saved = await t.call('PUT', `/api/v1/projects/${project.id}/connections/github`, {
      token: developer.access_token,
      body: { client_id: 'shop-github', client_secret: 'shop-github-secret', authorize_url: github.authorizeUrl, token_url: github.tokenUrl, api_url: github.apiBaseUrl },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  });

  it.each(HOSTILE_RETURN_TO)('%j lands on the account page, never off the site', async (returnTo) => {
    const res = await signInWithGitHub(start(), returnTo, callback());
    expect(landing(res).origin).toBe(APP_URL);
    expect(res.headers.location).toBe(`/hosted/${project.project_key}/account`);
  });

  it("a path that climbs out of the project's pages (dot segments, raw or encoded) lands on its account page", async () => {
    for (const returnTo of [
      `/hosted/${project.project_key}/../${other.project_key}/account`,
      `/hosted/${project.project_key}/%2e%2e/${other.project_key}/account`,
      `/hosted/${project.project_key}/../../dashboard`,
    ]) {
      const res = await signInWithGitHub(start(), returnTo, callback());
      expect(res.headers.location, returnTo).toBe(`/hosted/${project.project_key}/account`);
    }
  });

  it("keeps a page of the project's own", async () => {
    const res = await signInWithGitHub(start(), `/hosted/${project.project_key}/account?tab=sessions`, callback());
    expect(res.headers.location).toBe(`/hosted/${project.project_key}/account?tab=sessions`);
  });
});
