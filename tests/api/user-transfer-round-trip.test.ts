import { Decrypter } from 'age-encryption';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, createTestApp, manualClock, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { until } from '../helpers/until.js';

/**
 * Export → import into another project: the users arrive with what they sign in with. A password user signs in
 * with their password, a two-factor user with their password and a code from the authenticator they already
 * have, and a user an earlier import brought in (argon2id, not yet rehashed) with their old password.
 */

const PASSPHRASE = 'correct horse battery staple';
const ARGON2ID = { hash: '$argon2id$v=19$m=65536,t=2,p=4$c29tZXNhbHQ$GpZ3sK/oH9p7VIiV56G/64Zo/8GaUw434IimaPqxwCo', password: 'password' };

const clock = manualClock(new Date());
let t: TestApp;
let owner: string;

interface Project {
  id: string;
  apiKey: string;
}

async function newProject(name: string): Promise<Project> {
  const project = (await t.call('POST', '/api/v1/projects', { token: owner, body: { name } })).json();
  const key = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: owner, body: { name: 'backend' } })).json();
  return { id: project.id, apiKey: key.secret };
}

const endUser = (project: Project, path: string, body?: unknown, token?: string) =>
  t.call('POST', `/public/api/v1${path}`, { body, token, ip: uniqueIp(), headers: { 'x-api-key': project.apiKey } });

async function importInto(project: Project, ndjson: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/projects/${project.id}/users/import`,
    payload: ndjson,
    headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/x-ndjson' },
    remoteAddress: uniqueIp(),
  });
  expect(res.statusCode, res.body).toBe(202);
  let job: Record<string, unknown> = {};
  await until(async () => {
    job = (await t.call('GET', `/api/v1/projects/${project.id}/users/import/${res.json().job_id}`, { token: owner })).json();
    return job.state !== 'running';
  }, 'the import', 60_000);
  return job;
}

const codeFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() });

beforeAll(async () => {
  t = await createTestApp({ clock });
  owner = (await t.signUpAndLogIn(uniqueEmail('moving-owner'))).access_token;
});
afterAll(() => t?.close());

describe('export → import', () => {
  it('moves users to another project with their passwords, old hashes and authenticators working there', async () => {
    const from = await newProject('Old home');
    const plain = uniqueEmail('moving-plain');
    const twoFactor = uniqueEmail('moving-totp');
    const imported = uniqueEmail('moving-argon2');
    for (const email of [plain, twoFactor]) {
      const before = t.mail.messages.length;
      expect((await endUser(from, '/auth/signup', { email, password: STRONG_PASSWORD })).statusCode).toBe(201);
      const token = new URL((await t.mail.waitFor(email, /verify/i, { after: before })).link!).searchParams.get('token');
      expect((await endUser(from, '/auth/verify-email', { token })).statusCode).toBe(200);
    }
    const session = (await endUser(from, '/auth/login', { email: twoFactor, password: STRONG_PASSWORD })).json();
    const { secret } = (await endUser(from, '/auth/mfa/totp/setup', undefined, session.access_token)).json();
    expect((await endUser(from, '/auth/mfa/totp/confirm', { code: codeFor(secret) }, session.access_token)).statusCode).toBe(200);
    clock.advance(30);
    const earlier = await importInto(from, `${JSON.stringify({ email: imported, email_verified: true, external_id: 'legacy-7', password: ARGON2ID.hash })}\n`);
    expect(earlier).toMatchObject({ state: 'done', created: 1, failed: 0 });

    // The owner proves who they are (the login was just now), then takes the encrypted export with the secrets.
    const exported = await t.call('POST', `/api/v1/projects/${from.id}/users/export`, {
      token: owner,
      body: { include: ['password_hashes', 'totp_secrets'], passphrase: PASSPHRASE },
    });
    expect(exported.statusCode, exported.body).toBe(200);
    const decrypter = new Decrypter();
    decrypter.addPassphrase(PASSPHRASE);
    const ndjson = await decrypter.decrypt(new Uint8Array(exported.rawPayload), 'text');
    expect(ndjson.trimEnd().split('\n')).toHaveLength(3);

    const to = await newProject('New home');
    expect(await importInto(to, ndjson)).toMatchObject({ state: 'done', created: 3, failed: 0 });

    expect((await endUser(to, '/auth/login', { email: plain, password: STRONG_PASSWORD })).statusCode).toBe(200);
    expect((await endUser(to, '/auth/login', { email: imported, password: ARGON2ID.password })).statusCode).toBe(200);
    const moved = await t.db.selectFrom('users').select(['password_hash', 'external_id']).where('project_id', '=', to.id).where('email', '=', imported).executeTakeFirstOrThrow();
    expect(moved).toMatchObject({ external_id: 'legacy-7', password_hash: expect.stringMatching(/^\$2b\$/) });

    const ip = uniqueIp();
    const first = await t.call('POST', '/public/api/v1/auth/login', { body: { email: twoFactor, password: STRONG_PASSWORD }, ip, headers: { 'x-api-key': to.apiKey } });
    expect(first.json()).toMatchObject({ mfa_required: true });
    clock.advance(30);
    const second = await t.call('POST', '/public/api/v1/auth/mfa/verify', { body: { mfa_token: first.json().mfa_token, code: codeFor(secret) }, ip, headers: { 'x-api-key': to.apiKey } });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().user.email).toBe(twoFactor);
  });
});
