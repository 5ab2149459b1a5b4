import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, createTestApp, manualClock, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { sha256 } from '../../server/lib/crypto.js';
import { runRetention } from '../../server/modules/retention/retention.service.js';

/**
 * Issue 30, passwordless sign-in: a project chooses its end users' first factors (password, magic link,
 * e-mail code, passkey, each connection); a disabled one is refused with 403. An e-mail code is 6 digits,
 * 10 minutes, 5 tries, one live per address, stored as a keyed digest; a magic link is 15 minutes, once,
 * opens the hosted page, which asks to confirm in any browser but the one that asked, and hands a
 * developer's app a one-time code for /auth/oauth/exchange. Both sign in like a password does.
 */

const clock = manualClock(new Date());
let t: TestApp;
let developer: string;
let project: { id: string; key: string; apiKey: string };
const APP_CALLBACK = 'https://shop.example/auth/callback';
const DISABLED = { detail: 'This sign-in method is disabled' };

const api = (path: string, body: unknown, ip = uniqueIp()) => t.call('POST', `/public/api/v1${path}`, { body, headers: { 'x-api-key': project.apiKey }, ip });
const hosted = (path: string, body: unknown, options: { ip?: string; cookies?: Record<string, string> } = {}) =>
  t.call('POST', `/hosted/${project.key}/api/v1${path}`, { body, ip: options.ip ?? uniqueIp(), ...(options.cookies && { cookies: options.cookies }) });
const settings = (body: unknown) => t.call('PATCH', `/api/v1/projects/${project.id}/settings`, { token: developer, body });

async function mailedCode(email: string, before: number): Promise<string> {
  const mail = await t.mail.waitFor(email, /sign-in code/, { after: before });
  return /\b(\d{6})\b/.exec(mail.text)![1]!;
}

async function askCode(email: string): Promise<string> {
  const before = t.mail.messages.length;
  const asked = await api('/auth/email-code', { email });
  expect(asked.statusCode, asked.body).toBe(200);
  return mailedCode(email, before);
}

async function mailedLinkToken(email: string, before: number): Promise<string> {
  const mail = await t.mail.waitFor(email, /sign-in link/, { after: before });
  expect(mail.link).toContain(`/hosted/${project.key}/magic-link?token=`);
  return new URL(mail.link!).searchParams.get('token')!;
}

beforeAll(async () => {
  t = await createTestApp({ clock, env: { WEBHOOKS_ALLOW_PRIVATE: 'on' } });
  developer = (await t.signUpAndLogIn(uniqueEmail('pwless-dev'))).access_token;
  const created = (await t.call('POST', '/api/v1/projects', { token: developer, body: { name: 'Shop', redirect_uris: [APP_CALLBACK] } })).json();
  const key = (await t.call('POST', `/api/v1/projects/${created.id}/api-keys`, { token: developer, body: { name: 'backend' } })).json().secret;
  project = { id: created.id, key: created.project_key, apiKey: key };
  const hook = await t.call('POST', `/api/v1/projects/${project.id}/webhooks`, { token: developer, body: { url: 'https://hooks.example.com/in', event_types: ['session.created'] } });
  expect(hook.statusCode, hook.body).toBe(201);
});
afterAll(() => t?.close());

describe('sign-in methods per project', () => {
  it("keep today's behaviour until changed, refuse a disabled method with 403, and keep at least one on", async () => {
    const before = (await t.call('GET', `/api/v1/projects/${project.id}/settings`, { token: developer })).json();
    expect(before.sign_in_methods).toEqual({ password: true, magic_link: false, email_code: false, passkey: true, connections: {} });
    // Off by default: the public API and the hosted pages refuse them.
    expect((await api('/auth/email-code', { email: uniqueEmail('off') })).json()).toEqual(DISABLED);
    expect((await api('/auth/email-code/verify', { email: uniqueEmail('off'), code: '123456' })).statusCode).toBe(403);
    const link = await api('/auth/magic-link', { email: uniqueEmail('off'), redirect_uri: APP_CALLBACK });
    expect([link.statusCode, link.json()]).toEqual([403, DISABLED]);
    expect((await hosted('/auth/email-code', { email: uniqueEmail('off') })).statusCode).toBe(403);

    const none = await settings({ sign_in_methods: { password: false, passkey: false } });
    expect([none.statusCode, none.json().detail]).toEqual([422, 'At least one sign-in method must stay enabled']);
    expect((await settings({ sign_in_methods: { connections: { 'sso:acme': false } } })).statusCode).toBe(422);

    const changed = await settings({ sign_in_methods: { password: false, email_code: true, magic_link: true } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().sign_in_methods).toEqual({ password: false, magic_link: true, email_code: true, passkey: true, connections: {} });
    const hostedProject = (await t.call('GET', `/hosted/${project.key}/api/v1/project`)).json();
    expect(hostedProject.sign_in_methods).toEqual({ password: false, magic_link: true, email_code: true, passkey: true });

    // The password is now refused, for sign-in and sign-up, whatever the credentials.
    const login = await api('/auth/login', { email: uniqueEmail('pw'), password: STRONG_PASSWORD });
    expect([login.statusCode, login.json()]).toEqual([403, DISABLED]);
    expect((await api('/auth/signup', { email: uniqueEmail('pw'), password: STRONG_PASSWORD })).statusCode).toBe(403);
    expect((await hosted('/auth/login', { email: uniqueEmail('pw'), password: STRONG_PASSWORD })).statusCode).toBe(403);
  });
});

describe('e-mail code', () => {
  it('answers the same for a known and an unknown address, and signs up a verified account with the code', async () => {
    const email = uniqueEmail('coder');
    const unknown = await api('/auth/email-code', { email: uniqueEmail('never-mailed') });
    const before = t.mail.messages.length;
    const known = await api('/auth/email-code', { email });
    expect(known.json()).toEqual(unknown.json());
    const code = await mailedCode(email, before);

    // Stored as a keyed digest: neither the code nor its plain SHA-256 is in the database.
    const row = await t.db.selectFrom('email_sign_ins').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.secret_digest).toMatch(/^k1:/);
    expect(row.secret_digest).not.toContain(code);
    expect(row.secret_digest).not.toContain(sha256(code));

    const signedIn = await api('/auth/email-code/verify', { email, code, device_fingerprint: 'fp-coder' });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toMatchObject({ user: { email, is_verified: true } });
    expect(signedIn.json().access_token).toBeTruthy();

    const attempt = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(attempt).toMatchObject({ success: 1, method: 'email_code' });
    const event = await t.db.selectFrom('webhook_events').select('payload').where('type', '=', 'session.created').where('payload', 'like', `%${email}%`).executeTakeFirstOrThrow();
    expect(JSON.parse(event.payload).data.auth_methods).toEqual(['email']);

    // Reuse: the code worked once.
    const again = await api('/auth/email-code/verify', { email, code });
    expect([again.statusCode, again.json()]).toEqual([401, { detail: 'Incorrect or expired code' }]);
  });

  it('allows 5 tries per code, keeps one live code per address, and ends a code after 10 minutes', async () => {
    const email = uniqueEmail('guesser');
    const code = await askCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) expect((await api('/auth/email-code/verify', { email, code: wrong })).statusCode).toBe(401);
    // The budget is spent: the right code no longer works.
    expect((await api('/auth/email-code/verify', { email, code })).statusCode).toBe(401);
    const failed = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', email).where('success', '=', 0).execute();
    expect(failed).toHaveLength(6);
    expect(failed.every((attempt) => attempt.method === 'email_code' && attempt.failure_reason === 'invalid_credentials')).toBe(true);

    // A new code ends the earlier one; the newest works.
    const other = uniqueEmail('twice');
    const first = await askCode(other);
    const second = await askCode(other);
    if (first !== second) expect((await api('/auth/email-code/verify', { email: other, code: first })).statusCode).toBe(401);
    expect((await api('/auth/email-code/verify', { email: other, code: second })).statusCode).toBe(200);

    const expiring = uniqueEmail('expiring');
    const expiringCode = await askCode(expiring);
    clock.advance(10 * 60 + 1);
    expect((await api('/auth/email-code/verify', { email: expiring, code: expiringCode })).statusCode).toBe(401);
  });

  it('asks an account with an authenticator for its second factor after the code, like a password sign-in', async () => {
    const email = uniqueEmail('two-steps');
    const first = (await api('/auth/email-code/verify', { email, code: await askCode(email) })).json();
    const auth = { authorization: `Bearer ${first.access_token}`, 'x-api-key': project.apiKey };
    const { secret } = (await t.call('POST', '/public/api/v1/auth/mfa/totp/setup', { headers: auth, ip: uniqueIp() })).json();
    const codeFor = () => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() });
    expect((await t.call('POST', '/public/api/v1/auth/mfa/totp/confirm', { body: { code: codeFor() }, headers: auth, ip: uniqueIp() })).statusCode).toBe(200);
    clock.advance(31);

    const ip = uniqueIp();
    const challenged = await api('/auth/email-code/verify', { email, code: await askCode(email) }, ip);
    expect(challenged.statusCode, challenged.body).toBe(200);
    expect(challenged.json()).toMatchObject({ mfa_required: true });
    expect(challenged.json().access_token).toBeUndefined();
    const wrong = await t.call('POST', '/public/api/v1/auth/mfa/verify', { body: { mfa_token: challenged.json().mfa_token, code: codeFor() === '000000' ? '111111' : '000000' }, headers: { 'x-api-key': project.apiKey }, ip });
    expect([wrong.statusCode, wrong.json()]).toEqual([400, { detail: 'Invalid code' }]);
    const signedIn = await t.call('POST', '/public/api/v1/auth/mfa/verify', { body: { mfa_token: challenged.json().mfa_token, code: codeFor() }, headers: { 'x-api-key': project.apiKey }, ip });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toMatchObject({ user: { email } });
    expect(signedIn.json().access_token).toBeTruthy();
    const attempts = await t.db.selectFrom('login_attempts').select(['method', 'success']).where('email', '=', email).where('success', '=', 1).orderBy('created_at').execute();
    expect(attempts.at(-1)!.method).toBe('email_code+code');
  });

  it("hands an unverified account set up by someone else over to the address's owner (the squatter's password stops working)", async () => {
    await settings({ sign_in_methods: { password: true } });
    const email = uniqueEmail('squatted');
    expect((await api('/auth/signup', { email, password: STRONG_PASSWORD })).statusCode).toBe(201);
    const signedIn = await api('/auth/email-code/verify', { email, code: await askCode(email) });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().user.is_verified).toBe(true);
    expect((await api('/auth/login', { email, password: STRONG_PASSWORD })).statusCode).toBe(401);
  });
});

describe('magic link', () => {
  it('of the public API: a registered redirect only; the hosted page asks to confirm, then returns a one-time code for the exchange', async () => {
    await settings({ sign_in_methods: { magic_link: true } });
    const email = uniqueEmail('linked');
    const refused = await api('/auth/magic-link', { email, redirect_uri: 'https://evil.example/cb' });
    expect([refused.statusCode, refused.json().detail]).toEqual([400, "redirect_uri is not one of the project's registered redirect URIs"]);

    const before = t.mail.messages.length;
    const asked = await api('/auth/magic-link', { email, redirect_uri: APP_CALLBACK, state: 'app-state' });
    expect(asked.statusCode, asked.body).toBe(200);
    expect((await api('/auth/magic-link', { email: uniqueEmail('nobody'), redirect_uri: APP_CALLBACK })).json()).toEqual(asked.json());
    const token = await mailedLinkToken(email, before);

    // A mail scanner (or anyone) following the link only sees the confirmation step: nothing is spent.
    const scanned = await hosted('/auth/magic-link/open', { token });
    expect(scanned.json()).toEqual({ next: { kind: 'confirm', email } });
    expect(await t.db.selectFrom('login_attempts').selectAll().where('email', '=', email).execute()).toHaveLength(0);

    const confirmed = await hosted('/auth/magic-link/open', { token, confirm: true });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const next = confirmed.json().next;
    expect(next.kind).toBe('redirect');
    const back = new URL(next.url);
    expect(`${back.origin}${back.pathname}`).toBe(APP_CALLBACK);
    expect(back.searchParams.get('state')).toBe('app-state');

    const exchanged = await api('/auth/oauth/exchange', { code: back.searchParams.get('code'), device_fingerprint: 'fp-link' });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    expect(exchanged.json()).toMatchObject({ user: { email, is_verified: true } });
    const attempt = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(attempt).toMatchObject({ success: 1, method: 'magic_link' });
    expect(await t.db.selectFrom('webhook_events').select('id').where('type', '=', 'session.created').where('payload', 'like', `%${email}%`).execute()).toHaveLength(1);

    // Reuse: the exchange code and the link work once.
    expect((await api('/auth/oauth/exchange', { code: back.searchParams.get('code') })).statusCode).toBe(400);
    const reused = await hosted('/auth/magic-link/open', { token, confirm: true });
    expect([reused.statusCode, reused.json().detail]).toEqual([400, 'This sign-in link has already been used']);
  });

  it('of the hosted pages: signs in at once in the browser that asked, asks to confirm in another; ends after 15 minutes', async () => {
    const email = uniqueEmail('hosted-link');
    const ip = uniqueIp();
    let before = t.mail.messages.length;
    const asked = await hosted('/auth/magic-link', { email, return_to: `/hosted/${project.key}/account` }, { ip });
    expect(asked.statusCode, asked.body).toBe(200);
    const flow = asked.cookies.find((cookie) => cookie.name === 'hosted_flow')!;
    expect(flow.httpOnly).toBe(true);
    const token = await mailedLinkToken(email, before);

    // Another browser (no flow cookie, or another one) is asked to confirm.
    expect((await hosted('/auth/magic-link/open', { token }, { cookies: { hosted_flow: 'another-browser' } })).json().next.kind).toBe('confirm');

    const opened = await hosted('/auth/magic-link/open', { token }, { ip, cookies: { hosted_flow: flow.value } });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toEqual({ next: { kind: 'signed_in', interaction: null, return_to: `/hosted/${project.key}/account` } });
    expect(opened.cookies.some((cookie) => cookie.name === 'hosted_access_token' && cookie.value)).toBe(true);

    // Expiry.
    before = t.mail.messages.length;
    await hosted('/auth/magic-link', { email }, { ip });
    const late = await mailedLinkToken(email, before);
    clock.advance(15 * 60 + 1);
    const expired = await hosted('/auth/magic-link/open', { token: late, confirm: true });
    expect([expired.statusCode, expired.json().detail]).toEqual([400, 'This sign-in link has expired. Please ask for a new one.']);

    // Turned off since it was mailed: refused.
    const fresh = uniqueEmail('turned-off');
    before = t.mail.messages.length;
    await hosted('/auth/magic-link', { email: fresh });
    const pending = await mailedLinkToken(fresh, before);
    await settings({ sign_in_methods: { magic_link: false } });
    expect((await hosted('/auth/magic-link/open', { token: pending, confirm: true })).json()).toEqual(DISABLED);
  });
});

// Last: it moves the clock a day on.
describe('retention', () => {
  it('leaves no row behind: retention deletes codes a day after they ended, and keeps live ones', async () => {
    const ended = uniqueEmail('ended-code');
    await askCode(ended);
    clock.advance(10 * 60 + 86_400 + 1);
    const live = uniqueEmail('live-code');
    const liveCode = await askCode(live);
    const removed = await runRetention(t.deps);
    expect(removed.emailSignIns).toBeGreaterThanOrEqual(1);
    const left = await t.db.selectFrom('email_sign_ins').select('email').where('email', 'in', [ended, live]).execute();
    expect(left).toEqual([{ email: live }]);
    expect((await api('/auth/email-code/verify', { email: live, code: liveCode })).statusCode).toBe(200);
  });
});
