import WebAuthnEmulator, { AuthenticatorEmulator, PasskeysCredentialsMemoryRepository } from 'nid-webauthn-emulator';
import { Secret, TOTP } from 'otpauth';
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, STRONG_PASSWORD, createTestApp, manualClock, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';
import { PLATFORM_REALM, projectRealm, realmClient, type AccountRealm } from '../helpers/account-realms.js';

/**
 * Step-up: a session alone is not enough to add a new way into the account (a passkey, a provider,
 * an authenticator app, new recovery codes) or to move it to another address. Someone holding a
 * stolen session must also prove who they are (the password, a code, or a passkey the account
 * already has) within STEP_UP_WINDOW_S, here 120 s. A sign-in is such a proof at its time.
 */
const WINDOW_S = 120;
const SHOP_URL = 'https://shop.example';
const STEP_UP = 'Confirm it is you to continue';

const clock = manualClock(new Date());
let t: TestApp;

type Realm = AccountRealm;
const PLATFORM = PLATFORM_REALM;
let PROJECT: Realm;
const REALMS: Record<string, () => Realm> = { developers: () => PLATFORM, "a project's end users": () => PROJECT };

beforeAll(async () => {
  // GitHub is configured only so that connecting one can be started; no test goes through to it.
  t = await createTestApp({
    clock,
    env: { STEP_UP_WINDOW_S: String(WINDOW_S), GITHUB_CLIENT_ID: 'platform-github', GITHUB_CLIENT_SECRET: 'platform-github-secret', GITHUB_AUTHORIZE_URL: 'https://github.invalid/login/oauth/authorize' },
  });
  PROJECT = await projectRealm(t, SHOP_URL);
});
afterAll(() => t.close());

const newDevice = () => new WebAuthnEmulator(new AuthenticatorEmulator({ credentialsRepository: new PasskeysCredentialsMemoryRepository() }));
const codeFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() });
const tokenOf = (link: string | null) => new URL(link!).searchParams.get('token');

const client = (realm: Realm, ip?: string) => realmClient(t, realm, ip);

/** A verified account of the realm, signed in now. */
async function account(realm: Realm, tag: string) {
  const email = uniqueEmail(tag);
  const api = client(realm);
  const before = t.mail.messages.length;
  expect((await api.post('/auth/signup', { email, password: STRONG_PASSWORD })).statusCode).toBe(201);
  const link = tokenOf((await t.mail.waitFor(email, /verify/i, { after: before })).link);
  expect((await api.post('/auth/verify-email', { token: link })).statusCode).toBe(200);
  const session = (await api.post('/auth/login', { email, password: STRONG_PASSWORD })).json();
  return { email, token: session.access_token as string, refreshToken: session.refresh_token as string };
}

async function addPasskey(realm: Realm, token: string, device = newDevice()) {
  const api = client(realm);
  const options = await api.post('/auth/passkeys/register/options', undefined, token);
  expect(options.statusCode, options.body).toBe(200);
  const created = await api.post('/auth/passkeys/register/verify', { response: device.createJSON(realm.origin, options.json()) }, token);
  expect(created.statusCode, created.body).toBe(201);
  return device;
}

async function turnOnTotp(realm: Realm, token: string) {
  const api = client(realm);
  const { secret } = (await api.post('/auth/mfa/totp/setup', undefined, token)).json();
  expect((await api.post('/auth/mfa/totp/confirm', { code: codeFor(secret) }, token)).statusCode).toBe(200);
  clock.advance(30);
  return secret as string;
}

const stepUpRequired = (methods: string[]) => ({ detail: STEP_UP, step_up_required: true, step_up_methods: methods });

for (const [name, realmOf] of Object.entries(REALMS)) {
  describe(`a session past the step-up window (${name})`, () => {
    it('cannot add a passkey, turn on two factors or change the address until it proves who it is again', async () => {
      const user = await account(realmOf(), 'stale');
      clock.advance(WINDOW_S + 1);
      const api = client(realmOf());
      for (const [path, body] of [
        ['/auth/passkeys/register/options', undefined],
        ['/auth/passkeys/register/verify', { response: { id: 'x', rawId: 'x', type: 'public-key', response: {} } }],
        ['/auth/mfa/totp/setup', undefined],
        ['/auth/mfa/totp/confirm', { code: '123456' }],
        ['/auth/change-email', { new_email: uniqueEmail('elsewhere') }],
      ] as const) {
        const refused = await api.post(path, body, user.token);
        expect(refused.statusCode, path).toBe(401);
        expect(refused.json(), path).toEqual(stepUpRequired(['password']));
      }
      // The session itself still works: a 401 with step_up_required is not a signed-out session.
      expect((await api.get('/auth/sessions', user.token)).statusCode).toBe(200);

      const confirmed = await api.post('/auth/step-up', { password: STRONG_PASSWORD }, user.token);
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(confirmed.json()).toEqual({ message: 'Confirmed', expires_at: new Date(clock.now().getTime() + WINDOW_S * 1000).toISOString() });
      await addPasskey(realmOf(), user.token);
      const secret = await turnOnTotp(realmOf(), user.token);
      expect(secret).toBeTruthy();
      expect((await api.post('/auth/change-email', { new_email: uniqueEmail('moved') }, user.token)).statusCode).toBe(200);

      // The proof lasts the window, then it is asked again.
      clock.advance(WINDOW_S + 1);
      expect((await api.post('/auth/passkeys/register/options', undefined, user.token)).json()).toEqual(stepUpRequired(['password', 'totp', 'passkey']));
    });

    it('takes a code from the authenticator app or one of its passkeys as the proof', async () => {
      const user = await account(realmOf(), 'factors');
      const device = await addPasskey(realmOf(), user.token);
      const secret = await turnOnTotp(realmOf(), user.token);
      const api = client(realmOf());

      clock.advance(WINDOW_S + 1);
      const regenerate = await api.post('/auth/mfa/recovery-codes', {}, user.token);
      expect(regenerate.statusCode).toBe(401);
      expect(regenerate.json()).toEqual(stepUpRequired(['password', 'totp', 'passkey']));
      expect((await api.post('/auth/step-up', { code: codeFor(secret) }, user.token)).statusCode).toBe(200);
      const codes = await api.post('/auth/mfa/recovery-codes', {}, user.token);
      expect(codes.statusCode).toBe(200);
      expect(codes.json().recovery_codes).toHaveLength(10);

      clock.advance(WINDOW_S + 1);
      const options = await api.post('/auth/step-up/passkey/options', undefined, user.token);
      expect(options.statusCode).toBe(200);
      const proved = await api.post('/auth/step-up', { passkey_response: device.getJSON(realmOf().origin, options.json()) }, user.token);
      expect(proved.statusCode, proved.body).toBe(200);
      await addPasskey(realmOf(), user.token);
      // A passkey's answer works once.
      clock.advance(WINDOW_S + 1);
      expect((await api.post('/auth/step-up', { passkey_response: device.getJSON(realmOf().origin, options.json()) }, user.token)).statusCode).toBe(400);
    });

    it('refuses a wrong proof with 400, and counts wrong passwords against the account', async () => {
      const user = await account(realmOf(), 'wrong-proof');
      const api = client(realmOf());
      clock.advance(WINDOW_S + 1);
      const wrong = await api.post('/auth/step-up', { password: 'Not-The-Password-1' }, user.token);
      // 400, not 401: a browser must not take a wrong proof for an expired session.
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ detail: 'Incorrect password' });
      expect((await api.post('/auth/step-up', { code: '123456' }, user.token)).json()).toEqual({ detail: 'Two-factor authentication is off' });
      expect((await api.post('/auth/step-up', {}, user.token)).statusCode).toBe(422);
      expect((await api.post('/auth/step-up', { password: STRONG_PASSWORD, code: '123456' }, user.token)).statusCode).toBe(422);
      for (let i = 0; i < 4; i += 1) await api.post('/auth/step-up', { password: 'Not-The-Password-1' }, user.token);
      expect((await api.post('/auth/step-up', { password: STRONG_PASSWORD }, user.token)).statusCode).toBe(429);
      expect((await api.post('/auth/passkeys/register/options', undefined, user.token)).statusCode).toBe(401);
    });

    it("belongs to the session that proved it, not the account's other sessions", async () => {
      const user = await account(realmOf(), 'two-sessions');
      const other = (await client(realmOf()).post('/auth/login', { email: user.email, password: STRONG_PASSWORD })).json();
      clock.advance(WINDOW_S + 1);
      expect((await client(realmOf()).post('/auth/step-up', { password: STRONG_PASSWORD }, user.token)).statusCode).toBe(200);
      expect((await client(realmOf()).post('/auth/mfa/totp/setup', undefined, user.token)).statusCode).toBe(200);
      expect((await client(realmOf()).post('/auth/mfa/totp/setup', undefined, other.access_token)).statusCode).toBe(401);
    });

    it('says whether a step-up is needed, with which proofs, and until when the current one lasts', async () => {
      const user = await account(realmOf(), 'status');
      const api = client(realmOf());
      const fresh = (await api.get('/auth/step-up', user.token)).json();
      expect(fresh).toEqual({ step_up_required: false, step_up_methods: ['password'], expires_at: expect.any(String) });
      expect(Date.parse(fresh.expires_at) - clock.now().getTime()).toBeGreaterThan(0);
      clock.advance(WINDOW_S + 1);
      expect((await api.get('/auth/step-up', user.token)).json()).toEqual({ step_up_required: true, step_up_methods: ['password'], expires_at: null });
      expect((await api.get('/auth/step-up')).statusCode).toBe(401);
    });

    it('accepts the password inline where the call takes it, as the proof of that call', async () => {
      const user = await account(realmOf(), 'inline');
      clock.advance(WINDOW_S + 1);
      const moved = await client(realmOf()).post('/auth/change-email', { new_email: uniqueEmail('inline-new'), password: STRONG_PASSWORD }, user.token);
      expect(moved.statusCode).toBe(200);
    });
  });
}

describe('a sign-in', () => {
  it('is the proof for the window after it: no second prompt right after signing in', async () => {
    const user = await account(PLATFORM, 'fresh');
    clock.advance(WINDOW_S - 1);
    await addPasskey(PLATFORM, user.token);
  });

  it('refreshing the session does not renew the proof', async () => {
    const user = await account(PLATFORM, 'refreshed');
    clock.advance(WINDOW_S + 1);
    const refreshed = (await client(PLATFORM).post('/auth/refresh', { refresh_token: user.refreshToken })).json();
    expect((await client(PLATFORM).post('/auth/mfa/totp/setup', undefined, refreshed.access_token)).statusCode).toBe(401);
  });
});

describe('the browser transport (tRPC)', () => {
  it('answers UNAUTHORIZED with step_up_required in the error data, and auth.stepUp renews the proof', async () => {
    const user = await account(PLATFORM, 'trpc');
    const tab = t.trpc({ token: user.token });
    clock.advance(WINDOW_S + 1);
    const failure = await tab.api.passkeys.registrationOptions.mutate().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TRPCClientError);
    expect((failure as TRPCClientError<never>).message).toBe(STEP_UP);
    expect((failure as TRPCClientError<never>).data).toMatchObject({ code: 'UNAUTHORIZED', httpStatus: 401, step_up_required: true, step_up_methods: ['password'] });
    expect(await tab.api.auth.stepUp.mutate({ password: STRONG_PASSWORD })).toMatchObject({ message: 'Confirmed' });
    expect(await tab.api.passkeys.registrationOptions.mutate()).toMatchObject({ challenge: expect.any(String) });
  });

  it('sends a stale session that starts connecting a provider back with social_error=step_up_required', async () => {
    const user = await account(PLATFORM, 'link');
    clock.advance(WINDOW_S + 1);
    const started = await t.call('GET', '/api/v1/auth/oauth/github/authorize?intent=link&return_to=/settings', { cookies: { access_token: user.token } });
    expect(started.statusCode).toBe(302);
    const location = new URL(started.headers.location as string, APP_URL);
    expect(location.origin + location.pathname).toBe(`${APP_URL}/settings`);
    expect(location.searchParams.get('social_error')).toBe('step_up_required');
    expect((await client(PLATFORM).post('/auth/step-up', { password: STRONG_PASSWORD }, user.token)).statusCode).toBe(200);
    const allowed = await t.call('GET', '/api/v1/auth/oauth/github/authorize?intent=link&return_to=/settings', { cookies: { access_token: user.token } });
    expect(new URL(allowed.headers.location as string).host).toBe('github.invalid');
  });
});

describe('a password reset', () => {
  async function resetLink(realm: Realm, email: string) {
    const before = t.mail.messages.length;
    expect((await client(realm).post('/auth/forgot-password', { email })).statusCode).toBe(200);
    return tokenOf((await t.mail.waitFor(email, /reset/i, { after: before })).link);
  }
  const signIn = async (realm: Realm, email: string, password: string) => (await client(realm).post('/auth/login', { email, password })).json();

  for (const [name, realmOf] of Object.entries(REALMS)) {
    it(`removes the passkeys unless the owner keeps them, keeps the authenticator app, and says so in the mail (${name})`, async () => {
      const user = await account(realmOf(), 'reset');
      const device = await addPasskey(realmOf(), user.token);
      const before = t.mail.messages.length;
      expect((await client(realmOf()).post('/auth/reset-password', { token: await resetLink(realmOf(), user.email), new_password: 'Reset-Pass-2026' })).statusCode).toBe(200);
      const mail = await t.mail.waitFor(user.email, /password was changed/i, { after: before });
      expect(mail.text).toMatch(/removed.*passkey/i);
      const options = (await client(realmOf()).post('/auth/passkeys/login/options', {})).json();
      expect((await client(realmOf()).post('/auth/passkeys/login/verify', { response: device.getJSON(realmOf().origin, options) })).statusCode).toBe(401);

      const signedIn = await signIn(realmOf(), user.email, 'Reset-Pass-2026');
      const kept = await addPasskey(realmOf(), signedIn.access_token);
      const secret = await turnOnTotp(realmOf(), signedIn.access_token);
      const afterKeep = t.mail.messages.length;
      const keep = await client(realmOf()).post('/auth/reset-password', { token: await resetLink(realmOf(), user.email), new_password: 'Reset-Pass-2027', keep_sign_in_methods: true });
      expect(keep.statusCode).toBe(200);
      expect((await t.mail.waitFor(user.email, /password was changed/i, { after: afterKeep })).text).toMatch(/kept/i);
      const keptOptions = (await client(realmOf()).post('/auth/passkeys/login/options', {})).json();
      expect((await client(realmOf()).post('/auth/passkeys/login/verify', { response: kept.getJSON(realmOf().origin, keptOptions) })).statusCode).toBe(200);
      // Two factors survive a reset: the reset link proves the mailbox, not the authenticator.
      expect((await client(realmOf()).post('/auth/login', { email: user.email, password: 'Reset-Pass-2027' })).json().mfa_required).toBe(true);
      expect(secret).toBeTruthy();
    });
  }
});
