import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, VALIDATION } from '../../shared/messages.js';
import { APP_URL, STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function resetLinkFor(email: string): Promise<string> {
  const before = t.mail.messages.length;
  const res = await t.call('POST', '/api/v1/auth/forgot-password', { body: { email, captcha_token: '' }, ip: uniqueIp() });
  expect(res.statusCode).toBe(200);
  const mail = await t.mail.waitFor(email, /reset/i, { after: before });
  expect(mail.link!.startsWith(`${APP_URL}/reset-password?token=`)).toBe(true);
  return new URL(mail.link!).searchParams.get('token')!;
}

describe('forgot and reset password', () => {
  it('answers unknown addresses exactly like known ones, and mails only the known one', async () => {
    const email = uniqueEmail();
    await t.signUpAndLogIn(email);
    const known = await t.call('POST', '/api/v1/auth/forgot-password', { body: { email, captcha_token: '' }, ip: uniqueIp() });
    const ghost = uniqueEmail('ghost');
    const unknown = await t.call('POST', '/api/v1/auth/forgot-password', { body: { email: ghost, captcha_token: '' }, ip: uniqueIp() });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    await t.mail.waitFor(email, /reset/i);
    expect(t.mail.to(ghost)).toEqual([]);
  });

  it('resets once with the mailed link, signs every session out, and the new password works', async () => {
    const email = uniqueEmail();
    const session = await t.signUpAndLogIn(email);
    const token = await resetLinkFor(email);
    const res = await t.call('POST', '/api/v1/auth/reset-password', { body: { token, new_password: 'Brand-New-Pass-8' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.passwordResetSuccess });
    expect((await t.call('GET', '/api/v1/auth/me', { token: session.access_token })).statusCode).toBe(401);
    expect((await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token: session.refresh_token } })).statusCode).toBe(401);
    expect((await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD } })).statusCode).toBe(401);
    expect((await t.call('POST', '/api/v1/auth/login', { body: { email, password: 'Brand-New-Pass-8' } })).statusCode).toBe(200);
    const again = await t.call('POST', '/api/v1/auth/reset-password', { body: { token, new_password: 'Another-Pass-9' } });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ detail: 'This reset link has already been used' });
  });

  it('refuses a missing, unknown or expired token and weak passwords', async () => {
    const missing = await t.call('POST', '/api/v1/auth/reset-password', { body: { new_password: 'Brand-New-Pass-8' } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({ detail: VALIDATION.resetTokenInvalid });
    const unknown = await t.call('POST', '/api/v1/auth/reset-password', { body: { token: 'abc', new_password: 'Brand-New-Pass-8' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ detail: VALIDATION.resetTokenInvalid });

    const email = uniqueEmail();
    await t.signUpAndLogIn(email);
    const token = await resetLinkFor(email);
    const weak = await t.call('POST', '/api/v1/auth/reset-password', { body: { token, new_password: 'short' } });
    expect(weak.json()).toEqual({ detail: VALIDATION.passwordTooShort });
    const common = await t.call('POST', '/api/v1/auth/reset-password', { body: { token, new_password: 'Password123' } });
    expect(common.json()).toEqual({ detail: VALIDATION.passwordTooCommon });
    await t.db.updateTable('one_time_tokens').set({ expires_at: new Date(Date.now() - 1).toISOString() }).where('purpose', '=', 'reset_password').where('used_at', 'is', null).execute();
    const expired = await t.call('POST', '/api/v1/auth/reset-password', { body: { token, new_password: 'Brand-New-Pass-8' } });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ detail: 'This reset link has expired. Please request a new one.' });
  });

  it('a reset link is valid for one hour', async () => {
    const email = uniqueEmail();
    await t.signUpAndLogIn(email);
    await resetLinkFor(email);
    const row = await t.db.selectFrom('one_time_tokens').selectAll().where('purpose', '=', 'reset_password').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    const lifetime = (Date.parse(row.expires_at) - Date.parse(row.created_at)) / 1000;
    expect(lifetime).toBe(3600);
  });

  it('a reset ends the other reset links still pending', async () => {
    const email = uniqueEmail('two-links');
    await t.signUpAndLogIn(email);
    const links: string[] = [];
    for (const ip of [uniqueIp(), uniqueIp()]) {
      const before = t.mail.messages.length;
      await t.call('POST', '/api/v1/auth/forgot-password', { body: { email }, ip });
      links.push(new URL((await t.mail.waitFor(email, /reset/i, { after: before })).link!).searchParams.get('token')!);
    }
    // Mails can arrive in any order: use the second link, then the first must be dead.
    expect((await t.call('POST', '/api/v1/auth/reset-password', { body: { token: links[1], new_password: 'Second-Link-Pass-1' } })).statusCode).toBe(200);
    expect((await t.call('POST', '/api/v1/auth/reset-password', { body: { token: links[0], new_password: 'First-Link-Pass-1' } })).statusCode).toBe(400);
  });

  it('two parallel resets with one token let exactly one win', async () => {
    const email = uniqueEmail();
    await t.signUpAndLogIn(email);
    const token = await resetLinkFor(email);
    const results = await Promise.all(['First-Winner-11', 'Second-Winner-22', 'Third-Winner-33'].map((p) => t.call('POST', '/api/v1/auth/reset-password', { body: { token, new_password: p } })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 400)).toHaveLength(2);
  });

  it('a successful reset lifts the failed-login throttle of the account', async () => {
    const email = uniqueEmail();
    await t.signUpAndLogIn(email);
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) await t.call('POST', '/api/v1/auth/login', { body: { email, password: 'Wrong-Pass-1' }, ip });
    expect((await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, ip })).statusCode).toBe(429);
    const token = await resetLinkFor(email);
    await t.call('POST', '/api/v1/auth/reset-password', { body: { token, new_password: 'Brand-New-Pass-8' } });
    expect((await t.call('POST', '/api/v1/auth/login', { body: { email, password: 'Brand-New-Pass-8' }, ip })).statusCode).toBe(200);
  });
});

describe('POST /api/v1/auth/change-password', () => {
  it('checks the current password, keeps this session and ends the others', async () => {
    const email = uniqueEmail();
    const here = await t.signUpAndLogIn(email);
    const elsewhere = (await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD } })).json();
    const wrong = await t.call('POST', '/api/v1/auth/change-password', { token: here.access_token, body: { current_password: 'Nope-Nope-1', new_password: 'Changed-Pass-55' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ detail: 'Current password is incorrect' });
    const ok = await t.call('POST', '/api/v1/auth/change-password', { token: here.access_token, body: { current_password: STRONG_PASSWORD, new_password: 'Changed-Pass-55' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: MESSAGES.passwordChanged });
    expect((await t.call('GET', '/api/v1/auth/me', { token: here.access_token })).statusCode).toBe(200);
    expect((await t.call('GET', '/api/v1/auth/me', { token: elsewhere.access_token })).statusCode).toBe(401);
    expect((await t.call('POST', '/api/v1/auth/login', { body: { email, password: 'Changed-Pass-55' } })).statusCode).toBe(200);
  });

  it('ends the reset links still pending, so a link in an old mail cannot undo the change', async () => {
    const email = uniqueEmail('pending-reset');
    const { access_token } = await t.signUpAndLogIn(email);
    const before = t.mail.messages.length;
    await t.call('POST', '/api/v1/auth/forgot-password', { body: { email }, ip: uniqueIp() });
    const token = new URL((await t.mail.waitFor(email, /reset/i, { after: before })).link!).searchParams.get('token');
    const changed = await t.call('POST', '/api/v1/auth/change-password', { token: access_token, body: { current_password: STRONG_PASSWORD, new_password: 'Changed-Pass-56' } });
    expect(changed.statusCode).toBe(200);
    expect((await t.call('POST', '/api/v1/auth/reset-password', { body: { token, new_password: 'Attacker-Pass-1' } })).statusCode).toBe(400);
    expect((await t.call('POST', '/api/v1/auth/login', { body: { email, password: 'Changed-Pass-56' }, ip: uniqueIp() })).statusCode).toBe(200);
  });

  it('needs a session and applies the password rules', async () => {
    expect((await t.call('POST', '/api/v1/auth/change-password', { body: { current_password: 'x', new_password: 'Changed-Pass-55' } })).statusCode).toBe(401);
    const { access_token } = await t.signUpAndLogIn(uniqueEmail());
    const missing = await t.call('POST', '/api/v1/auth/change-password', { token: access_token, body: { new_password: 'Changed-Pass-55' } });
    expect(missing.json()).toEqual({ detail: VALIDATION.currentPasswordRequired });
    const weak = await t.call('POST', '/api/v1/auth/change-password', { token: access_token, body: { current_password: STRONG_PASSWORD, new_password: 'weakweak' } });
    expect(weak.json()).toEqual({ detail: VALIDATION.passwordComplexity });
  });
});

describe('POST /api/v1/auth/delete-account', () => {
  it('needs the current password, then removes the account, its projects and their end users, and signs it out', async () => {
    const email = uniqueEmail('leaving');
    const session = await t.signUpAndLogIn(email);
    // Left out, a recent step-up stands in for it (tests/api/hosted-journey.test.ts); given, it must be the password.
    const missing = await t.call('POST', '/api/v1/auth/delete-account', { token: session.access_token, body: { password: '' } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({ detail: VALIDATION.currentPasswordRequired });
    // A stolen session alone cannot delete the account.
    const wrong = await t.call('POST', '/api/v1/auth/delete-account', { token: session.access_token, body: { password: 'Nope-Nope-1' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: 'Incorrect password' });
    expect((await t.call('GET', '/api/v1/auth/me', { token: session.access_token })).statusCode).toBe(200);
    const project = (await t.call('POST', '/api/v1/projects', { token: session.access_token, body: { name: 'Doomed' } })).json();
    const key = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: session.access_token, body: { name: 'k' } })).json();
    await t.call('POST', '/public/api/v1/auth/signup', { body: { email: uniqueEmail('enduser'), password: STRONG_PASSWORD }, headers: { 'x-api-key': key.secret } });

    const res = await t.call('POST', '/api/v1/auth/delete-account', { token: session.access_token, body: { password: STRONG_PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.accountDeleted });
    expect((await t.call('GET', '/api/v1/auth/me', { token: session.access_token })).statusCode).toBe(401);
    expect(await t.db.selectFrom('users').selectAll().where('email', '=', email).execute()).toEqual([]);
    expect(await t.db.selectFrom('users').selectAll().where('project_id', '=', project.id).execute()).toEqual([]);
    expect((await t.call('POST', '/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, ip: uniqueIp() })).statusCode).toBe(401);
  });
});
