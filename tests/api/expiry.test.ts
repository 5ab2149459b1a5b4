import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, createTestApp, manualClock, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';

const clock = manualClock(new Date());
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock, env: { ACCESS_TOKEN_TTL: '60', REFRESH_TOKEN_TTL: '600' } });
});
afterAll(() => t.close());

describe('expiry', () => {
  it('an access token stops working after ACCESS_TOKEN_TTL; refresh gives a working one', async () => {
    const { access_token, refresh_token } = await t.signUpAndLogIn(uniqueEmail());
    expect((await t.call('GET', '/api/v1/auth/me', { token: access_token })).statusCode).toBe(200);
    clock.advance(61);
    const expired = await t.call('GET', '/api/v1/auth/me', { token: access_token });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ detail: 'Invalid or expired access token' });
    const refreshed = await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token } });
    expect(refreshed.statusCode).toBe(200);
    expect((await t.call('GET', '/api/v1/auth/me', { token: refreshed.json().access_token })).statusCode).toBe(200);
  });

  it('a session unused for REFRESH_TOKEN_TTL expires; using it slides the window', async () => {
    const { refresh_token } = await t.signUpAndLogIn(uniqueEmail());
    clock.advance(500);
    const slid = await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token } });
    expect(slid.statusCode).toBe(200);
    clock.advance(500);
    const stillAlive = await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token: slid.json().refresh_token } });
    expect(stillAlive.statusCode).toBe(200);
    clock.advance(601);
    const dead = await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token: stillAlive.json().refresh_token } });
    expect(dead.statusCode).toBe(401);
    expect(dead.json()).toEqual({ detail: 'Your session has expired. Please sign in again.' });
  });

  it('a verification link expires after 24 hours', async () => {
    const email = uniqueEmail();
    await t.call('POST', '/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD } });
    const mail = await t.mail.waitFor(email, /verify/i);
    clock.advance(24 * 3600 + 1);
    const res = await t.call('POST', '/api/v1/auth/verify-email', { body: { token: new URL(mail.link!).searchParams.get('token') } });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/expired/);
  });

  it('runs on the database the suite asked for', () => {
    expect(t.dialect).toBe(process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite');
  });
});
