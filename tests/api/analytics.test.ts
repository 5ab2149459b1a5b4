import type { Insertable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_MESSAGES } from '../../shared/schemas/projects.js';
import type { LoginAttemptsTable } from '../../server/db/schema.js';
import { STRONG_PASSWORD, createTestApp, manualClock, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';
import { trpcFailure } from '../helpers/trpc-client.js';

// Noon, 2026-05-20 (UTC): the default 30 days run from 2026-04-21 to today.
const clock = manualClock(new Date('2026-05-20T12:00:00Z'));
let t: TestApp;
let dev: { access_token: string };
beforeAll(async () => {
  t = await createTestApp({ clock });
  dev = await t.signUpAndLogIn(uniqueEmail('analyst'));
});
afterAll(() => t.close());

const as = (who: { access_token: string }) => ({ token: who.access_token });

async function createProject(name = 'Shop') {
  const res = await t.call('POST', '/api/v1/projects', { ...as(dev), body: { name } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

let seq = 0;
type Seeded = Pick<LoginAttemptsTable, 'created_at'> & Partial<Pick<LoginAttemptsTable, 'method' | 'country_code' | 'failure_reason'>> & { success?: boolean };

/** Attempts of one project, written as the sign-in records them. */
async function seedAttempts(projectId: string, attempts: Seeded[]) {
  const rows: Insertable<LoginAttemptsTable>[] = attempts.map((a) => ({
    id: `analytics-${++seq}`,
    project_id: projectId,
    email: `seeded.${seq}@example.com`,
    user_id: null,
    ip_address: '198.51.100.7',
    is_vpn: 0,
    is_proxy: 0,
    success: a.success === false ? 0 : 1,
    failure_reason: a.success === false ? (a.failure_reason ?? null) : null,
    country_code: a.country_code ?? null,
    device_fingerprint: null,
    user_agent: null,
    created_at: a.created_at,
    method: a.method ?? null,
  }));
  await t.db.insertInto('login_attempts').values(rows).execute();
}

const analytics = (projectId: string, query = '') => t.call('GET', `/api/v1/projects/${projectId}/analytics${query}`, as(dev));

describe('analytics period', () => {
  it('defaults to the last 30 UTC days and keeps `days` working', async () => {
    const project = await createProject();
    const byDefault = (await analytics(project.id)).json();
    expect(byDefault).toMatchObject({ from: '2026-04-21', to: '2026-05-20' });
    expect(byDefault.days).toHaveLength(30);
    const week = (await analytics(project.id, '?days=7')).json();
    expect(week).toMatchObject({ from: '2026-05-14', to: '2026-05-20' });
    expect(week.days.map((d: { day: string }) => d.day)).toEqual(['2026-05-14', '2026-05-15', '2026-05-16', '2026-05-17', '2026-05-18', '2026-05-19', '2026-05-20']);
    expect((await analytics(project.id, '?days=366')).json().days).toHaveLength(366);
  });

  it('takes from and to (both counted), a leap year long at most', async () => {
    const project = await createProject();
    const range = (await analytics(project.id, '?from=2026-02-27&to=2026-03-02')).json();
    expect(range).toMatchObject({ from: '2026-02-27', to: '2026-03-02' });
    expect(range.days.map((d: { day: string }) => d.day)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    expect((await analytics(project.id, '?from=2026-05-20&to=2026-05-20')).json().days).toHaveLength(1);
    expect((await analytics(project.id, '?from=2024-01-01&to=2024-12-31')).json().days).toHaveLength(366);
  });

  it('refuses a period it cannot read with 422 and a detail', async () => {
    const project = await createProject();
    for (const [query, detail] of [
      ['?days=0', 'days must be between 1 and 366'],
      ['?days=367', 'days must be between 1 and 366'],
      ['?days=week', 'days must be between 1 and 366'],
      ['?from=2026-05-01', ANALYTICS_MESSAGES.fromAndTo],
      ['?to=2026-05-01', ANALYTICS_MESSAGES.fromAndTo],
      ['?days=7&from=2026-05-01&to=2026-05-02', ANALYTICS_MESSAGES.daysOrRange],
      ['?from=2026-05-02&to=2026-05-01', ANALYTICS_MESSAGES.fromAfterTo],
      ['?from=2025-01-01&to=2026-01-02', ANALYTICS_MESSAGES.tooLong],
      ['?from=2026-02-30&to=2026-03-02', 'from must be a day such as 2026-11-24'],
      ['?from=2026-05-01T00:00:00Z&to=2026-05-02', 'from must be a day such as 2026-11-24'],
      ['?from=2026-05-01&to=yesterday', 'to must be a day such as 2026-11-24'],
    ] as const) {
      const res = await analytics(project.id, query);
      expect(res.statusCode, query).toBe(422);
      expect(res.json(), query).toEqual({ detail });
    }
  });

  it('validates the same way on tRPC', async () => {
    const project = await createProject();
    const { api } = t.trpc(as(dev));
    expect(await trpcFailure(api.projects.analytics.query({ id: project.id, from: '2026-05-02', to: '2026-05-01' }))).toMatchObject({
      status: 422,
      message: ANALYTICS_MESSAGES.fromAfterTo,
    });
    expect(await trpcFailure(api.projects.analytics.query({ id: project.id, from: '2025-01-01', to: '2026-05-01' }))).toMatchObject({
      status: 422,
      message: ANALYTICS_MESSAGES.tooLong,
    });
    const range = await api.projects.analytics.query({ id: project.id, from: '2026-05-01', to: '2026-05-10' });
    expect(range.days).toHaveLength(10);
  });
});

describe('analytics breakdowns', () => {
  it('counts the period’s attempts by method, country and failure reason, leaving out attempts outside it', async () => {
    const project = await createProject();
    const other = await createProject('Other');
    const inside = '2026-05-10T08:00:00.000Z';
    await seedAttempts(project.id, [
      // Just outside, on both sides: never counted.
      { created_at: '2026-05-09T23:59:59.999Z', method: 'password', country_code: 'FR' },
      { created_at: '2026-05-13T00:00:00.000Z', method: 'github', country_code: 'FR', success: false, failure_reason: 'account_inactive' },
      // The first and last instants of the period.
      { created_at: '2026-05-10T00:00:00.000Z', method: 'password', country_code: 'DE' },
      { created_at: '2026-05-12T23:59:59.999Z', method: 'password', country_code: 'DE' },
      { created_at: inside, method: 'password', country_code: 'US', success: false, failure_reason: 'invalid_credentials' },
      { created_at: inside, method: 'password', country_code: null, success: false, failure_reason: 'invalid_credentials' },
      { created_at: inside, method: 'passkey', country_code: 'US' },
      { created_at: inside, method: 'passkey', country_code: 'US', success: false, failure_reason: 'passkey_failed' },
      { created_at: inside, method: 'password+code', country_code: 'DE' },
      { created_at: inside, method: 'password+code', country_code: 'DE', success: false, failure_reason: 'mfa_failed' },
      { created_at: inside, method: 'google', country_code: null },
      { created_at: inside, method: null, country_code: 'DE' },
    ]);
    // Another project's attempts in the same period are not this project's.
    await seedAttempts(other.id, [{ created_at: inside, method: 'microsoft', country_code: 'JP', success: false, failure_reason: 'vpn_blocked' }]);

    const res = await analytics(project.id, '?from=2026-05-10&to=2026-05-12');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.sign_ins_by_method).toEqual([
      { method: 'password', succeeded: 2, failed: 2 },
      { method: 'passkey', succeeded: 1, failed: 1 },
      { method: 'password+code', succeeded: 1, failed: 1 },
      { method: 'google', succeeded: 1, failed: 0 },
      { method: null, succeeded: 1, failed: 0 },
    ]);
    expect(body.sign_ins_by_country).toEqual([
      { country_code: 'DE', succeeded: 4, failed: 1 },
      { country_code: 'US', succeeded: 1, failed: 2 },
      { country_code: null, succeeded: 1, failed: 1 },
    ]);
    expect(body.failures_by_reason).toEqual([
      { reason: 'invalid_credentials', count: 2 },
      { reason: 'mfa_failed', count: 1 },
      { reason: 'passkey_failed', count: 1 },
    ]);

    // A period holding only the later outside row counts it alone.
    const later = (await analytics(project.id, '?from=2026-05-13&to=2026-05-13')).json();
    expect(later.sign_ins_by_method).toEqual([{ method: 'github', succeeded: 0, failed: 1 }]);
    expect(later.failures_by_reason).toEqual([{ reason: 'account_inactive', count: 1 }]);
    // Nothing in the period: empty lists, not an error.
    expect((await analytics(project.id, '?from=2026-01-01&to=2026-01-31')).json()).toMatchObject({ sign_ins_by_method: [], sign_ins_by_country: [], failures_by_reason: [] });
  });

  it('counts real sign-ins by the method they record, and the days of the period only', async () => {
    const project = await createProject();
    const key = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { ...as(dev), body: { name: 'backend' } })).json();
    const headers = { 'x-api-key': key.secret, 'x-end-user-ip': '79.192.20.30' };
    const email = uniqueEmail('shopper');
    await t.call('POST', '/public/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, headers });
    expect((await t.call('POST', '/public/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, headers })).statusCode).toBe(200);
    expect((await t.call('POST', '/public/api/v1/auth/login', { body: { email, password: 'Wrong-Pass-1' }, headers })).statusCode).toBe(401);

    const today = (await analytics(project.id, '?from=2026-05-20&to=2026-05-20')).json();
    expect(today.days).toEqual([{ day: '2026-05-20', signups: 1, logins: 1, failed_logins: 1, active_users: 1, api_requests: expect.any(Number) }]);
    expect(today.sign_ins_by_method).toEqual([{ method: 'password', succeeded: 1, failed: 1 }]);
    expect(today.sign_ins_by_country).toEqual([{ country_code: 'DE', succeeded: 1, failed: 1 }]);
    expect(today.failures_by_reason).toEqual([{ reason: 'invalid_credentials', count: 1 }]);
    const before = (await analytics(project.id, '?from=2026-05-01&to=2026-05-19')).json();
    expect(before.days.every((d: { logins: number; signups: number }) => d.logins === 0 && d.signups === 0)).toBe(true);
    expect(before.sign_ins_by_method).toEqual([]);
    expect(before.monthly_active_users).toBe(1);
  });

  it('is the project team’s to read', async () => {
    const project = await createProject();
    const stranger = await t.signUpAndLogIn(uniqueEmail('stranger'));
    const res = await t.call('GET', `/api/v1/projects/${project.id}/analytics?from=2026-05-01&to=2026-05-02`, as(stranger));
    expect(res.statusCode).toBe(404);
  });
});
