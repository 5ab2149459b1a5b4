import http from 'node:http';
import { once } from 'node:events';
import { Decrypter } from 'age-encryption';
import WebAuthnEmulator, { AuthenticatorEmulator, PasskeysCredentialsMemoryRepository } from 'nid-webauthn-emulator';
import { Secret, TOTP } from 'otpauth';
import type { Insertable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { until } from '../helpers/until.js';
import { UserTransferLineSchema, type UserTransferLine } from '../../shared/schemas/user-transfer.js';
import type { UsersTable } from '../../server/db/schema.js';
import { STRONG_PASSWORD, createTestApp, manualClock, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';

/**
 * A project's end users leave as NDJSON lines the import reads (UserTransferLineSchema): accounts,
 * organizations and passkeys for a project admin; password hashes and TOTP secrets only for the owner
 * after a step-up, audited, inside an age file encrypted with the owner's passphrase. Streamed like the
 * CSV exports: one export per user at a time, read as fast as the client takes it.
 */
const WINDOW_S = 120;
const SHOP_URL = 'https://shop.example';
const PASSPHRASE = 'correct horse battery staple';
const STEP_UP = { detail: 'Confirm it is you to continue', step_up_required: true, step_up_methods: ['password'] };
const BUSY = 'One of your exports is still running. Wait for it to finish, then try again.';

const clock = manualClock(new Date());
let t: TestApp;
let url: string;
let owner: { token: string; email: string; id: string };
let admin: { token: string };
let viewer: { token: string };
let projectId: string;
let apiKey: string;
const people: Record<'plain' | 'totp' | 'passkey' | 'social', { id: string; email: string }> = {} as never;
let totpSecret: string;

const ndjsonOf = (body: string): UserTransferLine[] =>
  body
    .trimEnd()
    .split('\n')
    .map((line) => UserTransferLineSchema.parse(JSON.parse(line)));
const exportPath = () => `/api/v1/projects/${projectId}/users/export`;
const encryptedExport = (token: string, body: unknown) => t.call('POST', exportPath(), { token, body });
const decrypt = async (payload: Buffer, passphrase = PASSPHRASE) => {
  const decrypter = new Decrypter();
  decrypter.addPassphrase(passphrase);
  return decrypter.decrypt(new Uint8Array(payload), 'text');
};

const endUser = (path: string, body?: unknown, token?: string) => t.call('POST', `/public/api/v1${path}`, { body, token, ip: uniqueIp(), headers: { 'x-api-key': apiKey } });

/** A verified end user of the project, signed in now. */
async function endUserAccount(tag: string) {
  const email = uniqueEmail(tag);
  const before = t.mail.messages.length;
  expect((await endUser('/auth/signup', { email, password: STRONG_PASSWORD, first_name: 'Ada', last_name: tag })).statusCode).toBe(201);
  const token = new URL((await t.mail.waitFor(email, /verify/i, { after: before })).link!).searchParams.get('token');
  expect((await endUser('/auth/verify-email', { token })).statusCode).toBe(200);
  const session = (await endUser('/auth/login', { email, password: STRONG_PASSWORD })).json();
  return { email, token: session.access_token as string, id: session.user.id as string };
}

async function developer(tag: string) {
  const email = uniqueEmail(tag);
  const session = await t.signUpAndLogIn(email);
  return { token: session.access_token, email, id: session.user.id };
}

beforeAll(async () => {
  t = await createTestApp({ clock, env: { STEP_UP_WINDOW_S: String(WINDOW_S) } });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await developer('export-owner');
  const project = (await t.call('POST', '/api/v1/projects', { token: owner.token, body: { name: 'Shop', website_url: SHOP_URL } })).json();
  projectId = project.id;
  apiKey = (await t.call('POST', `/api/v1/projects/${projectId}/api-keys`, { token: owner.token, body: { name: 'backend' } })).json().secret;
  const [adminDev, viewerDev] = [await developer('export-admin'), await developer('export-viewer')];
  for (const [member, role] of [[adminDev, 'admin'], [viewerDev, 'viewer']] as const) {
    await t.db.insertInto('project_members').values({ project_id: projectId, user_id: member.id, role, created_at: new Date().toISOString() }).execute();
  }
  admin = adminDev;
  viewer = viewerDev;

  const plain = await endUserAccount('plain');
  people.plain = plain;
  const metadata = await t.call('PATCH', `/public/api/v1/users/${plain.id}/metadata`, {
    headers: { 'x-api-key': apiKey },
    body: { public_metadata: { plan: 'pro' }, private_metadata: { stripe_id: 'cus_123' } },
  });
  expect(metadata.statusCode, metadata.body).toBe(200);
  const org = await t.call('POST', `/api/v1/projects/${projectId}/organizations`, { token: owner.token, body: { name: 'Acme', slug: 'acme', created_by: plain.id } });
  expect(org.statusCode, org.body).toBe(201);

  const totp = await endUserAccount('totp');
  people.totp = totp;
  const { secret } = (await endUser('/auth/mfa/totp/setup', undefined, totp.token)).json();
  const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() });
  expect((await endUser('/auth/mfa/totp/confirm', { code }, totp.token)).statusCode).toBe(200);
  totpSecret = secret;

  const withPasskey = await endUserAccount('passkey');
  people.passkey = withPasskey;
  const device = new WebAuthnEmulator(new AuthenticatorEmulator({ credentialsRepository: new PasskeysCredentialsMemoryRepository() }));
  const options = (await endUser('/auth/passkeys/register/options', undefined, withPasskey.token)).json();
  const created = await endUser('/auth/passkeys/register/verify', { response: device.createJSON(SHOP_URL, options) }, withPasskey.token);
  expect(created.statusCode, created.body).toBe(201);

  // An account a provider made: no password of its own.
  const social = await endUserAccount('social');
  people.social = social;
  await t.db.updateTable('users').set({ password_set: 0 }).where('id', '=', social.id).execute();
}, 60_000);
afterAll(() => t?.close());

describe('the NDJSON export', () => {
  it("streams every end user as a line the import reads, with organizations and passkeys, and no secrets", async () => {
    const res = await t.call('GET', exportPath(), { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="users-\d{4}-\d{2}-\d{2}\.ndjson"$/);
    expect(res.headers['x-export-rows']).toBe('4');
    const lines = ndjsonOf(res.body);
    const byEmail = new Map(lines.map((line) => [line.email, line]));
    expect([...byEmail.keys()].sort()).toEqual(Object.values(people).map((p) => p.email).sort());

    const plain = byEmail.get(people.plain.email)!;
    expect(plain).toMatchObject({
      id: people.plain.id,
      email_verified: true,
      first_name: 'Ada',
      last_name: 'plain',
      public_metadata: { plan: 'pro' },
      private_metadata: { stripe_id: 'cus_123' },
      organizations: [{ slug: 'acme', role: 'org:admin' }],
      passkeys: [],
    });
    expect(plain.created_at).toMatch(/Z$/);
    for (const line of lines) {
      expect(line).not.toHaveProperty('password');
      expect(line).not.toHaveProperty('totp_secret');
    }

    const [passkey] = byEmail.get(people.passkey.email)!.passkeys!;
    const stored = await t.db.selectFrom('passkeys').select(['credential_id', 'public_key']).where('user_id', '=', people.passkey.id).executeTakeFirstOrThrow();
    expect(passkey).toMatchObject({ credential_id: stored.credential_id, public_key: stored.public_key, counter: 0 });
    expect(passkey!.public_key).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('takes the Users list filters, and still answers the CSV of the list with format=csv', async () => {
    const filtered = ndjsonOf((await t.call('GET', `${exportPath()}?q=${encodeURIComponent(people.totp.email)}`, { token: admin.token })).body);
    expect(filtered.map((line) => line.email)).toEqual([people.totp.email]);

    const csv = await t.call('GET', `${exportPath()}?format=csv`, { token: viewer.token });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body.split('\n')[0]).toBe('id,email,first_name,last_name,role,is_active,is_verified,created_at,last_login');
  });

  it('is a project admin\'s: a viewer is refused, someone off the team finds no project, and secrets never travel in a GET', async () => {
    expect((await t.call('GET', exportPath(), { token: viewer.token })).statusCode).toBe(403);
    const stranger = await developer('export-stranger');
    expect((await t.call('GET', exportPath(), { token: stranger.token })).statusCode).toBe(404);
    const secrets = await t.call('GET', `${exportPath()}?include=password_hashes`, { token: owner.token });
    expect(secrets.statusCode).toBe(400);
    expect(secrets.json().detail).toMatch(/only encrypted: POST/);
  });

  it('is audited with what it held', async () => {
    await t.call('GET', exportPath(), { token: admin.token });
    const entry = await t.db.selectFrom('audit_log').selectAll().where('project_id', '=', projectId).where('action', '=', 'users.exported').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(entry.after!)).toMatchObject({ users: 4, include: [], encrypted: false });
  });
});

describe('the encrypted export with secrets', () => {
  const withSecrets = { include: ['password_hashes', 'totp_secrets'], passphrase: PASSPHRASE };

  it("holds each user's bcrypt hash and TOTP secret, in an age file only the passphrase opens, and is audited", async () => {
    const res = await encryptedExport(owner.token, withSecrets);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toMatch(/filename="users-\d{4}-\d{2}-\d{2}\.ndjson\.age"$/);
    expect(res.rawPayload.subarray(0, 21).toString()).toBe('age-encryption.org/v1');
    expect(res.rawPayload.includes(Buffer.from(people.plain.email))).toBe(false);

    const lines = ndjsonOf(await decrypt(res.rawPayload));
    const byEmail = new Map(lines.map((line) => [line.email, line]));
    const stored = await t.db.selectFrom('users').select(['id', 'password_hash']).where('project_id', '=', projectId).execute();
    const hashOf = new Map(stored.map((row) => [row.id, row.password_hash]));
    expect(byEmail.get(people.plain.email)!.password).toBe(hashOf.get(people.plain.id));
    expect(byEmail.get(people.plain.email)!.password).toMatch(/^\$2[aby]\$/);
    expect(byEmail.get(people.totp.email)!.totp_secret).toBe(totpSecret);
    expect(byEmail.get(people.plain.email)!.totp_secret).toBeNull();
    expect(byEmail.get(people.social.email)!.password).toBeNull();

    await expect(decrypt(res.rawPayload, 'not the passphrase at all')).rejects.toThrow();

    const entry = await t.db.selectFrom('audit_log').selectAll().where('project_id', '=', projectId).where('action', '=', 'users.exported').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(entry.actor_id).toBe(owner.id);
    expect(JSON.parse(entry.after!)).toMatchObject({ users: 4, include: ['password_hashes', 'totp_secrets'], encrypted: true });
  }, 60_000);

  it('round-trips: the decrypted file imported into another project signs the same people in (password, and password + TOTP)', async () => {
    const res = await encryptedExport(owner.token, withSecrets);
    expect(res.statusCode, res.body).toBe(200);
    const file = await decrypt(res.rawPayload);

    const other = (await t.call('POST', '/api/v1/projects', { token: owner.token, body: { name: 'Shop, moved' } })).json();
    const otherKey = (await t.call('POST', `/api/v1/projects/${other.id}/api-keys`, { token: owner.token, body: { name: 'backend' } })).json().secret;
    // Memberships are imported by slug: the organizations are set up in the new project first.
    expect((await t.call('POST', `/api/v1/projects/${other.id}/organizations`, { token: owner.token, body: { name: 'Acme', slug: 'acme' } })).statusCode).toBe(201);
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${other.id}/users/import`,
      payload: file,
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/x-ndjson' },
      remoteAddress: uniqueIp(),
    });
    expect(upload.statusCode, upload.body).toBe(202);
    let job: Record<string, unknown> = { state: 'running' };
    await until(async () => {
      job = (await t.call('GET', `/api/v1/projects/${other.id}/users/import/${upload.json().job_id}`, { token: owner.token })).json();
      return job.state !== 'running';
    }, 'the import job to end', 30_000);
    expect(job, JSON.stringify(job)).toMatchObject({ state: 'done', created: 4, failed: 0 });

    const there = (path: string, body: unknown) => t.call('POST', `/public/api/v1${path}`, { body, ip: uniqueIp(), headers: { 'x-api-key': otherKey } });
    const plain = await there('/auth/login', { email: people.plain.email, password: STRONG_PASSWORD });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json().user).toMatchObject({ email: people.plain.email, is_verified: true });
    expect(plain.json().user.id).not.toBe(people.plain.id);
    expect((await there('/auth/login', { email: people.plain.email, password: `${STRONG_PASSWORD}-not` })).statusCode).toBe(401);

    const first = await there('/auth/login', { email: people.totp.email, password: STRONG_PASSWORD });
    expect(first.json()).toMatchObject({ mfa_required: true });
    clock.advance(31);
    const code = new TOTP({ secret: Secret.fromBase32(totpSecret) }).generate({ timestamp: clock.now().getTime() });
    const second = await there('/auth/mfa/verify', { mfa_token: first.json().mfa_token, code });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().user.email).toBe(people.totp.email);
  }, 60_000);

  it('is refused to a project admin (403), and without a recent proof (401 step_up_required) until the owner steps up', async () => {
    expect((await encryptedExport(admin.token, withSecrets)).statusCode).toBe(403);
    expect((await encryptedExport(viewer.token, withSecrets)).statusCode).toBe(403);

    clock.advance(WINDOW_S + 1);
    const stale = await encryptedExport(owner.token, withSecrets);
    expect(stale.statusCode).toBe(401);
    expect(stale.json()).toEqual(STEP_UP);
    const stepUp = await t.call('POST', '/api/v1/auth/step-up', { token: owner.token, body: { password: STRONG_PASSWORD } });
    expect(stepUp.statusCode, stepUp.body).toBe(200);
    expect((await encryptedExport(owner.token, { include: ['totp_secrets'], passphrase: PASSPHRASE })).statusCode).toBe(200);
  }, 60_000);

  it('without secrets is a project admin\'s too, and wants a passphrase of 12 characters at least', async () => {
    const res = await encryptedExport(admin.token, { passphrase: PASSPHRASE });
    expect(res.statusCode).toBe(200);
    const lines = ndjsonOf(await decrypt(res.rawPayload));
    expect(lines).toHaveLength(4);
    expect(lines.every((line) => !('password' in line))).toBe(true);
    expect((await encryptedExport(admin.token, { passphrase: 'short' })).statusCode).toBe(422);
    expect((await encryptedExport(owner.token, { include: ['everything'], passphrase: PASSPHRASE })).statusCode).toBe(422);
  }, 60_000);
});

describe('streaming', () => {
  const SEEDED = 10_000;
  let bulkProject: string;

  beforeAll(async () => {
    bulkProject = (await t.call('POST', '/api/v1/projects', { token: admin.token, body: { name: 'Bulk' } })).json().id;
    // About 1.5 KB a user: 15 MB in all, more than the sockets' buffers hold.
    const metadata = JSON.stringify({ bio: 'x'.repeat(1400) });
    const from = Date.now() - SEEDED * 1000;
    const rows: Insertable<UsersTable>[] = Array.from({ length: SEEDED }, (_, i) => ({
      id: `bulk-${String(i).padStart(8, '0')}`,
      project_id: bulkProject,
      email: `bulk.${i}@bulk.example`,
      password_hash: '$2b$04$abcdefghijklmnopqrstuu5Tn9UkXUMEm0y9N8rwh1lJdMh/6tSzW',
      first_name: 'Bulk',
      last_name: String(i),
      company_name: null,
      website_url: null,
      role: 'user',
      is_active: 1,
      is_verified: 1,
      login_notifications: 0,
      created_at: new Date(from + i * 1000).toISOString(),
      updated_at: new Date(from + i * 1000).toISOString(),
      last_login: null,
      totp_secret: null,
      totp_pending_secret: null,
      totp_enabled_at: null,
      totp_last_step: null,
      session_idle_timeout_minutes: null,
      public_metadata: metadata,
    }));
    await t.db.transaction().execute(async (tx) => {
      for (let start = 0; start < rows.length; start += 500) await tx.insertInto('users').values(rows.slice(start, start + 500)).execute();
    });
  }, 60_000);

  const bulkUrl = () => `${url}/api/v1/projects/${bulkProject}/users/export`;

  it('sends every user once, newest first, however many chunks it takes', async () => {
    const res = await t.call('GET', `/api/v1/projects/${bulkProject}/users/export`, { token: admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-export-rows']).toBe(String(SEEDED));
    const emails = res.body.trimEnd().split('\n').map((line) => (JSON.parse(line) as { email: string }).email);
    expect(emails).toHaveLength(SEEDED);
    expect(new Set(emails).size).toBe(SEEDED);
    expect(emails[0]).toBe(`bulk.${SEEDED - 1}@bulk.example`);
  }, 30_000);

  it('waits for a client that reads nothing (its export holds the slot: 429), and ends when the client goes away', async () => {
    const request = http.get(bulkUrl(), { headers: { authorization: `Bearer ${admin.token}` } });
    const [response] = (await once(request, 'response')) as [http.IncomingMessage];
    expect(response.statusCode).toBe(200);
    response.pause();

    const refused = await t.call('GET', `/api/v1/projects/${bulkProject}/users/export`, { token: admin.token });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ detail: BUSY });

    request.destroy();
    await vi.waitFor(async () => expect((await t.call('GET', `/api/v1/projects/${projectId}/users/export`, { token: admin.token })).statusCode).toBe(200), { timeout: 10_000, interval: 50 });
  }, 30_000);

  it('stops reading the database when the client of an encrypted export goes away', async () => {
    const request = http.request(bulkUrl(), { method: 'POST', headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json', origin: 'http://app.test' } });
    request.end(JSON.stringify({ passphrase: PASSPHRASE }));
    const [response] = (await once(request, 'response')) as [http.IncomingMessage];
    expect(response.statusCode).toBe(200);
    response.pause();
    expect((await t.call('GET', `/api/v1/projects/${bulkProject}/users/export`, { token: admin.token })).statusCode).toBe(429);
    request.destroy();
    await vi.waitFor(async () => expect((await t.call('GET', `/api/v1/projects/${projectId}/users/export`, { token: admin.token })).statusCode).toBe(200), { timeout: 10_000, interval: 50 });
  }, 30_000);
});
