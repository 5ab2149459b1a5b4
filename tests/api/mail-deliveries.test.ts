import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, STRONG_PASSWORD, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { until } from '../helpers/until.js';

/**
 * Issue 26, mail part: the admin area lists every mail with resend (platform admins only); a project's
 * monitoring lists its end users' mails, with resend for its owners and admins (viewers read); a
 * recipient refused for good shows as "mail bounced" on the account; the local demo's Mail page.
 */
const ADMIN = 'mail-admin@example.com';
let t: TestApp;
let admin: string;
let developer: { email: string; token: string };

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: ADMIN, MAIL_POLL_MS: '20' } });
  admin = (await t.signUpAndLogIn(ADMIN)).access_token;
  const email = uniqueEmail('mail-dev');
  developer = { email, token: (await t.signUpAndLogIn(email)).access_token };
});
afterAll(() => t.close());

const get = (token: string, url: string) => t.call('GET', url, { token });
const post = (token: string, url: string, body?: unknown) => t.call('POST', url, { token, body });
const rowTo = (email: string) => t.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', email).orderBy('created_at').execute();

async function project(owner: string) {
  const created = await post(owner, '/api/v1/projects', { name: 'Mail shop' });
  expect(created.statusCode, created.body).toBe(201);
  const key = await post(owner, `/api/v1/projects/${created.json().id}/api-keys`, { name: 'backend' });
  return { id: created.json().id as string, apiKey: key.json().secret as string };
}
const endUserSignUp = (p: { apiKey: string }, email: string) =>
  t.call('POST', '/public/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, headers: { 'x-api-key': p.apiKey }, ip: uniqueIp() });

describe('admin area', () => {
  it('lists every mail, newest first, with recipient, kind, status, attempts and the last error category', async () => {
    const refused = uniqueEmail('refused');
    t.mail.refused.add(refused.toLowerCase());
    await t.call('POST', '/api/v1/auth/signup', { body: { email: refused, password: STRONG_PASSWORD }, ip: uniqueIp() });
    await until(async () => (await rowTo(refused))[0]?.status === 'failed', 'the refused mail failed');
    const res = await get(admin, '/api/v1/admin/mail?per_page=5');
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ page: 1, per_page: 5, total: expect.any(Number) });
    expect(page.deliveries[0]).toMatchObject({
      recipient: refused.toLowerCase(),
      kind: 'verification',
      status: 'failed',
      attempts: 1,
      last_error_category: 'rejected',
      sent_at: null,
      resendable: true,
      project_id: null,
    });
    const failed = await get(admin, '/api/v1/admin/mail?status=failed');
    expect(failed.json().deliveries.every((d: { status: string }) => d.status === 'failed')).toBe(true);
    expect((await get(admin, '/api/v1/admin/mail?status=lost')).statusCode).toBe(422);
    // The account shows it: "mail bounced" in the admin's user list.
    const users = (await get(admin, `/api/v1/admin/users?q=${encodeURIComponent(refused.split('@')[0]!)}`)).json().users;
    expect(users[0].mail_bounced_at).toEqual(expect.any(String));
  });

  it('resends a copy (audited as mail.resent); the original keeps its record; 409 while one is pending', async () => {
    const email = uniqueEmail('resend');
    t.mail.refused.add(email.toLowerCase());
    await t.call('POST', '/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, ip: uniqueIp() });
    await until(async () => (await rowTo(email))[0]?.status === 'failed', 'the refused mail failed');
    const [original] = await rowTo(email);
    t.mail.refused.delete(email.toLowerCase());
    const res = await post(admin, `/api/v1/admin/mail/${original!.id}/resend`);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ recipient: original!.recipient, kind: 'verification', status: 'pending', attempts: 0 });
    expect(res.json().id).not.toBe(original!.id);
    const mail = await t.mail.waitFor(email, /verify/i);
    expect(mail.link).toContain('/verify-email?token=');
    await until(async () => (await t.db.selectFrom('users').select('mail_bounced_at').where('id', '=', original!.user_id!).executeTakeFirstOrThrow()).mail_bounced_at === null, 'the bounce cleared');
    expect((await rowTo(email)).map((r) => r.status)).toEqual(['failed', 'sent']);
    const audit = (await get(admin, '/api/v1/admin/audit-log?action=mail.resent')).json().entries;
    expect(audit[0]).toMatchObject({ action: 'mail.resent', actor_email: ADMIN, target_type: 'mail', target_id: original!.id, after: { kind: 'verification', copy: res.json().id } });

    // A copy still pending (its first attempt not made yet) cannot be resent.
    await t.db.updateTable('mail_outbox').set({ status: 'pending', next_attempt_at: '2999-01-01T00:00:00.000Z' }).where('id', '=', res.json().id).execute();
    expect((await post(admin, `/api/v1/admin/mail/${res.json().id}/resend`)).json()).toEqual({ detail: 'This mail is still being sent' });
    expect((await post(admin, '/api/v1/admin/mail/nope/resend')).statusCode).toBe(404);
    // Its body dropped by retention: 409.
    await t.db.updateTable('mail_outbox').set({ body: null }).where('id', '=', original!.id).execute();
    const dropped = await post(admin, `/api/v1/admin/mail/${original!.id}/resend`);
    expect(dropped.statusCode).toBe(409);
    expect((await get(admin, '/api/v1/admin/mail?status=failed')).json().deliveries.find((d: { id: string }) => d.id === original!.id).resendable).toBe(false);
  });

  it('refuses anyone but a platform admin, on both transports', async () => {
    const [row] = await t.db.selectFrom('mail_outbox').select('id').where('status', '=', 'sent').limit(1).execute();
    expect((await get(developer.token, '/api/v1/admin/mail')).statusCode).toBe(403);
    expect((await post(developer.token, `/api/v1/admin/mail/${row!.id}/resend`)).statusCode).toBe(403);
    expect((await t.call('GET', '/api/v1/admin/mail')).statusCode).toBe(401);
    const tab = t.trpc({ token: developer.token }).api;
    await expect(tab.admin.mail.query()).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
    await expect(tab.admin.resendMail.mutate({ id: row!.id })).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
    expect((await t.trpc({ token: admin }).api.admin.mail.query({ per_page: 1 })).deliveries).toHaveLength(1);
  });
});

describe('project monitoring', () => {
  it("lists the project's end users' mails only; viewers read, owners and admins resend", async () => {
    const p = await project(developer.token);
    const other = await project(developer.token);
    const email = uniqueEmail('end-user');
    expect((await endUserSignUp(p, email)).statusCode).toBe(201);
    expect((await endUserSignUp(other, uniqueEmail('elsewhere'))).statusCode).toBe(201);
    await t.mail.waitFor(email, /verify/i);
    const list = (await get(developer.token, `/api/v1/projects/${p.id}/mail`)).json();
    expect(list.total).toBe(1);
    expect(list.deliveries[0]).toMatchObject({ recipient: email.toLowerCase(), kind: 'verification', project_id: p.id, user_id: expect.any(String) });
    await until(async () => (await get(developer.token, `/api/v1/projects/${p.id}/mail?status=sent`)).json().total === 1, 'marked sent');
    const id = list.deliveries[0].id as string;
    // Another project's mail is not this project's to see or resend.
    const otherId = (await get(developer.token, `/api/v1/projects/${other.id}/mail`)).json().deliveries[0].id;
    expect((await post(developer.token, `/api/v1/projects/${p.id}/mail/${otherId}/resend`)).statusCode).toBe(404);
    // Not on the team: 404, as for every project route.
    const outsider = (await t.signUpAndLogIn(uniqueEmail('outsider'))).access_token;
    expect((await get(outsider, `/api/v1/projects/${p.id}/mail`)).statusCode).toBe(404);

    // A viewer lists but cannot resend.
    const viewer = uniqueEmail('viewer');
    const viewerToken = (await t.signUpAndLogIn(viewer)).access_token;
    const invited = await post(developer.token, `/api/v1/projects/${p.id}/invitations`, { email: viewer, role: 'viewer' });
    expect(invited.statusCode, invited.body).toBe(201);
    const invitation = await t.mail.waitFor(viewer, /invited to/i);
    expect((await post(viewerToken, '/api/v1/invitations/accept', { token: new URL(invitation.link!).searchParams.get('token') })).statusCode).toBe(200);
    expect((await get(viewerToken, `/api/v1/projects/${p.id}/mail`)).json().total).toBe(1);
    expect((await post(viewerToken, `/api/v1/projects/${p.id}/mail/${id}/resend`)).statusCode).toBe(403);
    await expect(t.trpc({ token: viewerToken }).api.projects.resendMail.mutate({ id: p.id, mail_id: id })).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
    expect((await t.trpc({ token: viewerToken }).api.projects.mail.query({ id: p.id })).total).toBe(1);

    const before = t.mail.to(email).length;
    const resent = await post(developer.token, `/api/v1/projects/${p.id}/mail/${id}/resend`);
    expect(resent.statusCode, resent.body).toBe(201);
    await until(() => t.mail.to(email).length === before + 1, 'the resent mail');
    const audit = (await get(developer.token, `/api/v1/projects/${p.id}/audit-log?action=mail.resent`)).json().entries;
    expect(audit).toHaveLength(1);
    // The end user's bounce shows in the project's user list too.
    const users = (await get(developer.token, `/api/v1/projects/${p.id}/users`)).json().users;
    expect(users[0]).toHaveProperty('mail_bounced_at', null);
  });
});

describe('the local demo’s Mail page', () => {
  it('is not there when mail goes out over SMTP, nor on a non-loopback APP_URL', async () => {
    const res = await t.call('GET', '/api/v1/local-mail', { token: admin, ip: '127.0.0.1' });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toMatch(/SMTP_URL is set/);
    const remote = await createTestApp({ env: { SMTP_URL: undefined } });
    try {
      expect((await remote.call('GET', '/api/v1/local-mail', { ip: '127.0.0.1' })).json().detail).toMatch(/local demo only/);
    } finally {
      await remote.close();
    }
  });

  it('lists and renders the outbox for a browser on the machine (a brand-new developer) and for admins, nobody else', async () => {
    const local = await createTestApp({ env: { SMTP_URL: undefined, APP_URL: 'http://localhost:3000', ADMIN_EMAILS: ADMIN } });
    try {
      const email = uniqueEmail('demo');
      expect((await local.call('POST', '/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, ip: '127.0.0.1' })).statusCode).toBe(201);
      let mails: Array<{ id: string; to: string; subject: string; status: string }> = [];
      await until(async () => {
        mails = (await local.call('GET', '/api/v1/local-mail', { ip: '127.0.0.1' })).json().mails;
        return mails[0]?.status === 'sent';
      }, 'the mail written to the outbox');
      expect(mails[0]).toMatchObject({ to: email.toLowerCase(), subject: expect.stringMatching(/verify/i) });
      const message = (await local.call('GET', `/api/v1/local-mail/${mails[0]!.id}`, { ip: '::1' })).json();
      expect(message.text).toMatch(/http:\/\/localhost:3000\/verify-email\?token=/);
      expect(message.html).toContain('<a href="http://localhost:3000/verify-email?token=');
      // The tRPC procedures the dashboard uses.
      expect((await local.trpc({ ip: '127.0.0.1' }).api.localMail.list.query()).mails.length).toBeGreaterThan(0);

      // Anyone else: 403, an admin from anywhere: 200.
      expect((await local.call('GET', '/api/v1/local-mail', { ip: '203.0.113.9' })).statusCode).toBe(403);
      // A page of another site whose name was made to point at this machine (DNS rebinding) reaches it
      // from the loopback address too, under its own host name: refused.
      const rebound = await local.call('GET', `/api/v1/local-mail/${mails[0]!.id}`, { ip: '127.0.0.1', headers: { host: 'rebind.evil.example:3000' } });
      expect(rebound.statusCode).toBe(403);
      expect(rebound.body).not.toContain('verify-email?token=');
      expect((await local.call('GET', '/api/v1/local-mail', { ip: '127.0.0.1', headers: { host: '127.0.0.1:3000' } })).statusCode).toBe(200);
      const link = /http:\/\/\S+/.exec(message.text)![0];
      expect((await local.call('POST', '/api/v1/auth/verify-email', { body: { token: new URL(link).searchParams.get('token') } })).statusCode).toBe(200);
      const signup = await local.call('POST', '/api/v1/auth/signup', { body: { email: ADMIN, password: STRONG_PASSWORD }, ip: '127.0.0.1' });
      expect(signup.statusCode).toBe(201);
      await until(async () => (await local.call('GET', '/api/v1/local-mail', { ip: '127.0.0.1' })).json().mails.some((m: { to: string; status: string }) => m.to === ADMIN && m.status === 'sent'), 'the admin’s mail');
      const adminMail = (await local.call('GET', '/api/v1/local-mail', { ip: '127.0.0.1' })).json().mails.find((m: { to: string }) => m.to === ADMIN);
      const adminLink = /http:\/\/\S+/.exec((await local.call('GET', `/api/v1/local-mail/${adminMail.id}`, { ip: '127.0.0.1' })).json().text)![0];
      await local.call('POST', '/api/v1/auth/verify-email', { body: { token: new URL(adminLink).searchParams.get('token') } });
      const login = await local.call('POST', '/api/v1/auth/login', { body: { email: ADMIN, password: STRONG_PASSWORD } });
      expect((await local.call('GET', '/api/v1/local-mail', { token: login.json().access_token, ip: '203.0.113.9' })).statusCode).toBe(200);
    } finally {
      await local.close();
    }
  });
});
