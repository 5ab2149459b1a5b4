import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { trpcFailure } from '../helpers/trpc-client.js';

/**
 * The account's mail preferences: stored with the account, answered with the user, changed through
 * the profile update (REST PATCH /auth/profile, PUT /public/api/v1/profile, tRPC profile.update),
 * and obeyed by every optional mail. Mails the account's security needs go out whatever they say.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PREFERENCES = ['email_notifications', 'login_notifications', 'notify_marketing', 'notify_product_updates', 'notify_security_alerts'] as const;
const DEFAULTS = { email_notifications: true, login_notifications: true, notify_security_alerts: true, notify_product_updates: false, notify_marketing: false };

const patch = (token: string, body: unknown) => t.call('PATCH', '/api/v1/auth/profile', { token, body });
const newSignInMails = (email: string) => t.mail.to(email).filter((m) => /new sign-in/i.test(m.subject));

/** A developer who signed in once from `first-device` (the first sign-in is never news). */
async function developer(tag: string) {
  const email = uniqueEmail(tag);
  const session = await t.signUpAndLogIn(email, { fingerprint: 'first-device' });
  return { email, token: session.access_token };
}
const signInFrom = (email: string, device: string) =>
  t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD, device_fingerprint: device }, ip: uniqueIp() });

describe('the preferences on the account', () => {
  it('a new account has the defaults, answered with the user on every transport', async () => {
    const dev = await developer('defaults');
    const me = (await t.call('GET', '/api/v1/auth/me', { token: dev.token })).json();
    expect(me).toMatchObject(DEFAULTS);
    expect(await t.trpc({ token: dev.token }).api.auth.me.query()).toMatchObject(DEFAULTS);
  });

  it('PATCH /auth/profile changes any of them, leaves the others as they are, and they stay changed', async () => {
    const dev = await developer('round-trip');
    const changed = await patch(dev.token, { email_notifications: false, notify_marketing: true });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ ...DEFAULTS, email_notifications: false, notify_marketing: true, first_name: 'Test' });
    const again = await patch(dev.token, { notify_security_alerts: false, notify_product_updates: true, login_notifications: false });
    expect(again.json()).toMatchObject({ email_notifications: false, notify_marketing: true, notify_security_alerts: false, notify_product_updates: true, login_notifications: false });
    const me = (await t.call('GET', '/api/v1/auth/me', { token: dev.token })).json();
    expect(Object.fromEntries(PREFERENCES.map((name) => [name, me[name]]))).toEqual({
      email_notifications: false,
      login_notifications: false,
      notify_marketing: true,
      notify_product_updates: true,
      notify_security_alerts: false,
    });
  });

  it('refuses anything but true or false with 422 naming the field, and changes nothing', async () => {
    const dev = await developer('validation');
    for (const name of PREFERENCES) {
      for (const value of ['yes', 1, null]) {
        const res = await patch(dev.token, { [name]: value });
        expect(res.statusCode, `${name}: ${JSON.stringify(value)}`).toBe(422);
        expect(res.json()).toEqual({ detail: `${name} must be true or false` });
      }
    }
    expect((await t.call('GET', '/api/v1/auth/me', { token: dev.token })).json()).toMatchObject(DEFAULTS);
    expect((await patch('not-a-token', { email_notifications: false })).statusCode).toBe(401);
  });

  it('tRPC profile.update does the same', async () => {
    const dev = await developer('trpc');
    const { api } = t.trpc({ token: dev.token });
    expect(await api.profile.update.mutate({ notify_product_updates: true, email_notifications: false })).toMatchObject({
      notify_product_updates: true,
      email_notifications: false,
      notify_security_alerts: true,
    });
    expect(await trpcFailure(api.profile.update.mutate({ notify_marketing: 'yes' as never }))).toMatchObject({
      status: 422,
      message: 'notify_marketing must be true or false',
    });
    expect((await api.auth.me.query()).notify_product_updates).toBe(true);
  });

  it("a project's end user has the same preferences through PUT /public/api/v1/profile", async () => {
    const dev = await developer('owner');
    const project = (await t.call('POST', '/api/v1/projects', { token: dev.token, body: { name: 'Prefs', website_url: 'https://prefs.example' } })).json();
    const key = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: dev.token, body: { name: 'backend' } })).json().secret;
    const headers = { 'x-api-key': key };
    const email = uniqueEmail('end-user');
    expect((await t.call('POST', '/public/api/v1/auth/signup', { headers, body: { email, password: STRONG_PASSWORD } })).statusCode).toBe(201);
    const session = (await t.call('POST', '/public/api/v1/auth/login', { headers, body: { email, password: STRONG_PASSWORD } })).json();
    expect((await t.call('GET', '/public/api/v1/profile', { headers, token: session.access_token })).json()).toMatchObject(DEFAULTS);
    const put = await t.call('PUT', '/public/api/v1/profile', { headers, token: session.access_token, body: { notify_security_alerts: false } });
    expect(put.json()).toMatchObject({ ...DEFAULTS, notify_security_alerts: false });
  });
});

describe('optional mails obey them', () => {
  it('a sign-in from a new device is mailed while all three switches are on', async () => {
    const dev = await developer('all-on');
    await signInFrom(dev.email, 'second-device');
    await t.mail.waitFor(dev.email, /new sign-in/i);
  });

  for (const off of ['login_notifications', 'notify_security_alerts', 'email_notifications'] as const) {
    it(`a sign-in from a new device is not mailed with ${off} off`, async () => {
      const dev = await developer(`off-${off}`);
      expect((await patch(dev.token, { [off]: false })).statusCode).toBe(200);
      expect((await signInFrom(dev.email, 'second-device')).statusCode).toBe(200);
      await t.mailSettled();
      expect(newSignInMails(dev.email)).toEqual([]);
    });
  }

  it('turning two factors on is mailed unless security alerts (or every optional mail) are off', async () => {
    const enable = async (token: string) => {
      const api = t.trpc({ token }).api;
      const { secret } = await api.mfa.setUpTotp.mutate();
      await api.mfa.confirmTotp.mutate({ code: new TOTP({ secret: Secret.fromBase32(secret) }).generate() });
    };
    const on = await developer('mfa-on');
    await enable(on.token);
    await t.mail.waitFor(on.email, /Two-factor authentication is on/);

    for (const off of ['notify_security_alerts', 'email_notifications'] as const) {
      const dev = await developer(`mfa-${off}`);
      await patch(dev.token, { [off]: false });
      await enable(dev.token);
      await t.mailSettled();
      expect(t.mail.to(dev.email).filter((m) => /Two-factor/.test(m.subject))).toEqual([]);
    }
  });
});

describe('mails the account needs always go out', () => {
  const everythingOff = { email_notifications: false, login_notifications: false, notify_security_alerts: false, notify_product_updates: false, notify_marketing: false };

  it('a change of password is mailed with every preference off', async () => {
    const dev = await developer('change-password');
    await patch(dev.token, everythingOff);
    const before = t.mail.messages.length;
    const res = await t.call('POST', '/api/v1/auth/change-password', {
      token: dev.token,
      body: { current_password: STRONG_PASSWORD, new_password: 'Another-Horse-43' },
    });
    expect(res.statusCode).toBe(200);
    await t.mail.waitFor(dev.email, /Your \w+ password was changed/, { after: before });
  });

  it('a password reset is mailed with every preference off', async () => {
    const dev = await developer('reset-password');
    await patch(dev.token, everythingOff);
    const before = t.mail.messages.length;
    await t.call('POST', '/api/v1/auth/forgot-password', { body: { email: dev.email }, ip: uniqueIp() });
    const link = (await t.mail.waitFor(dev.email, /Reset your \w+ password/, { after: before })).link!;
    const res = await t.call('POST', '/api/v1/auth/reset-password', { body: { token: new URL(link).searchParams.get('token'), new_password: 'Another-Horse-43' } });
    expect(res.statusCode).toBe(200);
    await t.mail.waitFor(dev.email, /Your \w+ password was changed/, { after: before });
  });

  it('turning two factors off is mailed with every preference off', async () => {
    const dev = await developer('mfa-off');
    await patch(dev.token, everythingOff);
    const api = t.trpc({ token: dev.token }).api;
    const { secret } = await api.mfa.setUpTotp.mutate();
    const { recovery_codes } = await api.mfa.confirmTotp.mutate({ code: new TOTP({ secret: Secret.fromBase32(secret) }).generate() });
    const before = t.mail.messages.length;
    await api.mfa.disable.mutate({ password: STRONG_PASSWORD, code: recovery_codes[0]! });
    await t.mail.waitFor(dev.email, /Two-factor authentication is off/, { after: before });
  });
});
