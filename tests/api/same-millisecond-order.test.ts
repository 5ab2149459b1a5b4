import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, manualClock, STRONG_PASSWORD, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { until } from '../helpers/until.js';

/**
 * Lists shown newest first (the admin's sign-in attempts and mails) order rows written within one
 * millisecond by the order they were written, as the audit log does. The clock stands still here, so
 * every row has the same time and only its id can tell them apart.
 */
const ADMIN = 'same-millisecond-admin@example.com';
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ clock: manualClock(), env: { ADMIN_EMAILS: ADMIN } });
  admin = (await t.signUpAndLogIn(ADMIN)).access_token;
});
afterAll(() => t.close());

const emails = (prefix: string) => Array.from({ length: 12 }, (_, i) => uniqueEmail(`${prefix}-${i}`).toLowerCase());

describe('written within one millisecond', () => {
  it('sign-in attempts are listed newest first, in the order they were made', async () => {
    const tried = emails('attempt');
    for (const email of tried) {
      const res = await t.call('POST', '/api/v1/auth/login', { body: { email, password: 'Whatever-1' }, ip: uniqueIp() });
      expect(res.statusCode).toBe(401);
    }
    const res = await t.call('GET', '/api/v1/admin/login-attempts?per_page=12', { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().attempts.map((attempt: { email: string }) => attempt.email)).toEqual(tried.toReversed());
  });

  it('mails are listed newest first, in the order they were queued', async () => {
    const recipients = emails('mail');
    for (const email of recipients) {
      const res = await t.call('POST', '/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, ip: uniqueIp() });
      expect(res.statusCode, res.body).toBe(201);
    }
    await until(async () => recipients.every((email) => t.mail.to(email).length > 0), 'every verification mail was sent');
    const res = await t.call('GET', '/api/v1/admin/mail?per_page=12', { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().deliveries.map((delivery: { recipient: string }) => delivery.recipient)).toEqual(recipients.toReversed());
  });
});
