import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, VALIDATION } from '../../shared/messages.js';
import { APP_URL, STRONG_PASSWORD, createTestApp, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ limits: { signupPerIp: { points: 1000, durationS: 60 } } });
});
afterAll(() => t.close());

const signup = (body: Record<string, unknown>, ip?: string) => t.call('POST', '/api/v1/auth/signup', { body, ip });

describe('POST /api/v1/auth/signup', () => {
  it('creates the account, answers 201 with the spec message and mails a verification link built from APP_URL', async () => {
    const email = uniqueEmail();
    const res = await signup({ email, password: STRONG_PASSWORD, first_name: 'Ada', last_name: 'Lovelace', company_name: 'Engines', website_url: 'https://ada.dev', captcha_token: '', device_fingerprint: 'fp' }, '198.51.100.7');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: MESSAGES.signupSuccess });
    const mail = await t.mail.waitFor(email, /verify/i);
    expect(mail.link).toMatch(new RegExp(`^${APP_URL}/verify-email\\?token=[A-Za-z0-9_-]{43}$`));
    const row = await t.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ first_name: 'Ada', company_name: 'Engines', website_url: 'https://ada.dev', is_verified: 0, is_active: 1, role: 'user' });
    expect(row.password_hash).toMatch(/^\$2b\$04\$/);
    const token = new URL(mail.link!).searchParams.get('token')!;
    const stored = await t.db.selectFrom('one_time_tokens').selectAll().where('user_id', '=', row.id).executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(token);
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    [{ email: 'not-an-email', password: STRONG_PASSWORD }, VALIDATION.emailInvalid],
    [{ password: STRONG_PASSWORD }, VALIDATION.emailInvalid],
    [{ email: 'a@b.co', password: 'Ab1' }, VALIDATION.passwordTooShort],
    [{ email: 'a@b.co' }, VALIDATION.passwordTooShort],
    [{ email: 'a@b.co', password: 'alllowercase1' }, VALIDATION.passwordComplexity],
    [{ email: 'a@b.co', password: 'NoDigitsHere' }, VALIDATION.passwordComplexity],
    [{ email: 'a@b.co', password: `Aa1${'x'.repeat(70)}` }, VALIDATION.passwordTooLong],
    [{ email: 'a@b.co', password: `Aa1${'é'.repeat(35)}` }, VALIDATION.passwordTooLong],
    [{ email: 'a@b.co', password: 'Password1' }, VALIDATION.passwordTooCommon],
    [{ email: 'a@b.co', password: STRONG_PASSWORD, website_url: 'notaurl' }, VALIDATION.urlInvalid],
    [{ email: 'a@b.co', password: STRONG_PASSWORD, website_url: 'javascript:alert(1)' }, VALIDATION.urlInvalid],
  ])('refuses %j with 422 and the first broken rule', async (body, detail) => {
    const res = await signup(body);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ detail });
  });

  it('accepts an empty website and missing optional names', async () => {
    const res = await signup({ email: uniqueEmail(), password: STRONG_PASSWORD, website_url: '', company_name: '' });
    expect(res.statusCode).toBe(201);
  });

  it('ignores unknown fields such as role, is_verified and id', async () => {
    const email = uniqueEmail();
    const res = await signup({ email, password: STRONG_PASSWORD, role: 'admin', is_verified: true, is_active: false, id: 'mine' });
    expect(res.statusCode).toBe(201);
    const row = await t.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ role: 'user', is_verified: 0, is_active: 1 });
    expect(row.id).not.toBe('mine');
  });

  it('answers an existing unverified address exactly like a new one, creates nothing, and mails a fresh link', async () => {
    const email = uniqueEmail();
    const first = await signup({ email, password: STRONG_PASSWORD });
    await t.mail.waitFor(email, /verify/i);
    const before = t.mail.messages.length;
    const again = await signup({ email: email.toUpperCase(), password: 'Another-Pass-77' });
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.body).toBe(first.body);
    const mail = await t.mail.waitFor(email, /verify/i, { after: before });
    expect(mail.link).toContain('/verify-email?token=');
    const count = await t.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).where('email', '=', email).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('tells the owner of a verified address that someone tried to sign up, and keeps their password', async () => {
    const email = uniqueEmail();
    await t.signUpAndLogIn(email);
    const before = t.mail.messages.length;
    const res = await signup({ email, password: 'Intruder-Pass-99' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: MESSAGES.signupSuccess });
    const mail = await t.mail.waitFor(email, /tried to sign up/i, { after: before });
    expect(mail.text).toContain(`${APP_URL}/forgot-password`);
    const login = await t.call('POST', '/api/v1/auth/login', { body: { email, password: 'Intruder-Pass-99' } });
    expect(login.statusCode).toBe(401);
  });

  it('spends the same hashing work on new, unverified and verified addresses (no timing oracle)', async () => {
    const verified = uniqueEmail('known');
    await t.signUpAndLogIn(verified);
    const unverified = uniqueEmail('pending');
    await signup({ email: unverified, password: STRONG_PASSWORD });
    const original = t.deps.passwords;
    const work: string[] = [];
    t.deps.passwords = {
      hash: (p) => (work.push('hash'), original.hash(p)),
      verify: (p, h) => (work.push('verify'), original.verify(p, h)),
      verifyAgainstDummy: (p) => (work.push('verify'), original.verifyAgainstDummy(p)),
      run: (task) => original.run(task),
      load: () => original.load(),
    };
    try {
      const perAddress = [];
      for (const email of [uniqueEmail('fresh'), unverified, verified]) {
        work.length = 0;
        const res = await signup({ email, password: 'Another-Pass-77' });
        perAddress.push({ status: res.statusCode, body: res.body, work: [...work] });
      }
      expect(perAddress[1]).toEqual(perAddress[0]);
      expect(perAddress[2]).toEqual(perAddress[0]);
      expect(perAddress[0]!.work).toEqual(['hash']);
    } finally {
      t.deps.passwords = original;
    }
  });

  it('a hundred parallel signups with one address create exactly one account', async () => {
    const email = uniqueEmail('race');
    const answers = await Promise.all(Array.from({ length: 100 }, () => signup({ email, password: STRONG_PASSWORD })));
    expect(new Set(answers.map((r) => r.statusCode))).toEqual(new Set([201]));
    const count = await t.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).where('email', '=', email).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('links in mail ignore a forged Host and X-Forwarded-Host', async () => {
    const email = uniqueEmail();
    await t.call('POST', '/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } });
    const mail = await t.mail.waitFor(email, /verify/i);
    expect(mail.link!.startsWith(`${APP_URL}/verify-email?token=`)).toBe(true);
    expect(mail.text).not.toContain('evil.example');
  });
});

describe('POST /api/v1/auth/verify-email', () => {
  async function freshLink(email = uniqueEmail()) {
    const before = t.mail.messages.length;
    await signup({ email, password: STRONG_PASSWORD });
    const mail = await t.mail.waitFor(email, /verify/i, { after: before });
    return { email, token: new URL(mail.link!).searchParams.get('token')! };
  }

  it('verifies once; the second use says the link was used', async () => {
    const { email, token } = await freshLink();
    const ok = await t.call('POST', '/api/v1/auth/verify-email', { body: { token } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: MESSAGES.emailVerified });
    const row = await t.db.selectFrom('users').select('is_verified').where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.is_verified).toBe(1);
    const again = await t.call('POST', '/api/v1/auth/verify-email', { body: { token } });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ detail: 'This verification link has already been used' });
  });

  it('refuses an unknown token and a missing one', async () => {
    const bad = await t.call('POST', '/api/v1/auth/verify-email', { body: { token: 'nope' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ detail: 'Invalid verification token' });
    const missing = await t.call('POST', '/api/v1/auth/verify-email', { body: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({ detail: VALIDATION.verificationTokenMissing });
  });

  it('refuses an expired link (older than 24 hours)', async () => {
    const { token } = await freshLink();
    await t.db.updateTable('one_time_tokens').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('used_at', 'is', null).execute();
    const res = await t.call('POST', '/api/v1/auth/verify-email', { body: { token } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'This verification link has expired. Please request a new one.' });
  });

  it('a resent link works, and once any link verifies the address every other pending link is dead', async () => {
    const { email, token: oldToken } = await freshLink();
    const before = t.mail.messages.length;
    const resend = await t.call('POST', '/api/v1/auth/resend-verification', { body: { email }, ip: '198.51.100.20' });
    expect(resend.statusCode).toBe(200);
    expect(resend.json()).toEqual({ message: MESSAGES.verificationSent });
    const mail = await t.mail.waitFor(email, /verify/i, { after: before });
    const newToken = new URL(mail.link!).searchParams.get('token')!;
    // A stranger's resend must not kill the link the owner is about to click.
    expect((await t.call('POST', '/api/v1/auth/verify-email', { body: { token: newToken } })).statusCode).toBe(200);
    const old = await t.call('POST', '/api/v1/auth/verify-email', { body: { token: oldToken } });
    expect(old.statusCode).toBe(400);
    expect(old.json()).toEqual({ detail: 'This email address has already been verified' });
  });
});

describe('POST /api/v1/auth/resend-verification', () => {
  it('answers the same for unknown, unverified and verified addresses, and mails only the unverified one', async () => {
    const unknown = uniqueEmail('ghost');
    const res = await t.call('POST', '/api/v1/auth/resend-verification', { body: { email: unknown }, ip: '198.51.100.21' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.verificationSent });
    const verified = uniqueEmail();
    await t.signUpAndLogIn(verified);
    const before = t.mail.messages.length;
    const res2 = await t.call('POST', '/api/v1/auth/resend-verification', { body: { email: verified }, ip: '198.51.100.21' });
    expect(res2.body).toBe(res.body);
    await t.mailSettled();
    expect(t.mail.messages.slice(before).filter((m) => m.to === verified || m.to === unknown)).toEqual([]);
  });

  it('limits resends per address with 429 and Retry-After', async () => {
    const email = uniqueEmail();
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await t.call('POST', '/api/v1/auth/resend-verification', { body: { email }, ip: `198.51.100.${30 + i}` });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(last!.json()).toEqual({ detail: 'Too many requests. Please try again later.' });
  });
});

describe('shutdown', () => {
  it('a server closed right after answering a signup still delivers its verification mail', async () => {
    const other = await createTestApp();
    const email = uniqueEmail('shutdown');
    try {
      const res = await other.call('POST', '/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD } });
      expect(res.statusCode).toBe(201);
    } finally {
      // Closes the app first (which waits for mail in flight), then the database and the SMTP catcher.
      await other.close();
    }
    expect(other.mail.to(email).map((m) => m.subject)).toEqual([expect.stringMatching(/verify/i)]);
  });
});
