import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../shared/messages.js';
import { createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';

/**
 * Account pre-registration: someone signs up with a victim's address before the victim does and
 * keeps a session. Each verification link belongs to the sign-up attempt that sent it: using it
 * verifies the address with that attempt's password and ends every session opened before.
 */
const SQUATTER_PASSWORD = 'Squatter-Pass-13';
const OWNER_PASSWORD = 'Owner-Pass-2026';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const signUp = (email: string, password: string, ip = uniqueIp()) => t.call('POST', '/api/v1/auth/signup', { body: { email, password }, ip });
const logIn = (email: string, password: string, ip = uniqueIp()) => t.call('POST', '/api/v1/auth/login', { body: { email, password }, ip });
const tokenOf = (link: string | null) => new URL(link!).searchParams.get('token');

describe('a squatter who signed up first', () => {
  it('loses their sessions and their password once the owner signs up and clicks their own link', async () => {
    const email = uniqueEmail('victim');
    const squatterIp = uniqueIp();
    expect((await signUp(email, SQUATTER_PASSWORD, squatterIp)).statusCode).toBe(201);
    // The squatter's link reaches the owner's inbox: it must tell them not to click it.
    expect((await t.mail.waitFor(email, /verify/i)).text).toMatch(/If you did not create an account, do not click the link/);
    const squatter = (await logIn(email, SQUATTER_PASSWORD, squatterIp)).json();
    expect(squatter.user.is_verified).toBe(false);

    // The owner signs up: same answer as for a new address.
    const before = t.mail.messages.length;
    const owner = await signUp(email, OWNER_PASSWORD);
    expect(owner.statusCode).toBe(201);
    expect(owner.json()).toEqual({ message: MESSAGES.signupSuccess });
    const ownersMail = await t.mail.waitFor(email, /verify/i, { after: before });
    // The squatter keeps refreshing meanwhile, and signs up again to send another link.
    const squatterRefresh = (await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token: squatter.refresh_token }, ip: squatterIp })).json();
    const beforeSecond = t.mail.messages.length;
    expect((await signUp(email, SQUATTER_PASSWORD, squatterIp)).statusCode).toBe(201);
    await t.mail.waitFor(email, /verify/i, { after: beforeSecond });

    expect((await t.call('POST', '/api/v1/auth/verify-email', { body: { token: tokenOf(ownersMail.link) } })).statusCode).toBe(200);

    expect((await t.call('GET', '/api/v1/auth/me', { token: squatterRefresh.access_token })).statusCode).toBe(401);
    expect((await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token: squatterRefresh.refresh_token }, ip: squatterIp })).statusCode).toBe(401);
    expect((await logIn(email, SQUATTER_PASSWORD, squatterIp)).statusCode).toBe(401);
    const signedIn = await logIn(email, OWNER_PASSWORD);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().user.is_verified).toBe(true);

    // Every other pending link (the squatter's second sign-up) is dead now.
    const all = t.mail.messages.filter((m) => m.to === email && /verify/i.test(m.subject));
    for (const mail of all) {
      if (mail === ownersMail) continue;
      expect((await t.call('POST', '/api/v1/auth/verify-email', { body: { token: tokenOf(mail.link) } })).statusCode).toBe(400);
    }
    expect((await logIn(email, OWNER_PASSWORD)).statusCode).toBe(200);
  });

  it('a password reset by the owner also ends the pending links of other attempts', async () => {
    const email = uniqueEmail('reset-victim');
    await signUp(email, SQUATTER_PASSWORD);
    const squattersLink = tokenOf((await t.mail.waitFor(email, /verify/i)).link);
    const before = t.mail.messages.length;
    await t.call('POST', '/api/v1/auth/forgot-password', { body: { email }, ip: uniqueIp() });
    const reset = tokenOf((await t.mail.waitFor(email, /reset/i, { after: before })).link);
    expect((await t.call('POST', '/api/v1/auth/reset-password', { body: { token: reset, new_password: OWNER_PASSWORD } })).statusCode).toBe(200);
    expect((await t.call('POST', '/api/v1/auth/verify-email', { body: { token: squattersLink } })).statusCode).toBe(400);
    expect((await logIn(email, SQUATTER_PASSWORD)).statusCode).toBe(401);
    expect((await logIn(email, OWNER_PASSWORD)).statusCode).toBe(200);
  });
});
