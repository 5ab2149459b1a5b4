import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSseParser, type ServerSentEvent } from '../../packages/node/src/sse.js';
import { createTestApp, manualClock, STRONG_PASSWORD, type TestApp } from '../helpers/create-test-app.js';
import { projectWithKey, sessionIdOf } from '../helpers/project-end-users.js';
import { until } from '../helpers/until.js';

/**
 * The revocation feed (issue 31): every way an end user's session ends before its time is listed,
 * paged by an opaque cursor, to the project's key only, and streamed as server-sent events.
 */
let t: TestApp;
const agent = new Agent();
const clock = manualClock(new Date());
beforeAll(async () => {
  t = await createTestApp({ clock, env: { REVOCATION_POLL_MS: '50', REVOCATION_HEARTBEAT_MS: '200' } });
});
afterAll(async () => {
  // undici keeps a spare connection after an aborted stream, which the server's close would wait for.
  await agent.close();
  await t?.close();
});

type Shop = Awaited<ReturnType<typeof projectWithKey>>;
type Revocation = ({ session_id: string } | { client_id: string }) & { revoked_at: string; expires_at: string };
interface Page {
  revocations: Revocation[];
  cursor: string;
  has_more: boolean;
}

async function feed(shop: Shop, query = ''): Promise<Page> {
  const res = await t.call('GET', `/public/api/v1/projects/${shop.project.project_key}/revocations${query}`, { headers: { 'x-api-key': shop.apiKey } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const idsIn = (page: Page) => page.revocations.map((row) => ('session_id' in row ? row.session_id : `client:${row.client_id}`));

/**
 * Until the feed lists every one of these sessions. On PostgreSQL a row is read once every transaction
 * older than its own has ended, anywhere on the server (parallel test files included): a few ms later.
 */
async function listed(shop: Shop, sessionIds: string[]): Promise<string[]> {
  let ids: string[] = [];
  await until(async () => {
    ids = idsIn(await feed(shop));
    return sessionIds.every((id) => ids.includes(id));
  }, `the feed to list ${sessionIds.join(', ')}`, 5000);
  return ids;
}

describe('the feed lists a session after each way it ends', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await projectWithKey(t, 'feed-kinds');
  });
  const ownerCall = (method: 'POST' | 'PATCH' | 'DELETE', path: string) => t.call(method, `/api/v1/projects/${shop.project.id}${path}`, { token: shop.developer.access_token });
  const userIdOf = async (token: string) => (await t.call('GET', '/public/api/v1/profile', { token, headers: shop.headers })).json().id as string;

  it('sign-out, revoking one of their own, revoking the others, and the team revoking one', async () => {
    const { email, tokens } = await shop.signUp('many');
    const second = await shop.logIn(email);
    const third = await shop.logIn(email);
    const fourth = await shop.logIn(email);
    expect((await t.call('POST', '/public/api/v1/auth/logout', { token: tokens.access_token, headers: shop.headers, body: {} })).statusCode).toBe(200);
    expect((await t.call('DELETE', `/public/api/v1/auth/sessions/${sessionIdOf(second.access_token)}`, { token: third.access_token, headers: shop.headers })).statusCode).toBe(200);
    expect((await ownerCall('DELETE', `/sessions/${sessionIdOf(third.access_token)}`)).statusCode).toBe(200);
    const fifth = await shop.logIn(email);
    expect((await t.call('POST', '/public/api/v1/auth/sessions/revoke-others', { token: fifth.access_token, headers: shop.headers })).statusCode).toBe(200);
    const ids = await listed(shop, [tokens, second, third, fourth].map((session) => sessionIdOf(session.access_token)));
    expect(ids).not.toContain(sessionIdOf(fifth.access_token));
  });

  it('refresh-token reuse', async () => {
    const { tokens } = await shop.signUp('reuse');
    expect((await t.call('POST', '/public/api/v1/auth/refresh', { body: { refresh_token: tokens.refresh_token }, headers: shop.headers })).statusCode).toBe(200);
    clock.advance(120);
    expect((await t.call('POST', '/public/api/v1/auth/refresh', { body: { refresh_token: tokens.refresh_token }, headers: shop.headers })).statusCode).toBe(401);
    await listed(shop, [sessionIdOf(tokens.access_token)]);
  });

  it('password change and password reset (signed out everywhere), and the team signing them out everywhere', async () => {
    const changer = await shop.signUp('changer');
    const other = await shop.logIn(changer.email);
    const changed = await t.call('POST', '/public/api/v1/auth/change-password', { token: changer.tokens.access_token, headers: shop.headers, body: { current_password: STRONG_PASSWORD, new_password: 'Brand-New-Pass-8' } });
    expect(changed.statusCode, changed.body).toBe(200);
    await listed(shop, [sessionIdOf(other.access_token)]);

    const forgetful = await shop.signUp('forgetful');
    const before = t.mail.messages.length;
    expect((await t.call('POST', '/public/api/v1/auth/forgot-password', { body: { email: forgetful.email }, headers: shop.headers })).statusCode).toBe(200);
    const token = new URL((await t.mail.waitFor(forgetful.email, /reset/i, { after: before })).link!).searchParams.get('token');
    const reset = await t.call('POST', '/public/api/v1/auth/reset-password', { body: { token, new_password: 'Brand-New-Pass-8' }, headers: shop.headers });
    expect(reset.statusCode, reset.body).toBe(200);
    await listed(shop, [sessionIdOf(forgetful.tokens.access_token)]);

    const everywhere = await shop.signUp('everywhere');
    expect((await ownerCall('POST', `/users/${await userIdOf(everywhere.tokens.access_token)}/sign-out-everywhere`)).statusCode).toBe(200);
    await listed(shop, [sessionIdOf(everywhere.tokens.access_token)]);
  });

  it('deactivation, deletion by the team, deletion by the end user, and deleting the project', async () => {
    const deactivated = await shop.signUp('deactivated');
    expect((await ownerCall('PATCH', `/users/${await userIdOf(deactivated.tokens.access_token)}/toggle-active`)).statusCode).toBe(200);
    const deleted = await shop.signUp('deleted');
    const deletedId = await userIdOf(deleted.tokens.access_token);
    expect((await ownerCall('DELETE', `/users/${deletedId}`)).statusCode).toBe(200);
    const leaving = await shop.signUp('leaving');
    const leavingOther = await shop.logIn(leaving.email);
    const left = await t.call('POST', '/public/api/v1/auth/delete-account', { token: leaving.tokens.access_token, headers: shop.headers, body: { password: STRONG_PASSWORD } });
    expect(left.statusCode, left.body).toBe(200);
    await listed(shop, [deactivated.tokens, deleted.tokens, leaving.tokens, leavingOther].map((session) => sessionIdOf(session.access_token)));

    const doomed = await projectWithKey(t, 'feed-doomed');
    const customer = await doomed.signUp('customer');
    const rows = () => t.db.selectFrom('session_revocations').select('session_id').where('session_id', '=', sessionIdOf(customer.tokens.access_token)).execute();
    expect(await rows()).toEqual([]);
    expect((await t.call('DELETE', `/api/v1/projects/${doomed.project.id}`, { token: doomed.developer.access_token })).statusCode).toBe(200);
    expect(await rows()).toHaveLength(1);
  });

  it('a machine client revoked, or deleted while it could still hold tokens, is listed by its client_id (once)', async () => {
    const create = async (name: string) => (await t.call('POST', `/api/v1/projects/${shop.project.id}/machine-clients`, { token: shop.developer.access_token, body: { name, scopes: [] } })).json() as { id: string; client_id: string };
    const revoked = await create('Revoked');
    const deleted = await create('Deleted');
    const revokedThenDeleted = await create('Revoked, then deleted');
    expect((await t.call('PATCH', `/api/v1/projects/${shop.project.id}/machine-clients/${revoked.id}`, { token: shop.developer.access_token, body: { revoked: true } })).statusCode).toBe(200);
    expect((await ownerCall('DELETE', `/machine-clients/${deleted.id}`)).statusCode).toBe(200);
    expect((await t.call('PATCH', `/api/v1/projects/${shop.project.id}/machine-clients/${revokedThenDeleted.id}`, { token: shop.developer.access_token, body: { revoked: true } })).statusCode).toBe(200);
    expect((await ownerCall('DELETE', `/machine-clients/${revokedThenDeleted.id}`)).statusCode).toBe(200);

    const ids = await listed(shop, [revoked, deleted, revokedThenDeleted].map((client) => `client:${client.client_id}`));
    expect(ids.filter((id) => id === `client:${revokedThenDeleted.client_id}`)).toHaveLength(1);
    const row = (await feed(shop)).revocations.find((entry) => 'client_id' in entry && entry.client_id === revoked.client_id)!;
    expect(Object.keys(row).sort()).toEqual(['client_id', 'expires_at', 'revoked_at']);
  });

  it('the idle timeout', async () => {
    const idler = await shop.signUp('idler');
    expect((await t.call('PUT', '/public/api/v1/profile', { token: idler.tokens.access_token, headers: shop.headers, body: { session_idle_timeout_minutes: 15 } })).statusCode).toBe(200);
    clock.advance(15 * 60 + 1);
    expect((await t.call('GET', '/public/api/v1/profile', { token: idler.tokens.access_token, headers: shop.headers })).statusCode).toBe(401);
    await listed(shop, [sessionIdOf(idler.tokens.access_token)]);
  });
});

describe('reading the feed', () => {
  it('pages by cursor, oldest first, and keeps the cursor when nothing came', async () => {
    const shop = await projectWithKey(t, 'feed-pages');
    const { email } = await shop.signUp('pager');
    const sessions: string[] = [];
    for (let i = 0; i < 5; i++) {
      const tokens = await shop.logIn(email);
      sessions.push(sessionIdOf(tokens.access_token));
      expect((await t.call('POST', '/public/api/v1/auth/logout', { token: tokens.access_token, headers: shop.headers, body: {} })).statusCode).toBe(200);
    }
    await listed(shop, sessions);
    const first = await feed(shop, '?limit=2');
    expect(idsIn(first)).toEqual(sessions.slice(0, 2));
    expect(first.has_more).toBe(true);
    const second = await feed(shop, `?limit=2&since=${first.cursor}`);
    expect(idsIn(second)).toEqual(sessions.slice(2, 4));
    const third = await feed(shop, `?limit=2&since=${second.cursor}`);
    expect(idsIn(third)).toEqual(sessions.slice(4));
    expect(third.has_more).toBe(false);
    const empty = await feed(shop, `?since=${third.cursor}`);
    expect(empty).toEqual({ revocations: [], cursor: third.cursor, has_more: false });
    const row = third.revocations[0]!;
    expect(Date.parse(row.expires_at) - Date.parse(row.revoked_at)).toBe(24 * 60 * 60 * 1000);
  });

  it("needs the project's own key; a broken cursor is a 422", async () => {
    const shop = await projectWithKey(t, 'feed-key');
    const other = await projectWithKey(t, 'feed-other');
    const url = `/public/api/v1/projects/${shop.project.project_key}/revocations`;
    expect((await t.call('GET', url)).statusCode).toBe(401);
    expect((await t.call('GET', url, { headers: { 'x-api-key': 'ak_nope' } })).statusCode).toBe(401);
    const foreign = await t.call('GET', url, { headers: { 'x-api-key': other.apiKey } });
    expect(foreign.statusCode).toBe(404);
    expect((await t.call('GET', `${url}/stream`, { headers: { 'x-api-key': other.apiKey } })).statusCode).toBe(404);
    const broken = await t.call('GET', `${url}?since=nope`, { headers: { 'x-api-key': shop.apiKey } });
    expect(broken.statusCode).toBe(422);
    expect((await t.call('GET', `${url}/stream`, { headers: { 'x-api-key': shop.apiKey, 'last-event-id': 'nope' } })).statusCode).toBe(422);
  });

  it('forgets rows once every access token of their sessions has expired (the retention job)', async () => {
    const shop = await projectWithKey(t, 'feed-retention');
    const { tokens } = await shop.signUp('old');
    expect((await t.call('POST', '/public/api/v1/auth/logout', { token: tokens.access_token, headers: shop.headers, body: {} })).statusCode).toBe(200);
    const { runRetention } = await import('../../server/modules/retention/retention.service.js');
    expect(await listed(shop, [sessionIdOf(tokens.access_token)])).toEqual([sessionIdOf(tokens.access_token)]);
    expect((await runRetention(t.deps)).revocations).toBe(0);
    clock.advance(24 * 60 * 60 + 1);
    expect((await runRetention(t.deps)).revocations).toBeGreaterThanOrEqual(1);
    expect(idsIn(await feed(shop))).toEqual([]);
  });
});

/** An open stream over HTTP: its events as they arrive, and a wait for the next one matching. */
async function openStream(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal, dispatcher: agent } as RequestInit);
  const events: ServerSentEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const parser = createSseParser({
    onEvent: (event) => {
      events.push(event);
      for (const wake of waiters) wake();
    },
    onComment: (text) => {
      comments.push(text);
      for (const wake of waiters) wake();
    },
  });
  let ended = false;
  const done = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) parser.push(decoder.decode(chunk, { stream: true }));
    } catch {
      // aborted
    }
    ended = true;
    for (const wake of waiters) wake();
  })();
  const until = (condition: () => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (condition()) {
          waiters.delete(check);
          resolve();
        } else if (ended) {
          waiters.delete(check);
          reject(new Error(`the stream ended before ${what}`));
        }
      };
      waiters.add(check);
      check();
    });
  return {
    response,
    events,
    comments,
    until,
    revoked: () => events.filter((event) => event.event === 'revocation').map((event) => JSON.parse(event.data).session_id as string),
    ended: () => done,
    close: () => controller.abort(),
  };
}

describe('the stream', () => {
  let url: string;
  beforeAll(async () => {
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('replays, says ready, delivers revocations as they happen with their cursors, resumes from Last-Event-ID and sends heartbeats', async () => {
    const shop = await projectWithKey(t, 'feed-stream');
    const early = await shop.signUp('early');
    expect((await t.call('POST', '/public/api/v1/auth/logout', { token: early.tokens.access_token, headers: shop.headers, body: {} })).statusCode).toBe(200);
    // Readable first (on PostgreSQL once older transactions anywhere have ended), so the replay is what carries it.
    await listed(shop, [sessionIdOf(early.tokens.access_token)]);
    const streamUrl = `${url}/public/api/v1/projects/${shop.project.project_key}/revocations/stream`;
    const stream = await openStream(streamUrl, { 'x-api-key': shop.apiKey });
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await stream.until(() => stream.events.some((event) => event.event === 'ready'), 'ready');
    expect(stream.revoked()).toEqual([sessionIdOf(early.tokens.access_token)]);

    const late = await shop.signUp('late');
    expect((await t.call('POST', '/public/api/v1/auth/logout', { token: late.tokens.access_token, headers: shop.headers, body: {} })).statusCode).toBe(200);
    await stream.until(() => stream.revoked().length === 2, 'the second revocation');
    expect(stream.revoked()[1]).toBe(sessionIdOf(late.tokens.access_token));
    await stream.until(() => stream.comments.includes('heartbeat'), 'a heartbeat');
    const page = await feed(shop);
    expect(idsIn(page)).toEqual(stream.revoked());
    const lastEvent = stream.events.filter((event) => event.event === 'revocation').at(-1)!;
    expect(lastEvent.id).toBe(page.cursor);
    stream.close();

    const firstEvent = stream.events.find((event) => event.event === 'revocation')!;
    const resumed = await openStream(streamUrl, { 'x-api-key': shop.apiKey, 'last-event-id': firstEvent.id });
    await resumed.until(() => resumed.events.some((event) => event.event === 'ready'), 'ready');
    expect(resumed.revoked()).toEqual([sessionIdOf(late.tokens.access_token)]);
    resumed.close();
    await resumed.ended();
  });

  it("carries only its own project's revocations, and ends when the server closes", async () => {
    const shop = await projectWithKey(t, 'feed-own');
    const other = await projectWithKey(t, 'feed-neighbour');
    const stream = await openStream(`${url}/public/api/v1/projects/${shop.project.project_key}/revocations/stream`, { 'x-api-key': shop.apiKey });
    await stream.until(() => stream.events.some((event) => event.event === 'ready'), 'ready');
    const neighbour = await other.signUp('neighbour');
    expect((await t.call('POST', '/public/api/v1/auth/logout', { token: neighbour.tokens.access_token, headers: other.headers, body: {} })).statusCode).toBe(200);
    const mine = await shop.signUp('mine');
    expect((await t.call('POST', '/public/api/v1/auth/logout', { token: mine.tokens.access_token, headers: shop.headers, body: {} })).statusCode).toBe(200);
    await stream.until(() => stream.revoked().length === 1, 'its own revocation');
    expect(stream.revoked()).toEqual([sessionIdOf(mine.tokens.access_token)]);
    expect(t.deps.revocationStreams.size()).toBe(1);
    // What the server's shutdown runs first (preClose): the stream ends, and the reader sees its end.
    t.deps.revocationStreams.close();
    await stream.ended();
    expect(t.deps.revocationStreams.size()).toBe(0);
  });
});
