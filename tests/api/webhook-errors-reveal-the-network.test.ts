import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { up as categorizeStoredErrors } from '../../migrations/2026_11_25_0400_categorize_webhook_errors.js';
import { createWebhookDispatcher, type WebhookDispatcher } from '../../server/modules/webhooks/dispatcher.js';
import { createTestApp, manualClock, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY } from '../helpers/self-signed-tls.js';

/**
 * A developer points a webhook at addresses inside the server's network and reads what the delivery
 * says went wrong: resolver and socket text ("getaddrinfo ENOTFOUND db.internal", "connect
 * ECONNREFUSED 10.0.0.5:5432", a certificate's subject) maps that network. A delivery shows a category
 * only (dns_failed, connect_refused, timeout, tls, http_status, not_public, connection_failed,
 * endpoint_disabled); the detail goes to the server's log.
 */

/** Anything of the resolver, the socket or TLS that must not reach the project's team. */
const RAW_DETAIL = /ECONN|ENOTFOUND|EAI_|getaddrinfo|certificate|self.signed|SSL|127\.0\.0\.1|localhost|\.invalid|public address|Timed out|Answered|fetch failed/i;

const clock = manualClock(new Date());
let open: TestApp;
let strict: TestApp;

interface Team {
  app: TestApp;
  token: string;
  projectId: string;
}
let openTeam: Team;
let strictTeam: Team;

async function teamOn(app: TestApp): Promise<Team> {
  const dev = await app.signUpAndLogIn(uniqueEmail('hook-errors'));
  const project = (await app.call('POST', '/api/v1/projects', { token: dev.access_token, body: { name: 'Probe' } })).json();
  return { app, token: dev.access_token, projectId: project.id };
}

/**
 * One delivery to `url`: an endpoint for api_key.created (stored directly when the save check would
 * refuse it, as a name that resolved elsewhere when saved), one event, one attempt. Answers the
 * delivery as the team's API shows it, and that answer's raw body.
 */
async function deliverTo(team: Team, url: string, dispatcher: WebhookDispatcher = team.app.deps.webhooks) {
  const as = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => team.app.call(method, `/api/v1/projects/${team.projectId}${path}`, { token: team.token, body });
  const created = await as('POST', '/webhooks', { url: 'https://hooks.example.com/in', event_types: ['api_key.created'] });
  expect(created.statusCode, created.body).toBe(201);
  const hookId = created.json().id as string;
  await team.app.db.updateTable('webhook_endpoints').set({ url }).where('id', '=', hookId).execute();
  await as('POST', '/api-keys', { name: 'probe' });
  expect(await dispatcher.runOnce()).toBe(1);
  const answer = await as('GET', `/webhooks/${hookId}/deliveries`);
  await as('DELETE', `/webhooks/${hookId}`);
  return { delivery: answer.json().deliveries[0], body: answer.body };
}

async function listening(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

function closing(server: net.Server & { closeAllConnections?: () => void }): Promise<void> {
  server.closeAllConnections?.();
  return new Promise((resolve) => server.close(() => resolve()));
}

beforeAll(async () => {
  open = await createTestApp({ clock, env: { WEBHOOKS_ALLOW_PRIVATE: 'on', WEBHOOK_POLL_MS: '0' } });
  strict = await createTestApp({ clock, env: { WEBHOOK_POLL_MS: '0' } });
  openTeam = await teamOn(open);
  strictTeam = await teamOn(strict);
});
afterAll(async () => {
  await open?.close();
  await strict?.close();
});

describe('a failed webhook delivery shows a category, never the raw text', () => {
  it('connect_refused: nothing listens on the port (the detail goes to the server log)', async () => {
    // A port that was just free: listened on, then closed.
    const server = net.createServer();
    const port = await listening(server);
    await closing(server);
    const log = vi.spyOn(open.deps.logger, 'warn');
    try {
      const { delivery, body } = await deliverTo(openTeam, `http://127.0.0.1:${port}/hooks`);
      expect(delivery).toMatchObject({ status: 'pending', last_status_code: null, last_error: 'connect_refused' });
      expect(body).not.toMatch(RAW_DETAIL);
      const [fields] = log.mock.calls.find(([, message]) => message === 'webhook delivery failed') as unknown as [{ err: { cause: { code: string } }; category: string; host: string }];
      expect(fields).toMatchObject({ category: 'connect_refused', host: `127.0.0.1:${port}`, err: { cause: { code: 'ECONNREFUSED' } } });
    } finally {
      log.mockRestore();
    }
  });

  it('timeout: the endpoint takes the request and never answers', async () => {
    let requests = 0;
    const silent = http.createServer(() => (requests += 1));
    const port = await listening(silent);
    try {
      const { delivery, body } = await deliverTo(openTeam, `http://127.0.0.1:${port}/silent`, createWebhookDispatcher(open.deps, { timeoutMs: 300 }));
      expect(requests).toBe(1);
      expect(delivery).toMatchObject({ status: 'pending', last_status_code: null, last_error: 'timeout' });
      expect(body).not.toMatch(RAW_DETAIL);
    } finally {
      await closing(silent);
    }
  });

  it('http_status: the endpoint answers something other than 2xx (its status is shown)', async () => {
    const failing = http.createServer((_request, response) => {
      response.statusCode = 503;
      response.end('upstream db.internal:5432 is down');
    });
    const port = await listening(failing);
    try {
      const { delivery, body } = await deliverTo(openTeam, `http://127.0.0.1:${port}/hooks`);
      expect(delivery).toMatchObject({ status: 'pending', last_status_code: 503, last_error: 'http_status' });
      expect(body).not.toMatch(RAW_DETAIL);
      expect(body).not.toContain('db.internal');
    } finally {
      await closing(failing);
    }
  });

  it('tls: an https endpoint with a certificate nobody vouches for', async () => {
    const selfSigned = https.createServer({ key: SELF_SIGNED_KEY, cert: SELF_SIGNED_CERT }, (_request, response) => response.end());
    const port = await listening(selfSigned);
    try {
      const { delivery, body } = await deliverTo(openTeam, `https://localhost:${port}/hooks`);
      expect(delivery).toMatchObject({ status: 'pending', last_status_code: null, last_error: 'tls' });
      expect(body).not.toMatch(RAW_DETAIL);
    } finally {
      await closing(selfSigned);
    }
  });

  it('dns_failed: a host name that does not resolve, with and without WEBHOOKS_ALLOW_PRIVATE', async () => {
    for (const team of [openTeam, strictTeam]) {
      const { delivery, body } = await deliverTo(team, 'http://hooks.does-not-exist.invalid/in');
      expect(delivery).toMatchObject({ status: 'pending', last_status_code: null, last_error: 'dns_failed' });
      expect(body).not.toMatch(RAW_DETAIL);
    }
  });

  it('not_public: a private address (a literal, or a name resolving to one) while WEBHOOKS_ALLOW_PRIVATE is off', async () => {
    const receiver = http.createServer((_request, response) => response.end());
    const port = await listening(receiver);
    try {
      for (const url of [`http://127.0.0.1:${port}/hooks`, `http://localhost:${port}/hooks`]) {
        const { delivery, body } = await deliverTo(strictTeam, url);
        expect(delivery, url).toMatchObject({ status: 'pending', last_status_code: null, last_error: 'not_public' });
        expect(body).not.toMatch(RAW_DETAIL);
      }
    } finally {
      await closing(receiver);
    }
  });
});

describe('errors an earlier version stored as text', () => {
  it('are shown as their category after the migration', async () => {
    const earlier: Array<[string, string]> = [
      ['Answered 500', 'http_status'],
      ['Timed out after 10 s', 'timeout'],
      ['hooks.example.com is not a public address', 'not_public'],
      ['getaddrinfo ENOTFOUND db.internal', 'dns_failed'],
      ['getaddrinfo EAI_AGAIN db.internal', 'dns_failed'],
      ['connect ECONNREFUSED 10.0.0.5:5432', 'connect_refused'],
      ['self-signed certificate', 'tls'],
      ['unable to verify the first certificate', 'tls'],
      ['Hostname/IP does not match certificate\'s altnames: Host: db.internal', 'tls'],
      ['80AC0EE9997F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number', 'tls'],
      ['The endpoint is disabled', 'endpoint_disabled'],
      ['other side closed', 'connection_failed'],
      ['connect EHOSTUNREACH 10.9.9.9:443', 'connection_failed'],
    ];
    const as = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => open.call(method, `/api/v1/projects/${openTeam.projectId}${path}`, { token: openTeam.token, body });
    const hookId = (await as('POST', '/webhooks', { url: 'https://hooks.example.com/in', event_types: ['api_key.created'] })).json().id as string;
    for (const [index] of earlier.entries()) await as('POST', '/api-keys', { name: `earlier ${index}` });
    const rows = await open.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', hookId).orderBy('created_at').orderBy('id').execute();
    expect(rows).toHaveLength(earlier.length);
    for (const [index, row] of rows.entries()) {
      await open.db.updateTable('webhook_deliveries').set({ last_error: earlier[index]![0], attempts: 1 }).where('id', '=', row.id).execute();
    }

    await categorizeStoredErrors(open.db);

    const shown = (await as('GET', `/webhooks/${hookId}/deliveries?per_page=50`)).json().deliveries as Array<{ id: string; last_error: string }>;
    const byId = new Map(shown.map((delivery) => [delivery.id, delivery.last_error]));
    expect(rows.map((row) => byId.get(row.id))).toEqual(earlier.map(([, category]) => category));
    await as('DELETE', `/webhooks/${hookId}`);
  });
});
