import WebAuthnEmulator, { AuthenticatorEmulator, PasskeysCredentialsMemoryRepository } from 'nid-webauthn-emulator';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, STRONG_PASSWORD, createTestApp, manualClock, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { trpcFailure } from '../helpers/trpc-client.js';

/**
 * Passkeys (WebAuthn) for developers and for a project's end users. The authenticator is a real
 * software one (nid-webauthn-emulator: CTAP2 credentials, ES256 signatures, client data for an
 * origin), so every answer here is what a browser would send, and the server checks it in full.
 */
const clock = manualClock(new Date());
const ADMIN = 'passkey-admin@example.com';
const SHOP_URL = 'https://shop.example';
let t: TestApp;
let admin: { access_token: string };
beforeAll(async () => {
  t = await createTestApp({ clock, env: { ADMIN_EMAILS: ADMIN } });
  admin = await t.signUpAndLogIn(ADMIN);
});
afterAll(() => t.close());

/** A device of its own (the emulator's default keeps every credential in one shared store). */
const newDevice = () => new WebAuthnEmulator(new AuthenticatorEmulator({ credentialsRepository: new PasskeysCredentialsMemoryRepository() }));

interface Realm {
  prefix: string;
  headers: Record<string, string>;
  origin: string;
}
const PLATFORM: Realm = { prefix: '/api/v1', headers: {}, origin: APP_URL };

function client(realm: Realm, ip = uniqueIp()) {
  return {
    post: (path: string, body?: unknown, token?: string) => t.call('POST', `${realm.prefix}${path}`, { body, token, ip, headers: realm.headers }),
    get: (path: string, token?: string) => t.call('GET', `${realm.prefix}${path}`, { token, ip, headers: realm.headers }),
    patch: (path: string, body: unknown, token?: string) => t.call('PATCH', `${realm.prefix}${path}`, { body, token, ip, headers: realm.headers }),
    del: (path: string, token?: string) => t.call('DELETE', `${realm.prefix}${path}`, { token, ip, headers: realm.headers }),
  };
}

async function developer(tag: string) {
  const email = uniqueEmail(tag);
  const session = await t.signUpAndLogIn(email);
  return { email, token: session.access_token, id: session.user.id };
}

/** Registers a passkey held by `device` for the signed-in account; answers the new passkey. */
async function addPasskey(realm: Realm, token: string, device: ReturnType<typeof newDevice>, name?: string) {
  const api = client(realm);
  const options = await api.post('/auth/passkeys/register/options', undefined, token);
  expect(options.statusCode).toBe(200);
  const created = await api.post('/auth/passkeys/register/verify', { response: device.createJSON(realm.origin, options.json()), name }, token);
  expect(created.statusCode).toBe(201);
  return created.json().passkey as { id: string; name: string; created_at: string; last_used_at: string | null };
}

async function signInWithPasskey(realm: Realm, device: ReturnType<typeof newDevice>, { email, origin = realm.origin }: { email?: string; origin?: string } = {}) {
  const api = client(realm);
  const options = await api.post('/auth/passkeys/login/options', email ? { email } : {});
  expect(options.statusCode).toBe(200);
  const response = device.getJSON(origin, options.json());
  return { answer: await api.post('/auth/passkeys/login/verify', { response, device_fingerprint: 'passkey-device' }), response };
}

const lastAttempt = async (email: string) =>
  t.db.selectFrom('login_attempts').select(['success', 'failure_reason']).where('email', '=', email).orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirst();
/** How the last attempt signed in (the login attempts' `method`: monitoring's column and its CSV). */
const lastMethod = async (email: string) =>
  (await t.db.selectFrom('login_attempts').select('method').where('email', '=', email).orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirst())?.method;

describe('adding passkeys', () => {
  it('answers creation options for this site and account, keeps the verified passkey, and mails the owner', async () => {
    const dev = await developer('register');
    const api = client(PLATFORM);
    const options = (await api.post('/auth/passkeys/register/options', undefined, dev.token)).json();
    expect(options).toMatchObject({
      rp: { id: 'app.test', name: 'AuthPlatform' },
      user: { name: dev.email },
      attestation: 'none',
      excludeCredentials: [],
      authenticatorSelection: { residentKey: 'required' },
    });
    const before = t.mail.messages.length;
    const device = newDevice();
    const created = await api.post('/auth/passkeys/register/verify', { response: device.createJSON(APP_URL, options), name: 'Work laptop' }, dev.token);
    expect(created.statusCode).toBe(201);
    const passkey = created.json().passkey;
    expect(passkey).toEqual({ id: expect.any(String), name: 'Work laptop', created_at: clock.now().toISOString(), last_used_at: null });
    await t.mail.waitFor(dev.email, /A passkey was added/, { after: before });

    const listed = await api.get('/auth/passkeys', dev.token);
    expect(listed.json()).toEqual({ passkeys: [passkey] });
    // The next options tell the browser not to register the same authenticator twice.
    const next = (await api.post('/auth/passkeys/register/options', undefined, dev.token)).json();
    expect(next.excludeCredentials.map((c: { id: string }) => c.id)).toHaveLength(1);
    // Without a name, a passkey gets a numbered one.
    expect((await addPasskey(PLATFORM, dev.token, newDevice())).name).toBe('Passkey 2');
  });

  it('refuses an answer to spent, foreign or wrong-origin options, and the same authenticator twice', async () => {
    const dev = await developer('register-refused');
    const other = await developer('register-other');
    const api = client(PLATFORM);
    const device = newDevice();

    const options = (await api.post('/auth/passkeys/register/options', undefined, dev.token)).json();
    const response = device.createJSON(APP_URL, options);
    // Options issued to one account do not register a passkey on another.
    expect((await api.post('/auth/passkeys/register/verify', { response }, other.token)).json()).toEqual({ detail: 'This passkey could not be verified' });
    expect((await api.post('/auth/passkeys/register/verify', { response }, dev.token)).statusCode).toBe(201);
    // Each challenge works once.
    expect((await api.post('/auth/passkeys/register/verify', { response }, dev.token)).statusCode).toBe(400);

    const phished = device.createJSON('https://app-test.evil.example', { ...(await api.post('/auth/passkeys/register/options', undefined, dev.token)).json(), rp: { id: 'app-test.evil.example', name: 'x' } });
    expect((await api.post('/auth/passkeys/register/verify', { response: phished }, dev.token)).statusCode).toBe(400);

    const again = (await api.post('/auth/passkeys/register/options', undefined, other.token)).json();
    const copy = newDevice();
    const first = copy.createJSON(APP_URL, again);
    expect((await api.post('/auth/passkeys/register/verify', { response: first }, other.token)).statusCode).toBe(201);
  });

  it('needs a signed-in account, a well-formed answer and a name of at most 64 characters', async () => {
    const dev = await developer('register-input');
    const api = client(PLATFORM);
    expect((await api.post('/auth/passkeys/register/options')).statusCode).toBe(401);
    expect((await api.get('/auth/passkeys')).statusCode).toBe(401);
    const bad = await api.post('/auth/passkeys/register/verify', { response: { id: 'x' } }, dev.token);
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ detail: 'Invalid passkey response' });
    const options = (await api.post('/auth/passkeys/register/options', undefined, dev.token)).json();
    const long = await api.post('/auth/passkeys/register/verify', { response: newDevice().createJSON(APP_URL, options), name: 'x'.repeat(65) }, dev.token);
    expect(long.json()).toEqual({ detail: 'Name must be at most 64 characters' });
  });
});

describe('managing passkeys', () => {
  it('renames and removes only your own; a removed passkey no longer signs in', async () => {
    const dev = await developer('manage');
    const other = await developer('manage-other');
    const device = newDevice();
    const passkey = await addPasskey(PLATFORM, dev.token, device, 'Phone');
    const api = client(PLATFORM);

    const renamed = await api.patch(`/auth/passkeys/${passkey.id}`, { name: '  Pixel  ' }, dev.token);
    expect(renamed.json()).toEqual({ ...passkey, name: 'Pixel' });
    expect((await api.patch(`/auth/passkeys/${passkey.id}`, { name: ' ' }, dev.token)).json()).toEqual({ detail: 'Name is required' });
    expect((await api.patch(`/auth/passkeys/${passkey.id}`, { name: 'Mine now' }, other.token)).json()).toEqual({ detail: 'Passkey not found' });
    expect((await api.del(`/auth/passkeys/${passkey.id}`, other.token)).statusCode).toBe(404);

    expect((await signInWithPasskey(PLATFORM, device)).answer.statusCode).toBe(200);
    const removed = await api.del(`/auth/passkeys/${passkey.id}`, dev.token);
    expect(removed.json()).toEqual({ message: 'Passkey removed' });
    expect((await api.get('/auth/passkeys', dev.token)).json()).toEqual({ passkeys: [] });
    expect((await api.del(`/auth/passkeys/${passkey.id}`, dev.token)).statusCode).toBe(404);
    expect((await signInWithPasskey(PLATFORM, device)).answer.json()).toEqual({ detail: 'This passkey could not be verified' });
  });
});

describe('signing in with a passkey', () => {
  it('with a discoverable passkey and no e-mail: the ordinary login answer, cookies, a recorded attempt, last use', async () => {
    const dev = await developer('discoverable');
    const device = newDevice();
    const passkey = await addPasskey(PLATFORM, dev.token, device);
    const options = (await client(PLATFORM).post('/auth/passkeys/login/options', {})).json();
    expect(options).toMatchObject({ rpId: 'app.test', userVerification: 'required' });
    expect(options.allowCredentials ?? []).toEqual([]);

    clock.advance(60);
    const { answer } = await signInWithPasskey(PLATFORM, device);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ token_type: 'bearer', access_token: expect.any(String), refresh_token: expect.any(String), user: { id: dev.id, email: dev.email } });
    expect(String(answer.headers['set-cookie'])).toContain('access_token=');
    expect((await client(PLATFORM).get('/auth/me', answer.json().access_token)).json().email).toBe(dev.email);
    expect(await lastAttempt(dev.email)).toEqual({ success: 1, failure_reason: null });
    expect(await lastMethod(dev.email)).toBe('passkey');
    const [listed] = (await client(PLATFORM).get('/auth/passkeys', dev.token)).json().passkeys;
    expect(listed).toEqual({ ...passkey, last_used_at: clock.now().toISOString() });
  });

  it('refuses a replayed answer, another origin and an unknown passkey with 401; a known passkey records passkey_failed', async () => {
    const dev = await developer('refused');
    const device = newDevice();
    await addPasskey(PLATFORM, dev.token, device);

    const { answer, response } = await signInWithPasskey(PLATFORM, device);
    expect(answer.statusCode).toBe(200);
    clock.advance(1);
    const replay = await client(PLATFORM).post('/auth/passkeys/login/verify', { response });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ detail: 'This passkey could not be verified' });
    expect(await lastAttempt(dev.email)).toEqual({ success: 0, failure_reason: 'passkey_failed' });

    // An answer made on another origin (here another port of the same host, which the RP id allows) is refused.
    const options = (await client(PLATFORM).post('/auth/passkeys/login/options', {})).json();
    const elsewhere = device.getJSON('http://app.test:8080', options);
    expect((await client(PLATFORM).post('/auth/passkeys/login/verify', { response: elsewhere })).statusCode).toBe(401);

    const stranger = newDevice();
    const unknownOptions = (await client(PLATFORM).post('/auth/passkeys/login/options', {})).json();
    stranger.createJSON(APP_URL, { ...unknownOptions, rp: { id: 'app.test', name: 'x' }, user: { id: 'eA', name: 'x', displayName: 'x' }, pubKeyCredParams: [{ type: 'public-key', alg: -7 }] });
    const unknown = await client(PLATFORM).post('/auth/passkeys/login/verify', { response: stranger.getJSON(APP_URL, unknownOptions) });
    expect(unknown.statusCode).toBe(401);
    expect((await client(PLATFORM).post('/auth/passkeys/login/verify', {})).json()).toEqual({ detail: 'Invalid passkey response' });
  });

  it("with an e-mail the options name the account's passkeys; an address without any gets a stable stand-in of the same shape", async () => {
    const dev = await developer('named');
    const device = newDevice();
    await addPasskey(PLATFORM, dev.token, device);
    const named = (await client(PLATFORM).post('/auth/passkeys/login/options', { email: dev.email })).json();
    expect(named.allowCredentials).toHaveLength(1);
    const stored = await t.db.selectFrom('passkeys').select('credential_id').where('user_id', '=', dev.id).executeTakeFirstOrThrow();
    expect(named.allowCredentials[0].id).toBe(stored.credential_id);
    expect((await signInWithPasskey(PLATFORM, device, { email: dev.email })).answer.statusCode).toBe(200);

    const nobody = uniqueEmail('nobody');
    const first = (await client(PLATFORM).post('/auth/passkeys/login/options', { email: nobody })).json();
    const second = (await client(PLATFORM).post('/auth/passkeys/login/options', { email: nobody.toUpperCase() })).json();
    expect(Object.keys(first).sort()).toEqual(Object.keys(named).sort());
    expect(first.allowCredentials).toHaveLength(1);
    expect(first.allowCredentials[0].id).toMatch(/^[\w-]{43}$/);
    expect(second.allowCredentials).toEqual(first.allowCredentials);
    const withoutPasskey = await developer('no-passkey');
    expect((await client(PLATFORM).post('/auth/passkeys/login/options', { email: withoutPasskey.email })).json().allowCredentials).toHaveLength(1);
    expect((await client(PLATFORM).post('/auth/passkeys/login/options', { email: 'not-an-address' })).statusCode).toBe(422);
  });

  it('counts as both factors with two factors on, and a deactivated account is refused with 403', async () => {
    const dev = await developer('both-factors');
    const device = newDevice();
    await addPasskey(PLATFORM, dev.token, device);
    const { secret } = (await client(PLATFORM).post('/auth/mfa/totp/setup', undefined, dev.token)).json();
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() });
    expect((await client(PLATFORM).post('/auth/mfa/totp/confirm', { code }, dev.token)).statusCode).toBe(200);
    const { answer } = await signInWithPasskey(PLATFORM, device);
    expect(answer.json()).toMatchObject({ access_token: expect.any(String), user: { mfa_enabled: true } });

    expect((await t.call('PATCH', `/api/v1/admin/users/${dev.id}/toggle-active`, { token: admin.access_token })).json().is_active).toBe(false);
    clock.advance(1);
    const refused = (await signInWithPasskey(PLATFORM, device)).answer;
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: 'This account has been deactivated' });
    expect(await lastAttempt(dev.email)).toEqual({ success: 0, failure_reason: 'account_inactive' });
  });

  it('an authenticator that did not verify the user (no PIN or biometrics) cannot sign in alone, but serves as the second factor', async () => {
    const dev = await developer('no-uv');
    const securityKey = new WebAuthnEmulator(
      new AuthenticatorEmulator({
        credentialsRepository: new PasskeysCredentialsMemoryRepository(),
        verifications: { userPresent: true, userVerified: false },
        userMakeCredentialInteraction: () => ({ options: { up: true, uv: false } }),
        userGetAssertionInteraction: () => ({ options: { up: true, uv: false } }),
      }),
    );
    await addPasskey(PLATFORM, dev.token, securityKey);
    const alone = (await signInWithPasskey(PLATFORM, securityKey)).answer;
    expect(alone.statusCode).toBe(401);

    const { secret } = (await client(PLATFORM).post('/auth/mfa/totp/setup', undefined, dev.token)).json();
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() });
    expect((await client(PLATFORM).post('/auth/mfa/totp/confirm', { code }, dev.token)).statusCode).toBe(200);
    const first = (await client(PLATFORM).post('/auth/login', { email: dev.email, password: STRONG_PASSWORD })).json();
    const options = (await client(PLATFORM).post('/auth/mfa/passkey/options', { mfa_token: first.mfa_token })).json();
    const done = await client(PLATFORM).post('/auth/mfa/verify', { mfa_token: first.mfa_token, passkey_response: securityKey.getJSON(APP_URL, options) });
    expect(done.statusCode).toBe(200);
  });

  it('over tRPC: loginOptions and logIn set the cookies', async () => {
    const dev = await developer('trpc');
    const device = newDevice();
    await addPasskey(PLATFORM, dev.token, device);
    const tab = t.trpc({ ip: uniqueIp() });
    const options = await tab.api.passkeys.loginOptions.mutate({});
    const done = await tab.api.passkeys.logIn.mutate({ response: device.getJSON(APP_URL, options as never) as never, device_fingerprint: null });
    expect(done.user.email).toBe(dev.email);
    expect(tab.cookies.access_token).toBeTruthy();
    expect((await tab.api.passkeys.list.query()).passkeys).toHaveLength(1);
    expect(await trpcFailure(tab.api.passkeys.remove.mutate({ id: 'nope' }))).toMatchObject({ status: 404, message: 'Passkey not found' });
  });
});

describe('a passkey as the second factor', () => {
  async function withTotpAndPasskey(tag: string) {
    const dev = await developer(tag);
    const device = newDevice();
    await addPasskey(PLATFORM, dev.token, device);
    const { secret } = (await client(PLATFORM).post('/auth/mfa/totp/setup', undefined, dev.token)).json();
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() });
    expect((await client(PLATFORM).post('/auth/mfa/totp/confirm', { code }, dev.token)).statusCode).toBe(200);
    return { ...dev, device };
  }

  it('methods include "passkey"; mfa/passkey/options and mfa/verify with passkey_response finish the sign-in', async () => {
    const dev = await withTotpAndPasskey('mfa-passkey');
    const first = (await client(PLATFORM).post('/auth/login', { email: dev.email, password: STRONG_PASSWORD })).json();
    expect(first).toMatchObject({ mfa_required: true, methods: ['totp', 'recovery_code', 'passkey'] });
    const options = await client(PLATFORM).post('/auth/mfa/passkey/options', { mfa_token: first.mfa_token });
    expect(options.statusCode).toBe(200);
    expect(options.json().allowCredentials).toHaveLength(1);
    const done = await client(PLATFORM).post('/auth/mfa/verify', { mfa_token: first.mfa_token, passkey_response: dev.device.getJSON(APP_URL, options.json()) });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ access_token: expect.any(String), user: { email: dev.email } });
    // The sign-in is finished: its token is spent.
    expect((await client(PLATFORM).post('/auth/mfa/passkey/options', { mfa_token: first.mfa_token })).statusCode).toBe(401);
  });

  it("another account's passkey is an mfa_failed attempt; login options do not answer the second step", async () => {
    const dev = await withTotpAndPasskey('mfa-foreign');
    const other = await withTotpAndPasskey('mfa-foreign-other');
    const first = (await client(PLATFORM).post('/auth/login', { email: dev.email, password: STRONG_PASSWORD })).json();
    const options = (await client(PLATFORM).post('/auth/mfa/passkey/options', { mfa_token: first.mfa_token })).json();
    clock.advance(1);
    const foreign = await client(PLATFORM).post('/auth/mfa/verify', { mfa_token: first.mfa_token, passkey_response: other.device.getJSON(APP_URL, { ...options, allowCredentials: [] }) });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toEqual({ detail: 'This passkey could not be verified' });
    expect(await lastAttempt(dev.email)).toEqual({ success: 0, failure_reason: 'mfa_failed' });
    expect(await lastMethod(dev.email)).toBe('password+passkey');

    const loginOptions = (await client(PLATFORM).post('/auth/passkeys/login/options', {})).json();
    const wrongCeremony = await client(PLATFORM).post('/auth/mfa/verify', { mfa_token: first.mfa_token, passkey_response: dev.device.getJSON(APP_URL, loginOptions) });
    expect(wrongCeremony.statusCode).toBe(400);
    expect((await client(PLATFORM).post('/auth/mfa/verify', { mfa_token: first.mfa_token })).json()).toEqual({ detail: 'Code is required' });
  });

  it("an admin's reset of two factors also removes the passkeys", async () => {
    const dev = await withTotpAndPasskey('mfa-reset');
    expect((await t.call('POST', `/api/v1/admin/users/${dev.id}/reset-mfa`, { token: admin.access_token })).statusCode).toBe(200);
    expect((await client(PLATFORM).get('/auth/passkeys', dev.token)).json()).toEqual({ passkeys: [] });
    expect((await signInWithPasskey(PLATFORM, dev.device)).answer.statusCode).toBe(401);
  });
});

describe("a project's end users, through the public API", () => {
  async function project(tag: string, websiteUrl: string | null = SHOP_URL) {
    const owner = await developer(tag);
    const created = (await t.call('POST', '/api/v1/projects', { token: owner.token, body: { name: `Shop ${tag}`, ...(websiteUrl ? { website_url: websiteUrl } : {}) } })).json();
    const key = (await t.call('POST', `/api/v1/projects/${created.id}/api-keys`, { token: owner.token, body: { name: 'backend' } })).json();
    const realm: Realm = { prefix: '/public/api/v1', headers: { 'x-api-key': key.secret }, origin: websiteUrl ?? APP_URL };
    return { owner, project: created, realm };
  }
  /** A verified end user, signed in (passkeys are for a verified address only). */
  async function endUser(realm: Realm) {
    const email = uniqueEmail('shopper');
    const before = t.mail.messages.length;
    expect((await client(realm).post('/auth/signup', { email, password: STRONG_PASSWORD })).statusCode).toBe(201);
    const link = new URL((await t.mail.waitFor(email, /verify/i, { after: before })).link!);
    expect((await client(realm).post('/auth/verify-email', { token: link.searchParams.get('token') })).statusCode).toBe(200);
    const session = (await client(realm).post('/auth/login', { email, password: STRONG_PASSWORD })).json();
    return { email, token: session.access_token as string };
  }

  it("the same flows with an API key; the relying party is the project's website, and tokens travel in bodies only", async () => {
    const { realm } = await project('public');
    const shopper = await endUser(realm);
    const options = (await client(realm).post('/auth/passkeys/register/options', undefined, shopper.token)).json();
    expect(options.rp).toEqual({ id: 'shop.example', name: 'Shop public' });
    const device = newDevice();
    expect((await client(realm).post('/auth/passkeys/register/verify', { response: device.createJSON(SHOP_URL, options) }, shopper.token)).statusCode).toBe(201);
    expect((await client(realm).get('/auth/passkeys', shopper.token)).json().passkeys).toHaveLength(1);

    const { answer } = await signInWithPasskey(realm, device);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ token_type: 'bearer', user: { email: shopper.email } });
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect((await client(realm).get('/profile', answer.json().access_token)).statusCode).toBe(200);
  });

  it("a passkey belongs to its realm: another project, or the platform, does not know it; no website means no passkeys", async () => {
    const { realm } = await project('realm-a');
    const shopper = await endUser(realm);
    const device = newDevice();
    await addPasskey(realm, shopper.token, device);
    const { realm: otherRealm } = await project('realm-b');
    expect((await signInWithPasskey(otherRealm, device)).answer.statusCode).toBe(401);
    const platformOptions = (await client(PLATFORM).post('/auth/passkeys/login/options', {})).json();
    const crossed = device.getJSON(SHOP_URL, { ...platformOptions, rpId: 'shop.example' });
    expect((await client(PLATFORM).post('/auth/passkeys/login/verify', { response: crossed })).statusCode).toBe(401);

    const { realm: bare } = await project('no-website', null);
    const bareUser = await endUser(bare);
    const refused = await client(bare).post('/auth/passkeys/register/options', undefined, bareUser.token);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ detail: "Passkeys need the project's website URL: set it in the project's settings" });
    expect((await client(bare).post('/auth/passkeys/login/options', {})).statusCode).toBe(400);
  });
});
