import http from 'node:http';
import { Secret, TOTP } from 'otpauth';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runRetention } from '../../server/modules/retention/retention.service.js';
import { createWebhookDispatcher, RETRY_DELAYS_S } from '../../server/modules/webhooks/dispatcher.js';
import { webhookEventBodySchema } from '../../shared/schemas/webhook-events.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../shared/schemas/webhooks.js';
import { STRONG_PASSWORD, createTestApp, manualClock, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';

/**
 * Webhooks against a loopback receiver that verifies every request with the standardwebhooks library:
 * the events, the outbox (written with the change, delivered by whichever instance runs next), retries,
 * the claim that keeps two instances from sending one delivery twice, and the SSRF guard.
 */

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** A receiver on loopback: records what it gets, answers the queued statuses (204 otherwise). */
async function startReceiver() {
  const received: Received[] = [];
  /** Every body ever received (`received` is emptied by each test). */
  const everyBody: string[] = [];
  const statuses: number[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers as Record<string, string>, body: Buffer.concat(chunks).toString() });
      everyBody.push(received.at(-1)!.body);
      response.statusCode = statuses.shift() ?? 204;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
  return { url, received, everyBody, statuses, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A receiver that takes requests and never answers them. */
async function startSilentReceiver() {
  let count = 0;
  const server = http.createServer(() => {
    count += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/silent`;
  return {
    url,
    requests: () => count,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const clock = manualClock(new Date());
const METRICS_TOKEN = 'webhooks-metrics-token-0123456789';
const ENV = { WEBHOOKS_ALLOW_PRIVATE: 'on', WEBHOOK_POLL_MS: '0', METRICS_TOKEN };
let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const ownerEmail = uniqueEmail('hooks-owner');
let owner: { access_token: string };
let project: { id: string };
let apiKey: string;

const asOwner = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => t.call(method, url, { token: owner.access_token, body });

/** An end user of the project, signed up, verified and signed in through the public API. */
async function endUser(tag: string) {
  const headers = { 'x-api-key': apiKey };
  const email = uniqueEmail(tag);
  const before = t.mail.messages.length;
  expect((await t.call('POST', '/public/api/v1/auth/signup', { headers, body: { email, password: STRONG_PASSWORD } })).statusCode).toBe(201);
  const mail = await t.mail.waitFor(email, /verify/i, { after: before });
  expect((await t.call('POST', '/public/api/v1/auth/verify-email', { headers, body: { token: new URL(mail.link!).searchParams.get('token') } })).statusCode).toBe(200);
  const login = await t.call('POST', '/public/api/v1/auth/login', { headers, body: { email, password: STRONG_PASSWORD } });
  expect(login.statusCode, login.body).toBe(200);
  const { access_token, refresh_token, user } = login.json() as { access_token: string; refresh_token: string; user: { id: string } };
  return { id: user.id, email, access_token, refresh_token };
}

const asEndUser = (user: { access_token: string }, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
  t.call(method, `/public/api/v1${url}`, { headers: { 'x-api-key': apiKey }, token: user.access_token, body });

async function createWebhook(body: Record<string, unknown>) {
  const res = await asOwner('POST', `/api/v1/projects/${project.id}/webhooks`, { url: receiver.url, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string };
}

/** What the receiver got, each verified with the endpoint's secret as a receiver would. */
function verified(secret: string, items = receiver.received) {
  const webhook = new Webhook(secret);
  return items.map((item) => webhook.verify(item.body, item.headers) as { type: string; data: Record<string, unknown> });
}

beforeAll(async () => {
  t = await createTestApp({ clock, env: ENV });
  receiver = await startReceiver();
  owner = await t.signUpAndLogIn(ownerEmail);
  project = (await asOwner('POST', '/api/v1/projects', { name: 'Hooked' })).json();
  apiKey = (await asOwner('POST', `/api/v1/projects/${project.id}/api-keys`, { name: 'backend' })).json().secret;
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});
beforeEach(() => {
  receiver.received.length = 0;
  receiver.statuses.length = 0;
});

describe('endpoints', () => {
  it('are created with a signing secret shown once, listed without it, changed and deleted', async () => {
    const created = await createWebhook({ event_types: ['user.created'], description: 'CRM sync' });
    expect(created.secret).toMatch(/^whsec_/);
    const listed = await asOwner('GET', `/api/v1/projects/${project.id}/webhooks`);
    expect(listed.json().webhooks).toEqual([expect.objectContaining({ id: created.id, url: receiver.url, event_types: ['user.created'], enabled: true, description: 'CRM sync' })]);
    expect(listed.body).not.toContain(created.secret);
    const changed = await asOwner('PATCH', `/api/v1/projects/${project.id}/webhooks/${created.id}`, { enabled: false });
    expect(changed.json()).toMatchObject({ enabled: false, event_types: ['user.created'] });
    expect((await asOwner('DELETE', `/api/v1/projects/${project.id}/webhooks/${created.id}`)).statusCode).toBe(200);
    expect((await asOwner('DELETE', `/api/v1/projects/${project.id}/webhooks/${created.id}`)).statusCode).toBe(404);
    const audit = (await asOwner('GET', `/api/v1/projects/${project.id}/audit-log?action=webhook.`)).json();
    expect(audit.entries.map((entry: { action: string }) => entry.action).sort()).toEqual(['webhook.created', 'webhook.deleted', 'webhook.updated']);
    expect(JSON.stringify(audit)).not.toContain(created.secret);
  });

  it('refuse bad input with a detail, and a stranger', async () => {
    const base = `/api/v1/projects/${project.id}/webhooks`;
    const badUrl = await asOwner('POST', base, { url: 'ftp://example.com', event_types: ['user.created'] });
    expect(badUrl.statusCode).toBe(422);
    expect(badUrl.json().detail).toBe('url must be an http or https URL without credentials or fragment');
    const noTypes = await asOwner('POST', base, { url: receiver.url, event_types: [] });
    expect(noTypes.json().detail).toBe('Choose at least one event type');
    const unknownType = await asOwner('POST', base, { url: receiver.url, event_types: ['user.exploded'] });
    expect(unknownType.statusCode).toBe(422);
    const stranger = await t.signUpAndLogIn(uniqueEmail('hooks-stranger'));
    expect((await t.call('GET', base, { token: stranger.access_token })).statusCode).toBe(404);
  });
});

describe('events', () => {
  it('reach the subscribed endpoint signed by Standard Webhooks, for every event type', async () => {
    const hook = await createWebhook({ event_types: ['user.created', 'user.verified', 'session.created', 'login.failed', 'device.blocked', 'api_key.created', 'api_key.revoked'] });
    const headers = { 'x-api-key': apiKey };
    const email = uniqueEmail('hooked-user');
    const before = t.mail.messages.length;
    expect((await t.call('POST', '/public/api/v1/auth/signup', { headers, body: { email, password: STRONG_PASSWORD } })).statusCode).toBe(201);
    const mail = await t.mail.waitFor(email, /verify/i, { after: before });
    expect((await t.call('POST', '/public/api/v1/auth/verify-email', { headers, body: { token: new URL(mail.link!).searchParams.get('token') } })).statusCode).toBe(200);
    expect((await t.call('POST', '/public/api/v1/auth/login', { headers, body: { email, password: 'Not-the-password-1' } })).statusCode).toBe(401);
    const login = await t.call('POST', '/public/api/v1/auth/login', { headers, body: { email, password: STRONG_PASSWORD, device_fingerprint: 'hooked-phone' } });
    expect(login.statusCode).toBe(200);
    const device = (await asOwner('GET', `/api/v1/projects/${project.id}/devices`)).json().devices[0];
    expect((await asOwner('PATCH', `/api/v1/projects/${project.id}/devices/${device.id}/toggle-block`)).statusCode).toBe(200);
    const key = (await asOwner('POST', `/api/v1/projects/${project.id}/api-keys`, { name: 'temporary' })).json();
    expect((await asOwner('DELETE', `/api/v1/projects/${project.id}/api-keys/${key.id}`)).statusCode).toBe(200);

    expect(await t.deps.webhooks.runOnce()).toBe(7);
    const events = verified(hook.secret);
    expect(events.map((event) => event.type).sort()).toEqual(['api_key.created', 'api_key.revoked', 'device.blocked', 'login.failed', 'session.created', 'user.created', 'user.verified']);
    const byType = Object.fromEntries(events.map((event) => [event.type, event.data]));
    expect(byType['user.created']).toEqual({ user: { id: login.json().user.id, email, is_verified: false } });
    expect(byType['login.failed']).toMatchObject({ email, reason: 'invalid_credentials', method: 'password' });
    expect(byType['session.created']).toMatchObject({ user: { id: login.json().user.id, email }, auth_methods: ['pwd'], device_id: 'hooked-phone' });
    expect(byType['device.blocked']).toMatchObject({ device: { id: 'hooked-phone', user_email: email } });
    expect(byType['api_key.revoked']).toEqual({ api_key: { id: key.id, name: 'temporary', prefix: key.prefix } });
    // A tampered body fails the receiver's verification.
    expect(() => new Webhook(hook.secret).verify(receiver.received[0]!.body.replace('"type"', '"typo"'), receiver.received[0]!.headers)).toThrow();
    expect(receiver.received[0]!.headers['webhook-id']).toMatch(/^msg_/);
    await asOwner('DELETE', `/api/v1/projects/${project.id}/webhooks/${hook.id}`);
  });

  /** What the endpoint got from one run of the dispatcher, verified with its secret; `expected` deliveries, no more. */
  async function deliveredTo(hook: { secret: string }, expected: number) {
    receiver.received.length = 0;
    expect(await t.deps.webhooks.runOnce()).toBe(expected);
    return verified(hook.secret);
  }

  it('user.updated: the end user changes their profile or e-mail, the developer deactivates and reactivates them; nothing for a developer', async () => {
    const hook = await createWebhook({ event_types: ['user.updated'] });
    const user = await endUser('updated-user');
    expect((await asEndUser(user, 'PUT', '/profile', { first_name: 'Ada', login_notifications: false })).statusCode).toBe(200);
    const [profile] = await deliveredTo(hook, 1);
    expect(profile).toMatchObject({ type: 'user.updated', data: { user: { id: user.id, email: user.email, first_name: 'Ada', is_active: true }, changed: ['first_name', 'login_notifications'] } });
    // Nothing changed, nothing sent.
    expect((await asEndUser(user, 'PUT', '/profile', { first_name: 'Ada' })).statusCode).toBe(200);
    expect(await t.deps.webhooks.runOnce()).toBe(0);

    const newEmail = uniqueEmail('updated-user-new');
    const before = t.mail.messages.length;
    expect((await asEndUser(user, 'POST', '/auth/change-email', { new_email: newEmail, password: STRONG_PASSWORD })).statusCode).toBe(200);
    const link = (await t.mail.waitFor(newEmail, undefined, { after: before })).link!;
    expect((await asEndUser(user, 'POST', '/auth/confirm-email-change', { token: new URL(link).searchParams.get('token') })).statusCode).toBe(200);
    const [moved] = await deliveredTo(hook, 1);
    expect(moved!.data).toMatchObject({ user: { id: user.id, email: newEmail }, changed: ['email'] });

    const toggle = `/api/v1/projects/${project.id}/users/${user.id}/toggle-active`;
    expect((await asOwner('PATCH', toggle)).json().is_active).toBe(false);
    expect((await asOwner('PATCH', toggle)).json().is_active).toBe(true);
    const toggled = await deliveredTo(hook, 2);
    // Sent at once, so they may arrive in either order.
    expect(toggled.map((event) => [event.data.changed, (event.data.user as { is_active: boolean }).is_active]).sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
      [['is_active'], false],
      [['is_active'], true],
    ]);

    // A developer's own account is not a project's end user.
    expect((await asOwner('PATCH', '/api/v1/auth/profile', { first_name: 'Owner' })).statusCode).toBe(200);
    expect(await t.deps.webhooks.runOnce()).toBe(0);
    await asOwner('DELETE', `/api/v1/projects/${project.id}/webhooks/${hook.id}`);
  });

  it('user.deleted: the end user deletes their account, or the developer deletes them', async () => {
    const hook = await createWebhook({ event_types: ['user.deleted'] });
    const leaving = await endUser('deleted-self');
    expect((await asEndUser(leaving, 'POST', '/auth/delete-account', { password: 'Not-the-password-1' })).statusCode).toBe(401);
    expect(await t.deps.webhooks.runOnce()).toBe(0);
    expect((await asEndUser(leaving, 'POST', '/auth/delete-account', { password: STRONG_PASSWORD })).statusCode).toBe(200);
    expect(await deliveredTo(hook, 1)).toEqual([expect.objectContaining({ type: 'user.deleted', data: { user: { id: leaving.id, email: leaving.email }, by: 'user' } })]);
    expect((await asEndUser(leaving, 'GET', '/profile')).statusCode).toBe(401);

    const removed = await endUser('deleted-by-developer');
    expect((await asOwner('DELETE', `/api/v1/projects/${project.id}/users/${removed.id}`)).statusCode).toBe(200);
    expect(await deliveredTo(hook, 1)).toEqual([expect.objectContaining({ type: 'user.deleted', data: { user: { id: removed.id, email: removed.email }, by: 'developer' } })]);
    expect((await asOwner('GET', `/api/v1/projects/${project.id}/users/${removed.id}`)).statusCode).toBe(404);
    expect((await asOwner('DELETE', `/api/v1/projects/${project.id}/users/${removed.id}`)).statusCode).toBe(404);
    const audit = (await asOwner('GET', `/api/v1/projects/${project.id}/audit-log?action=user.deleted`)).json().entries;
    expect(audit).toHaveLength(2);
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ target_id: removed.id, target_label: removed.email, actor_email: ownerEmail }),
        expect.objectContaining({ target_id: leaving.id, target_label: leaving.email, actor_email: leaving.email }),
      ]),
    );
    await asOwner('DELETE', `/api/v1/projects/${project.id}/webhooks/${hook.id}`);
  });

  it('session.revoked: the end user revokes a session or signs out, the developer revokes one, a refresh token is reused; not a developer signing out', async () => {
    const hook = await createWebhook({ event_types: ['session.revoked'] });
    const user = await endUser('revoked-user');
    const sid = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;
    const another = async () => (await t.call('POST', '/public/api/v1/auth/login', { headers: { 'x-api-key': apiKey }, body: { email: user.email, password: STRONG_PASSWORD } })).json() as { access_token: string; refresh_token: string };
    const event = (sessionId: string, reason: string) => ({ type: 'session.revoked', timestamp: expect.any(String), data: { session_id: sessionId, user: { id: user.id, email: user.email }, reason } });

    const second = await another();
    expect((await asEndUser(user, 'DELETE', `/auth/sessions/${sid(second.access_token)}`)).statusCode).toBe(200);
    expect(await deliveredTo(hook, 1)).toEqual([event(sid(second.access_token), 'revoked_by_user')]);

    const third = await another();
    expect((await asOwner('DELETE', `/api/v1/projects/${project.id}/sessions/${sid(third.access_token)}`)).statusCode).toBe(200);
    expect(await deliveredTo(hook, 1)).toEqual([event(sid(third.access_token), 'revoked_by_admin')]);

    const fourth = await another();
    const refresh = (token: string, ip?: string) => t.call('POST', '/public/api/v1/auth/refresh', { headers: { 'x-api-key': apiKey }, body: { refresh_token: token }, ip });
    expect((await refresh(fourth.refresh_token)).statusCode).toBe(200);
    expect(await t.deps.webhooks.runOnce()).toBe(0);
    expect((await refresh(fourth.refresh_token, uniqueIp())).statusCode).toBe(401);
    expect(await deliveredTo(hook, 1)).toEqual([event(sid(fourth.access_token), 'refresh_token_reuse')]);

    expect((await t.call('POST', '/public/api/v1/auth/logout', { headers: { 'x-api-key': apiKey }, token: user.access_token, body: {} })).statusCode).toBe(200);
    expect(await deliveredTo(hook, 1)).toEqual([event(sid(user.access_token), 'logout')]);

    const developer = await t.signUpAndLogIn(uniqueEmail('revoked-developer'));
    expect((await t.call('POST', '/api/v1/auth/logout', { token: developer.access_token, body: {} })).statusCode).toBe(200);
    expect(await t.deps.webhooks.runOnce()).toBe(0);
    await asOwner('DELETE', `/api/v1/projects/${project.id}/webhooks/${hook.id}`);
  });

  it('mfa.enabled and mfa.disabled: the end user turns two factors on and off, and the developer resets them', async () => {
    const hook = await createWebhook({ event_types: ['mfa.enabled', 'mfa.disabled'] });
    const user = await endUser('mfa-user');
    const account = { id: user.id, email: user.email };
    const turnOn = async () => {
      const { secret } = (await asEndUser(user, 'POST', '/auth/mfa/totp/setup')).json();
      const confirmed = await asEndUser(user, 'POST', '/auth/mfa/totp/confirm', { code: new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() }) });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      return confirmed.json().recovery_codes as string[];
    };
    const [recoveryCode] = await turnOn();
    expect(await deliveredTo(hook, 1)).toEqual([{ type: 'mfa.enabled', timestamp: expect.any(String), data: { user: account, method: 'totp' } }]);
    expect((await asEndUser(user, 'POST', '/auth/mfa/disable', { password: STRONG_PASSWORD, code: 'ABCD-EFGH' })).statusCode).toBe(400);
    expect(await t.deps.webhooks.runOnce()).toBe(0);
    expect((await asEndUser(user, 'POST', '/auth/mfa/disable', { password: STRONG_PASSWORD, code: recoveryCode })).statusCode).toBe(200);
    expect(await deliveredTo(hook, 1)).toEqual([expect.objectContaining({ type: 'mfa.disabled', data: { user: account, by: 'user' } })]);

    await turnOn();
    expect((await asOwner('POST', `/api/v1/projects/${project.id}/users/${user.id}/reset-mfa`)).statusCode).toBe(200);
    const events = await deliveredTo(hook, 2);
    expect(events.map((e) => [e.type, e.data.by]).sort()).toEqual([
      ['mfa.disabled', 'reset'],
      ['mfa.enabled', undefined],
    ]);
    // A reset of someone without two factors turns nothing off.
    expect((await asOwner('POST', `/api/v1/projects/${project.id}/users/${user.id}/reset-mfa`)).statusCode).toBe(200);
    expect(await t.deps.webhooks.runOnce()).toBe(0);
    await asOwner('DELETE', `/api/v1/projects/${project.id}/webhooks/${hook.id}`);
  });

  it('go only to the endpoints subscribed to their type, and never to a disabled one', async () => {
    const keys = await createWebhook({ event_types: ['api_key.created'] });
    const disabled = await createWebhook({ event_types: ['api_key.created'], enabled: false });
    const users = await createWebhook({ event_types: ['user.created'] });
    await asOwner('POST', `/api/v1/projects/${project.id}/api-keys`, { name: 'routed' });
    expect(await t.deps.webhooks.runOnce()).toBe(1);
    expect(verified(keys.secret).map((event) => event.type)).toEqual(['api_key.created']);
    for (const hook of [keys, disabled, users]) await asOwner('DELETE', `/api/v1/projects/${project.id}/webhooks/${hook.id}`);
  });
});

// The retries move the app's clock by days, and receivers check signatures' timestamps against the real
// time: the retry test comes last, after the tests that verify signatures.
describe('delivery', () => {
  it('sends a test event to one endpoint on request', async () => {
    const hook = await createWebhook({ event_types: ['user.created'] });
    const res = await asOwner('POST', `/api/v1/projects/${project.id}/webhooks/${hook.id}/test`);
    expect(res.statusCode).toBe(201);
    expect(await t.deps.webhooks.runOnce()).toBe(1);
    expect(verified(hook.secret)).toEqual([expect.objectContaining({ type: 'webhook.test', data: expect.objectContaining({ webhook_id: hook.id }) })]);
    await asOwner('DELETE', `/api/v1/projects/${project.id}/webhooks/${hook.id}`);
  });

  it('survives the instance that wrote the event: another one on the same database delivers it, and two never send one delivery twice', async () => {
    const hook = await createWebhook({ event_types: ['api_key.created'] });
    for (const name of ['a', 'b', 'c', 'd', 'e']) await asOwner('POST', `/api/v1/projects/${project.id}/api-keys`, { name: `outbox ${name}` });
    // This instance never delivers them (as if killed); two others share the work.
    const second = await createTestApp({ clock, env: ENV, sameDatabaseAs: t });
    const third = await createTestApp({ clock, env: ENV, sameDatabaseAs: t });
    try {
      const counts = await Promise.all([second.deps.webhooks.runOnce(), third.deps.webhooks.runOnce(), second.deps.webhooks.runOnce(), third.deps.webhooks.runOnce()]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(5);
      expect(verified(hook.secret).map((event) => (event.data as { api_key: { name: string } }).api_key.name).sort()).toEqual(['outbox a', 'outbox b', 'outbox c', 'outbox d', 'outbox e']);
    } finally {
      await second.close();
      await third.close();
    }
    await asOwner('DELETE', `/api/v1/projects/${project.id}/webhooks/${hook.id}`);
  });

  it('retries a failing endpoint on the schedule, shows each delivery, and gives up after about a day', async () => {
    const hook = await createWebhook({ event_types: ['api_key.created'] });
    receiver.statuses.push(500, 503);
    await asOwner('POST', `/api/v1/projects/${project.id}/api-keys`, { name: 'retried' });
    expect(await t.deps.webhooks.runOnce()).toBe(1);
    const deliveries = `/api/v1/projects/${project.id}/webhooks/${hook.id}/deliveries`;
    expect((await asOwner('GET', deliveries)).json().deliveries[0]).toMatchObject({ event_type: 'api_key.created', status: 'pending', attempts: 1, last_status_code: 500, last_error: 'http_status' });
    expect(await t.deps.webhooks.runOnce()).toBe(0);
    clock.advance(RETRY_DELAYS_S[0]!);
    expect(await t.deps.webhooks.runOnce()).toBe(1);
    clock.advance(RETRY_DELAYS_S[1]!);
    expect(await t.deps.webhooks.runOnce()).toBe(1);
    const [delivery] = (await asOwner('GET', deliveries)).json().deliveries;
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3, last_status_code: 204, last_error: null, next_attempt_at: null });
    expect(receiver.received).toHaveLength(3);
    // The same message each time: one webhook-id, so a receiver can drop the duplicates.
    expect(new Set(receiver.received.map((item) => item.headers['webhook-id'])).size).toBe(1);

    // Resend: a new delivery of the same event.
    const resent = await asOwner('POST', `${deliveries}/${delivery.id}/resend`);
    expect(resent.statusCode).toBe(201);
    expect(await t.deps.webhooks.runOnce()).toBe(1);
    expect(receiver.received.at(-1)!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);

    // An endpoint that never answers well is given up on after the last retry.
    receiver.received.length = 0;
    receiver.statuses.push(...Array(RETRY_DELAYS_S.length + 1).fill(500));
    await asOwner('POST', `/api/v1/projects/${project.id}/api-keys`, { name: 'given up' });
    for (const delay of [0, ...RETRY_DELAYS_S]) {
      clock.advance(delay);
      expect(await t.deps.webhooks.runOnce()).toBe(1);
    }
    clock.advance(24 * 3600);
    expect(await t.deps.webhooks.runOnce()).toBe(0);
    // A day and more has passed: the owner's access token has expired meanwhile.
    owner = (await t.call('POST', '/api/v1/auth/login', { body: { email: ownerEmail, password: STRONG_PASSWORD } })).json();
    const givenUp = (await asOwner('GET', deliveries)).json().deliveries.find((d: { status: string; attempts: number }) => d.attempts > 3);
    expect(givenUp).toMatchObject({ status: 'failed', attempts: RETRY_DELAYS_S.length + 1, next_attempt_at: null, last_status_code: 500 });
    const metrics = (await t.call('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
    const count = (outcome: string) => Number(new RegExp(`^webhook_deliveries_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(metrics)?.[1]);
    expect(count('failed')).toBe(1);
    expect(count('retrying')).toBe(RETRY_DELAYS_S.length + 2);
    expect(count('succeeded')).toBeGreaterThanOrEqual(3);
    await asOwner('DELETE', `/api/v1/projects/${project.id}/webhooks/${hook.id}`);
  });

  it('keeps events 30 days, then deletes the ones no delivery is waiting for', async () => {
    const pending = await createWebhook({ event_types: ['api_key.created'] });
    receiver.statuses.push(500);
    clock.advance(31 * 24 * 3600);
    owner = (await t.call('POST', '/api/v1/auth/login', { body: { email: ownerEmail, password: STRONG_PASSWORD } })).json();
    await asOwner('POST', `/api/v1/projects/${project.id}/api-keys`, { name: 'still retrying' });
    expect(await t.deps.webhooks.runOnce()).toBe(1);
    clock.advance(31 * 24 * 3600);
    expect((await runRetention(t.deps)).webhookEvents).toBeGreaterThan(0);
    // Only the event whose delivery is still pending is left.
    const left = await t.db.selectFrom('webhook_events').select('id').execute();
    expect(left).toHaveLength(1);
    expect(await t.db.selectFrom('webhook_deliveries').select('status').execute()).toEqual([{ status: 'pending' }]);
    owner = (await t.call('POST', '/api/v1/auth/login', { body: { email: ownerEmail, password: STRONG_PASSWORD } })).json();
    expect((await asOwner('DELETE', `/api/v1/projects/${project.id}/webhooks/${pending.id}`)).statusCode).toBe(200);
  });

  it('gives up waiting for an endpoint that never answers (10 s by default), records the timeout and retries later', async () => {
    // The dispatcher the app runs waits 10 s; this one runs the same abort path after 300 ms.
    expect(t.deps.webhooks.timeoutMs).toBe(10_000);
    const silent = await startSilentReceiver();
    try {
      const hook = await createWebhook({ url: silent.url, event_types: ['api_key.created'] });
      await asOwner('POST', `/api/v1/projects/${project.id}/api-keys`, { name: 'unanswered' });
      const impatient = createWebhookDispatcher(t.deps, { timeoutMs: 300 });
      const started = performance.now();
      expect(await impatient.runOnce()).toBe(1);
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
      expect(silent.requests()).toBe(1);
      const deliveries = `/api/v1/projects/${project.id}/webhooks/${hook.id}/deliveries`;
      const [first] = (await asOwner('GET', deliveries)).json().deliveries;
      expect(first).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null, last_error: 'timeout' });
      expect(Date.parse(first.next_attempt_at) - Date.parse(first.last_attempt_at)).toBe(RETRY_DELAYS_S[0]! * 1000);
      // Not before its time; then tried again.
      expect(await impatient.runOnce()).toBe(0);
      clock.advance(RETRY_DELAYS_S[0]!);
      expect(await impatient.runOnce()).toBe(1);
      expect(silent.requests()).toBe(2);
      expect((await asOwner('GET', deliveries)).json().deliveries[0]).toMatchObject({ status: 'pending', attempts: 2, last_error: 'timeout' });
      await asOwner('DELETE', `/api/v1/projects/${project.id}/webhooks/${hook.id}`);
    } finally {
      await silent.close();
    }
  });
});

describe('the SSRF guard', () => {
  it('refuses private addresses unless WEBHOOKS_ALLOW_PRIVATE, when saved and again when sending', async () => {
    const strict = await createTestApp({ clock, env: { WEBHOOK_POLL_MS: '0' } });
    try {
      const dev = await strict.signUpAndLogIn(uniqueEmail('strict-hooks'));
      const own = (await strict.call('POST', '/api/v1/projects', { token: dev.access_token, body: { name: 'Strict' } })).json();
      for (const url of [receiver.url, 'http://localhost:9/x', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/x']) {
        const refused = await strict.call('POST', `/api/v1/projects/${own.id}/webhooks`, { token: dev.access_token, body: { url, event_types: ['api_key.created'] } });
        expect(refused.statusCode, url).toBe(422);
        expect(refused.json().detail).toBe('url must be a public address: this server does not send webhooks to private or local networks');
      }
      const saved = await strict.call('POST', `/api/v1/projects/${own.id}/webhooks`, { token: dev.access_token, body: { url: 'https://hooks.example.com/in', event_types: ['api_key.created'] } });
      expect(saved.statusCode).toBe(201);
      // A name that resolves to loopback (stored behind the check's back) is refused when connecting.
      await strict.db.updateTable('webhook_endpoints').set({ url: receiver.url.replace('127.0.0.1', 'localhost') }).where('id', '=', saved.json().id).execute();
      await strict.call('POST', `/api/v1/projects/${own.id}/api-keys`, { token: dev.access_token, body: { name: 'k' } });
      expect(await strict.deps.webhooks.runOnce()).toBe(1);
      expect(receiver.received).toHaveLength(0);
      const [delivery] = (await strict.call('GET', `/api/v1/projects/${own.id}/webhooks/${saved.json().id}/deliveries`, { token: dev.access_token })).json().deliveries;
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null, last_error: 'not_public' });
    } finally {
      await strict.close();
    }
  });
});

describe('the event catalogue', () => {
  it('describes every body this file had sent: each parses with its type’s schema', () => {
    const bodies = receiver.everyBody.map((body) => JSON.parse(body) as { type: WebhookEventType });
    const types = new Set(bodies.map((body) => body.type));
    // Every other type was sent above (the organizations' are checked in organizations.test.ts).
    expect(WEBHOOK_EVENT_TYPES.filter((type) => !type.startsWith('organization') && !types.has(type))).toEqual([]);
    for (const body of bodies) expect(webhookEventBodySchema(body.type).safeParse(body).error, JSON.stringify(body)).toBeUndefined();
  });
});
