import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookDeliveryDetail } from '../../shared/schemas/webhooks.js';
import { createTestApp, manualClock, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';

/**
 * A delivery's detail (GET …/webhooks/{id}/deliveries/{delivery_id}): the headers the last attempt sent
 * and the event's body, the answer's status, headers and first 4 KB, who may read it, and deliveries
 * recorded before the detail was kept.
 */

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

/** A receiver on loopback answering the queued answers (204 and nothing else once they run out). */
async function startReceiver() {
  const answers: Answer[] = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const answer = answers.shift() ?? { status: 204 };
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
  return { url, answers, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const clock = manualClock(new Date());
let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let owner: { access_token: string };
let project: { id: string };

const as = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => t.call(method, url, { token, body });
const asOwner = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => as(owner.access_token, method, url, body);
const hooksOf = (projectId: string) => `/api/v1/projects/${projectId}/webhooks`;

async function createWebhook(projectId: string, url = receiver.url) {
  const res = await asOwner('POST', hooksOf(projectId), { url, event_types: ['api_key.created'] });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string };
}

/** A test event to the webhook, sent once; answers the delivery's detail. */
async function deliverTestEvent(projectId: string, hook: { id: string }): Promise<WebhookDeliveryDetail> {
  expect((await asOwner('POST', `${hooksOf(projectId)}/${hook.id}/test`)).statusCode).toBe(201);
  await t.deps.webhooks.runOnce();
  const [delivery] = (await asOwner('GET', `${hooksOf(projectId)}/${hook.id}/deliveries`)).json().deliveries;
  const detail = await asOwner('GET', `${hooksOf(projectId)}/${hook.id}/deliveries/${delivery.id}`);
  expect(detail.statusCode, detail.body).toBe(200);
  return detail.json();
}

const header = (headers: { name: string; value: string }[] | null, name: string) => headers?.find((entry) => entry.name === name)?.value;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { WEBHOOKS_ALLOW_PRIVATE: 'on', WEBHOOK_POLL_MS: '0' } });
  receiver = await startReceiver();
  owner = await t.signUpAndLogIn(uniqueEmail('detail-owner'));
  project = (await asOwner('POST', '/api/v1/projects', { name: 'Detailed' })).json();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

describe('a delivery’s detail', () => {
  it('shows the request as sent (signed, the secret nowhere) and the answer as text', async () => {
    const hook = await createWebhook(project.id);
    receiver.answers.push({ status: 200, headers: { 'content-type': 'text/html', 'x-receiver': 'crm-7' }, body: '<script>alert(1)</script> ok' });
    const detail = await deliverTestEvent(project.id, hook);

    expect(detail).toMatchObject({ event_type: 'webhook.test', status: 'succeeded', attempts: 1, last_status_code: 200 });
    expect(JSON.parse(detail.request.body)).toMatchObject({ type: 'webhook.test', data: { webhook_id: hook.id } });
    expect(header(detail.request.headers, 'content-type')).toBe('application/json');
    expect(header(detail.request.headers, 'webhook-id')).toBe(detail.event_id);
    // The headers and body shown are what a receiver verifies.
    const sent = Object.fromEntries(detail.request.headers!.map(({ name, value }) => [name, value]));
    expect(() => new Webhook(hook.secret).verify(detail.request.body, sent)).not.toThrow();

    expect(detail.response).toEqual({
      status_code: 200,
      headers: expect.arrayContaining([{ name: 'x-receiver', value: 'crm-7' }, { name: 'content-type', value: 'text/html' }]),
      body: '<script>alert(1)</script> ok',
      body_truncated: false,
    });

    // The signing secret is in no stored column.
    const rows = await t.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', hook.id).execute();
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(hook.secret);
    expect(stored).not.toContain(hook.secret.slice('whsec_'.length));
  });

  it('keeps the first 4 KB of a long answer, cut at a character, and shows each attempt’s answer in place of the last', async () => {
    const hook = await createWebhook(project.id);
    const long = `${'x'.repeat(4094)}€€${'y'.repeat(20_000)}`;
    receiver.answers.push({ status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from(`${long}\u0000`) });
    const failed = await deliverTestEvent(project.id, hook);
    expect(failed).toMatchObject({ status: 'pending', last_error: 'http_status', response: { status_code: 500, body_truncated: true } });
    expect(failed.response!.body).toBe('x'.repeat(4094));
    expect(Buffer.byteLength(failed.response!.body!)).toBeLessThanOrEqual(4096);

    // The retry is answered with NUL in a short body: it replaces the first answer (and PostgreSQL takes it).
    receiver.answers.push({ status: 202, body: Buffer.from([0x6f, 0x6b, 0x00]) });
    clock.advance(10);
    await t.deps.webhooks.runOnce();
    const retried = (await asOwner('GET', `${hooksOf(project.id)}/${hook.id}/deliveries/${failed.id}`)).json() as WebhookDeliveryDetail;
    expect(retried).toMatchObject({ status: 'succeeded', attempts: 2, response: { status_code: 202, body: 'ok\uFFFD', body_truncated: false } });
    expect(Number(header(retried.request.headers, 'webhook-timestamp'))).toBeGreaterThan(Number(header(failed.request.headers, 'webhook-timestamp')));
  });

  it('shows the request and no answer when none came, and nothing sent for a disabled endpoint', async () => {
    const closed = await startReceiver();
    await closed.close();
    const hook = await createWebhook(project.id, closed.url);
    const refused = await deliverTestEvent(project.id, hook);
    expect(refused).toMatchObject({ last_error: 'connect_refused', response: null });
    expect(header(refused.request.headers, 'webhook-signature')).toMatch(/^v1,/);

    await t.db.updateTable('webhook_endpoints').set({ enabled: 0 }).where('id', '=', hook.id).execute();
    clock.advance(10);
    await t.deps.webhooks.runOnce();
    const disabled = (await asOwner('GET', `${hooksOf(project.id)}/${hook.id}/deliveries/${refused.id}`)).json() as WebhookDeliveryDetail;
    expect(disabled).toMatchObject({ status: 'failed', last_error: 'endpoint_disabled', request: { headers: null }, response: null });
  });

  it('still shows a delivery recorded before the detail was kept, its parts not recorded', async () => {
    const hook = await createWebhook(project.id);
    const detail = await deliverTestEvent(project.id, hook);
    // As the row of an older version: an answer's code, nothing else.
    await t.db
      .updateTable('webhook_deliveries')
      .set({ last_status_code: 500, request_headers: null, response_headers: null, response_body: null, response_body_truncated: null })
      .where('id', '=', detail.id)
      .execute();
    const old = (await asOwner('GET', `${hooksOf(project.id)}/${hook.id}/deliveries/${detail.id}`)).json() as WebhookDeliveryDetail;
    expect(old.request.headers).toBeNull();
    expect(JSON.parse(old.request.body)).toMatchObject({ type: 'webhook.test' });
    expect(old.response).toEqual({ status_code: 500, headers: null, body: null, body_truncated: false });
  });
});

describe('who reads a delivery', () => {
  it('the team, a viewer included (who cannot resend); not an outsider, and not through another project or webhook', async () => {
    const hook = await createWebhook(project.id);
    const detail = await deliverTestEvent(project.id, hook);
    const path = `${hooksOf(project.id)}/${hook.id}/deliveries/${detail.id}`;

    const viewerEmail = uniqueEmail('detail-viewer');
    const viewer = await t.signUpAndLogIn(viewerEmail);
    expect((await asOwner('POST', `/api/v1/projects/${project.id}/invitations`, { email: viewerEmail, role: 'viewer' })).statusCode).toBe(201);
    const invitation = await t.mail.waitFor(viewerEmail, /invited to/i);
    expect((await as(viewer.access_token, 'POST', '/api/v1/invitations/accept', { token: new URL(invitation.link!).searchParams.get('token') })).statusCode).toBe(200);
    expect((await as(viewer.access_token, 'GET', path)).json()).toMatchObject({ id: detail.id, request: { body: detail.request.body } });
    expect((await as(viewer.access_token, 'POST', `${path}/resend`)).statusCode).toBe(403);

    const outsider = await t.signUpAndLogIn(uniqueEmail('detail-outsider'));
    expect((await as(outsider.access_token, 'GET', path)).statusCode).toBe(404);

    // The owner's other project, and another webhook of this one: the delivery is not theirs.
    const other = (await asOwner('POST', '/api/v1/projects', { name: 'Other' })).json() as { id: string };
    const otherHook = await createWebhook(other.id);
    const notFound = await asOwner('GET', `${hooksOf(other.id)}/${otherHook.id}/deliveries/${detail.id}`);
    expect(notFound.statusCode).toBe(404);
    expect(notFound.json()).toEqual({ detail: 'Delivery not found' });
    const sibling = await createWebhook(project.id);
    expect((await asOwner('GET', `${hooksOf(project.id)}/${sibling.id}/deliveries/${detail.id}`)).statusCode).toBe(404);
    expect((await asOwner('GET', `${hooksOf(other.id)}/${hook.id}/deliveries/${detail.id}`)).json()).toEqual({ detail: 'Webhook not found' });
  });

  it('resends: a new delivery of the same event, with its own detail once sent', async () => {
    const hook = await createWebhook(project.id);
    const detail = await deliverTestEvent(project.id, hook);
    const resent = await asOwner('POST', `${hooksOf(project.id)}/${hook.id}/deliveries/${detail.id}/resend`);
    expect(resent.statusCode).toBe(201);
    receiver.answers.push({ status: 200, body: 'again' });
    await t.deps.webhooks.runOnce();
    const again = (await asOwner('GET', `${hooksOf(project.id)}/${hook.id}/deliveries/${resent.json().id}`)).json() as WebhookDeliveryDetail;
    expect(again).toMatchObject({ event_id: detail.event_id, status: 'succeeded', request: { body: detail.request.body }, response: { body: 'again' } });
  });
});
