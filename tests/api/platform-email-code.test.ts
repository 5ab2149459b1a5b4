import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, manualClock, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';

/**
 * Issue 30 for developers: the dashboard's sign-in page mails a 6-digit code (PLATFORM_EMAIL_CODE, on by
 * default), on the projects' passwordless service in the platform's realm. Verifying it answers what
 * the password sign-in answers (cookies, or the second step's challenge), under the same limits, and
 * makes no developer account: an unknown address is mailed nothing, with the same answer.
 */

const clock = manualClock(new Date());
let t: TestApp;
const INCORRECT = { detail: 'Incorrect or expired code' };

const post = (path: string, body: unknown, ip = uniqueIp()) => t.call('POST', `/api/v1${path}`, { body, ip });

function cookiesOf(res: { cookies: Array<{ name: string; value: string; httpOnly?: boolean }> }) {
  return Object.fromEntries(res.cookies.map((c) => [c.name, c]));
}

async function askCode(email: string, ip = uniqueIp()): Promise<string> {
  const before = t.mail.messages.length;
  const asked = await post('/auth/email-code', { email }, ip);
  expect(asked.statusCode, asked.body).toBe(200);
  const mail = await t.mail.waitFor(email, /sign-in code/, { after: before });
  return /\b(\d{6})\b/.exec(mail.text)![1]!;
}

async function developer(tag: string): Promise<{ email: string; token: string }> {
  const email = uniqueEmail(tag);
  return { email, token: (await t.signUpAndLogIn(email)).access_token };
}

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t?.close());

describe("developers' sign-in with a mailed code", () => {
  it('is offered on the sign-in page by default', async () => {
    const methods = await t.call('GET', '/api/v1/auth/sign-in-methods');
    expect(methods.statusCode).toBe(200);
    expect(methods.json()).toEqual({ password: true, magic_link: false, email_code: true, passkey: true, connections: {} });
  });

  it('mails a code that signs in like a password: HttpOnly cookies that work on /api/v1/auth/me, an email_code attempt', async () => {
    const { email } = await developer('dev-code');
    const code = await askCode(email);
    const row = await t.db.selectFrom('email_sign_ins').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.project_id).toBeNull();
    expect(row.secret_digest).not.toContain(code);

    const signedIn = await post('/auth/email-code/verify', { email, code, device_fingerprint: 'fp-dev-code' });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toMatchObject({ user: { email, is_verified: true } });
    const cookies = cookiesOf(signedIn);
    expect(cookies.access_token).toMatchObject({ value: signedIn.json().access_token, httpOnly: true });
    expect(cookies.refresh_token).toMatchObject({ value: signedIn.json().refresh_token, httpOnly: true });
    const me = await t.call('GET', '/api/v1/auth/me', { cookies: { access_token: cookies.access_token!.value } });
    expect([me.statusCode, me.json().email]).toEqual([200, email]);

    const attempt = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', email).where('method', '=', 'email_code').executeTakeFirstOrThrow();
    expect(attempt).toMatchObject({ success: 1, project_id: null });
    // Once.
    const again = await post('/auth/email-code/verify', { email, code });
    expect([again.statusCode, again.json()]).toEqual([401, INCORRECT]);
  });

  it("is the dashboard's procedure too: the tab keeps the session cookies and the body carries no token", async () => {
    const { email } = await developer('dev-tab');
    const tab = t.trpc({ ip: uniqueIp() });
    const before = t.mail.messages.length;
    expect(await tab.api.auth.sendEmailCode.mutate({ email, captcha_token: '' })).toHaveProperty('message');
    const code = /\b(\d{6})\b/.exec((await t.mail.waitFor(email, /sign-in code/, { after: before })).text)![1]!;
    const answer = await tab.api.auth.verifyEmailCode.mutate({ email, code, device_fingerprint: null });
    expect(answer).toMatchObject({ user: { email } });
    expect(answer).not.toHaveProperty('access_token');
    expect(tab.cookies.access_token).toBeTruthy();
    expect((await tab.api.auth.me.query()).email).toBe(email);
  });

  it('answers the same for an unknown address, mails it nothing, and makes no developer account', async () => {
    const { email } = await developer('dev-known');
    const unknown = uniqueEmail('dev-unknown');
    const before = t.mail.messages.length;
    const known = await post('/auth/email-code', { email });
    const stranger = await post('/auth/email-code', { email: unknown });
    expect([stranger.statusCode, stranger.json()]).toEqual([known.statusCode, known.json()]);
    await t.mailSettled();
    expect(t.mail.messages.slice(before).filter((mail) => mail.to.includes(unknown))).toEqual([]);
    expect(await t.db.selectFrom('email_sign_ins').select('id').where('email', '=', unknown).execute()).toEqual([]);
    const guess = await post('/auth/email-code/verify', { email: unknown, code: '123456' });
    expect([guess.statusCode, guess.json()]).toEqual([401, INCORRECT]);
    expect(await t.db.selectFrom('users').select('id').where('email', '=', unknown).execute()).toEqual([]);
  });

  it('allows 5 wrong tries per code, then not even the right one; a code ends after 10 minutes', async () => {
    const { email } = await developer('dev-guess');
    const code = await askCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) expect((await post('/auth/email-code/verify', { email, code: wrong })).statusCode).toBe(401);
    expect((await post('/auth/email-code/verify', { email, code })).statusCode).toBe(401);
    const failed = await t.db.selectFrom('login_attempts').selectAll().where('email', '=', email).where('success', '=', 0).execute();
    expect(failed).toHaveLength(6);
    expect(failed.every((attempt) => attempt.method === 'email_code' && attempt.failure_reason === 'invalid_credentials')).toBe(true);

    const late = await askCode(email);
    clock.advance(10 * 60 + 1);
    expect((await post('/auth/email-code/verify', { email, code: late })).statusCode).toBe(401);
    // A fresh code works.
    expect((await post('/auth/email-code/verify', { email, code: await askCode(email) })).statusCode).toBe(200);
  });

  it('asks a developer with two factors for the second step, with no cookies, as the password sign-in does', async () => {
    const dev = await developer('dev-mfa');
    const { secret } = (await t.call('POST', '/api/v1/auth/mfa/totp/setup', { token: dev.token })).json();
    const codeFor = () => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() });
    expect((await t.call('POST', '/api/v1/auth/mfa/totp/confirm', { token: dev.token, body: { code: codeFor() } })).statusCode).toBe(200);
    clock.advance(31);

    const ip = uniqueIp();
    const challenged = await post('/auth/email-code/verify', { email: dev.email, code: await askCode(dev.email, ip) }, ip);
    expect(challenged.statusCode, challenged.body).toBe(200);
    expect(challenged.json()).toMatchObject({ mfa_required: true, methods: ['totp', 'recovery_code'] });
    expect(challenged.json().access_token).toBeUndefined();
    expect(challenged.cookies).toEqual([]);
    const finished = await post('/auth/mfa/verify', { mfa_token: challenged.json().mfa_token, code: codeFor() }, ip);
    expect(finished.statusCode, finished.body).toBe(200);
    expect(cookiesOf(finished).access_token?.value).toBe(finished.json().access_token);
    const attempts = await t.db.selectFrom('login_attempts').select('method').where('email', '=', dev.email).where('success', '=', 1).orderBy('created_at').execute();
    expect(attempts.at(-1)!.method).toBe('email_code+code');
  });

  it('is refused for a deactivated developer, who is mailed no new code', async () => {
    const dev = await developer('dev-inactive');
    const code = await askCode(dev.email);
    await t.db.updateTable('users').set({ is_active: 0 }).where('email', '=', dev.email).execute();
    const refused = await post('/auth/email-code/verify', { email: dev.email, code });
    expect([refused.statusCode, refused.json()]).toEqual([403, { detail: 'This account has been deactivated' }]);
    const before = t.mail.messages.length;
    expect((await post('/auth/email-code', { email: dev.email })).statusCode).toBe(200);
    await t.mailSettled();
    expect(t.mail.messages.slice(before).filter((mail) => mail.to.includes(dev.email))).toEqual([]);
  });
});

describe('PLATFORM_EMAIL_CODE=off', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await createTestApp({ env: { PLATFORM_EMAIL_CODE: 'off' } });
  });
  afterAll(() => off?.close());

  it('turns the code off for developers: 403 on both routes, and the sign-in page is told', async () => {
    expect((await off.call('GET', '/api/v1/auth/sign-in-methods')).json()).toMatchObject({ email_code: false, password: true });
    for (const [path, body] of [
      ['/api/v1/auth/email-code', { email: uniqueEmail('off') }],
      ['/api/v1/auth/email-code/verify', { email: uniqueEmail('off'), code: '123456' }],
    ] as const) {
      const res = await off.call('POST', path, { body, ip: uniqueIp() });
      expect([res.statusCode, res.json()], path).toEqual([403, { detail: 'This sign-in method is disabled' }]);
    }
  });
});
