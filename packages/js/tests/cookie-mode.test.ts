import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuthClient } from '../src/index.js';
import { createCookieHandler } from '../src/cookie-handler.js';
import { uniqueEmail } from '../../../tests/helpers/create-test-app.js';
import { FakeClock, fakeTab, nextEvent } from './helpers/fake-browser.js';
import { FakeLocks } from './helpers/fake-locks.js';
import { APP_CALLBACK, APP_ORIGIN, createProject, hostedSignIn, signUpEndUser, startServer, type Server } from './helpers/real-server.js';

/**
 * Cookie mode against the real server: the app's backend route (createCookieHandler) exchanges the
 * code and keeps the refresh token in an HttpOnly cookie; the page only ever holds access and ID tokens.
 */

const ROUTE = `${APP_ORIGIN}/auth/session`;
let server: Server;
const clients: AuthClient[] = [];

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.t.close());
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
});

/** The app's origin: its cookie route in front of the real provider, and the browser's cookie jar for it. */
function appOrigin(issuer: string, clientId: string) {
  const handler = createCookieHandler({ issuer, clientId });
  const jar = new Map<string, { value: string; attributes: string }>();
  const seenByPage: string[] = [];
  const pageFetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith(ROUTE)) return fetch(input, init);
    const headers = new Headers(init.headers);
    if (jar.size) headers.set('cookie', [...jar].map(([name, { value }]) => `${name}=${value}`).join('; '));
    headers.set('origin', APP_ORIGIN);
    const response = await handler(new Request(url, { ...init, headers }));
    for (const cookie of response.headers.getSetCookie()) {
      const [pair, ...attributes] = cookie.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      if (/max-age=0/i.test(cookie)) jar.delete(name);
      else jar.set(name, { value, attributes: attributes.join(';') });
    }
    // What JavaScript on the page gets to read: the body (Set-Cookie is never exposed to it).
    seenByPage.push(await response.clone().text());
    return response;
  }) as typeof fetch;
  return { handler, jar, seenByPage, pageFetch };
}

describe('cookie mode', () => {
  it('signs in, refreshes, survives a reload and signs out with the refresh token only ever in an HttpOnly cookie', async () => {
    const project = await createProject(server, 'Cookies');
    const email = uniqueEmail('cookie');
    const browser = await signUpEndUser(server, project, email);
    const origin = appOrigin(project.issuer, project.key);
    const clock = new FakeClock();
    const locks = new FakeLocks();
    const open = (tab = fakeTab({ fetch: origin.pageFetch, clock, locks })) => {
      const client = new AuthClient({ issuer: project.issuer, clientId: project.key, redirectUri: APP_CALLBACK, refreshToken: { cookieEndpoint: ROUTE }, environment: tab.environment });
      clients.push(client);
      return { client, tab };
    };

    // No cookie yet: signed out, without a "signed out" event (nobody was signed in).
    const first = open();
    const events: string[] = [];
    first.client.on('signedOut', ({ reason }) => events.push(reason));
    await first.client.init();
    expect(first.client.getSnapshot()).toMatchObject({ status: 'signedOut', signOutReason: null });

    first.tab.url.current = await hostedSignIn(browser, project, email, await first.client.createSignInUrl());
    await first.client.handleRedirectCallback();
    expect(first.client.getSnapshot()).toMatchObject({ status: 'signedIn', user: { email } });
    const cookie = origin.jar.get('authplatform_refresh')!;
    expect(cookie.attributes).toMatch(/HttpOnly/);
    expect(cookie.attributes).toMatch(/SameSite=Strict/);
    expect(cookie.attributes).toMatch(/Path=\/auth\/session/);

    const refreshed = await first.client.getAccessToken({ forceRefresh: true });
    expect((await fetch(`${project.issuer}/oauth/userinfo`, { headers: { authorization: `Bearer ${refreshed}` } })).status).toBe(200);
    expect(origin.jar.get('authplatform_refresh')!.value).not.toBe(cookie.value); // rotated

    // A reload: nothing in storage, the cookie renews the session.
    first.client.destroy();
    const reloaded = open({ ...first.tab });
    const signedIn = nextEvent(reloaded.client.on.bind(reloaded.client), 'signedIn');
    await reloaded.client.init();
    expect(await signedIn).toMatchObject({ user: { email } });

    await reloaded.client.signOut({ endHostedSession: false });
    expect(origin.jar.has('authplatform_refresh')).toBe(false);
    expect((await fetch(`${project.issuer}/oauth/userinfo`, { headers: { authorization: `Bearer ${await reloaded.client.getAccessToken()}` } })).status).toBe(401);

    // The page never saw a refresh token: not in any answer of the route, not in storage.
    expect(origin.seenByPage.length).toBeGreaterThan(2);
    for (const body of origin.seenByPage) expect(body).not.toContain('refresh_token');
    expect([...first.tab.sessionStorage.items.values()].join()).not.toContain(cookie.value);
    expect(events).toEqual([]);
  });

  it('refuses a call without its header or from another origin, so another site cannot use the cookie', async () => {
    const project = await createProject(server, 'CookieCsrf');
    const { handler } = appOrigin(project.issuer, project.key);
    const plain = await handler(new Request(ROUTE, { method: 'POST', headers: { 'content-type': 'application/json', cookie: 'authplatform_refresh=x' }, body: '{"action":"refresh"}' }));
    expect(plain.status).toBe(400);
    const crossSite = await handler(
      new Request(ROUTE, { method: 'POST', headers: { 'content-type': 'application/json', 'x-authplatform-request': '1', origin: 'https://evil.example', cookie: 'authplatform_refresh=x' }, body: '{"action":"refresh"}' }),
    );
    expect(crossSite.status).toBe(403);
    const unknown = await handler(new Request(ROUTE, { method: 'POST', headers: { 'content-type': 'application/json', 'x-authplatform-request': '1', cookie: 'authplatform_refresh=stolen' }, body: '{"action":"refresh"}' }));
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toMatchObject({ error: 'invalid_grant' });
    expect(unknown.headers.get('set-cookie')).toMatch(/Max-Age=0/);
  });
});
