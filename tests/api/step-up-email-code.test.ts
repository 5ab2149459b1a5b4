import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, STRONG_PASSWORD, createTestApp, manualClock, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { CookieJar, followToRedirect, startTestGitHub, type TestGitHub } from '../helpers/identity-providers.js';

/**
 * An account that signs in with a provider only has no password to give and, without two factors or
 * a passkey, no proof for the step-up that deleting the account or changing its address needs. It
 * proves who it is with a code mailed to its verified address: 6 digits, stored as a SHA-256 digest,
 * valid 15 minutes, once, for the session that asked. An account with a password gets no such code.
 * Here on the developers' realm and on a project's hosted pages, against a GitHub stand-in.
 */
const WINDOW_S = 120;
const CODE_TTL_S = 15 * 60;
const STEP_UP = 'Confirm it is you to continue';

const clock = manualClock(new Date());
let t: TestApp;
let github: TestGitHub;
let nextGitHubId = 5000;
let projectKey: string;
let apiKey: string;
const APP_CALLBACK = 'https://shop.example/auth/callback';

interface Realm {
  name: string;
  prefix: () => string;
  /** Where the browser's provider sign-in for this realm starts, and where the provider comes back. */
  authorize: () => string;
  callback: () => string;
  /** The cookie a browser realm keeps its session in; null for the public API (Bearer and the project's key). */
  accessCookie: string | null;
}

const PLATFORM: Realm = {
  name: 'developers',
  prefix: () => '/api/v1',
  authorize: () => '/api/v1/auth/oauth/github/authorize',
  callback: () => `${APP_URL}/api/v1/auth/oauth/github/callback`,
  accessCookie: 'access_token',
};
const HOSTED: Realm = {
  name: "a project's end users (hosted pages)",
  prefix: () => `/hosted/${projectKey}/api/v1`,
  authorize: () => `/hosted/${projectKey}/api/v1/auth/oauth/github/authorize?return_to=/hosted/${projectKey}/account`,
  callback: () => `${APP_URL}/hosted/${projectKey}/api/v1/auth/oauth/github/callback`,
  accessCookie: 'hosted_access_token',
};
/** The developer's backend: it starts the provider sign-in and exchanges the code its redirect gets. */
const PUBLIC_API: Realm = {
  name: "a project's end users (public API)",
  prefix: () => '/public/api/v1',
  authorize: () => `/public/api/v1/auth/oauth/github/authorize?redirect_uri=${encodeURIComponent(APP_CALLBACK)}&state=backend-state`,
  callback: () => `${APP_URL}/hosted/${projectKey}/api/v1/auth/oauth/github/callback`,
  accessCookie: null,
};

beforeAll(async () => {
  github = await startTestGitHub({ clients: [{ client_id: 'platform-github', client_secret: 'platform-github-secret' }] });
  t = await createTestApp({
    clock,
    env: {
      STEP_UP_WINDOW_S: String(WINDOW_S),
      GITHUB_CLIENT_ID: 'platform-github',
      GITHUB_CLIENT_SECRET: 'platform-github-secret',
      GITHUB_AUTHORIZE_URL: github.authorizeUrl,
      GITHUB_TOKEN_URL: github.tokenUrl,
      GITHUB_API_URL: github.apiBaseUrl,
      CONNECTIONS_ALLOW_PRIVATE: 'on',
    },
  });
  const developer = await t.signUpAndLogIn(uniqueEmail('code-dev'));
  const project = (await t.call('POST', '/api/v1/projects', { token: developer.access_token, body: { name: 'Shop', website_url: 'https://shop.example', redirect_uris: [APP_CALLBACK] } })).json();
  projectKey = project.project_key;
  apiKey = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: developer.access_token, body: { name: 'backend' } })).json().secret;
  github.addClient({ client_id: 'shop-github', client_secret: 'shop-github-secret' });
  const saved = await t.call('PUT', `/api/v1/projects/${project.id}/connections/github`, {
    token: developer.access_token,
    body: { client_id: 'shop-github', client_secret: 'shop-github-secret', authorize_url: github.authorizeUrl, token_url: github.tokenUrl, api_url: `${github.apiBaseUrl}/` },
  });
  expect(saved.statusCode, saved.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await github?.close();
});

/** One signed-in client of the realm: a browser's calls carry the session's cookie, a backend's its Bearer token and key; from one address. */
function browser(realm: Realm, access: string) {
  const ip = uniqueIp();
  const call = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
    t.call(method, `${realm.prefix()}${path}`, {
      body,
      ip,
      ...(realm.accessCookie === null ? { token: access, headers: { 'x-api-key': apiKey } } : { cookies: { [realm.accessCookie]: access } }),
    });
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body),
    delete: (path: string, body?: unknown) => call('DELETE', path, body),
  };
}

/** A new account that signs in with GitHub only (its address verified there), signed in now. */
async function socialOnly(realm: Realm, tag: string, verified = true) {
  const email = uniqueEmail(tag);
  nextGitHubId += 1;
  github.setUser({ id: nextGitHubId, login: `user${nextGitHubId}`, name: 'Grace Hopper', emails: [{ email, primary: true, verified }] });
  return { ...(await signInWithGitHub(realm, nextGitHubId, email)), gitHubId: nextGitHubId };
}

/** The GitHub user `gitHubId` signs in to the realm: a new session of its account there. */
async function signInWithGitHub(realm: Realm, gitHubId: number, email: string) {
  github.nextLogin(gitHubId);
  const ip = uniqueIp();
  if (realm.accessCookie === null) {
    const started = await t.call('GET', realm.authorize(), { ip, headers: { 'x-api-key': apiKey } });
    expect(started.statusCode, started.body).toBe(200);
    const back = new URL(await followToRedirect(new URL(started.json().authorization_url), realm.callback(), { jar: new CookieJar() }));
    const atApp = new URL((await t.call('GET', `${back.pathname}${back.search}`, { ip })).headers.location as string);
    const exchanged = await t.call('POST', '/public/api/v1/auth/oauth/exchange', { ip, headers: { 'x-api-key': apiKey }, body: { code: atApp.searchParams.get('code') } });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const access = exchanged.json().access_token as string;
    return { email, access, api: browser(realm, access) };
  }
  const started = await t.call('GET', realm.authorize(), { ip });
  expect(started.statusCode, started.body).toBe(302);
  const state = started.cookies.find((cookie) => cookie.name === 'oauth_state')?.value;
  const back = new URL(await followToRedirect(new URL(started.headers.location as string), realm.callback(), { jar: new CookieJar() }));
  const done = await t.call('GET', `${back.pathname}${back.search}`, { ip, cookies: state ? { oauth_state: state } : {} });
  expect(done.statusCode, done.body).toBe(302);
  const cookie = realm.accessCookie;
  const access = done.cookies.find((c) => c.name === cookie && c.value !== '')?.value;
  expect(access, done.headers.location as string).toBeTruthy();
  return { email, access: access!, api: browser(realm, access!) };
}

/** Asks for a code and reads it from the mail sent to the account's address. */
async function mailedCode(api: ReturnType<typeof browser>, email: string): Promise<string> {
  const before = t.mail.messages.length;
  const sent = await api.post('/auth/step-up/email-code');
  expect(sent.statusCode, sent.body).toBe(200);
  expect(sent.json()).toEqual({ message: expect.any(String), sent_to: email, expires_at: new Date(clock.now().getTime() + CODE_TTL_S * 1000).toISOString() });
  const mail = await t.mail.waitFor(email, /confirmation code/i, { after: before });
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  expect(code, mail.text).toBeTruthy();
  return code!;
}

const stepUpRequired = (methods: string[]) => ({ detail: STEP_UP, step_up_required: true, step_up_methods: methods });
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

for (const realm of [PLATFORM, HOSTED, PUBLIC_API]) {
  describe(`an account without a password (${realm.name})`, () => {
    it('proves who it is with a mailed code, then changes its address and deletes itself', async () => {
      const user = await socialOnly(realm, 'code-owner');
      clock.advance(WINDOW_S + 1);
      expect((await user.api.get('/auth/step-up')).json()).toEqual({ step_up_required: true, step_up_methods: ['email'], expires_at: null });
      const refused = await user.api.post('/auth/change-email', { new_email: uniqueEmail('code-moved') });
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual(stepUpRequired(['email']));

      const code = await mailedCode(user.api, user.email);
      const confirmed = await user.api.post('/auth/step-up', { email_code: code });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(confirmed.json()).toMatchObject({ message: 'Confirmed' });
      expect((await user.api.post('/auth/change-email', { new_email: uniqueEmail('code-moved') })).statusCode).toBe(200);

      clock.advance(WINDOW_S + 1);
      expect((await user.api.post('/auth/delete-account', {})).json()).toEqual(stepUpRequired(['email']));
      expect((await user.api.post('/auth/step-up', { email_code: await mailedCode(user.api, user.email) })).statusCode).toBe(200);
      const deleted = await user.api.post('/auth/delete-account', {});
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect((await user.api.get('/auth/step-up')).statusCode).toBe(401);
    });

    it('sets its first password after the mailed code, and signs in with it', async () => {
      const user = await socialOnly(realm, 'code-first-password');
      clock.advance(WINDOW_S + 1);
      const refused = await user.api.post('/auth/change-password', { new_password: 'First-Password-42' });
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual(stepUpRequired(['email']));
      expect((await user.api.post('/auth/step-up', { email_code: await mailedCode(user.api, user.email) })).statusCode).toBe(200);
      const set = await user.api.post('/auth/change-password', { new_password: 'First-Password-42' });
      expect(set.statusCode, set.body).toBe(200);

      const keyHeaders: Record<string, string> = realm.accessCookie === null ? { 'x-api-key': apiKey } : {};
      const login = await t.call('POST', `${realm.prefix()}/auth/login`, { headers: keyHeaders, body: { email: user.email, password: 'First-Password-42' }, ip: uniqueIp() });
      expect(login.statusCode, login.body).toBe(200);
      // Now the password is its proof: a second change needs it, and no code is mailed any more.
      const missing = await user.api.post('/auth/change-password', { new_password: 'Second-Password-42' });
      expect(missing.statusCode).toBe(422);
      expect(missing.json()).toEqual({ detail: 'Current password is required' });
      expect((await user.api.post('/auth/step-up/email-code')).statusCode).toBe(400);
    });

    it('refuses a wrong, an expired and a used code with a detail each (400)', async () => {
      const user = await socialOnly(realm, 'code-refused');
      clock.advance(WINDOW_S + 1);
      const code = await mailedCode(user.api, user.email);
      const wrong = await user.api.post('/auth/step-up', { email_code: otherCode(code) });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ detail: 'Incorrect code' });
      expect((await user.api.post('/auth/step-up', { email_code: 'not-a-code' })).statusCode).toBe(422);

      clock.advance(CODE_TTL_S + 1);
      const expired = await user.api.post('/auth/step-up', { email_code: code });
      expect(expired.statusCode).toBe(400);
      expect(expired.json()).toEqual({ detail: 'This code has expired. Ask for a new one.' });

      const fresh = await mailedCode(user.api, user.email);
      expect((await user.api.post('/auth/step-up', { email_code: fresh })).statusCode).toBe(200);
      clock.advance(WINDOW_S + 1);
      const reused = await user.api.post('/auth/step-up', { email_code: fresh });
      expect(reused.statusCode).toBe(400);
      expect(reused.json()).toEqual({ detail: 'This code was already used. Ask for a new one.' });
      expect((await user.api.post('/auth/delete-account', {})).statusCode).toBe(401);
    });

    it('ends the earlier code when a new one is asked for', async () => {
      const user = await socialOnly(realm, 'code-newer');
      clock.advance(WINDOW_S + 1);
      const first = await mailedCode(user.api, user.email);
      const second = await mailedCode(user.api, user.email);
      if (first !== second) expect((await user.api.post('/auth/step-up', { email_code: first })).json()).toEqual({ detail: 'This code has expired. Ask for a new one.' });
      expect((await user.api.post('/auth/step-up', { email_code: second })).statusCode).toBe(200);
    });

    it("works only for the session that asked: not another account's, not another session of the same account", async () => {
      const owner = await socialOnly(realm, 'code-victim');
      const stranger = await socialOnly(realm, 'code-stranger');
      clock.advance(WINDOW_S + 1);
      const code = await mailedCode(owner.api, owner.email);
      const stolen = await stranger.api.post('/auth/step-up', { email_code: code });
      expect(stolen.statusCode).toBe(400);
      expect(stolen.json()).toEqual({ detail: 'Incorrect code' });
      expect((await stranger.api.post('/auth/delete-account', {})).statusCode).toBe(401);
      const ownerElsewhere = await signInWithGitHub(realm, owner.gitHubId, owner.email);
      clock.advance(WINDOW_S + 1);
      expect((await ownerElsewhere.api.post('/auth/step-up', { email_code: code })).json()).toEqual({ detail: 'Incorrect code' });

      const ownerAgain = browser(realm, owner.access);
      // The same session from another address is still the session that asked.
      expect((await ownerAgain.post('/auth/step-up', { email_code: code })).statusCode).toBe(200);
    });

    it('limits the codes mailed and the wrong guesses per account', async () => {
      const user = await socialOnly(realm, 'code-limits');
      clock.advance(WINDOW_S + 1);
      let code = '';
      for (let i = 0; i < 3; i += 1) code = await mailedCode(user.api, user.email);
      const tooMany = await user.api.post('/auth/step-up/email-code');
      expect(tooMany.statusCode).toBe(429);
      expect(tooMany.json()).toEqual({ detail: 'Too many codes asked for. Try again later.' });

      for (let i = 0; i < 5; i += 1) expect((await user.api.post('/auth/step-up', { email_code: otherCode(code) })).statusCode).toBe(400);
      const blocked = await user.api.post('/auth/step-up', { email_code: code });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({ detail: 'Too many wrong codes. Try again later.' });
    });
  });

  describe(`an account with a password (${realm.name})`, () => {
    it('gets no mailed code: its password stays the proof', async () => {
      const user = await socialOnly(realm, 'code-with-password');
      // It sets a password with "forgot password", then signs in with it.
      const before = t.mail.messages.length;
      const set = await user.api.post('/auth/forgot-password', { email: user.email });
      expect(set.statusCode, set.body).toBe(200);
      const link = (await t.mail.waitFor(user.email, /reset/i, { after: before })).link!;
      const keyHeaders: Record<string, string> = realm.accessCookie === null ? { 'x-api-key': apiKey } : {};
      const reset = await t.call('POST', `${realm.prefix()}/auth/reset-password`, {
        headers: keyHeaders,
        body: { token: new URL(link).searchParams.get('token'), new_password: STRONG_PASSWORD, confirm_password: STRONG_PASSWORD, keep_sign_in_methods: true },
      });
      expect(reset.statusCode, reset.body).toBe(200);
      const login = await t.call('POST', `${realm.prefix()}/auth/login`, { headers: keyHeaders, body: { email: user.email, password: STRONG_PASSWORD }, ip: uniqueIp() });
      expect(login.statusCode, login.body).toBe(200);
      const access = login.cookies.find((cookie) => cookie.name === realm.accessCookie && cookie.value !== '')?.value ?? login.json().access_token;
      const api = browser(realm, access);
      clock.advance(WINDOW_S + 1);

      expect((await api.get('/auth/step-up')).json().step_up_methods).toEqual(['password']);
      const ask = await api.post('/auth/step-up/email-code');
      expect(ask.statusCode).toBe(400);
      expect(ask.json()).toEqual({ detail: 'This account confirms with its password, an authenticator code or a passkey' });
      const guess = await api.post('/auth/step-up', { email_code: '123456' });
      expect(guess.statusCode).toBe(400);
      expect(guess.json()).toEqual({ detail: 'This account confirms with its password, an authenticator code or a passkey' });
      expect((await api.post('/auth/delete-account', {})).json()).toEqual(stepUpRequired(['password']));
      expect((await api.post('/auth/delete-account', { password: 'Not-The-Password-1' })).statusCode).toBe(401);
    });
  });
}

describe('an account without a password whose address is unverified', () => {
  it('gets no code: a mailbox nobody proved is no proof; only signing in again is', async () => {
    const user = await socialOnly(PLATFORM, 'code-unverified', false);
    clock.advance(WINDOW_S + 1);
    expect((await user.api.get('/auth/step-up')).json()).toEqual({ step_up_required: true, step_up_methods: [], expires_at: null });
    const before = t.mail.messages.length;
    const refused = await user.api.post('/auth/step-up/email-code');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: 'Verify your e-mail address first' });
    expect((await user.api.post('/auth/step-up', { email_code: '123456' })).statusCode).toBe(403);
    expect(t.mail.messages.slice(before).filter((mail) => /confirmation code/i.test(mail.subject))).toEqual([]);
  });
});

describe('a deletion confirmed by a mailed code', () => {
  /** The audit entries about an account or made by it, as actions. */
  const auditOf = async (userId: string) =>
    (await t.db.selectFrom('audit_log').select('action').where((eb) => eb.or([eb('target_id', '=', userId), eb('actor_id', '=', userId)])).execute()).map((row) => row.action);

  it('leaves the same audit trail as one confirmed by the password', async () => {
    const withPassword = await t.signUpAndLogIn(uniqueEmail('audit-password'));
    const passwordUserId = (await t.call('GET', '/api/v1/auth/me', { token: withPassword.access_token })).json().id as string;
    expect((await t.call('POST', '/api/v1/auth/delete-account', { token: withPassword.access_token, body: { password: STRONG_PASSWORD } })).statusCode).toBe(200);

    const social = await socialOnly(PLATFORM, 'audit-code');
    const socialUserId = (await social.api.get('/auth/me')).json().id as string;
    clock.advance(WINDOW_S + 1);
    expect((await social.api.post('/auth/step-up', { email_code: await mailedCode(social.api, social.email) })).statusCode).toBe(200);
    expect((await social.api.post('/auth/delete-account', {})).statusCode).toBe(200);

    expect(await auditOf(socialUserId)).toEqual(await auditOf(passwordUserId));
  });
});

describe('the browser transport (tRPC)', () => {
  it('mails the code with auth.stepUpEmailCode and takes it in auth.stepUp', async () => {
    const user = await socialOnly(PLATFORM, 'code-trpc');
    const tab = t.trpc({ token: user.access });
    clock.advance(WINDOW_S + 1);
    const before = t.mail.messages.length;
    expect(await tab.api.auth.stepUpEmailCode.mutate()).toMatchObject({ sent_to: user.email });
    const code = /\b(\d{6})\b/.exec((await t.mail.waitFor(user.email, /confirmation code/i, { after: before })).text)![1];
    expect(await tab.api.auth.stepUp.mutate({ email_code: code })).toMatchObject({ message: 'Confirmed' });
    expect(await tab.api.profile.deleteAccount.mutate({})).toMatchObject({ message: 'Account deleted successfully' });
  });
});

describe('the code at rest', () => {
  it('is kept as a keyed digest: a copy of the database cannot find it among the million 6-digit codes', async () => {
    const user = await socialOnly(PLATFORM, 'code-at-rest');
    clock.advance(WINDOW_S + 1);
    const code = await mailedCode(user.api, user.email);
    const rows = await t.db.selectFrom('one_time_tokens').select(['token_hash']).where('purpose', '=', 'step_up').execute();
    const { createHash } = await import('node:crypto');
    const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
    const digests = new Set(rows.map((row) => row.token_hash));
    expect(digests.size).toBeGreaterThan(0);
    expect(digests.has(code)).toBe(false);
    // What an attacker holding the database tries: every code, hashed the ways an unkeyed digest could be.
    for (let candidate = 0; candidate < 1_000_000; candidate++) {
      const guess = String(candidate).padStart(6, '0');
      if (digests.has(sha256(guess)) || digests.has(sha256(`step_up:${guess}`))) throw new Error(`the code ${guess} was found from the database alone`);
    }
  });
});
