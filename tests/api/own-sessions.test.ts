import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, createTestApp, manualClock, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { trpcFailure } from '../helpers/trpc-client.js';

/**
 * The signed-in account's own sessions (list, sign one out, sign out the others) and its idle
 * timeout, for developers (/api/v1, tRPC) and a project's end users (/public/api/v1 with X-API-Key).
 * The app's clock is moved by hand.
 */
const clock = manualClock(new Date());
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const EXPIRED = { detail: 'Your session has expired. Please sign in again.' };
const NOT_FOUND = { detail: 'Session not found' };
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
/** What app.inject sends when a test names no browser. */
const INJECTED = 'lightMyRequest';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

interface Realm {
  prefix: string;
  headers: Record<string, string>;
  /** Where the account's profile is changed. */
  profile: { method: 'PATCH' | 'PUT'; path: string };
}
const PLATFORM: Realm = { prefix: '/api/v1', headers: {}, profile: { method: 'PATCH', path: '/auth/profile' } };

interface Session {
  access_token: string;
  refresh_token: string;
}

function api(realm: Realm, token?: string, ip = uniqueIp()) {
  const call = (method: 'GET' | 'POST' | 'DELETE' | 'PATCH' | 'PUT', path: string, body?: unknown) =>
    t.call(method, `${realm.prefix}${path}`, { body, token, ip, headers: realm.headers });
  return {
    list: () => call('GET', '/auth/sessions'),
    revoke: (id: string) => call('DELETE', `/auth/sessions/${encodeURIComponent(id)}`),
    revokeOthers: () => call('POST', '/auth/sessions/revoke-others'),
    me: () => call('GET', realm === PLATFORM ? '/auth/me' : '/profile'),
    setIdleTimeout: (minutes: unknown) => call(realm.profile.method, realm.profile.path, { session_idle_timeout_minutes: minutes }),
    refresh: (refresh_token: string) => call('POST', '/auth/refresh', { refresh_token }),
  };
}

/** Signs an existing account in once more, as a browser with `userAgent` at `ip`. */
async function signIn(realm: Realm, email: string, userAgent: string, ip = uniqueIp()): Promise<Session> {
  const headers: Record<string, string> = realm === PLATFORM ? { 'user-agent': userAgent } : { 'x-end-user-agent': userAgent, 'x-end-user-ip': ip };
  const res = await t.call('POST', `${realm.prefix}/auth/login`, { body: { email, password: STRONG_PASSWORD }, ip, headers: { ...realm.headers, ...headers } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function developer(tag: string) {
  const email = uniqueEmail(tag);
  const session = await t.signUpAndLogIn(email);
  return { email, session };
}

interface Listed {
  id: string;
  device: string;
  ip_address: string | null;
  country_code: string | null;
  user_agent: string | null;
  created_at: string;
  last_used_at: string;
  current: boolean;
}
async function sessionsOf(realm: Realm, token: string): Promise<Listed[]> {
  const res = await api(realm, token).list();
  expect(res.statusCode, res.body).toBe(200);
  return res.json().sessions;
}
async function idOf(realm: Realm, token: string): Promise<string> {
  return (await sessionsOf(realm, token)).find((s) => s.current)!.id;
}

describe('GET /auth/sessions', () => {
  it("lists only the caller's live sessions, newest use first, with a device label, the country of the address and the calling one marked current", async () => {
    const dev = await developer('list');
    clock.advance(10);
    const chrome = await signIn(PLATFORM, dev.email, CHROME_MAC, '79.192.20.30');
    clock.advance(10);
    const firefox = await signIn(PLATFORM, dev.email, FIREFOX_WINDOWS);
    const gone = await signIn(PLATFORM, dev.email, SAFARI_IPHONE);
    await t.call('POST', '/api/v1/auth/logout', { token: gone.access_token });
    const stranger = await developer('stranger');

    const listed = await sessionsOf(PLATFORM, dev.session.access_token);
    expect(listed).toHaveLength(3);
    expect(listed.map((s) => s.user_agent)).toEqual([FIREFOX_WINDOWS, CHROME_MAC, INJECTED]);
    expect(listed.map((s) => s.current)).toEqual([false, false, true]);
    expect(Object.keys(listed[0]!).sort()).toEqual(['country_code', 'created_at', 'current', 'device', 'id', 'ip_address', 'last_used_at', 'user_agent']);
    expect(listed[1]).toMatchObject({ device: 'Chrome on macOS', ip_address: '79.192.20.30', country_code: 'DE' });
    expect(listed[0]).toMatchObject({ device: 'Firefox on Windows' });
    expect(listed[2]).toMatchObject({ device: 'Unknown device' });
    const strangerIds = (await sessionsOf(PLATFORM, stranger.session.access_token)).map((s) => s.id);
    expect(listed.map((s) => s.id)).not.toContain(strangerIds[0]);

    // Using a session moves it up: Chrome now, then the first one.
    clock.advance(60);
    expect((await api(PLATFORM, chrome.access_token).me()).statusCode).toBe(200);
    clock.advance(5);
    const reordered = await sessionsOf(PLATFORM, dev.session.access_token);
    expect(reordered.map((s) => s.user_agent)).toEqual([INJECTED, CHROME_MAC, FIREFOX_WINDOWS]);
    expect(reordered[0]!.current).toBe(true);
    expect(firefox.access_token).toBeTruthy();
  });

  it('needs a signed-in caller', async () => {
    expect((await api(PLATFORM).list()).statusCode).toBe(401);
    expect((await api(PLATFORM).revokeOthers()).statusCode).toBe(401);
    expect((await api(PLATFORM).revoke('anything')).statusCode).toBe(401);
  });
});

describe('DELETE /auth/sessions/{id}', () => {
  it('signs out one of your sessions at once: its access and refresh tokens stop working, the others keep working', async () => {
    const dev = await developer('revoke-one');
    const other = await signIn(PLATFORM, dev.email, FIREFOX_WINDOWS);
    const otherId = await idOf(PLATFORM, other.access_token);
    // The other session is in use right now: its access token works until the revocation.
    expect((await api(PLATFORM, other.access_token).me()).statusCode).toBe(200);

    const res = await api(PLATFORM, dev.session.access_token).revoke(otherId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Session revoked' });

    const refused = await api(PLATFORM, other.access_token).me();
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(EXPIRED);
    expect((await api(PLATFORM).refresh(other.refresh_token)).statusCode).toBe(401);
    expect((await api(PLATFORM, dev.session.access_token).me()).statusCode).toBe(200);
    expect((await sessionsOf(PLATFORM, dev.session.access_token)).map((s) => s.id)).not.toContain(otherId);
  });

  it("answers 404 'Session not found' for another account's session, an unknown id and one already ended, and revokes nothing", async () => {
    const dev = await developer('revoke-foreign');
    const stranger = await developer('victim');
    const strangerId = await idOf(PLATFORM, stranger.session.access_token);

    const foreign = await api(PLATFORM, dev.session.access_token).revoke(strangerId);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(NOT_FOUND);
    expect((await api(PLATFORM, stranger.session.access_token).me()).statusCode).toBe(200);

    const unknown = await api(PLATFORM, dev.session.access_token).revoke('no-such-session');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(NOT_FOUND);

    const other = await signIn(PLATFORM, dev.email, CHROME_MAC);
    const otherId = await idOf(PLATFORM, other.access_token);
    expect((await api(PLATFORM, dev.session.access_token).revoke(otherId)).statusCode).toBe(200);
    expect((await api(PLATFORM, dev.session.access_token).revoke(otherId)).json()).toEqual(NOT_FOUND);
  });
});

describe('POST /auth/sessions/revoke-others', () => {
  it('signs out every other session of the account, answers how many, and leaves the calling one and other accounts alone', async () => {
    const dev = await developer('others');
    const a = await signIn(PLATFORM, dev.email, CHROME_MAC);
    const b = await signIn(PLATFORM, dev.email, FIREFOX_WINDOWS);
    const stranger = await developer('bystander');

    const res = await api(PLATFORM, dev.session.access_token).revokeOthers();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Other sessions signed out', revoked: 2 });
    for (const session of [a, b]) {
      expect((await api(PLATFORM, session.access_token).me()).statusCode).toBe(401);
      expect((await api(PLATFORM).refresh(session.refresh_token)).statusCode).toBe(401);
    }
    expect((await api(PLATFORM, dev.session.access_token).me()).statusCode).toBe(200);
    expect((await api(PLATFORM, stranger.session.access_token).me()).statusCode).toBe(200);
    expect((await sessionsOf(PLATFORM, dev.session.access_token)).map((s) => s.current)).toEqual([true]);
    expect((await api(PLATFORM, dev.session.access_token).revokeOthers()).json()).toMatchObject({ revoked: 0 });
  });
});

describe('over tRPC (the browser)', () => {
  it('auth.listSessions, auth.revokeSession and auth.revokeOtherSessions work on the cookie session', async () => {
    const dev = await developer('trpc');
    const tab = t.trpc({ ip: uniqueIp(), headers: { 'user-agent': CHROME_MAC } });
    await tab.api.auth.logIn.mutate({ email: dev.email, password: STRONG_PASSWORD, captcha_token: '', device_fingerprint: null });
    const third = await signIn(PLATFORM, dev.email, FIREFOX_WINDOWS);

    const { sessions } = await tab.api.auth.listSessions.query();
    expect(sessions).toHaveLength(3);
    const mine = sessions.find((s) => s.current)!;
    expect(mine).toMatchObject({ device: 'Chrome on macOS', user_agent: CHROME_MAC });

    const firstId = await idOf(PLATFORM, dev.session.access_token);
    expect(await tab.api.auth.revokeSession.mutate({ id: firstId })).toEqual({ message: 'Session revoked' });
    expect((await api(PLATFORM, dev.session.access_token).me()).statusCode).toBe(401);
    expect(await trpcFailure(tab.api.auth.revokeSession.mutate({ id: firstId }))).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'Session not found' });

    expect(await tab.api.auth.revokeOtherSessions.mutate()).toEqual({ message: 'Other sessions signed out', revoked: 1 });
    expect((await api(PLATFORM, third.access_token).me()).statusCode).toBe(401);
    expect((await tab.api.auth.listSessions.query()).sessions).toHaveLength(1);
    expect(await trpcFailure(t.trpc().api.auth.listSessions.query())).toMatchObject({ status: 401 });
  });
});

describe("a project's end users, through the public API", () => {
  async function project(tag: string): Promise<Realm> {
    const owner = await developer(tag);
    const token = owner.session.access_token;
    const created = (await t.call('POST', '/api/v1/projects', { token, body: { name: `Shop ${tag}`, website_url: 'https://shop.example' } })).json();
    const key = (await t.call('POST', `/api/v1/projects/${created.id}/api-keys`, { token, body: { name: 'backend' } })).json();
    return { prefix: '/public/api/v1', headers: { 'x-api-key': key.secret }, profile: { method: 'PUT', path: '/profile' } };
  }
  async function endUser(realm: Realm, tag: string) {
    const email = uniqueEmail(tag);
    expect((await t.call('POST', `${realm.prefix}/auth/signup`, { body: { email, password: STRONG_PASSWORD }, headers: realm.headers, ip: uniqueIp() })).statusCode).toBe(201);
    return { email, session: await signIn(realm, email, SAFARI_IPHONE, '79.192.20.30') };
  }

  it("the same routes with the project's key: list, sign one out, sign out the others; nobody reaches another realm's sessions", async () => {
    const shop = await project('public');
    const shopper = await endUser(shop, 'shopper');
    const second = await signIn(shop, shopper.email, CHROME_MAC);
    const neighbour = await endUser(shop, 'neighbour');
    const dev = await developer('public-dev');

    const listed = await sessionsOf(shop, shopper.session.access_token);
    expect(listed).toHaveLength(2);
    const current = listed.find((s) => s.current)!;
    expect(current).toMatchObject({ device: 'Safari on iPhone', ip_address: '79.192.20.30', country_code: 'DE', user_agent: SAFARI_IPHONE });
    const secondId = listed.find((s) => !s.current)!.id;

    // Another end user's session, and sessions across realms, are not found.
    const neighbourId = await idOf(shop, neighbour.session.access_token);
    expect((await api(shop, shopper.session.access_token).revoke(neighbourId)).json()).toEqual(NOT_FOUND);
    const devId = await idOf(PLATFORM, dev.session.access_token);
    expect((await api(shop, shopper.session.access_token).revoke(devId)).statusCode).toBe(404);
    expect((await api(PLATFORM, dev.session.access_token).revoke(current.id)).statusCode).toBe(404);
    // A developer's token is not an end user's, nor the other way round.
    expect((await api(shop, dev.session.access_token).list()).statusCode).toBe(401);
    expect((await api(PLATFORM, shopper.session.access_token).list()).statusCode).toBe(401);

    expect((await api(shop, shopper.session.access_token).revoke(secondId)).json()).toEqual({ message: 'Session revoked' });
    expect((await api(shop, second.access_token).me()).statusCode).toBe(401);
    const third = await signIn(shop, shopper.email, FIREFOX_WINDOWS);
    expect((await api(shop, shopper.session.access_token).revokeOthers()).json()).toEqual({ message: 'Other sessions signed out', revoked: 1 });
    expect((await api(shop, third.access_token).me()).statusCode).toBe(401);
    expect((await api(shop, neighbour.session.access_token).me()).statusCode).toBe(200);
    expect((await api(PLATFORM, dev.session.access_token).me()).statusCode).toBe(200);
    // No key, no end-user API.
    expect((await t.call('GET', '/public/api/v1/auth/sessions', { token: shopper.session.access_token })).statusCode).toBe(401);
  });

  it("an end user's idle timeout is set through the profile and refuses the idle session on access and on refresh", async () => {
    const shop = await project('idle');
    const shopper = await endUser(shop, 'idler');
    const set = await api(shop, shopper.session.access_token).setIdleTimeout(15);
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ session_idle_timeout_minutes: 15 });
    const other = await signIn(shop, shopper.email, CHROME_MAC);

    clock.advance(15 * 60 + 1);
    const refused = await api(shop, shopper.session.access_token).me();
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(EXPIRED);
    expect((await api(shop).refresh(other.refresh_token)).statusCode).toBe(401);
    expect((await api(shop, other.access_token).me()).statusCode).toBe(401);
  });
});

describe('session idle timeout', () => {
  it('is null (none) for a new account; PATCH /auth/profile sets it to 15–480 minutes and null turns it off', async () => {
    const dev = await developer('setting');
    const me = api(PLATFORM, dev.session.access_token);
    expect((await me.me()).json()).toMatchObject({ session_idle_timeout_minutes: null });
    const set = await me.setIdleTimeout(30);
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ session_idle_timeout_minutes: 30, email: dev.email });
    expect((await me.me()).json()).toMatchObject({ session_idle_timeout_minutes: 30 });
    // Other fields are left as they are.
    const names = await t.call('PATCH', '/api/v1/auth/profile', { token: dev.session.access_token, body: { first_name: 'Ada' } });
    expect(names.json()).toMatchObject({ first_name: 'Ada', session_idle_timeout_minutes: 30 });
    expect((await me.setIdleTimeout(null)).json()).toMatchObject({ session_idle_timeout_minutes: null });
    expect((await me.setIdleTimeout(480)).json()).toMatchObject({ session_idle_timeout_minutes: 480 });
    expect((await me.setIdleTimeout(15)).json()).toMatchObject({ session_idle_timeout_minutes: 15 });
  });

  it.each([5, 14, 481, 1000, 20.5, '30', true])('refuses %j with 422 and a detail that says what is allowed', async (value) => {
    const dev = await developer('invalid');
    const res = await api(PLATFORM, dev.session.access_token).setIdleTimeout(value);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ detail: 'Session timeout must be a whole number of minutes from 15 to 480, or null for none' });
    expect((await api(PLATFORM, dev.session.access_token).me()).json()).toMatchObject({ session_idle_timeout_minutes: null });
  });

  it('also over tRPC (profile.update), with the same 422', async () => {
    const dev = await developer('trpc-setting');
    const tab = t.trpc({ token: dev.session.access_token });
    expect(await tab.api.profile.update.mutate({ session_idle_timeout_minutes: 60 })).toMatchObject({ session_idle_timeout_minutes: 60 });
    expect(await trpcFailure(tab.api.profile.update.mutate({ session_idle_timeout_minutes: 1000 }))).toMatchObject({
      status: 422,
      message: 'Session timeout must be a whole number of minutes from 15 to 480, or null for none',
    });
  });

  it('a session used within the timeout stays; one unused for longer is refused with 401 everywhere, and stays refused', async () => {
    const dev = await developer('idle-access');
    const me = api(PLATFORM, dev.session.access_token);
    await me.setIdleTimeout(15);
    const tab = t.trpc({ token: dev.session.access_token });

    for (let i = 0; i < 3; i++) {
      clock.advance(14 * 60);
      expect((await me.me()).statusCode).toBe(200);
    }
    clock.advance(15 * 60 + 1);
    const refused = await me.me();
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(EXPIRED);
    expect((await me.list()).statusCode).toBe(401);
    expect(await trpcFailure(tab.api.auth.me.query())).toMatchObject({ status: 401 });
    expect((await api(PLATFORM).refresh(dev.session.refresh_token)).statusCode).toBe(401);
  });

  it('a refresh after the timeout is refused, and a refresh within it counts as use', async () => {
    const dev = await developer('idle-refresh');
    await api(PLATFORM, dev.session.access_token).setIdleTimeout(15);

    clock.advance(10 * 60);
    const rotated = await api(PLATFORM).refresh(dev.session.refresh_token);
    expect(rotated.statusCode).toBe(200);
    clock.advance(10 * 60);
    expect((await api(PLATFORM, rotated.json().access_token).me()).statusCode).toBe(200);

    const idle = await signIn(PLATFORM, dev.email, CHROME_MAC);
    clock.advance(15 * 60 + 1);
    const refused = await api(PLATFORM).refresh(idle.refresh_token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(EXPIRED);
    expect((await api(PLATFORM, idle.access_token).me()).statusCode).toBe(401);
  });

  it('with no timeout (null), an idle session keeps working', async () => {
    const dev = await developer('no-timeout');
    const me = api(PLATFORM, dev.session.access_token);
    await me.setIdleTimeout(15);
    await me.setIdleTimeout(null);
    clock.advance(8 * 60 * 60);
    expect((await me.me()).statusCode).toBe(200);
  });

  it('lifting the timeout does not bring back a session that had already timed out', async () => {
    const dev = await developer('no-revival');
    const idle = await signIn(PLATFORM, dev.email, CHROME_MAC);
    const me = api(PLATFORM, dev.session.access_token);
    await me.setIdleTimeout(15);
    clock.advance(10 * 60);
    expect((await me.me()).statusCode).toBe(200);
    clock.advance(10 * 60);
    // `idle` has not been used for 20 minutes; nobody asked for it since.
    expect((await me.setIdleTimeout(null)).statusCode).toBe(200);
    expect((await api(PLATFORM, idle.access_token).me()).statusCode).toBe(401);
    expect((await api(PLATFORM).refresh(idle.refresh_token)).statusCode).toBe(401);
    expect((await sessionsOf(PLATFORM, dev.session.access_token)).map((s) => s.current)).toEqual([true]);
  });

  it('an idle session is not listed among the live ones', async () => {
    const dev = await developer('idle-list');
    await signIn(PLATFORM, dev.email, CHROME_MAC);
    const me = api(PLATFORM, dev.session.access_token);
    await me.setIdleTimeout(15);
    clock.advance(10 * 60);
    expect(await sessionsOf(PLATFORM, dev.session.access_token)).toHaveLength(2);
    clock.advance(10 * 60);
    expect((await sessionsOf(PLATFORM, dev.session.access_token)).map((s) => s.user_agent)).toEqual([INJECTED]);
  });

  it("writes a session's last use at most once a minute, not on every request", async () => {
    const dev = await developer('last-used');
    const me = api(PLATFORM, dev.session.access_token);
    const id = await idOf(PLATFORM, dev.session.access_token);
    const lastUsed = async () => (await t.db.selectFrom('sessions').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow()).last_used_at;
    const signedInAt = await lastUsed();

    clock.advance(30);
    expect((await me.me()).statusCode).toBe(200);
    expect(await lastUsed()).toBe(signedInAt);
    clock.advance(31);
    expect((await me.me()).statusCode).toBe(200);
    const touched = await lastUsed();
    expect(touched).toBe(clock.now().toISOString());
    clock.advance(59);
    await me.me();
    await me.me();
    expect(await lastUsed()).toBe(touched);
  });
});

describe('the OpenAPI document', () => {
  it('lists the routes for both realms and the setting in the profile update', async () => {
    const document = (await t.call('GET', '/api/openapi.json')).json();
    const paths = document.paths;
    expect(paths['/api/v1/auth/sessions'].get).toMatchObject({ operationId: 'listSessions', tags: ['Auth'], security: [{ bearerAuth: [] }] });
    expect(paths['/api/v1/auth/sessions/{id}'].delete).toMatchObject({ operationId: 'revokeSession', responses: { 404: {} } });
    expect(paths['/api/v1/auth/sessions/revoke-others'].post).toMatchObject({ operationId: 'revokeOtherSessions' });
    expect(paths['/public/api/v1/auth/sessions'].get).toMatchObject({ operationId: 'publicListSessions', tags: ['Public API'], security: [{ apiKeyAuth: [], bearerAuth: [] }] });
    expect(paths['/public/api/v1/auth/sessions/{id}'].delete).toMatchObject({ operationId: 'publicRevokeSession', responses: { 404: {} } });
    expect(paths['/public/api/v1/auth/sessions/revoke-others'].post).toMatchObject({ operationId: 'publicRevokeOtherSessions' });
    expect([...document.components.schemas.OwnSession.required].sort()).toEqual(['country_code', 'created_at', 'current', 'device', 'id', 'ip_address', 'last_used_at', 'user_agent']);
    expect(document.components.schemas.User.required).toContain('session_idle_timeout_minutes');
    expect(document.components.schemas.UpdateProfileInput.properties.session_idle_timeout_minutes).toEqual({
      anyOf: [{ type: 'integer', minimum: 15, maximum: 480 }, { type: 'null' }],
    });
  });
});

describe('signing out the session one is using from the list', () => {
  /** The cookies a response clears (set empty with an expiry in the past). */
  const clearedBy = (res: { cookies: Array<{ name: string; value: string; expires?: Date; maxAge?: number }> }) =>
    res.cookies.filter((cookie) => cookie.value === '' || cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() <= Date.now())).map((cookie) => cookie.name).sort();

  it('clears its cookies over REST, and leaves them when another session is signed out', async () => {
    const email = uniqueEmail('delete-current');
    await t.signUpAndLogIn(email);
    const other = await signIn(PLATFORM, email, FIREFOX_WINDOWS);
    const login = await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD } });
    const cookies = Object.fromEntries(login.cookies.map((cookie) => [cookie.name, cookie.value]));
    expect(Object.keys(cookies).sort()).toEqual(['access_token', 'refresh_token']);
    const sessions = (await t.call('GET', '/api/v1/auth/sessions', { cookies })).json().sessions as Array<{ id: string; current: boolean }>;
    const current = sessions.find((s) => s.current)!;
    const otherId = await idOf(PLATFORM, other.access_token);

    const revokedOther = await t.call('DELETE', `/api/v1/auth/sessions/${otherId}`, { cookies });
    expect(revokedOther.statusCode).toBe(200);
    expect(clearedBy(revokedOther)).toEqual([]);

    const revokedCurrent = await t.call('DELETE', `/api/v1/auth/sessions/${current.id}`, { cookies });
    expect(revokedCurrent.statusCode).toBe(200);
    expect(clearedBy(revokedCurrent)).toEqual(['access_token', 'refresh_token']);
  });

  it('clears its cookies over tRPC', async () => {
    const email = uniqueEmail('delete-current-trpc');
    await t.signUpAndLogIn(email);
    const tab = t.trpc();
    await tab.api.auth.logIn.mutate({ email, password: STRONG_PASSWORD, captcha_token: '', device_fingerprint: null });
    expect(Object.keys(tab.cookies).sort()).toEqual(['access_token', 'refresh_token']);
    const { sessions } = await tab.api.auth.listSessions.query();
    await tab.api.auth.revokeSession.mutate({ id: sessions.find((s) => s.current)!.id });
    expect(tab.cookies).toEqual({});
  });
});

describe("a project's monitoring", () => {
  it('lists and exports only live sessions: one idle past its account\'s timeout is not listed, as its owner is not shown it', async () => {
    const owner = await developer('monitor-idle');
    const token = owner.session.access_token;
    const created = (await t.call('POST', '/api/v1/projects', { token, body: { name: 'Idle shop' } })).json();
    const key = (await t.call('POST', `/api/v1/projects/${created.id}/api-keys`, { token, body: { name: 'backend' } })).json();
    const shop: Realm = { prefix: '/public/api/v1', headers: { 'x-api-key': key.secret }, profile: { method: 'PUT', path: '/profile' } };
    const signUp = async (tag: string) => {
      const email = uniqueEmail(tag);
      expect((await t.call('POST', '/public/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, headers: shop.headers, ip: uniqueIp() })).statusCode).toBe(201);
      return { email, session: await signIn(shop, email, CHROME_MAC) };
    };
    const careful = await signUp('idle-careful');
    const relaxed = await signUp('idle-relaxed');
    expect((await api(shop, careful.session.access_token).setIdleTimeout(15)).statusCode).toBe(200);
    const listed = async () => {
      const res = await t.call('GET', `/api/v1/projects/${created.id}/sessions?per_page=100`, { token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { sessions: Array<{ user_email: string }>; total: number };
    };
    const exported = async () => (await t.call('GET', `/api/v1/projects/${created.id}/sessions/export`, { token })).body;
    expect((await listed()).sessions.map((s) => s.user_email).sort()).toEqual([careful.email, relaxed.email].sort());

    clock.advance(16 * 60);
    const after = await listed();
    expect(after.sessions.map((s) => s.user_email)).toEqual([relaxed.email]);
    expect(after.total).toBe(1);
    const csv = await exported();
    expect(csv).toContain(relaxed.email);
    expect(csv).not.toContain(careful.email);
    // The account itself is refused with that session, as the list says.
    expect((await api(shop, careful.session.access_token).me()).statusCode).toBe(401);
    // The user's page shows no live session either, and the relaxed account's still counts.
    const pageOf = async (email: string) => {
      const user = await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      return (await t.call('GET', `/api/v1/projects/${created.id}/users/${user.id}`, { token })).json() as { sessions: unknown[] };
    };
    expect((await pageOf(careful.email)).sessions).toEqual([]);
    expect((await pageOf(relaxed.email)).sessions).toHaveLength(1);
  });
});

describe('signing out the current session on each browser realm', () => {
  /** Each cookie the answer sets, with whether it clears it (empty, or expired now). */
  const setCookies = (res: { cookies: Array<{ name: string; value: string; expires?: Date; maxAge?: number; path?: string }> }) =>
    res.cookies.map((cookie) => ({
      name: cookie.name,
      path: cookie.path,
      cleared: cookie.value === '' && (cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= clock.now().getTime() + 1000)),
    }));

  it('the dashboard: clears both cookies with an expiry, and the next request with what the browser keeps is unauthenticated', async () => {
    const email = uniqueEmail('delete-current-dashboard');
    await t.signUpAndLogIn(email);
    const login = await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD } });
    const cookies = Object.fromEntries(login.cookies.map((cookie) => [cookie.name, cookie.value]));
    const current = ((await t.call('GET', '/api/v1/auth/sessions', { cookies })).json().sessions as Listed[]).find((s) => s.current)!;

    const revoked = await t.call('DELETE', `/api/v1/auth/sessions/${current.id}`, { cookies });
    expect(revoked.statusCode).toBe(200);
    expect(setCookies(revoked).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'access_token', path: '/', cleared: true },
      { name: 'refresh_token', path: '/', cleared: true },
    ]);
    expect((await t.call('GET', '/api/v1/auth/me')).statusCode).toBe(401);
    // Cookies kept by a careless client are no better: the session is over.
    expect((await t.call('GET', '/api/v1/auth/me', { cookies })).statusCode).toBe(401);
    expect((await t.call('POST', '/api/v1/auth/refresh', { cookies, body: {} })).statusCode).toBe(401);
  });

  it("a project's hosted pages: clears the hosted cookies on the project's path, and the next request is unauthenticated", async () => {
    const owner = await developer('hosted-delete-current');
    const project = (await t.call('POST', '/api/v1/projects', { token: owner.session.access_token, body: { name: 'Hosted shop' } })).json();
    const base = `/hosted/${project.project_key}/api/v1`;
    const email = uniqueEmail('hosted-shopper');
    expect((await t.call('POST', `${base}/auth/signup`, { body: { email, password: STRONG_PASSWORD } })).statusCode).toBe(201);
    const login = await t.call('POST', `${base}/auth/login`, { body: { email, password: STRONG_PASSWORD } });
    expect(login.statusCode, login.body).toBe(200);
    const cookies = Object.fromEntries(login.cookies.map((cookie) => [cookie.name, cookie.value]));
    expect(Object.keys(cookies).sort()).toEqual(['hosted_access_token', 'hosted_refresh_token']);
    const current = ((await t.call('GET', `${base}/auth/sessions`, { cookies })).json().sessions as Listed[]).find((s) => s.current)!;

    const revoked = await t.call('DELETE', `${base}/auth/sessions/${current.id}`, { cookies });
    expect(revoked.statusCode).toBe(200);
    const cleared = setCookies(revoked).sort((a, b) => a.name.localeCompare(b.name));
    expect(cleared.map(({ name, cleared }) => ({ name, cleared }))).toEqual([
      { name: 'hosted_access_token', cleared: true },
      { name: 'hosted_refresh_token', cleared: true },
    ]);
    for (const cookie of cleared) expect(`${base}/`.startsWith(cookie.path ?? '')).toBe(true);
    expect((await t.call('GET', `${base}/auth/sessions`)).statusCode).toBe(401);
    expect((await t.call('GET', `${base}/auth/sessions`, { cookies })).statusCode).toBe(401);
  });
});
