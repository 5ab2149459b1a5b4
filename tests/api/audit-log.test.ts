import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, createTestApp, manualClock, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';

/**
 * The audit log: every change an admin or a developer makes, with who, what, before/after, from
 * where and when; append-only in the database itself. Read by the admin (all of it) and by each
 * project's owner (its own), on both transports.
 */

const ADMIN = 'audit-admin@example.com';
const ADMIN_IP = '203.0.113.77';
let t: TestApp;
let admin: { access_token: string; user: { id: string } };
let owner: { access_token: string; user: { id: string } };
const ownerEmail = uniqueEmail('audit-owner');
let project: { id: string; project_key: string };
let apiKey: string;

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: ADMIN } });
  admin = await t.signUpAndLogIn(ADMIN);
  owner = await t.signUpAndLogIn(ownerEmail, { fingerprint: 'owner-laptop' });
});
afterAll(() => t.close());

const asAdmin = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, body?: unknown) => t.call(method, url, { token: admin.access_token, body, ip: ADMIN_IP });
const asOwner = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, body?: unknown) => t.call(method, url, { token: owner.access_token, body, ip: '198.51.100.23' });

async function adminLog(query = '') {
  const res = await asAdmin('GET', `/api/v1/admin/audit-log${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function projectLog(query = '') {
  const res = await asOwner('GET', `/api/v1/projects/${project.id}/audit-log${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('what a developer changes in a project', () => {
  it('is recorded: the project, its keys and its connections, with before and after, never a secret', async () => {
    const created = await asOwner('POST', '/api/v1/projects', { name: 'Audited shop', environment: 'development' });
    expect(created.statusCode).toBe(201);
    project = created.json();
    expect((await asOwner('PATCH', `/api/v1/projects/${project.id}`, { name: 'Audited store', description: 'Now with a description' })).statusCode).toBe(200);
    const key = await asOwner('POST', `/api/v1/projects/${project.id}/api-keys`, { name: 'backend' });
    apiKey = key.json().secret;
    expect((await asOwner('DELETE', `/api/v1/projects/${project.id}/api-keys/${key.json().id}`)).statusCode).toBe(200);
    await asOwner('POST', `/api/v1/projects/${project.id}/api-keys`, { name: 'backend 2' }).then((res) => (apiKey = res.json().secret));
    const saved = await asOwner('PUT', `/api/v1/projects/${project.id}/connections/github`, { client_id: 'gh-client', client_secret: 'very-secret-value' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await asOwner('PUT', `/api/v1/projects/${project.id}/connections/github`, { client_id: 'gh-client-2' })).statusCode).toBe(200);
    expect((await asOwner('DELETE', `/api/v1/projects/${project.id}/connections/github`)).statusCode).toBe(200);

    const log = await projectLog();
    expect(log.entries.map((entry: { action: string }) => entry.action)).toEqual([
      'connection.removed',
      'connection.saved',
      'connection.saved',
      'api_key.created',
      'api_key.revoked',
      'api_key.created',
      'project.updated',
      'project.created',
    ]);
    expect(log.total).toBe(8);
    const [removed, changed, added, , revoked, , updated, createdEntry] = log.entries;
    expect(createdEntry).toMatchObject({
      project_id: project.id,
      actor_id: owner.user.id,
      actor_email: ownerEmail,
      target_type: 'project',
      target_id: project.id,
      target_label: 'Audited shop',
      before: null,
      ip_address: '198.51.100.23',
      after: expect.objectContaining({ name: 'Audited shop', environment: 'development', is_active: true }),
    });
    expect(updated).toMatchObject({
      target_label: 'Audited store',
      before: { name: 'Audited shop', description: null },
      after: { name: 'Audited store', description: 'Now with a description' },
    });
    expect(revoked).toMatchObject({ target_type: 'api_key', target_label: 'backend', before: { name: 'backend', prefix: expect.stringMatching(/^sk_test_/) } });
    expect(added).toMatchObject({ target_type: 'connection', target_id: 'github', before: null, after: expect.objectContaining({ client_id: 'gh-client', client_secret: 'replaced' }) });
    expect(changed).toMatchObject({ before: { client_id: 'gh-client' }, after: { client_id: 'gh-client-2' } });
    expect(removed).toMatchObject({ before: expect.objectContaining({ client_id: 'gh-client-2' }), after: null });
    expect(JSON.stringify(log)).not.toContain('very-secret-value');
    expect(JSON.stringify(log)).not.toContain(apiKey);
  });

  it("is recorded for what the owner does to the project's end users", async () => {
    const email = uniqueEmail('audited-end-user');
    const headers = { 'x-api-key': apiKey };
    expect((await t.call('POST', '/public/api/v1/auth/signup', { headers, body: { email, password: STRONG_PASSWORD } })).statusCode).toBe(201);
    const login = await t.call('POST', '/public/api/v1/auth/login', { headers, body: { email, password: STRONG_PASSWORD, device_fingerprint: 'end-user-phone' } });
    expect(login.statusCode).toBe(200);
    const endUserId = login.json().user.id;
    const base = `/api/v1/projects/${project.id}`;
    const device = (await asOwner('GET', `${base}/devices`)).json().devices[0];
    const session = (await asOwner('GET', `${base}/sessions`)).json().sessions[0];

    expect((await asOwner('PATCH', `${base}/users/${endUserId}/toggle-active`)).statusCode).toBe(200);
    expect((await asOwner('PATCH', `${base}/users/${endUserId}/toggle-active`)).statusCode).toBe(200);
    expect((await asOwner('POST', `${base}/users/${endUserId}/unlock`)).statusCode).toBe(200);
    expect((await asOwner('POST', `${base}/users/${endUserId}/reset-mfa`)).statusCode).toBe(200);
    expect((await asOwner('PATCH', `${base}/devices/${device.id}/toggle-trust`)).statusCode).toBe(200);
    expect((await asOwner('PATCH', `${base}/devices/${device.id}/toggle-block`)).statusCode).toBe(200);
    expect((await asOwner('PATCH', `${base}/devices/${device.id}/toggle-block`)).statusCode).toBe(200);
    const login2 = await t.call('POST', '/public/api/v1/auth/login', { headers, body: { email, password: STRONG_PASSWORD } });
    const liveSession = (await asOwner('GET', `${base}/sessions`)).json().sessions.find((s: { id: string }) => s.id !== session.id) ?? session;
    expect(login2.statusCode).toBe(200);
    expect((await asOwner('DELETE', `${base}/sessions/${liveSession.id}`)).statusCode).toBe(200);

    const log = await projectLog('?per_page=9');
    expect(log.entries.map((entry: { action: string }) => entry.action)).toEqual([
      'session.revoked',
      'device.unblocked',
      'device.blocked',
      'device.trusted',
      'user.mfa_reset',
      'user.unlocked',
      'user.activated',
      'user.deactivated',
      'connection.removed',
    ]);
    const byAction = Object.fromEntries(log.entries.map((entry: { action: string }) => [entry.action, entry]));
    expect(byAction['user.deactivated']).toMatchObject({ target_type: 'user', target_id: endUserId, target_label: email, before: { is_active: true }, after: { is_active: false } });
    expect(byAction['device.blocked']).toMatchObject({ target_type: 'device', target_id: device.id, target_label: `end-user-phone (${email})`, after: { is_blocked: true } });
    expect(byAction['session.revoked']).toMatchObject({ target_type: 'session', target_id: liveSession.id, target_label: email });
  });

  it('is recorded when an end user deletes their own account, with the end user as the actor', async () => {
    const email = uniqueEmail('self-deleting-end-user');
    const headers = { 'x-api-key': apiKey };
    expect((await t.call('POST', '/public/api/v1/auth/signup', { headers, body: { email, password: STRONG_PASSWORD } })).statusCode).toBe(201);
    const login = await t.call('POST', '/public/api/v1/auth/login', { headers, body: { email, password: STRONG_PASSWORD } });
    const endUserId = login.json().user.id;
    const deleted = await t.call('POST', '/public/api/v1/auth/delete-account', { headers, token: login.json().access_token, body: { password: STRONG_PASSWORD } });
    expect(deleted.statusCode, deleted.body).toBe(200);

    const [entry] = (await projectLog('?action=user.deleted&per_page=1')).entries;
    expect(entry).toMatchObject({ action: 'user.deleted', actor_id: endUserId, actor_email: email, target_type: 'user', target_id: endUserId, target_label: email });
  });

  it("is readable by the project's owner only (404 for another developer, 401 without a session)", async () => {
    const stranger = await t.signUpAndLogIn(uniqueEmail('audit-stranger'));
    expect((await t.call('GET', `/api/v1/projects/${project.id}/audit-log`, { token: stranger.access_token })).statusCode).toBe(404);
    expect((await t.call('GET', `/api/v1/projects/${project.id}/audit-log`)).statusCode).toBe(401);
    const { api } = t.trpc({ token: stranger.access_token });
    await expect(api.projects.auditLog.query({ id: project.id })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
  });

  it('is the same over tRPC', async () => {
    const { api } = t.trpc({ token: owner.access_token });
    const page = await api.projects.auditLog.query({ id: project.id, action: 'api_key.', per_page: 10 });
    expect(page.entries.map((entry) => entry.action)).toEqual(['api_key.created', 'api_key.revoked', 'api_key.created']);
  });
});

describe('what an admin changes', () => {
  it('is recorded outside any project, and the admin log holds every entry', async () => {
    const developer = await t.signUpAndLogIn(uniqueEmail('audited-dev'), { fingerprint: 'dev-desktop' });
    expect((await asAdmin('PATCH', `/api/v1/admin/users/${developer.user.id}/toggle-active`)).statusCode).toBe(200);
    const log = await adminLog('?per_page=1');
    expect(log.entries[0]).toMatchObject({
      project_id: null,
      actor_id: admin.user.id,
      actor_email: ADMIN,
      action: 'user.deactivated',
      target_id: developer.user.id,
      ip_address: ADMIN_IP,
      user_agent: expect.any(String),
    });
    const all = await adminLog('?per_page=100');
    expect(all.entries.some((entry: { project_id: string | null }) => entry.project_id === project.id)).toBe(true);

    const { api } = t.trpc({ token: admin.access_token });
    expect((await api.admin.auditLog.query({ action: 'user.deactivated' })).entries.map((entry) => entry.target_id)).toContain(developer.user.id);
  });

  it('is not readable by a developer (403)', async () => {
    expect((await asOwner('GET', '/api/v1/admin/audit-log')).statusCode).toBe(403);
  });
});

describe('the filters', () => {
  it('select an action, a family of actions, an actor and a time range', async () => {
    expect((await adminLog('?action=project.created')).entries.every((entry: { action: string }) => entry.action === 'project.created')).toBe(true);
    const family = await adminLog('?action=device.&per_page=100');
    expect(new Set(family.entries.map((entry: { action: string }) => entry.action))).toEqual(new Set(['device.trusted', 'device.blocked', 'device.unblocked']));
    const byActor = await adminLog(`?actor=${encodeURIComponent(ownerEmail.slice(0, 12))}&per_page=100`);
    expect(byActor.total).toBeGreaterThan(0);
    expect(byActor.entries.every((entry: { actor_email: string }) => entry.actor_email === ownerEmail)).toBe(true);
    // Typed wildcards match themselves: no address holds a %.
    expect((await adminLog('?actor=%25')).total).toBe(0);
    expect((await adminLog('?from=2999-01-01')).total).toBe(0);
    expect((await adminLog('?to=2000-01-01')).total).toBe(0);
    const pageTwo = await adminLog('?per_page=2&page=2');
    expect(pageTwo).toMatchObject({ page: 2, per_page: 2 });
    expect(pageTwo.entries).toHaveLength(2);
  });

  it('answer 422 with a detail for a bad value', async () => {
    const res = await asAdmin('GET', '/api/v1/admin/audit-log?from=yesterday');
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toMatch(/^from must be a date/);
    expect((await asAdmin('GET', '/api/v1/admin/audit-log?per_page=0')).statusCode).toBe(422);
  });
});

describe('the CSV export', () => {
  const csvOf = (body: string) => parse(body, { columns: true }) as Record<string, string>[];

  it("holds the project's entries the filters select, with a header, as a download", async () => {
    const res = await asOwner('GET', `/api/v1/projects/${project.id}/audit-log/export?action=device.`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-log-project-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers['x-export-truncated']).toBe('false');
    const rows = csvOf(res.body);
    expect(res.headers['x-export-rows']).toBe(String(rows.length));
    expect(Object.keys(rows[0]!)).toEqual(['created_at', 'actor_email', 'actor_id', 'action', 'target_type', 'target_id', 'target_label', 'before', 'after', 'ip_address', 'user_agent', 'project_id']);
    // The same entries as the list with the same filter, newest first.
    const listed = (await projectLog('?action=device.&per_page=100')).entries as { id: string; action: string; created_at: string; before: unknown; after: unknown }[];
    expect(rows.map((row) => [row.action, row.created_at])).toEqual(listed.map((entry) => [entry.action, entry.created_at]));
    const blocked = rows.find((row) => row.action === 'device.blocked')!;
    expect(blocked).toMatchObject({ actor_email: ownerEmail, target_type: 'device', ip_address: '198.51.100.23', project_id: project.id });
    expect(JSON.parse(blocked.before!)).toEqual({ is_blocked: false });
    expect(JSON.parse(blocked.after!)).toEqual({ is_blocked: true });
  });

  it("holds every entry for the admin, filtered by actor and time, and quotes what a spreadsheet would run", async () => {
    const tricky = await asOwner('POST', '/api/v1/projects', { name: '=HYPERLINK("http://evil.example","x")' });
    expect(tricky.statusCode).toBe(201);
    const res = await asAdmin('GET', `/api/v1/admin/audit-log/export?actor=${encodeURIComponent(ownerEmail)}&action=project.created`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/filename="audit-log-all-/);
    const rows = csvOf(res.body);
    expect(rows.length).toBe((await adminLog(`?actor=${encodeURIComponent(ownerEmail)}&action=project.created`)).total);
    expect(rows.map((row) => row.target_label)).toContain(`'=HYPERLINK("http://evil.example","x")`);
    expect(rows.every((row) => row.actor_email === ownerEmail && row.action === 'project.created')).toBe(true);
    expect(csvOf((await asAdmin('GET', '/api/v1/admin/audit-log/export?from=2999-01-01')).body)).toEqual([]);
    await asOwner('DELETE', `/api/v1/projects/${tricky.json().id}`);
  });

  it('is refused to anyone else, and answers 422 for a bad filter', async () => {
    expect((await asOwner('GET', '/api/v1/admin/audit-log/export')).statusCode).toBe(403);
    expect((await t.call('GET', '/api/v1/admin/audit-log/export')).statusCode).toBe(401);
    const stranger = await t.signUpAndLogIn(uniqueEmail('audit-export-stranger'));
    expect((await t.call('GET', `/api/v1/projects/${project.id}/audit-log/export`, { token: stranger.access_token })).statusCode).toBe(404);
    const bad = await asAdmin('GET', '/api/v1/admin/audit-log/export?from=yesterday');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toMatch(/^from must be a date/);
  });
});

describe('a value too large to record whole', () => {
  const kb2 = 2048;
  const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

  it('is cut to a truncated marker, so a developer cannot grow the append-only log by 64 KiB a change', async () => {
    const mine = await t.signUpAndLogIn(uniqueEmail('audit-bloat'));
    const created = (await t.call('POST', '/api/v1/projects', { token: mine.access_token, body: { name: 'Bloated' } })).json();
    // Twenty addresses of 1,900 characters: some 38 KB of JSON in one field.
    const redirects = Array.from({ length: 20 }, (_, i) => `https://app.example/${String(i).padStart(2, '0')}/${'a'.repeat(1870)}`);
    const description = 'd'.repeat(1000);
    const updated = await t.call('PATCH', `/api/v1/projects/${created.id}`, { token: mine.access_token, body: { redirect_uris: redirects, description } });
    expect(updated.statusCode, updated.body).toBe(200);

    const log = await t.call('GET', `/api/v1/projects/${created.id}/audit-log?action=project.updated`, { token: mine.access_token });
    const [entry] = log.json().entries;
    expect(bytesOf(entry.after)).toBeLessThanOrEqual(kb2);
    // The largest field is replaced by what it was (size, digest, start); the others stay whole.
    const json = JSON.stringify(redirects);
    expect(entry.after.redirect_uris).toEqual({ truncated: true, bytes: bytesOf(redirects), sha256: sha256(json), preview: json.slice(0, 100) });
    expect(entry.after.description).toBe(description);
    expect(entry.before).toEqual({ redirect_uris: [], description: null });

    const csv = await t.call('GET', `/api/v1/projects/${created.id}/audit-log/export?action=project.updated`, { token: mine.access_token });
    const [row] = parse(csv.body, { columns: true }) as Record<string, string>[];
    expect(JSON.parse(row!.after!)).toEqual(entry.after);
  });
});

describe('the log', () => {
  it('is append-only in the database: an entry cannot be changed or deleted', async () => {
    const [entry] = (await adminLog('?per_page=1')).entries;
    await expect(sql`update audit_log set action = 'nothing.happened' where id = ${entry.id}`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_log where id = ${entry.id}`.execute(t.db)).rejects.toThrow(/append-only/);
    expect((await adminLog('?per_page=1')).entries[0]).toEqual(entry);
  });

  it('cannot be emptied or overwritten by the ways around an update or delete trigger', async () => {
    const before = await adminLog('?per_page=100');
    const [entry] = before.entries;
    const forged = { action: 'nothing.happened', target_type: 'user', created_at: entry.created_at };
    // An upsert on the entry's id updates it.
    await expect(
      sql`insert into audit_log (id, action, target_type, created_at) values (${entry.id}, ${forged.action}, ${forged.target_type}, ${forged.created_at})
          on conflict (id) do update set action = excluded.action`.execute(t.db),
    ).rejects.toThrow(/append-only/);
    if (t.dialect === 'postgres') {
      // TRUNCATE runs no row triggers.
      await expect(sql`truncate audit_log`.execute(t.db)).rejects.toThrow(/append-only/);
    } else {
      // REPLACE deletes the old row without its delete triggers (unless recursive_triggers is on), then inserts.
      await expect(sql`insert or replace into audit_log (id, action, target_type, created_at) values (${entry.id}, ${forged.action}, ${forged.target_type}, ${forged.created_at})`.execute(t.db)).rejects.toThrow(/append-only/);
      await expect(sql`replace into audit_log (id, action, target_type, created_at) values (${entry.id}, ${forged.action}, ${forged.target_type}, ${forged.created_at})`.execute(t.db)).rejects.toThrow(/append-only/);
    }
    expect(await adminLog('?per_page=100')).toEqual(before);
  });

  it('outlives the project it is about', async () => {
    expect((await asOwner('DELETE', `/api/v1/projects/${project.id}`)).statusCode).toBe(200);
    const deleted = (await adminLog('?action=project.deleted')).entries[0];
    expect(deleted).toMatchObject({ project_id: project.id, target_label: 'Audited store', before: expect.objectContaining({ name: 'Audited store' }), after: null });
    expect((await adminLog(`?per_page=100`)).entries.filter((entry: { project_id: string }) => entry.project_id === project.id).length).toBeGreaterThan(10);
  });

  it('records the client address the server trusts', async () => {
    const ip = uniqueIp();
    const created = await t.call('POST', '/api/v1/projects', { token: owner.access_token, ip, body: { name: 'Elsewhere' } });
    const entry = (await adminLog('?action=project.created&per_page=1')).entries[0];
    expect(entry).toMatchObject({ target_id: created.json().id, ip_address: ip });
  });
});

describe('changes made within one millisecond', () => {
  it('are listed newest first, in the order they were made', async () => {
    // The clock stands still, so every entry has the same time: only the entries' own order can tell them apart.
    const still = await createTestApp({ clock: manualClock() });
    try {
      const developer = await still.signUpAndLogIn(uniqueEmail('same-millisecond'));
      const asDeveloper = (method: 'POST' | 'PATCH', url: string, body: unknown) => still.call(method, url, { token: developer.access_token, body });
      const created = await asDeveloper('POST', '/api/v1/projects', { name: 'Name 0', environment: 'development' });
      expect(created.statusCode).toBe(201);
      const names = Array.from({ length: 12 }, (_, i) => `Name ${i + 1}`);
      for (const name of names) expect((await asDeveloper('PATCH', `/api/v1/projects/${created.json().id}`, { name })).statusCode).toBe(200);

      const log = await still.call('GET', `/api/v1/projects/${created.json().id}/audit-log?action=project.updated&per_page=20`, { token: developer.access_token });
      expect(log.statusCode, log.body).toBe(200);
      expect(log.json().entries.map((entry: { after: { name: string } }) => entry.after.name)).toEqual(names.toReversed());
    } finally {
      await still.close();
    }
  });
});
