import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETENTION_INTERVAL_MS, runRetention, scheduleRetention, sweepExpiredWaiting } from '../../server/modules/retention/retention.service.js';
import { createTestApp, manualClock, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';

/** The database does not grow forever: old history goes, live data and analytics stay. */
const DAY_S = 86_400;
const clock = manualClock(new Date('2026-03-01T00:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock, env: { LOGIN_ATTEMPTS_RETENTION_DAYS: '90', GITHUB_CLIENT_ID: 'retention-github', GITHUB_CLIENT_SECRET: 'retention-github-secret' } });
});
afterAll(() => t.close());

const count = async (table: 'login_attempts' | 'sessions' | 'refresh_tokens' | 'one_time_tokens' | 'project_daily_stats', userId?: string) => {
  let query = t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
  if (userId && (table === 'sessions' || table === 'one_time_tokens' || table === 'login_attempts')) query = query.where('user_id', '=', userId);
  return Number((await query.executeTakeFirstOrThrow()).n);
};

describe('retention', () => {
  it('deletes old login attempts, long-dead sessions with their tokens, and spent links; keeps the rest and the daily rollups', async () => {
    // An end-user project, so analytics rollups exist.
    const dev = await t.signUpAndLogIn(uniqueEmail('retention-dev'));
    const project = (await t.call('POST', '/api/v1/projects', { token: dev.access_token, body: { name: 'Kept' } })).json();
    const key = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: dev.access_token, body: { name: 'k' } })).json();
    await t.call('POST', '/public/api/v1/auth/login', { body: { email: uniqueEmail(), password: 'Wrong-Pass-1' }, headers: { 'x-api-key': key.secret } });
    const rollups = await count('project_daily_stats');
    expect(rollups).toBeGreaterThan(0);

    const email = uniqueEmail('retention');
    const old = await t.signUpAndLogIn(email, { ip: uniqueIp() });
    await t.call('POST', '/api/v1/auth/logout', { token: old.access_token });
    await t.call('POST', '/api/v1/auth/login', { body: { email, password: 'Wrong-Pass-1' }, ip: uniqueIp() });
    const oldAttempts = await count('login_attempts', old.user.id);
    expect(oldAttempts).toBeGreaterThan(0);

    // 91 days later: a new sign-in, a live session, fresh history.
    clock.advance(91 * DAY_S);
    const fresh = await t.call('POST', '/api/v1/auth/login', { body: { email, password: 'Correct-Horse-42' }, ip: uniqueIp() });
    expect(fresh.statusCode).toBe(200);
    const pendingReset = await t.call('POST', '/api/v1/auth/forgot-password', { body: { email }, ip: uniqueIp() });
    expect(pendingReset.statusCode).toBe(200);

    const removed = await runRetention(t.deps);
    expect(removed.loginAttempts).toBeGreaterThanOrEqual(oldAttempts);
    expect(removed.sessions).toBeGreaterThanOrEqual(1);
    expect(removed.oneTimeTokens).toBeGreaterThanOrEqual(1);

    // What is left for this account: today's attempt, the live session and its token, the pending reset link.
    expect(await count('login_attempts', old.user.id)).toBe(1);
    expect(await count('sessions', old.user.id)).toBe(1);
    expect((await t.call('GET', '/api/v1/auth/me', { token: fresh.json().access_token })).statusCode).toBe(200);
    expect((await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token: fresh.json().refresh_token }, ip: uniqueIp() })).statusCode).toBe(200);
    const links = await t.db.selectFrom('one_time_tokens').select(['purpose', 'used_at']).where('user_id', '=', old.user.id).execute();
    expect(links).toEqual([{ purpose: 'reset_password', used_at: null }]);
    expect(await count('project_daily_stats')).toBe(rollups);

    // Running again finds nothing more: safe to run from several instances.
    expect(await runRetention(t.deps)).toEqual({ loginAttempts: 0, sessions: 0, refreshTokens: 0, oneTimeTokens: 0, mfaChallenges: 0, oauthCodes: 0, identityLinks: 0, webhookEvents: 0, projectInvitations: 0, sentMails: 0, failedMailBodies: 0, revocations: 0, emailSignIns: 0, importSpools: 0 });
  });

  it('deletes second-factor challenges (mfa_tokens) a day after they expire', async () => {
    const email = uniqueEmail('mfa-retention');
    const session = await t.signUpAndLogIn(email, { ip: uniqueIp() });
    const { secret } = (await t.call('POST', '/api/v1/auth/mfa/totp/setup', { token: session.access_token })).json();
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() });
    expect((await t.call('POST', '/api/v1/auth/mfa/totp/confirm', { token: session.access_token, body: { code } })).statusCode).toBe(200);
    expect((await t.call('POST', '/api/v1/auth/login', { body: { email, password: 'Correct-Horse-42' }, ip: uniqueIp() })).json().mfa_required).toBe(true);
    const pending = () => t.db.selectFrom('mfa_challenges').select('id').where('user_id', '=', session.user.id).execute();
    expect(await pending()).toHaveLength(1);
    await runRetention(t.deps);
    expect(await pending()).toHaveLength(1);
    clock.advance(DAY_S + 10 * 60);
    expect((await runRetention(t.deps)).mfaChallenges).toBeGreaterThanOrEqual(1);
    expect(await pending()).toHaveLength(0);
  });

  it('sweeps what requests without a session leave waiting as soon as it expires, not a day later: passkey ceremonies, authorization requests, sign-ins sent to a provider', async () => {
    const dev = await t.signUpAndLogIn(uniqueEmail('sweep-dev'));
    const project = (await t.call('POST', '/api/v1/projects', { token: dev.access_token, body: { name: 'Swept', redirect_uris: ['https://swept.example/callback'] } })).json();
    const authorize = `/hosted/${project.project_key}/authorize?${new URLSearchParams({
      client_id: project.project_key,
      redirect_uri: 'https://swept.example/callback',
      response_type: 'code',
      scope: 'openid',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    })}`;
    const ip = uniqueIp();
    expect((await t.call('POST', '/api/v1/auth/passkeys/login/options', { body: {}, ip })).statusCode).toBe(200);
    expect((await t.call('GET', '/api/v1/auth/oauth/github/authorize', { ip })).headers.location).toMatch(/^https:\/\/github\.com\//);
    expect((await t.call('GET', authorize, { ip })).statusCode).toBe(303);
    const waiting = async () => ({
      ceremonies: (await t.db.selectFrom('webauthn_challenges').select('id').where('client_network', '=', ip).execute()).length,
      signIns: (await t.db.selectFrom('social_sign_ins').select('id').where('client_network', '=', ip).execute()).length,
      requests: (await t.db.selectFrom('oauth_interactions').select('id').where('client_network', '=', ip).execute()).length,
    });
    expect(await waiting()).toEqual({ ceremonies: 1, signIns: 1, requests: 1 });

    // Each goes once its own life is over: 5 minutes, 10 minutes, 30 minutes.
    await sweepExpiredWaiting(t.deps);
    expect(await waiting()).toEqual({ ceremonies: 1, signIns: 1, requests: 1 });
    clock.advance(5 * 60);
    expect((await sweepExpiredWaiting(t.deps)).webauthnChallenges).toBeGreaterThanOrEqual(1);
    expect(await waiting()).toEqual({ ceremonies: 0, signIns: 1, requests: 1 });
    clock.advance(5 * 60);
    await sweepExpiredWaiting(t.deps);
    expect(await waiting()).toEqual({ ceremonies: 0, signIns: 0, requests: 1 });
    clock.advance(20 * 60);
    await sweepExpiredWaiting(t.deps);
    expect(await waiting()).toEqual({ ceremonies: 0, signIns: 0, requests: 0 });
  });

  it('sweeps every minute by itself in every instance', async () => {
    const ip = uniqueIp();
    expect((await t.call('POST', '/api/v1/auth/passkeys/login/options', { body: {}, ip })).statusCode).toBe(200);
    clock.advance(5 * 60);
    const schedule = scheduleRetention(t.deps, RETENTION_INTERVAL_MS, 20);
    try {
      await expect.poll(async () => (await t.db.selectFrom('webauthn_challenges').select('id').where('client_network', '=', ip).execute()).length, { timeout: 2000 }).toBe(0);
    } finally {
      await schedule.stop();
    }
  });

  it('keeps spent refresh tokens of a live session for 30 days, so late reuse is still caught', async () => {
    const email = uniqueEmail('rotation');
    const ip = uniqueIp();
    const first = await t.signUpAndLogIn(email, { ip });
    const second = (await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token: first.refresh_token }, ip })).json();
    clock.advance(5 * DAY_S);
    await runRetention(t.deps);
    const reuse = await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token: first.refresh_token }, ip: uniqueIp() });
    expect(reuse.json().detail).toMatch(/already used/);
    expect((await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token: second.refresh_token }, ip })).statusCode).toBe(401);
  });

  it('runs by itself on a schedule in every instance, and stops with the server', async () => {
    const email = uniqueEmail('scheduled');
    await t.call('POST', '/api/v1/auth/login', { body: { email, password: 'Wrong-Pass-1' }, ip: uniqueIp() });
    clock.advance(91 * DAY_S);
    const schedule = scheduleRetention(t.deps, 20);
    try {
      await expect.poll(async () => (await t.db.selectFrom('login_attempts').select('id').where('email', '=', email).execute()).length, { timeout: 2000 }).toBe(0);
    } finally {
      await schedule.stop();
    }
  });
});
