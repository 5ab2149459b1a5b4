import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuthClient, AuthError, type AuthClientOptions, type AuthEvents, type SignOutReason } from '../src/index.js';
import { uniqueEmail } from '../../../tests/helpers/create-test-app.js';
import { FakeClock, fakeTab, MemoryStorage, nextEvent, type FakeTab } from './helpers/fake-browser.js';
import { FakeLocks } from './helpers/fake-locks.js';
import { APP_CALLBACK, createProject, HostedBrowser, hostedSignIn, pageFetch, signUpEndUser, startServer, type Project, type Server } from './helpers/real-server.js';

/**
 * @authplatform/js against the real server: the hosted sign-in with code + PKCE, refresh, and the
 * tabs of one browser (client instances sharing a BroadcastChannel and a Web Locks implementation).
 */

let server: Server;
const clients: AuthClient[] = [];

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.t.close());
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
});

interface Origin {
  project: Project;
  email: string;
  browser: HostedBrowser;
  page: ReturnType<typeof pageFetch>;
  clock: FakeClock;
  locks: FakeLocks;
  localStorage: MemoryStorage;
}

async function origin(name: string): Promise<Origin> {
  const project = await createProject(server, name);
  const email = uniqueEmail(name.toLowerCase());
  const browser = await signUpEndUser(server, project, email);
  return { project, email, browser, page: pageFetch(), clock: new FakeClock(), locks: new FakeLocks(), localStorage: new MemoryStorage() };
}

function openTab(o: Origin, options: Partial<AuthClientOptions> = {}, tab: FakeTab = fakeTab({ fetch: o.page.fetch, clock: o.clock, locks: o.locks, localStorage: o.localStorage })) {
  const client = new AuthClient({ issuer: o.project.issuer, clientId: o.project.key, redirectUri: APP_CALLBACK, retryDelayMs: () => 0, ...options, environment: tab.environment });
  clients.push(client);
  return { client, tab };
}

/** Signs in through the hosted pages in this tab: what a click on "Sign in" and the callback page do. */
async function signIn(o: Origin, tab: ReturnType<typeof openTab>) {
  await tab.client.init();
  const url = await tab.client.createSignInUrl({ returnTo: '/dashboard' });
  tab.tab.url.current = await hostedSignIn(o.browser, o.project, o.email, url);
  const signedIn = nextEvent<AuthEvents['signedIn']>(tab.client.on.bind(tab.client), 'signedIn');
  const { returnTo } = await tab.client.handleRedirectCallback();
  expect(returnTo).toBe('/dashboard');
  return signedIn;
}

async function userinfo(o: Origin, token: string) {
  return fetch(`${o.project.issuer}/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } });
}

/** Moves the page's clock (not the server's) to 5 s before this client's access token expires. */
function accessTokenDue(o: Origin, client: AuthClient) {
  o.clock.advance(client.getSnapshot().expiresAt! - o.clock.now() - 5_000);
}

describe('sign-in with code + PKCE', () => {
  it('signs in on the hosted pages and holds a working access token, with the user from the ID token', async () => {
    const o = await origin('Shop');
    const tab = openTab(o);
    const url = new URL(await (await tab.client.init(), tab.client.createSignInUrl()));
    expect(`${url.origin}${url.pathname}`).toBe(`${server.appUrl}/hosted/${o.project.key}/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('openid email profile offline_access organizations');
    // The verifier waits in this tab's sessionStorage for the callback, and never goes in the URL.
    const pending = [...tab.tab.sessionStorage.items.values()].map((value) => JSON.parse(value));
    expect(pending).toHaveLength(1);
    expect(url.href).not.toContain(pending[0].verifier);

    tab.tab.url.current = await hostedSignIn(o.browser, o.project, o.email, url.href);
    const signedIn = nextEvent(tab.client.on.bind(tab.client), 'signedIn');
    await tab.client.handleRedirectCallback();
    expect(await signedIn).toMatchObject({ user: { email: o.email, name: 'Ada Lovelace', emailVerified: true } });
    expect(tab.tab.url.current).toBe(APP_CALLBACK); // the code is out of the address bar
    expect([...tab.tab.sessionStorage.items.keys()].filter((key) => key.includes('sign-in'))).toEqual([]);
    expect(tab.client.getSnapshot()).toMatchObject({ status: 'signedIn', user: { email: o.email } });

    const token = await tab.client.getAccessToken();
    const info = await userinfo(o, token!);
    expect(await info.json()).toMatchObject({ email: o.email });
    expect(o.page.counts.refreshAttempts).toBe(0);
  });

  it('finishes the callback by itself in init(), and refuses a callback this tab did not start', async () => {
    const o = await origin('Callback');
    const starter = openTab(o);
    await starter.client.init();
    const callback = await hostedSignIn(o.browser, o.project, o.email, await starter.client.createSignInUrl());

    // Another tab (no verifier in its sessionStorage) does not take the code for a sign-in.
    const stranger = openTab(o);
    await expect(stranger.client.handleRedirectCallback(callback)).rejects.toMatchObject({ code: 'callback_error' });

    // The tab that started it lands on the callback: init() finishes the sign-in.
    const landed = fakeTab({ fetch: o.page.fetch, clock: o.clock, locks: new FakeLocks(), channel: false });
    landed.sessionStorage.items.clear();
    for (const [key, value] of starter.tab.sessionStorage.items) landed.sessionStorage.setItem(key, value);
    landed.url.current = callback;
    const page = openTab(o, {}, landed);
    await page.client.init();
    expect(page.client.getSnapshot()).toMatchObject({ status: 'signedIn', user: { email: o.email } });
  });

  it('reports an error the provider sends back, signed out', async () => {
    const o = await origin('Denied');
    const tab = openTab(o);
    await tab.client.init();
    const url = new URL(await tab.client.createSignInUrl({ prompt: 'none' }));
    // A browser with no hosted session: prompt=none answers login_required.
    const back = await new HostedBrowser(server.appUrl).location(url.href);
    await expect(tab.client.handleRedirectCallback(back)).rejects.toMatchObject({ code: 'login_required' });
    expect(tab.client.getSnapshot().status).toBe('signedOut');
  });
});

describe('organizations', () => {
  it("lists the user's organizations, and switches the session into one (prompt=none): its role and permissions come with the access token", async () => {
    const o = await origin('Orgs');
    const tab = openTab(o);
    const { user } = await signIn(o, tab);
    expect(user.organizations).toEqual([]);
    expect(tab.client.getSnapshot().organization).toBeNull();
    const created = await server.t.call('POST', `/api/v1/projects/${o.project.id}/organizations`, { token: server.developerToken, body: { name: 'Acme', created_by: user.id } });
    expect(created.statusCode, created.body).toBe(201);
    const acme = created.json() as { id: string; slug: string };

    const before = (await tab.client.getAccessToken())!;
    await tab.client.switchOrganization(acme.id);
    const authorize = new URL(tab.tab.navigations.at(-1)!);
    expect(authorize.searchParams.get('prompt')).toBe('none');
    expect(authorize.searchParams.get('organization')).toBe(acme.id);
    // Still signed in on the hosted pages: straight back with a code, no page shown.
    tab.tab.url.current = await o.browser.location(authorize.href);
    await tab.client.handleRedirectCallback();
    const snapshot = tab.client.getSnapshot();
    expect(snapshot.organization).toMatchObject({ id: acme.id, slug: acme.slug, role: 'org:admin' });
    expect(snapshot.organization!.permissions).toEqual(snapshot.accessClaims!.org_permissions);
    expect(snapshot.user!.organizations).toEqual([expect.objectContaining({ id: acme.id, name: 'Acme', role: 'org:admin' })]);
    // The session from before the switch is ended, not left behind.
    await expect.poll(async () => (await userinfo(o, before)).status).toBe(401);
    expect((await userinfo(o, (await tab.client.getAccessToken())!)).status).toBe(200);
  });
});

describe('refresh', () => {
  it('refreshes before expiry on its own timer, with the rotated refresh token', async () => {
    const o = await origin('Timer');
    const tab = openTab(o);
    await signIn(o, tab);
    const first = await tab.client.getAccessToken();
    const refreshed = nextEvent(tab.client.on.bind(tab.client), 'tokenRefreshed');
    // 60 s before expiry (the default lead): the timer fires and the client renews.
    o.clock.advance(tab.client.getSnapshot().expiresAt! - 60_000 - o.clock.now());
    await refreshed;
    expect(o.page.counts).toMatchObject({ refreshAttempts: 1, refreshAnswered: 1 });
    const second = await tab.client.getAccessToken();
    expect(second).not.toBe(first);
    expect((await userinfo(o, second!)).status).toBe(200);
  });

  it('retries a refresh that failed on the network, and keeps the user signed in', async () => {
    const o = await origin('Flaky');
    const tab = openTab(o);
    await signIn(o, tab);
    const signedOut: SignOutReason[] = [];
    tab.client.on('signedOut', ({ reason }) => signedOut.push(reason));
    o.page.counts.failures = 2;
    const refreshed = nextEvent(tab.client.on.bind(tab.client), 'tokenRefreshed');
    const failed = await tab.client.getAccessToken({ forceRefresh: true }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(AuthError);
    expect(failed).toMatchObject({ code: 'network_error', transient: true });
    expect(tab.client.getSnapshot().status).toBe('signedIn');
    await refreshed; // the background retries got through
    expect(o.page.counts).toMatchObject({ refreshAttempts: 3, refreshAnswered: 1 });
    expect(signedOut).toEqual([]);
    expect((await userinfo(o, (await tab.client.getAccessToken())!)).status).toBe(200);
  });

  it('keeps the session across a reload (sessionStorage) by renewing the stored refresh token', async () => {
    const o = await origin('Reload');
    const first = openTab(o);
    await signIn(o, first);
    first.client.destroy();
    const reloaded = openTab(o, {}, { ...first.tab });
    const signedIn = nextEvent(reloaded.client.on.bind(reloaded.client), 'signedIn');
    await reloaded.client.init();
    expect(await signedIn).toMatchObject({ user: { email: o.email } });
    expect(o.page.counts.refreshAnswered).toBe(1);
    expect((await userinfo(o, (await reloaded.client.getAccessToken())!)).status).toBe(200);
  });

  it('keeps it across closing the browser with localStorage, and not even across a reload in memory', async () => {
    const o = await origin('Storage');
    const kept = openTab(o, { refreshToken: 'localStorage' });
    await signIn(o, kept);
    kept.client.destroy();
    // A new tab after a restart: a fresh sessionStorage, the origin's localStorage.
    const afterRestart = openTab(o, { refreshToken: 'localStorage' });
    await afterRestart.client.init();
    expect(afterRestart.client.getSnapshot()).toMatchObject({ status: 'signedIn', user: { email: o.email } });
    afterRestart.client.destroy();

    const memory = openTab(o, { refreshToken: 'memory' });
    await signIn(o, memory);
    expect([...memory.tab.sessionStorage.items.keys()].filter((key) => key.endsWith(':session'))).toEqual([]);
    memory.client.destroy();
    const reloaded = openTab(o, { refreshToken: 'memory' }, { ...memory.tab });
    await reloaded.client.init();
    expect(reloaded.client.getSnapshot()).toMatchObject({ status: 'signedOut', signOutReason: null });
  });
});

describe('tabs', () => {
  it('two tabs refresh exactly once: the leading tab spends the refresh token, the other gets the result', async () => {
    const o = await origin('Tabs');
    const a = openTab(o);
    await signIn(o, a);
    // A second tab opens: it takes the session from the first, without a token call.
    const b = openTab(o);
    await b.client.init();
    expect(b.client.getSnapshot()).toMatchObject({ status: 'signedIn', user: { email: o.email } });
    expect(await b.client.getAccessToken()).toBe(await a.client.getAccessToken());
    expect(o.page.counts.refreshAttempts).toBe(0);

    const refreshedInA = nextEvent(a.client.on.bind(a.client), 'tokenRefreshed');
    const refreshedInB = nextEvent(b.client.on.bind(b.client), 'tokenRefreshed');
    // Both tabs find the access token about to expire and ask for one at the same moment.
    accessTokenDue(o, a.client);
    const [tokenA, tokenB] = await Promise.all([a.client.getAccessToken(), b.client.getAccessToken()]);
    await Promise.all([refreshedInA, refreshedInB]);
    expect(tokenA).toBe(tokenB);
    expect(o.page.counts).toMatchObject({ refreshAttempts: 1, refreshAnswered: 1 });
    expect((await userinfo(o, tokenB!)).status).toBe(200);
    expect(a.client.getSnapshot().status).toBe('signedIn');

    // When the leading tab closes, the other one takes over the refreshing.
    a.client.destroy();
    accessTokenDue(o, b.client);
    const tokenAfter = await b.client.getAccessToken();
    expect(tokenAfter).not.toBe(tokenB);
    expect(o.page.counts.refreshAnswered).toBe(2);
    expect((await userinfo(o, tokenAfter!)).status).toBe(200);
  });

  it('without Web Locks (BroadcastChannel only) the first tab leads: a second takes its session, both share one refresh, and it takes over when the first closes', async () => {
    const o = await origin('NoLocks');
    const noLocks = () => fakeTab({ fetch: o.page.fetch, clock: o.clock, locks: null, localStorage: o.localStorage });
    const a = openTab(o, {}, noLocks());
    // Alone, the first tab's hello goes unanswered: the page's clock runs on until it stops waiting and leads.
    let alone = false;
    const ready = a.client.init().finally(() => (alone = true));
    while (!alone) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (!alone) o.clock.advance(100);
    }
    await ready;
    await signIn(o, a);

    // The second tab's hello is answered at once by the first: its session, without a token call.
    const b = openTab(o, {}, noLocks());
    await b.client.init();
    expect(b.client.getSnapshot()).toMatchObject({ status: 'signedIn', user: { email: o.email } });
    expect(await b.client.getAccessToken()).toBe(await a.client.getAccessToken());
    expect(o.page.counts.refreshAttempts).toBe(0);

    const refreshedInA = nextEvent(a.client.on.bind(a.client), 'tokenRefreshed');
    const refreshedInB = nextEvent(b.client.on.bind(b.client), 'tokenRefreshed');
    accessTokenDue(o, a.client);
    const [tokenA, tokenB] = await Promise.all([a.client.getAccessToken(), b.client.getAccessToken()]);
    await Promise.all([refreshedInA, refreshedInB]);
    expect(tokenA).toBe(tokenB);
    expect(o.page.counts).toMatchObject({ refreshAttempts: 1, refreshAnswered: 1 });
    expect((await userinfo(o, tokenB!)).status).toBe(200);

    // The leading tab closes and says so on the channel: the other one refreshes from then on.
    a.client.destroy();
    accessTokenDue(o, b.client);
    const tokenAfter = await b.client.getAccessToken();
    expect(tokenAfter).not.toBe(tokenB);
    expect(o.page.counts).toMatchObject({ refreshAttempts: 2, refreshAnswered: 2 });
    expect((await userinfo(o, tokenAfter!)).status).toBe(200);
  });

  it('a network failure of the leading tab reaches the other as an error, not a sign-out', async () => {
    const o = await origin('TabsFlaky');
    const a = openTab(o);
    await signIn(o, a);
    const b = openTab(o);
    await b.client.init();
    const signedOut: SignOutReason[] = [];
    b.client.on('signedOut', ({ reason }) => signedOut.push(reason));
    o.page.counts.failures = 1;
    const refreshedInB = nextEvent(b.client.on.bind(b.client), 'tokenRefreshed');
    await expect(b.client.getAccessToken({ forceRefresh: true })).rejects.toMatchObject({ code: 'network_error' });
    await refreshedInB;
    expect(signedOut).toEqual([]);
    expect(o.page.counts).toMatchObject({ refreshAttempts: 2, refreshAnswered: 1 });
  });

  it('signs out every tab with reason "revoked" when the server has ended the session', async () => {
    const o = await origin('Revoked');
    const a = openTab(o);
    await signIn(o, a);
    const b = openTab(o);
    await b.client.init();
    const sid = a.client.getSnapshot().accessClaims!.sid as string;
    const revoked = await server.t.call('DELETE', `/api/v1/projects/${o.project.id}/sessions/${sid}`, { token: server.developerToken });
    expect(revoked.statusCode).toBe(200);

    const outA = nextEvent(a.client.on.bind(a.client), 'signedOut');
    const outB = nextEvent(b.client.on.bind(b.client), 'signedOut');
    expect(await b.client.getAccessToken({ forceRefresh: true })).toBeNull();
    expect(await outA).toEqual({ reason: 'revoked' });
    expect(await outB).toEqual({ reason: 'revoked' });
    expect(b.client.getSnapshot()).toMatchObject({ status: 'signedOut', signOutReason: 'revoked', user: null });
    expect(await a.client.getAccessToken()).toBeNull();
  });

  it('signs out every tab with reason "expired" when the session ran out', async () => {
    const o = await origin('Expired');
    const a = openTab(o);
    await signIn(o, a);
    const b = openTab(o);
    await b.client.init();
    const outB = nextEvent(b.client.on.bind(b.client), 'signedOut');
    server.clock.offsetS += 400 * 24 * 3600; // past any refresh-token lifetime
    try {
      expect(await a.client.getAccessToken({ forceRefresh: true })).toBeNull();
    } finally {
      server.clock.offsetS -= 400 * 24 * 3600;
    }
    expect(await outB).toEqual({ reason: 'expired' });
    expect(a.client.getSnapshot().signOutReason).toBe('expired');
  });

  it('signs out every tab on sign-out, ends the session at the server, and leaves for the end-session endpoint', async () => {
    const o = await origin('SignOut');
    const a = openTab(o, { postLogoutRedirectUri: 'https://app.example/signed-out' });
    await signIn(o, a);
    const b = openTab(o);
    await b.client.init();
    const token = (await a.client.getAccessToken())!;
    const idToken = a.client.getSnapshot().user!.claims;
    expect(idToken.sid).toEqual(expect.any(String));
    const outB = nextEvent(b.client.on.bind(b.client), 'signedOut');
    await a.client.signOut();
    expect(await outB).toEqual({ reason: 'user' });
    expect(a.client.getSnapshot()).toMatchObject({ status: 'signedOut', signOutReason: 'user' });
    // Revoked at the server: the access token no longer works anywhere.
    expect((await userinfo(o, token)).status).toBe(401);
    const end = new URL(a.tab.navigations.at(-1)!);
    expect(`${end.origin}${end.pathname}`).toBe(`${server.appUrl}/hosted/${o.project.key}/logout`);
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe('https://app.example/signed-out');
    expect(end.searchParams.get('id_token_hint')).toEqual(expect.any(String));
    // The hosted pages' session ends there too: the browser comes back to the app, signed out of both.
    expect(await o.browser.location(end.href)).toBe('https://app.example/signed-out');
    // Nothing is left to restore.
    expect([...a.tab.sessionStorage.items.keys()].filter((key) => key.endsWith(':session'))).toEqual([]);
  });
});
