import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, manualClock, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';

/**
 * Loopback webhooks without WEBHOOKS_ALLOW_PRIVATE (issue 32): a development project may send to a
 * receiver on loopback, but only when this server runs on loopback itself (APP_URL on localhost, the
 * local demo). A production project, a shared install (APP_URL elsewhere) and every other private
 * range stay refused, when saved and again after DNS when sending.
 */

const clock = manualClock(new Date());
const NOT_PUBLIC = 'url must be a public address: this server does not send webhooks to private or local networks';
const DEV_ONLY = 'url must be a public address: loopback receivers are allowed in development projects only';

/** A receiver on loopback counting what it gets. */
async function startReceiver() {
  let received = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received += 1;
      response.statusCode = 204;
      response.setHeader('x-receiver', 'loopback');
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { port, url: `http://127.0.0.1:${port}/hooks`, received: () => received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

/** An app whose APP_URL is `appUrl`, a developer and a project of `environment` on it. */
async function projectOn(t: TestApp, environment: string) {
  const dev = await t.signUpAndLogIn(uniqueEmail('loopback-hooks'));
  const project = (await t.call('POST', '/api/v1/projects', { token: dev.access_token, body: { name: `Hooks ${environment}`, environment } })).json() as { id: string };
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => t.call(method, `/api/v1/projects/${project.id}${url}`, { token: dev.access_token, body });
  const addWebhook = (url: string) => call('POST', '/webhooks', { url, event_types: ['api_key.created'] });
  /** Creates an API key (an api_key.created event) and runs the dispatcher once: the delivery as stored. */
  const deliverTo = async (webhookId: string) => {
    expect((await call('POST', '/api-keys', { name: 'k' })).statusCode).toBe(201);
    expect(await t.deps.webhooks.runOnce()).toBe(1);
    return (await call('GET', `/webhooks/${webhookId}/deliveries`)).json().deliveries[0];
  };
  return { project, call, addWebhook, deliverTo };
}

describe('a server running on loopback (the local demo)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ clock, env: { APP_URL: 'http://localhost:3999', WEBHOOK_POLL_MS: '0' } });
  });
  afterAll(() => t.close());

  it('sends a development project\'s webhooks to a loopback receiver, by address or by name', async () => {
    const dev = await projectOn(t, 'development');
    for (const url of [receiver.url, `http://localhost:${receiver.port}/hooks`]) {
      const before = receiver.received();
      const saved = await dev.addWebhook(url);
      expect(saved.statusCode, saved.body).toBe(201);
      const delivery = await dev.deliverTo(saved.json().id);
      expect(delivery).toMatchObject({ status: 'succeeded', last_status_code: 204 });
      expect(receiver.received()).toBe(before + 1);
      // The team sees the answer of a receiver it was allowed to send to (the delivery's detail).
      const detail = (await dev.call('GET', `/webhooks/${saved.json().id}/deliveries/${delivery.id}`)).json();
      expect(detail.response).toMatchObject({ status_code: 204, headers: expect.arrayContaining([{ name: 'x-receiver', value: 'loopback' }]) });
      await dev.call('PATCH', `/webhooks/${saved.json().id}`, { enabled: false });
    }
  });

  it("refuses a production project's loopback receiver, and stops sending once a development project turns production", async () => {
    const production = await projectOn(t, 'production');
    const refused = await production.addWebhook(receiver.url);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail).toBe(DEV_ONLY);

    const switching = await projectOn(t, 'development');
    const saved = await switching.addWebhook(receiver.url);
    expect(saved.statusCode).toBe(201);
    expect((await switching.call('PATCH', '', { environment: 'production' })).statusCode).toBe(200);
    const before = receiver.received();
    expect(await switching.deliverTo(saved.json().id)).toMatchObject({ status: 'pending', last_error: 'not_public' });
    expect(receiver.received()).toBe(before);
  });

  it('still refuses every private address that is not loopback, saved or resolved', async () => {
    const dev = await projectOn(t, 'development');
    for (const url of ['http://10.0.0.5/hooks', 'http://192.168.1.10/hooks', 'http://169.254.169.254/latest/meta-data', 'http://[fd00::1]/hooks']) {
      const refused = await dev.addWebhook(url);
      expect(refused.statusCode, url).toBe(422);
      expect(refused.json().detail, url).toBe(NOT_PUBLIC);
    }
    // A public-looking address stored behind the check's back is refused when connecting.
    const saved = await dev.addWebhook('https://hooks.example.com/in');
    await t.db.updateTable('webhook_endpoints').set({ url: 'http://10.0.0.5:9/hooks' }).where('id', '=', saved.json().id).execute();
    expect(await dev.deliverTo(saved.json().id)).toMatchObject({ status: 'pending', last_error: 'not_public' });
  });
});

describe('a server on a public address (a shared install)', () => {
  it("refuses a development project's loopback receiver, saved or resolved", async () => {
    const t = await createTestApp({ clock, env: { APP_URL: 'https://auth.example.com', WEBHOOK_POLL_MS: '0' } });
    try {
      const dev = await projectOn(t, 'development');
      for (const url of [receiver.url, `http://localhost:${receiver.port}/hooks`, `http://[::1]:${receiver.port}/hooks`]) {
        const refused = await dev.addWebhook(url);
        expect(refused.statusCode, url).toBe(422);
        expect(refused.json().detail, url).toBe(NOT_PUBLIC);
      }
      const saved = await dev.addWebhook('https://hooks.example.com/in');
      await t.db.updateTable('webhook_endpoints').set({ url: `http://localhost:${receiver.port}/hooks` }).where('id', '=', saved.json().id).execute();
      const before = receiver.received();
      expect(await dev.deliverTo(saved.json().id)).toMatchObject({ status: 'pending', last_error: 'not_public' });
      expect(receiver.received()).toBe(before);
    } finally {
      await t.close();
    }
  });
});
