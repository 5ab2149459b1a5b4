import WebAuthnEmulator, { AuthenticatorEmulator, PasskeysCredentialsMemoryRepository } from 'nid-webauthn-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { HostedBrowser, exchangeAtApp, hostedProject, type HostedProject } from '../helpers/hosted-browser.js';
import { CookieJar, followToRedirect, startTestGitHub, type TestGitHub } from '../helpers/identity-providers.js';

/**
 * Issue 32: two sessions of one user from two clients must not look alike. Each session records the
 * door its sign-in came through (the dashboard, the hosted pages, the public API, the OpenID Connect
 * provider naming the app), and monitoring (Admin → Sessions, a project's Sessions, the user's page
 * and the export) labels it; a session from before this was recorded is an "Unknown client".
 */

const ADMIN = 'session-clients-admin@example.com';
const SHOP_URL = 'https://shop.example';
const PLATFORM_CALLBACK = `${APP_URL}/api/v1/auth/oauth/github/callback`;

let t: TestApp;
let github: TestGitHub;
let admin: { access_token: string };
let shop: HostedProject;
let apiKey: string;

beforeAll(async () => {
  github = await startTestGitHub({ clients: [{ client_id: 'platform-github', client_secret: 'platform-github-secret' }] });
  t = await createTestApp({
    env: {
      ADMIN_EMAILS: ADMIN,
      GITHUB_CLIENT_ID: 'platform-github',
      GITHUB_CLIENT_SECRET: 'platform-github-secret',
      GITHUB_AUTHORIZE_URL: github.authorizeUrl,
      GITHUB_TOKEN_URL: github.tokenUrl,
      GITHUB_API_URL: github.apiBaseUrl,
    },
  });
  admin = await t.signUpAndLogIn(ADMIN);
  shop = await hostedProject(t, { website_url: SHOP_URL });
  apiKey = (await t.call('POST', `/api/v1/projects/${shop.id}/api-keys`, { token: shop.ownerToken, body: { name: 'backend' } })).json().secret;
});
afterAll(async () => {
  await t?.close();
  await github?.close();
});

interface Listed {
  user_email: string;
  user_id: string;
  client: string | null;
  client_label: string;
}

async function listed(url: string, token: string): Promise<Listed[]> {
  const res = await t.call('GET', url, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().sessions;
}

/** The labels of one account's sessions in a session list, sorted. */
async function labelsIn(url: string, token: string, email: string): Promise<string[]> {
  return (await listed(`${url}?per_page=100&q=${encodeURIComponent(email)}`, token))
    .filter((session) => session.user_email === email)
    .map((session) => session.client_label)
    .sort();
}

const publicApi = (path: string, body: unknown, token?: string) => t.call('POST', `/public/api/v1${path}`, { body, token, ip: uniqueIp(), headers: { 'x-api-key': apiKey } });

/** A shopper of the project, verified (passkeys ask for that), with no session yet. */
async function shopper(tag: string): Promise<{ email: string; id: string }> {
  const email = uniqueEmail(tag);
  const before = t.mail.messages.length;
  expect((await publicApi('/auth/signup', { email, password: STRONG_PASSWORD })).statusCode).toBe(201);
  const link = new URL((await t.mail.waitFor(email, /verify/i, { after: before })).link!);
  expect((await publicApi('/auth/verify-email', { token: link.searchParams.get('token') })).statusCode).toBe(200);
  const user = await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return { email, id: user.id };
}

describe("a project's end user signed in from three clients", () => {
  it('shows each session with its client in the project\'s sessions, the user\'s page and the export', async () => {
    const { email, id } = await shopper('three-clients');

    const viaApi = await publicApi('/auth/login', { email, password: STRONG_PASSWORD });
    expect(viaApi.statusCode, viaApi.body).toBe(200);

    const browser = new HostedBrowser(t, shop);
    const started = await browser.startAppSignIn();
    expect((await browser.logIn(email)).statusCode).toBe(200);
    const back = await browser.continueAppSignIn(started.interaction);
    await exchangeAtApp(t, shop, back.headers.location as string, started.verifier);

    const expected = ['Hosted pages', 'OpenID Connect: Shop', 'Public API'];
    expect(await labelsIn(`/api/v1/projects/${shop.id}/sessions`, shop.ownerToken, email)).toEqual(expected);
    const page = await t.call('GET', `/api/v1/projects/${shop.id}/users/${id}`, { token: shop.ownerToken });
    expect(page.statusCode, page.body).toBe(200);
    expect((page.json().sessions as Listed[]).map((session) => [session.client, session.client_label]).sort()).toEqual([
      ['hosted', 'Hosted pages'],
      ['oidc', 'OpenID Connect: Shop'],
      ['public_api', 'Public API'],
    ]);

    const csv = (await t.call('GET', `/api/v1/projects/${shop.id}/sessions/export?q=${encodeURIComponent(email)}`, { token: shop.ownerToken })).body;
    const [header, ...rows] = csv.trim().split(/\r?\n/);
    expect(header!.split(',').at(-1)).toBe('client');
    expect(rows.map((row) => row.split(',').at(-1)).sort()).toEqual(expected);
  });

  it('labels a passkey sign-in by the client it came through', async () => {
    const { email } = await shopper('passkey-client');
    const token = (await publicApi('/auth/login', { email, password: STRONG_PASSWORD })).json().access_token as string;
    const device = new WebAuthnEmulator(new AuthenticatorEmulator({ credentialsRepository: new PasskeysCredentialsMemoryRepository() }));
    const registration = (await publicApi('/auth/passkeys/register/options', undefined, token)).json();
    expect((await publicApi('/auth/passkeys/register/verify', { response: device.createJSON(SHOP_URL, registration) }, token)).statusCode).toBe(201);

    const options = (await publicApi('/auth/passkeys/login/options', {})).json();
    const signedIn = await publicApi('/auth/passkeys/login/verify', { response: device.getJSON(SHOP_URL, options) });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    // The password's session and the passkey's: neither is an unknown client.
    expect(await labelsIn(`/api/v1/projects/${shop.id}/sessions`, shop.ownerToken, email)).toEqual(['Public API', 'Public API']);
  });
});

describe("a developer's sessions", () => {
  it('are the Dashboard\'s, whether signed in over REST, tRPC or with GitHub', async () => {
    const email = uniqueEmail('dev-clients');
    await t.signUpAndLogIn(email);
    const tab = t.trpc();
    await tab.api.auth.logIn.mutate({ email, password: STRONG_PASSWORD, captcha_token: '', device_fingerprint: null });
    expect(await labelsIn('/api/v1/admin/sessions', admin.access_token, email)).toEqual(['Dashboard', 'Dashboard']);

    const gitHubEmail = uniqueEmail('dev-github');
    github.setUser({ id: 4242, login: 'octo', name: 'Octo Cat', emails: [{ email: gitHubEmail, primary: true, verified: true }] });
    github.nextLogin(4242);
    const ip = uniqueIp();
    const start = await t.call('GET', '/api/v1/auth/oauth/github/authorize', { ip });
    expect(start.statusCode, start.body).toBe(302);
    const stateCookie = start.cookies.find((cookie) => cookie.name === 'oauth_state')!.value;
    const callback = new URL(await followToRedirect(new URL(start.headers.location as string), PLATFORM_CALLBACK, { jar: new CookieJar() }));
    const signedIn = await t.call('GET', `${callback.pathname}${callback.search}`, { cookies: { oauth_state: stateCookie }, ip });
    expect(signedIn.cookies.some((cookie) => cookie.name === 'access_token' && cookie.value !== '')).toBe(true);
    expect(await labelsIn('/api/v1/admin/sessions', admin.access_token, gitHubEmail)).toEqual(['Dashboard']);
  });

  it('from before the client was recorded are an "Unknown client"', async () => {
    const email = uniqueEmail('dev-old-session');
    const session = await t.signUpAndLogIn(email);
    await t.db.updateTable('sessions').set({ client: null }).where('user_id', '=', session.user.id).execute();
    const sessions = (await listed(`/api/v1/admin/sessions?q=${encodeURIComponent(email)}`, admin.access_token)).filter((s) => s.user_email === email);
    expect(sessions.map((s) => [s.client, s.client_label])).toEqual([[null, 'Unknown client']]);
  });
});
