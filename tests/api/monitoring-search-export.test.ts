import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';

/**
 * Search, filters and CSV export of the monitoring lists, for the admin area and for a project's
 * owner: the same filters on the list and on its export, confined to the caller's scope.
 */

const ADMIN = 'search-admin@example.com';
let t: TestApp;
let admin: { access_token: string };
const tag = `srch${Date.now().toString(36)}`;
const emails = { home: `${tag}.home@example.com`, vpn: `${tag}.vpn@example.com`, germany: `${tag}.de@example.com`, formula: `${tag}.formula@example.com` };

const asAdmin = (url: string) => t.call('GET', url, { token: admin.access_token });

async function list(url: string) {
  const res = await asAdmin(url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: ADMIN } });
  admin = await t.signUpAndLogIn(ADMIN);
  await t.signUpAndLogIn(emails.home, { ip: '73.15.20.30', fingerprint: `${tag}-home-laptop` });
  await t.signUpAndLogIn(emails.vpn, { ip: '3.80.12.34', fingerprint: `${tag}-vpn-box` });
  await t.signUpAndLogIn(emails.germany, { ip: '79.192.20.30', verify: false });
  expect((await t.call('POST', '/api/v1/auth/login', { body: { email: emails.home, password: 'Wrong-password-1' }, ip: '73.15.20.30' })).statusCode).toBe(401);
  // A name a spreadsheet would run as a formula.
  const formula = await t.signUpAndLogIn(emails.formula);
  const renamed = await t.call('PATCH', '/api/v1/auth/profile', { token: formula.access_token, body: { first_name: '=HYPERLINK("http://evil.example","x")' } });
  expect(renamed.statusCode).toBe(200);
});
afterAll(() => t.close());

describe('the lists', () => {
  it('search users by e-mail and filter by status, verification and sign-up date', async () => {
    expect((await list(`/api/v1/admin/users?q=${tag}`)).total).toBe(4);
    expect((await list(`/api/v1/admin/users?q=${tag}.HOME`)).users.map((u: { email: string }) => u.email)).toEqual([emails.home]);
    expect((await list(`/api/v1/admin/users?q=${tag}&verified=false`)).users.map((u: { email: string }) => u.email)).toEqual([emails.germany]);
    expect((await list(`/api/v1/admin/users?q=${tag}&status=inactive`)).total).toBe(0);
    expect((await list(`/api/v1/admin/users?q=${tag}&from=2999-01-01`)).total).toBe(0);
    expect((await list(`/api/v1/admin/users?q=${tag}&to=2999-01-01`)).total).toBe(4);
    // Wildcards are taken as typed.
    expect((await list('/api/v1/admin/users?q=%25')).total).toBe(0);
  });

  it('search login attempts by e-mail or IP and filter by outcome, VPN and country', async () => {
    expect((await list(`/api/v1/admin/login-attempts?q=73.15.20.30`)).total).toBe(2);
    expect((await list(`/api/v1/admin/login-attempts?q=${tag}&outcome=failure`)).attempts.map((a: { email: string }) => a.email)).toEqual([emails.home]);
    expect((await list(`/api/v1/admin/login-attempts?q=${tag}&vpn=true`)).attempts.map((a: { email: string }) => a.email)).toEqual([emails.vpn]);
    expect((await list(`/api/v1/admin/login-attempts?q=${tag}&country=de`)).attempts.map((a: { email: string }) => a.email)).toEqual([emails.germany]);
    expect((await list(`/api/v1/admin/login-attempts?q=${tag}&vpn=false&outcome=success`)).total).toBe(3);
  });

  it('search devices and sessions, and filter devices by status', async () => {
    const devices = await list(`/api/v1/admin/devices?q=${tag}-vpn`);
    expect(devices.devices.map((d: { user_email: string }) => d.user_email)).toEqual([emails.vpn]);
    const deviceId = devices.devices[0].id;
    expect((await t.call('PATCH', `/api/v1/admin/devices/${deviceId}/toggle-block`, { token: admin.access_token })).statusCode).toBe(200);
    expect((await list(`/api/v1/admin/devices?q=${tag}&status=blocked`)).devices.map((d: { id: string }) => d.id)).toEqual([deviceId]);
    expect((await list(`/api/v1/admin/sessions?q=${emails.germany}`)).sessions.map((s: { user_email: string }) => s.user_email)).toEqual([emails.germany]);
  });

  it('answer 422 with a detail for a bad filter', async () => {
    for (const [query, detail] of [
      ['users?status=blocked', 'status must be active or inactive'],
      ['users?verified=maybe', 'verified must be true or false'],
      ['login-attempts?country=Germany', 'country must be a two-letter country code'],
      ['login-attempts?outcome=win', 'outcome must be success or failure'],
      ['devices?from=someday', 'from must be a date such as 2026-11-24 or 2026-11-24T10:00:00Z'],
    ]) {
      const res = await asAdmin(`/api/v1/admin/${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().detail).toBe(detail);
    }
  });
});

describe('over tRPC', () => {
  it('the lists take the same filters, and refuse a bad one', async () => {
    const { api } = t.trpc({ token: admin.access_token });
    expect((await api.admin.users.query({ q: `${tag}.home` })).users.map((u) => u.email)).toEqual([emails.home]);
    expect((await api.admin.loginAttempts.query({ q: tag, outcome: 'failure' })).attempts.map((a) => a.email)).toEqual([emails.home]);
    expect((await api.admin.users.query()).page).toBe(1);
    await expect(api.admin.users.query({ status: 'blocked' as never })).rejects.toMatchObject({ data: { code: 'UNPROCESSABLE_CONTENT' } });
  });
});

describe('the CSV export', () => {
  it('holds every row the filters select, with a header, as a download', async () => {
    const res = await asAdmin(`/api/v1/admin/login-attempts/export?q=${tag}&outcome=success`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="login-attempts-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers['x-export-rows']).toBe('4');
    expect(res.headers['x-export-truncated']).toBe('false');
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(4);
    expect(Object.keys(rows[0]!)).toEqual(['created_at', 'email', 'user_id', 'success', 'failure_reason', 'method', 'ip_address', 'country_code', 'is_vpn', 'is_proxy', 'device_fingerprint', 'user_agent']);
    expect(rows.find((row) => row.email === emails.vpn)).toMatchObject({ success: 'true', is_vpn: 'true', country_code: 'US', ip_address: '3.80.12.34' });
  });

  it('quotes what a spreadsheet would run as a formula', async () => {
    const res = await asAdmin(`/api/v1/admin/users/export?q=${emails.formula}`);
    const [row] = parse(res.body, { columns: true }) as Record<string, string>[];
    expect(row!.first_name).toBe(`'=HYPERLINK("http://evil.example","x")`);
  });

  it("exports devices and sessions, and a project's owner exports only the project's end users", async () => {
    const devices = parse((await asAdmin(`/api/v1/admin/devices/export?q=${tag}&status=blocked`)).body, { columns: true }) as Record<string, string>[];
    expect(devices.map((row) => row.user_email)).toEqual([emails.vpn]);
    const sessions = parse((await asAdmin(`/api/v1/admin/sessions/export?q=${tag}`)).body, { columns: true }) as Record<string, string>[];
    // The blocked device's session ended with the block.
    expect(new Set(sessions.map((row) => row.user_email))).toEqual(new Set([emails.home, emails.germany, emails.formula]));

    const owner = await t.signUpAndLogIn(uniqueEmail('export-owner'));
    const project = (await t.call('POST', '/api/v1/projects', { token: owner.access_token, body: { name: 'Exported' } })).json();
    const key = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: owner.access_token, body: { name: 'k' } })).json().secret;
    const endUser = `${tag}.end-user@example.com`;
    expect((await t.call('POST', '/public/api/v1/auth/signup', { headers: { 'x-api-key': key }, body: { email: endUser, password: STRONG_PASSWORD } })).statusCode).toBe(201);
    // A project's users export is NDJSON (user-export.test.ts) unless the list's CSV is asked for.
    const res = await t.call('GET', `/api/v1/projects/${project.id}/users/export?q=${tag}&format=csv`, { token: owner.access_token });
    expect(res.statusCode).toBe(200);
    expect((parse(res.body, { columns: true }) as Record<string, string>[]).map((row) => row.email)).toEqual([endUser]);

    const stranger = await t.signUpAndLogIn(uniqueEmail('export-stranger'));
    expect((await t.call('GET', `/api/v1/projects/${project.id}/users/export`, { token: stranger.access_token })).statusCode).toBe(404);
    expect((await t.call('GET', '/api/v1/admin/users/export', { token: owner.access_token })).statusCode).toBe(403);
    expect((await t.call('GET', '/api/v1/admin/users/export')).statusCode).toBe(401);
  });

  it('is documented as text/csv', async () => {
    const document = (await t.call('GET', '/api/openapi.json')).json();
    expect(Object.keys(document.paths['/api/v1/admin/users/export'].get.responses['200'].content)).toEqual(['text/csv']);
  });
});
