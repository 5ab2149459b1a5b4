import WebAuthnEmulator, { AuthenticatorEmulator, PasskeysCredentialsMemoryRepository } from 'nid-webauthn-emulator';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { PLATFORM_REALM, projectRealm, realmClient, type AccountRealm } from '../helpers/account-realms.js';
import { CookieJar, followToRedirect, startTestGitHub, type TestGitHub } from '../helpers/identity-providers.js';

/**
 * Account pre-hijacking: someone registers a victim's address before the victim does and, while it
 * is unverified, attaches a way in (a passkey, an authenticator app, a provider's identity) hoping it
 * outlives the owner's verification. An unverified account cannot add one; and when the owner proves
 * the address with another proof than the attempt that made the account (a newer sign-up's link, a
 * reset link, a mailed link to connect a provider), everything attached before goes, and the owner is
 * told what. Both realms: developers (/api/v1) and a project's end users (/public/api/v1).
 */
const ATTACKER_PASSWORD = 'Attacker-Pass-13';
const OWNER_PASSWORD = 'Owner-Pass-2026';
const SHOP_URL = 'https://shop.example';
const VERIFY_FIRST = { detail: 'Verify your e-mail address first' };

let t: TestApp;
let github: TestGitHub;
let nextGitHubId = 5000;

type Realm = AccountRealm;
const PLATFORM = PLATFORM_REALM;
let PROJECT: Realm;

beforeAll(async () => {
  github = await startTestGitHub({ clients: [{ client_id: 'platform-github', client_secret: 'platform-github-secret' }] });
  t = await createTestApp({
    env: { GITHUB_CLIENT_ID: 'platform-github', GITHUB_CLIENT_SECRET: 'platform-github-secret', GITHUB_AUTHORIZE_URL: github.authorizeUrl, GITHUB_TOKEN_URL: github.tokenUrl, GITHUB_API_URL: github.apiBaseUrl },
  });
  PROJECT = await projectRealm(t, SHOP_URL);
});
afterAll(async () => {
  await t?.close();
  await github?.close();
});

const newDevice = () => new WebAuthnEmulator(new AuthenticatorEmulator({ credentialsRepository: new PasskeysCredentialsMemoryRepository() }));
const codeFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate();
const tokenOf = (link: string | null) => new URL(link!).searchParams.get('token');

const client = (realm: Realm, ip?: string) => realmClient(t, realm, ip);

const signUp = (realm: Realm, email: string, password: string) => client(realm).post('/auth/signup', { email, password });
const logIn = (realm: Realm, email: string, password: string) => client(realm).post('/auth/login', { email, password });

async function verificationLink(email: string, after: number): Promise<string> {
  return tokenOf((await t.mail.waitFor(email, /verify/i, { after })).link)!;
}

/** The attacker signs up first with the victim's address and signs in (an unverified account may, by default). */
async function attackerAccount(realm: Realm, tag: string) {
  const email = uniqueEmail(tag);
  const before = t.mail.messages.length;
  expect((await signUp(realm, email, ATTACKER_PASSWORD)).statusCode).toBe(201);
  const attackersLink = await verificationLink(email, before);
  const session = (await logIn(realm, email, ATTACKER_PASSWORD)).json();
  expect(session.user.is_verified).toBe(false);
  const row = await t.db.selectFrom('users').select('id').where('email', '=', email).where('project_id', realm === PLATFORM ? 'is' : 'is not', null).executeTakeFirstOrThrow();
  return { email, token: session.access_token as string, refreshToken: session.refresh_token as string, id: row.id, attackersLink };
}

/**
 * A passkey and an authenticator app attached to an unverified account, as the rules before this
 * release allowed: the account is marked verified for the length of the ceremonies and unmarked after.
 */
async function attachWhileUnverified(realm: Realm, account: { id: string; token: string }) {
  await t.db.updateTable('users').set({ is_verified: 1 }).where('id', '=', account.id).execute();
  const api = client(realm);
  const device = newDevice();
  const options = await api.post('/auth/passkeys/register/options', undefined, account.token);
  expect(options.statusCode, options.body).toBe(200);
  expect((await api.post('/auth/passkeys/register/verify', { response: device.createJSON(realm.origin, options.json()), name: 'Attacker key' }, account.token)).statusCode).toBe(201);
  const { secret } = (await api.post('/auth/mfa/totp/setup', undefined, account.token)).json();
  expect((await api.post('/auth/mfa/totp/confirm', { code: codeFor(secret) }, account.token)).statusCode).toBe(200);
  await t.db.updateTable('users').set({ is_verified: 0 }).where('id', '=', account.id).execute();
  return { device };
}

async function signInWithPasskey(realm: Realm, device: WebAuthnEmulator) {
  const api = client(realm);
  const options = (await api.post('/auth/passkeys/login/options', {})).json();
  return api.post('/auth/passkeys/login/verify', { response: device.getJSON(realm.origin, options) });
}

async function attachments(userId: string) {
  const passkeys = await t.db.selectFrom('passkeys').select('id').where('user_id', '=', userId).execute();
  const codes = await t.db.selectFrom('recovery_codes').select('id').where('user_id', '=', userId).execute();
  const identities = await t.db.selectFrom('user_identities').select('provider').where('user_id', '=', userId).execute();
  const challenges = await t.db.selectFrom('mfa_challenges').select('id').where('user_id', '=', userId).where('used_at', 'is', null).execute();
  const user = await t.db.selectFrom('users').select(['totp_secret', 'totp_pending_secret']).where('id', '=', userId).executeTakeFirstOrThrow();
  return { passkeys: passkeys.length, recoveryCodes: codes.length, identities: identities.map((row) => row.provider), pendingMfa: challenges.length, totp: user.totp_secret !== null || user.totp_pending_secret !== null };
}
const NOTHING = { passkeys: 0, recoveryCodes: 0, identities: [], pendingMfa: 0, totp: false };

// PROJECT exists once beforeAll ran, so each realm is reached through a function.
const REALMS: Record<string, () => Realm> = { developers: () => PLATFORM, "a project's end users": () => PROJECT };

for (const [name, realmOf] of Object.entries(REALMS)) {
  describe(`an unverified account (${name})`, () => {
    it('cannot add a passkey, turn on two factors, or confirm an authenticator app: 403 until the address is verified', async () => {
      const account = await attackerAccount(realmOf(), 'unverified-adds');
      const api = client(realmOf());
      for (const path of ['/auth/passkeys/register/options', '/auth/mfa/totp/setup']) {
        const refused = await api.post(path, undefined, account.token);
        expect(refused.statusCode, path).toBe(403);
        expect(refused.json()).toEqual(VERIFY_FIRST);
      }
      const register = await api.post('/auth/passkeys/register/verify', { response: { id: 'x', rawId: 'x', type: 'public-key', response: {} } }, account.token);
      expect(register.statusCode).toBe(403);
      expect(register.json()).toEqual(VERIFY_FIRST);
      const confirm = await api.post('/auth/mfa/totp/confirm', { code: '123456' }, account.token);
      expect(confirm.statusCode).toBe(403);
      expect(confirm.json()).toEqual(VERIFY_FIRST);
      expect(await attachments(account.id)).toEqual(NOTHING);
    });

    it("loses the attacker's passkey, authenticator app, waiting sign-ins and sessions when the owner signs up and verifies with their own link", async () => {
      const attacker = await attackerAccount(realmOf(), 'victim');
      const { device } = await attachWhileUnverified(realmOf(), attacker);
      // A sign-in waiting for its second step, opened with the attacker's password.
      expect((await logIn(realmOf(), attacker.email, ATTACKER_PASSWORD)).json().mfa_required).toBe(true);

      const before = t.mail.messages.length;
      expect((await signUp(realmOf(), attacker.email, OWNER_PASSWORD)).statusCode).toBe(201);
      const ownersLink = await verificationLink(attacker.email, before);
      const afterSignUp = t.mail.messages.length;
      expect((await client(realmOf()).post('/auth/verify-email', { token: ownersLink })).statusCode).toBe(200);

      expect(await attachments(attacker.id)).toEqual(NOTHING);
      expect((await signInWithPasskey(realmOf(), device)).statusCode).toBe(401);
      expect((await logIn(realmOf(), attacker.email, ATTACKER_PASSWORD)).statusCode).toBe(401);
      expect((await client(realmOf()).get(realmOf() === PLATFORM ? '/auth/me' : '/profile', attacker.token)).statusCode).toBe(401);
      expect((await client(realmOf()).post('/auth/refresh', { refresh_token: attacker.refreshToken })).statusCode).toBe(401);
      // The owner signs in with their own password, and no second factor is asked.
      const owner = await logIn(realmOf(), attacker.email, OWNER_PASSWORD);
      expect(owner.statusCode).toBe(200);
      expect(owner.json()).toMatchObject({ access_token: expect.any(String), user: { is_verified: true } });

      const notice = await t.mail.waitFor(attacker.email, /removed/i, { after: afterSignUp });
      expect(notice.text).toMatch(/passkey "Attacker key"/);
      expect(notice.text).toMatch(/two-factor authentication/i);
      expect(notice.text).toMatch(/sessions? signed out/i);
    });

    it('loses everything attached, the authenticator app too, when the owner resets the password instead', async () => {
      const attacker = await attackerAccount(realmOf(), 'reset-victim');
      const { device } = await attachWhileUnverified(realmOf(), attacker);
      const before = t.mail.messages.length;
      expect((await client(realmOf()).post('/auth/forgot-password', { email: attacker.email })).statusCode).toBe(200);
      const reset = tokenOf((await t.mail.waitFor(attacker.email, /reset/i, { after: before })).link);
      // Asking to keep the passkeys does not keep an attacker's: the account was not the owner's before this link.
      expect((await client(realmOf()).post('/auth/reset-password', { token: reset, new_password: OWNER_PASSWORD, keep_sign_in_methods: true })).statusCode).toBe(200);

      expect(await attachments(attacker.id)).toEqual(NOTHING);
      expect((await signInWithPasskey(realmOf(), device)).statusCode).toBe(401);
      expect((await client(realmOf()).post('/auth/verify-email', { token: attacker.attackersLink })).statusCode).toBe(400);
      const owner = await logIn(realmOf(), attacker.email, OWNER_PASSWORD);
      expect(owner.json()).toMatchObject({ access_token: expect.any(String), user: { is_verified: true } });
    });

    it("cannot keep a pending change of address across the owner's verification", async () => {
      const attacker = await attackerAccount(realmOf(), 'moved-victim');
      const attackersAddress = uniqueEmail('attackers-own');
      let before = t.mail.messages.length;
      const asked = await client(realmOf()).post('/auth/change-email', { new_email: attackersAddress, password: ATTACKER_PASSWORD }, attacker.token);
      expect(asked.statusCode).toBe(200);
      const moveLink = tokenOf((await t.mail.waitFor(attackersAddress, /confirm/i, { after: before })).link);

      before = t.mail.messages.length;
      await signUp(realmOf(), attacker.email, OWNER_PASSWORD);
      expect((await client(realmOf()).post('/auth/verify-email', { token: await verificationLink(attacker.email, before) })).statusCode).toBe(200);

      const moved = await client(realmOf()).post('/auth/confirm-email-change', { token: moveLink });
      expect(moved.statusCode).toBe(400);
      expect((await logIn(realmOf(), attacker.email, OWNER_PASSWORD)).statusCode).toBe(200);
    });

    it('keeps what its own first link confirms: verifying with the link of the attempt that made the account removes nothing and mails no notice', async () => {
      const email = uniqueEmail('plain');
      const before = t.mail.messages.length;
      await signUp(realmOf(), email, OWNER_PASSWORD);
      expect((await client(realmOf()).post('/auth/verify-email', { token: await verificationLink(email, before) })).statusCode).toBe(200);
      expect((await logIn(realmOf(), email, OWNER_PASSWORD)).statusCode).toBe(200);
      await t.mail.waitFor(email, /verify/i, { after: before });
      expect(t.mail.messages.slice(before).filter((mail) => mail.to === email).map((mail) => mail.subject)).toEqual([expect.stringMatching(/^Verify your email address for /)]);
    });
  });
}

describe('a provider that did not verify the address', () => {
  /** A GitHub user, who is the next to sign in there unless `queued` is false. */
  function gitHubUser(email: string, verified: boolean, queued = true) {
    nextGitHubId += 1;
    github.setUser({ id: nextGitHubId, login: `user${nextGitHubId}`, name: 'Mallory', emails: [{ email, primary: true, verified }] });
    if (queued) github.nextLogin(nextGitHubId);
    return nextGitHubId;
  }
  const callbackUrl = `${APP_URL}/api/v1/auth/oauth/github/callback`;
  async function signInWithGitHub(options: { token?: string; query?: string } = {}) {
    const ip = uniqueIp();
    const cookies = options.token ? { access_token: options.token } : undefined;
    const started = await t.call('GET', `/api/v1/auth/oauth/github/authorize${options.query ?? ''}`, { ip, cookies });
    expect(started.statusCode).toBe(302);
    const providerUrl = new URL(started.headers.location as string, APP_URL);
    if (providerUrl.origin === new URL(APP_URL).origin) return started;
    const back = new URL(await followToRedirect(providerUrl, callbackUrl, { jar: new CookieJar() }));
    const stateCookie = started.cookies.find((cookie) => cookie.name === 'oauth_state')!.value;
    return t.call('GET', `${back.pathname}${back.search}`, { cookies: { ...cookies, oauth_state: stateCookie }, ip });
  }
  const socialError = (res: { headers: Record<string, unknown> }) => new URL(res.headers.location as string, APP_URL).searchParams.get('social_error');
  const accessCookie = (res: { cookies: Array<{ name: string; value: string }> }) => res.cookies.find((cookie) => cookie.name === 'access_token' && cookie.value)?.value;

  it('makes an unverified account whose identity does not survive the owner signing up and verifying', async () => {
    const email = uniqueEmail('gh-squat');
    const githubId = gitHubUser(email, false);
    const attacker = await signInWithGitHub();
    const attackerToken = accessCookie(attacker)!;
    // The provider's own verification link: mailed too, but the owner signs up instead of clicking it.
    await t.mail.waitFor(email, /verify/i);
    const account = (await t.call('GET', '/api/v1/auth/me', { token: attackerToken })).json();
    expect(account.is_verified).toBe(false);
    expect((await attachments(account.id)).identities).toEqual(['github']);

    const before = t.mail.messages.length;
    await signUp(PLATFORM, email, OWNER_PASSWORD);
    expect((await t.call('POST', '/api/v1/auth/verify-email', { body: { token: await verificationLink(email, before) } })).statusCode).toBe(200);

    expect((await attachments(account.id)).identities).toEqual([]);
    expect((await t.call('GET', '/api/v1/auth/me', { token: attackerToken })).statusCode).toBe(401);
    // The same GitHub user again: its address is not verified there, so it is not connected to the owner's account.
    github.nextLogin(githubId);
    const again = await signInWithGitHub();
    expect(socialError(again)).toBe('link_required');
    expect(accessCookie(again)).toBeUndefined();
    expect((await t.mail.waitFor(email, /removed/i, { after: before })).text).toMatch(/GitHub/);
  });

  it("cannot be connected to an unverified account; the owner's mailed provider link removes what the attacker left, password included", async () => {
    const attacker = await attackerAccount(PLATFORM, 'gh-owner');
    const { device } = await attachWhileUnverified(PLATFORM, attacker);
    // The attacker cannot connect a provider of their own while the address is unverified (refused before GitHub).
    gitHubUser(uniqueEmail('attackers-github'), true, false);
    const link = await signInWithGitHub({ token: attacker.token, query: '?intent=link&return_to=/settings' });
    expect(socialError(link)).toBe('verify_email_first');
    expect((await attachments(attacker.id)).identities).toEqual([]);

    // The owner signs in with GitHub, which verified the address: the account's owner is mailed a link.
    const before = t.mail.messages.length;
    const githubId = gitHubUser(attacker.email, true);
    expect(socialError(await signInWithGitHub())).toBe('link_sent');
    const connect = tokenOf((await t.mail.waitFor(attacker.email, /connect github/i, { after: before })).link);
    expect((await t.call('POST', '/api/v1/auth/oauth/link', { body: { token: connect } })).statusCode).toBe(200);

    expect(await attachments(attacker.id)).toEqual({ ...NOTHING, identities: ['github'] });
    expect((await logIn(PLATFORM, attacker.email, ATTACKER_PASSWORD)).statusCode).toBe(401);
    expect((await signInWithPasskey(PLATFORM, device)).statusCode).toBe(401);
    expect((await t.call('GET', '/api/v1/auth/me', { token: attacker.token })).statusCode).toBe(401);
    expect((await t.call('POST', '/api/v1/auth/verify-email', { body: { token: attacker.attackersLink } })).statusCode).toBe(400);
    github.nextLogin(githubId);
    const owner = await signInWithGitHub();
    const me = (await t.call('GET', '/api/v1/auth/me', { token: accessCookie(owner)! })).json();
    expect(me).toMatchObject({ id: attacker.id, is_verified: true });
    const identities = (await t.call('GET', '/api/v1/auth/identities', { token: accessCookie(owner)! })).json();
    expect(identities).toMatchObject({ has_password: false, passkeys: 0 });
  });
});
