import { readFileSync } from 'node:fs';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { serialize } from '@phc/format';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRetention } from '../../server/modules/retention/retention.service.js';
import { createTestApp, manualClock, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { until } from '../helpers/until.js';

/**
 * Importing a project's end users from outside: the dashboard's REST route (NDJSON and JSON arrays, dry runs, bad
 * lines by number, duplicates), the job's progress, and every imported hash family signing in on the public API
 * with the old password and holding our bcrypt afterwards. Runs on SQLite and PostgreSQL.
 */

const clock = manualClock(new Date());
let t: TestApp;

interface Project {
  id: string;
  apiKey: string;
  ownerToken: string;
}

async function newProject(): Promise<Project> {
  const owner = await t.signUpAndLogIn(uniqueEmail('import-owner'));
  const project = (await t.call('POST', '/api/v1/projects', { token: owner.access_token, body: { name: 'Moving in' } })).json();
  const key = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: owner.access_token, body: { name: 'backend' } })).json();
  return { id: project.id, apiKey: key.secret, ownerToken: owner.access_token };
}

const ndjson = (lines: unknown[]) => lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n';

function upload(project: Project, payload: string, options: { type?: string; query?: string; headers?: Record<string, string>; token?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/projects/${project.id}/users/import${options.query ?? ''}`,
    payload,
    headers: { authorization: `Bearer ${options.token ?? project.ownerToken}`, 'content-type': options.type ?? 'application/x-ndjson', ...options.headers },
    remoteAddress: uniqueIp(),
  });
}

async function finished(project: Project, jobId: string) {
  let job: { state: string } & Record<string, unknown> = { state: 'running' };
  await until(async () => {
    job = (await t.call('GET', `/api/v1/projects/${project.id}/users/import/${jobId}`, { token: project.ownerToken })).json();
    return job.state !== 'running';
  }, `import ${jobId}`, 60_000);
  return job as Record<string, any>;
}

async function importLines(project: Project, payload: string, options: Parameters<typeof upload>[2] = {}) {
  const res = await upload(project, payload, options);
  expect(res.statusCode, res.body).toBe(202);
  return finished(project, res.json().job_id);
}

const logIn = (project: Project, email: string, password: string) =>
  t.call('POST', '/public/api/v1/auth/login', { body: { email, password }, headers: { 'x-api-key': project.apiKey }, ip: uniqueIp() });

const storedHash = async (project: Project, email: string) =>
  (await t.db.selectFrom('users').select('password_hash').where('project_id', '=', project.id).where('email', '=', email).executeTakeFirstOrThrow()).password_hash;

const usersOf = async (project: Project) =>
  Number((await t.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('project_id', '=', project.id).executeTakeFirstOrThrow()).n);

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');
const RFC7914_PBKDF2 = hex('4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d');
const RFC7914_SCRYPT = hex('7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887');
const FIREBASE_PARAMS = {
  signer_key: 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
  salt_separator: 'Bw==',
  rounds: 8,
  mem_cost: 14,
};

/** A user of each hash family, with the password their old system took. */
const FAMILIES = [
  { family: 'bcrypt $2y$', password: '$2y$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW', right: 'U*U' },
  { family: 'argon2id', password: '$argon2id$v=19$m=65536,t=2,p=4$c29tZXNhbHQ$GpZ3sK/oH9p7VIiV56G/64Zo/8GaUw434IimaPqxwCo', right: 'password' },
  { family: 'argon2i', password: '$argon2i$v=19$m=65536,t=2,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG', right: 'password' },
  { family: 'scrypt', password: serialize({ id: 'scrypt', params: { ln: 14, r: 8, p: 1 }, salt: Buffer.from('SodiumChloride'), hash: RFC7914_SCRYPT }), right: 'pleaseletmein' },
  { family: 'firebase scrypt', password: { algorithm: 'firebase_scrypt', hash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==', salt: '42xEC+ixf3L2lw==' }, right: 'user1password' },
  { family: 'pbkdf2 django', password: `pbkdf2_sha256$80000$NaCl$${RFC7914_PBKDF2.toString('base64')}`, right: 'Password' },
  { family: 'pbkdf2 PHC', password: serialize({ id: 'pbkdf2-sha256', params: { i: 80000 }, salt: Buffer.from('NaCl'), hash: RFC7914_PBKDF2 }), right: 'Password' },
  { family: 'pbkdf2 object', password: { algorithm: 'pbkdf2_sha256', hash: RFC7914_PBKDF2.toString('hex'), salt: Buffer.from('NaCl').toString('hex'), iterations: 80000, encoding: 'hex' }, right: 'Password' },
  { family: 'salted sha256', password: { algorithm: 'sha256', hash: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', salt: 'a', salt_position: 'prefix', encoding: 'hex' }, right: 'bc' },
  {
    family: 'salted sha512',
    password: { algorithm: 'sha512', hash: 'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f', salt: 'c', salt_position: 'suffix', encoding: 'hex' },
    right: 'ab',
  },
];

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

describe('importing users, then signing in with their old passwords', () => {
  const project = {} as Project;
  const emails = FAMILIES.map((f) => uniqueEmail(f.family.replace(/[^a-z0-9]/g, '-')));

  beforeAll(async () => {
    Object.assign(project, await newProject());
    const job = await importLines(
      project,
      ndjson(FAMILIES.map((f, i) => ({ email: emails[i], email_verified: true, first_name: 'Old', last_name: f.family, password: f.password }))),
      { headers: { 'x-firebase-hash-params': JSON.stringify(FIREBASE_PARAMS) } },
    );
    expect(job).toMatchObject({ state: 'done', lines_read: FAMILIES.length, created: FAMILIES.length, failed: 0, errors: [], dry_run: false });
  });

  it.each(FAMILIES.map((f, i) => ({ ...f, i })))('$family: a wrong password is the ordinary refusal and keeps the imported hash', async ({ i, right }) => {
    const before = await storedHash(project, emails[i]!);
    const wrong = await logIn(project, emails[i]!, `${right}-not`);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: 'Incorrect email or password' });
    expect(await storedHash(project, emails[i]!)).toBe(before);
  });

  it.each(FAMILIES.map((f, i) => ({ ...f, i })))('$family: the old password signs in, and the user then holds our bcrypt', async ({ i, right }) => {
    expect((await storedHash(project, emails[i]!)).startsWith('$2b$')).toBe(false);
    const first = await logIn(project, emails[i]!, right);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().access_token).toEqual(expect.any(String));
    const rehashed = await storedHash(project, emails[i]!);
    expect(rehashed).toMatch(/^\$2b\$/);
    const again = await logIn(project, emails[i]!, right);
    expect(again.statusCode).toBe(200);
    expect(await storedHash(project, emails[i]!)).toBe(rehashed);
  });

  it("keeps Firebase's signer key sealed: the stored hash names the import's parameters, the database never holds the key", async () => {
    const rows = await t.db.selectFrom('user_import_hash_params').select(['sealed_params']).where('project_id', '=', project.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sealed_params).not.toContain(FIREBASE_PARAMS.signer_key);
  });

  it("checks the current password of an account change against an imported hash, and rehashes it", async () => {
    const email = uniqueEmail('changer');
    await importLines(project, ndjson([{ email, email_verified: true, password: FAMILIES[1]!.password }]));
    // The old password is the current one for a change of password (the same check as step-up).
    const signedIn = await logIn(project, email, 'password');
    expect(signedIn.statusCode).toBe(200);
    const change = await t.call('POST', '/public/api/v1/auth/change-password', {
      token: signedIn.json().access_token,
      body: { current_password: 'password', new_password: 'A-New-Passphrase-77' },
      headers: { 'x-api-key': project.apiKey },
      ip: uniqueIp(),
    });
    expect(change.statusCode, change.body).toBe(200);
    expect((await logIn(project, email, 'A-New-Passphrase-77')).statusCode).toBe(200);
  });
});

describe("a provider's own export file (?format=)", () => {
  const fixture = (name: string) => readFileSync(new URL(`../fixtures/user-transfer/${name}`, import.meta.url), 'utf8');

  it("reads Supabase's auth.users CSV: its users sign in with their Supabase password, then hold our bcrypt", async () => {
    const project = await newProject();
    const job = await importLines(project, fixture('supabase-users.csv'), { type: 'text/csv', query: '?format=supabase' });
    expect(job).toMatchObject({ state: 'done', format: 'supabase', failed: 0 });
    expect(job.created).toBeGreaterThan(0);
    expect((await logIn(project, 'ada@example.com', 'Correct-Horse-42')).statusCode).toBe(200);
    expect(await storedHash(project, 'ada@example.com')).toMatch(/^\$2b\$/);
  });

  it("reads Firebase's auth:export JSON with the project's hash parameters: the published sample signs in", async () => {
    const project = await newProject();
    const job = await importLines(project, fixture('firebase-users.json'), {
      type: 'application/json',
      query: '?format=firebase',
      headers: { 'x-firebase-hash-params': JSON.stringify(FIREBASE_PARAMS) },
    });
    expect(job).toMatchObject({ state: 'done', format: 'firebase' });
    expect((await logIn(project, 'user1@example.com', 'user1password')).statusCode).toBe(200);
  });

  it("reads Auth0's password-hash export: its users sign in with their Auth0 password, then hold our bcrypt", async () => {
    const project = await newProject();
    const job = await importLines(project, fixture('auth0-password-hashes.ndjson'), { query: '?format=auth0' });
    expect(job).toMatchObject({ state: 'done', format: 'auth0', failed: 0, created: 2 });
    const before = await storedHash(project, 'ada@example.com');
    expect((await logIn(project, 'ada@example.com', 'Correct-Horse-42')).statusCode).toBe(200);
    const after = await storedHash(project, 'ada@example.com');
    // Already bcrypt at the tests' cost (BCRYPT_COST): kept as it is; a cheaper one would be rehashed.
    expect(after).toMatch(/^\$2b\$/);
    expect(after).toBe(before);
  });

  it("reads Clerk's CSV: its users sign in with their Clerk password and authenticator, then hold our bcrypt", async () => {
    const project = await newProject();
    const job = await importLines(project, fixture('clerk-users.csv'), { type: 'text/csv', query: '?format=clerk' });
    expect(job).toMatchObject({ state: 'done', format: 'clerk', failed: 0 });
    const before = await storedHash(project, 'ada@example.com');
    const first = await logIn(project, 'ada@example.com', 'Correct-Horse-42');
    expect(first.json()).toMatchObject({ mfa_required: true });
    const code = new TOTP({ secret: Secret.fromBase32('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP') }).generate({ timestamp: clock.now().getTime() });
    const second = await t.call('POST', '/public/api/v1/auth/mfa/verify', { body: { mfa_token: first.json().mfa_token, code }, headers: { 'x-api-key': project.apiKey }, ip: uniqueIp() });
    expect(second.statusCode, second.body).toBe(200);
    const after = await storedHash(project, 'ada@example.com');
    // Already bcrypt at the tests' cost (BCRYPT_COST): kept as it is; a cheaper one would be rehashed.
    expect(after).toMatch(/^\$2b\$/);
    expect(after).toBe(before);
  });

  it("reads Cognito's CSV (no hashes): its users have no password here until they reset it", async () => {
    const project = await newProject();
    const job = await importLines(project, fixture('cognito-users.csv'), { type: 'text/csv', query: '?format=cognito' });
    expect(job).toMatchObject({ state: 'done', format: 'cognito', failed: 0 });
    expect(job.created).toBeGreaterThan(0);
    const refused = await logIn(project, 'ada@example.com', 'Correct-Horse-42');
    expect([refused.statusCode, refused.json()]).toEqual([401, { detail: 'Incorrect email or password' }]);
  });

  it('refuses a CSV body for the native format (415)', async () => {
    const project = await newProject();
    const res = await upload(project, fixture('supabase-users.csv'), { type: 'text/csv' });
    expect(res.statusCode).toBe(415);
    expect(res.json().detail).toBe('Content-Type must be application/x-ndjson or application/json');
  });
});

describe('the import job', () => {
  it('reports bad lines by number with their reason, and imports the rest', async () => {
    const project = await newProject();
    const good = uniqueEmail('good');
    const job = await importLines(
      project,
      ndjson([
        { email: good, password: FAMILIES[0]!.password },
        '{not json',
        { email: 'not-an-address' },
        '',
        { email: uniqueEmail('plain'), password: 'plaintext-password' },
        { email: uniqueEmail('fb'), password: FAMILIES[4]!.password },
        { email: uniqueEmail('org'), organizations: [{ slug: 'nowhere' }] },
        [1, 2],
      ]),
    );
    expect(job.state).toBe('done');
    expect(job.lines_read).toBe(7);
    expect(job.created).toBe(1);
    expect(job.failed).toBe(6);
    expect(job.errors).toEqual([
      { line: 2, reason: 'line is not valid JSON' },
      { line: 3, reason: expect.stringMatching(/^email: /) },
      { line: 5, reason: expect.stringMatching(/not a supported hash/) },
      { line: 6, reason: expect.stringMatching(/Firebase hash parameters/) },
      { line: 7, reason: 'organizations: no organization "nowhere" in this project' },
      { line: 8, reason: expect.any(String) },
    ]);
    expect(await usersOf(project)).toBe(1);
  });

  it('takes a JSON array, numbering its elements', async () => {
    const project = await newProject();
    const users = [{ email: uniqueEmail('a1') }, { email: 'broken' }, { email: uniqueEmail('a3'), public_metadata: { plan: 'pro', tags: ['x', '[', ']'] } }];
    const job = await importLines(project, JSON.stringify(users, null, 2), { type: 'application/json' });
    expect(job).toMatchObject({ state: 'done', lines_read: 3, created: 2, failed: 1, errors: [{ line: 2, reason: expect.stringMatching(/^email/) }] });
    const row = await t.db.selectFrom('users').select(['public_metadata', 'password_set']).where('email', '=', users[2]!.email).executeTakeFirstOrThrow();
    expect(JSON.parse(row.public_metadata)).toEqual({ plan: 'pro', tags: ['x', '[', ']'] });
    expect(row.password_set).toBe(0);
  });

  it('refuses a JSON body that is not an array at once (422), and media types it does not read (415)', async () => {
    const project = await newProject();
    const object = await upload(project, JSON.stringify({ email: uniqueEmail('x') }), { type: 'application/json' });
    expect(object.statusCode).toBe(422);
    expect(object.json()).toEqual({ detail: 'The body must be a JSON array of users' });
    const text = await upload(project, 'email\nx@example.com\n', { type: 'text/csv' });
    expect(text.statusCode).toBe(415);
    const badHeader = await upload(project, ndjson([]), { headers: { 'x-firebase-hash-params': '{"signer_key":' } });
    expect(badHeader.statusCode).toBe(422);
    expect(await usersOf(project)).toBe(0);
  });

  it('a dry run checks every line and writes nothing', async () => {
    const project = await newProject();
    const taken = uniqueEmail('taken');
    await importLines(project, ndjson([{ email: taken }]));
    const job = await importLines(project, ndjson([{ email: uniqueEmail('new') }, { email: taken }, { email: 'nope' }, { email: uniqueEmail('fb'), password: FAMILIES[4]!.password }]), {
      query: '?dry_run=true',
      headers: { 'x-firebase-hash-params': JSON.stringify(FIREBASE_PARAMS) },
    });
    expect(job).toMatchObject({ state: 'done', dry_run: true, lines_read: 4, created: 2, failed: 2 });
    expect(job.errors).toEqual([
      { line: 3, reason: expect.stringMatching(/^email/) },
      { line: 2, reason: 'a user with this e-mail address already exists' },
    ].sort((a, b) => a.line - b.line));
    expect(await usersOf(project)).toBe(1);
    expect(await t.db.selectFrom('user_import_hash_params').select('id').where('project_id', '=', project.id).execute()).toEqual([]);
  });

  it('an address already in the project (or twice in the file, or an external_id taken) fails its line and overwrites nothing', async () => {
    const project = await newProject();
    const email = uniqueEmail('dup');
    await importLines(project, ndjson([{ email, first_name: 'First', external_id: 'ext-1' }]));
    const job = await importLines(
      project,
      ndjson([{ email, first_name: 'Second' }, { email: uniqueEmail('twice'), external_id: 'ext-1' }, { email: email.toUpperCase() }, { email: uniqueEmail('same'), external_id: 'ext-2' }, { email: uniqueEmail('again'), external_id: 'ext-2' }]),
    );
    expect(job).toMatchObject({ created: 1, failed: 4 });
    expect(job.errors.map((e: { line: number }) => e.line)).toEqual([1, 2, 3, 5]);
    expect(job.errors[0].reason).toBe('a user with this e-mail address already exists');
    expect(job.errors[1].reason).toBe('a user with this external_id already exists');
    const row = await t.db.selectFrom('users').select('first_name').where('project_id', '=', project.id).where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.first_name).toBe('First');
  });

  it('imports a TOTP secret (sealed) so the authenticator keeps working, and organization memberships by slug', async () => {
    const project = await newProject();
    const org = await t.call('POST', `/api/v1/projects/${project.id}/organizations`, { token: project.ownerToken, body: { name: 'Acme', slug: 'acme' } });
    expect(org.statusCode, org.body).toBe(201);
    const email = uniqueEmail('totp');
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DP';
    const job = await importLines(project, ndjson([{ email, email_verified: true, password: FAMILIES[0]!.password, totp_secret: secret, organizations: [{ slug: 'acme', role: 'org:admin' }] }]));
    expect(job).toMatchObject({ created: 1, failed: 0 });
    const row = await t.db.selectFrom('users').select(['id', 'totp_secret']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.totp_secret).not.toContain(secret);
    const member = await t.db.selectFrom('organization_members').select('role').where('user_id', '=', row.id).executeTakeFirstOrThrow();
    expect(member.role).toBe('org:admin');
    const first = await logIn(project, email, 'U*U');
    expect(first.json()).toMatchObject({ mfa_required: true });
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() });
    const second = await t.call('POST', '/public/api/v1/auth/mfa/verify', { body: { mfa_token: first.json().mfa_token, code }, headers: { 'x-api-key': project.apiKey }, ip: uniqueIp() });
    expect(second.statusCode, second.body).toBe(200);
  });

  it('needs the project\'s team: another developer sees no project (404), and an unknown job is 404', async () => {
    const project = await newProject();
    const stranger = await t.signUpAndLogIn(uniqueEmail('stranger'));
    expect((await upload(project, ndjson([{ email: uniqueEmail('x') }]), { token: stranger.access_token })).statusCode).toBe(404);
    expect((await t.call('GET', `/api/v1/projects/${project.id}/users/import/nope`, { token: project.ownerToken })).statusCode).toBe(404);
  });

  it('keeps the first 1,000 failed lines and counts the rest', async () => {
    const project = await newProject();
    const lines = Array.from({ length: 1200 }, (_, i) => ({ email: `bad-${i}` }));
    const job = await importLines(project, ndjson(lines));
    expect(job).toMatchObject({ state: 'done', lines_read: 1200, failed: 1200, errors_not_listed: 200 });
    expect(job.errors).toHaveLength(1000);
    expect(job.errors[999].line).toBe(1000);
  });

  it('imports a few thousand lines in batches, and audits the job', async () => {
    const project = await newProject();
    const lines = Array.from({ length: 3000 }, (_, i) => ({ email: `user-${i}-${project.id.slice(0, 8)}@bulk.example`, external_id: `u${i}` }));
    const job = await importLines(project, ndjson(lines));
    expect(job).toMatchObject({ state: 'done', lines_read: 3000, created: 3000, failed: 0 });
    expect(await usersOf(project)).toBe(3000);
    const audit = await t.db.selectFrom('audit_log').select(['action', 'after']).where('project_id', '=', project.id).where('action', '=', 'users.imported').execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({ created: 3000, failed: 0, dry_run: false });
  });

  it('marks failed a job whose server stopped (its heartbeat went quiet), and lets the next import run', async () => {
    const project = await newProject();
    const now = clock.now().toISOString();
    await t.db
      .insertInto('user_import_jobs')
      .values({ id: 'job-cut-short', project_id: project.id, created_by: null, source: 'api', format: 'native', dry_run: 0, state: 'running', lines_read: 10, created: 10, failed: 0, failure: null, created_at: now, heartbeat_at: now, finished_at: null })
      .execute();
    const busy = await upload(project, ndjson([{ email: uniqueEmail('x') }]));
    expect(busy.statusCode).toBe(409);
    clock.advance(61);
    const job = (await t.call('GET', `/api/v1/projects/${project.id}/users/import/job-cut-short`, { token: project.ownerToken })).json();
    expect(job).toMatchObject({ state: 'failed', created: 10, failure: expect.stringMatching(/interrupted/) });
    await importLines(project, ndjson([{ email: uniqueEmail('after') }]));
  });
});

describe('the upload while its job runs', () => {
  it('waits in IMPORT_SPOOL_DIR (the data directory by default), is removed when the job ends, and a stopped server\'s leftover is swept a day later', async () => {
    const spoolDir = t.deps.config.importSpoolDir;
    expect(spoolDir).toBe(path.join(t.deps.config.dataDir, 'import-spool'));
    const project = await newProject();
    const job = await importLines(project, ndjson([{ email: uniqueEmail('spooled') }]));
    expect(job).toMatchObject({ state: 'done', created: 1 });
    await until(async () => (await readdir(spoolDir)).length === 0, 'the upload to be removed');

    // What a server stopped mid-import leaves: a day-old upload, and a fresh one another instance may be reading.
    const stale = path.join(spoolDir, 'user-import-stale');
    const fresh = path.join(spoolDir, 'user-import-fresh');
    for (const dir of [stale, fresh]) {
      await mkdir(dir);
      await writeFile(path.join(dir, 'body'), '{}\n');
    }
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    await utimes(stale, dayAgo, dayAgo);
    expect((await runRetention(t.deps)).importSpools).toBe(1);
    expect(await readdir(spoolDir)).toEqual(['user-import-fresh']);
  });
});
