import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, manualClock, type TestApp } from '../../../tests/helpers/create-test-app.js';
import { projectWithKey, sessionIdOf } from '../../../tests/helpers/project-end-users.js';
import { until } from '../../../tests/helpers/until.js';
import { createAuthPlatform, type AuthPlatform } from '../src/index.js';

/**
 * requireAuth in an Express 5 app and a Fastify app on loopback, verifying a real server's tokens
 * offline, and refusing a revoked session's token within 5 s through the revocation feed, with no
 * request to the server per call (every request the package makes is counted).
 */
const DAY_S = 24 * 60 * 60;
let t: TestApp;
let serverUrl: string;
// The test app's clock starts two days back, so the first sign-in's token is already expired in real time.
const clock = manualClock(new Date(Date.now() - 2 * DAY_S * 1000));
let shop: Awaited<ReturnType<typeof projectWithKey>>;
let expiredToken: string;
const agent = new Agent();
const toServer: string[] = [];
let auth: AuthPlatform;
let expressUrl: string;
let expressServer: import('node:http').Server;
let fastify: FastifyInstance;
let fastifyUrl: string;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { REVOCATION_POLL_MS: '100' } });
  serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  shop = await projectWithKey(t, 'node-sdk');
  expiredToken = (await shop.signUp('expired')).tokens.access_token;
  clock.advance(2 * DAY_S);

  auth = createAuthPlatform({
    url: serverUrl,
    issuer: `http://app.test/projects/${shop.project.project_key}`,
    projectKey: shop.project.project_key,
    apiKey: shop.apiKey,
    fetch: (input, init) => {
      toServer.push(new URL(String(input)).pathname);
      return fetch(input, { ...init, dispatcher: agent } as RequestInit);
    },
  });
  await auth.start();

  const app = express();
  app.get('/me', auth.requireAuth(), (req, res) => {
    res.json((req as unknown as { auth: unknown }).auth);
  });
  app.get('/invoices', auth.requireAuth({ permission: 'invoices:read' }), (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/billing', auth.requireAuth({ role: 'org:billing' }), (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/bare', (_req, res) => {
    res.json({ ok: true });
  });
  await new Promise<void>((resolve) => {
    expressServer = app.listen(0, '127.0.0.1', () => resolve());
  });
  expressUrl = `http://127.0.0.1:${(expressServer.address() as AddressInfo).port}`;

  fastify = Fastify();
  fastify.get('/me', { preHandler: auth.requireAuth() }, async (request) => (request as unknown as { auth: unknown }).auth);
  fastify.get('/invoices', { preHandler: auth.requireAuth({ permission: 'invoices:read' }) }, async () => ({ ok: true }));
  fastify.get('/billing', { preHandler: auth.requireAuth({ role: 'org:billing' }) }, async () => ({ ok: true }));
  fastifyUrl = await fastify.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await auth?.close();
  await fastify?.close();
  expressServer?.closeAllConnections();
  await new Promise((resolve) => expressServer?.close(resolve));
  await agent.close();
  await t?.close();
});

const get = async (base: string, path: string, token?: string) => {
  const response = await fetch(`${base}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {}, dispatcher: agent } as RequestInit);
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, challenge: response.headers.get('www-authenticate') };
};

describe.each([
  ['Express 5', () => expressUrl],
  ['Fastify', () => fastifyUrl],
])('requireAuth in %s', (_name, base) => {
  it('accepts a valid token and tells who is calling', async () => {
    const { tokens } = await shop.signUp('valid');
    const me = await get(base(), '/me', tokens.access_token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ sessionId: sessionIdOf(tokens.access_token), organization: null });
    expect(typeof me.body.userId).toBe('string');
  });

  it('refuses no token, an expired one, one of another project (audience and key) and a tampered one', async () => {
    expect(await get(base(), '/me')).toMatchObject({ status: 401, body: { detail: 'Missing bearer token' } });
    expect(await get(base(), '/me', expiredToken)).toMatchObject({ status: 401, body: { detail: 'The access token has expired' }, challenge: 'Bearer error="invalid_token"' });
    const other = await projectWithKey(t, 'node-sdk-other');
    const foreign = (await other.signUp('foreign')).tokens.access_token;
    expect(await get(base(), '/me', foreign)).toMatchObject({ status: 401, body: { detail: 'The access token is not valid' } });
    const { tokens } = await shop.signUp('tampered');
    const [header, payload, signature] = tokens.access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, org_role: 'org:admin' })).toString('base64url')}.${signature}`;
    expect((await get(base(), '/me', tampered)).status).toBe(401);
  });
});

describe('permissions and roles come from the organization claims of the token', () => {
  it('a member with the role that gives the permission passes; one without it, or outside the organization, is refused 403', async () => {
    // The developer signed in two (test clock) days ago: a fresh token first.
    const refreshed = await t.call('POST', '/api/v1/auth/refresh', { body: { refresh_token: shop.developer.refresh_token } });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const owner = { token: refreshed.json().access_token as string };
    expect((await t.call('POST', `/api/v1/projects/${shop.project.id}/roles`, { ...owner, body: { key: 'org:billing', name: 'Billing', permissions: ['invoices:read'] } })).statusCode).toBe(201);
    const org = (await t.call('POST', '/public/api/v1/organizations', { headers: shop.headers, body: { name: 'Acme' } })).json() as { id: string };
    const inOrg = async (name: string, role?: string) => {
      const { tokens } = await shop.signUp(name);
      const userId = (await t.call('GET', '/public/api/v1/profile', { token: tokens.access_token, headers: shop.headers })).json().id;
      const added = await t.call('POST', `/public/api/v1/organizations/${org.id}/members`, { headers: shop.headers, body: { user_id: userId, ...(role && { role }) } });
      expect(added.statusCode, added.body).toBe(201);
      const switched = await t.call('POST', '/public/api/v1/auth/switch-organization', { token: tokens.access_token, headers: shop.headers, body: { organization_id: org.id } });
      expect(switched.statusCode, switched.body).toBe(200);
      return switched.json().access_token as string;
    };
    const billing = await inOrg('billing', 'org:billing');
    const member = await inOrg('member');
    const outsider = (await shop.signUp('outsider')).tokens.access_token;
    for (const base of [expressUrl, fastifyUrl]) {
      expect(await get(base, '/invoices', billing)).toMatchObject({ status: 200 });
      expect(await get(base, '/billing', billing)).toMatchObject({ status: 200 });
      expect(await get(base, '/me', billing)).toMatchObject({ body: { organization: { id: org.id, role: 'org:billing', permissions: ['invoices:read'] } } });
      expect(await get(base, '/invoices', member)).toMatchObject({ status: 403, body: { detail: 'This needs the permission invoices:read' }, challenge: 'Bearer error="insufficient_scope"' });
      expect(await get(base, '/billing', member)).toMatchObject({ status: 403, body: { detail: 'This needs the role org:billing' } });
      expect((await get(base, '/invoices', outsider)).status).toBe(403);
    }
  });
});

describe('revocation', () => {
  it("refuses a revoked session's token within 5 s, with no request to the server per call", async () => {
    const { tokens } = await shop.signUp('revoked');
    expect((await get(expressUrl, '/me', tokens.access_token)).status).toBe(200);
    await until(() => auth.feed?.mode === 'stream', 'the feed to follow the stream');
    const before = toServer.length;
    for (let i = 0; i < 50; i++) expect((await get(i % 2 ? expressUrl : fastifyUrl, '/me', tokens.access_token)).status).toBe(200);
    expect(toServer.length).toBe(before);

    const revokedAt = Date.now();
    expect((await t.call('POST', '/public/api/v1/auth/logout', { token: tokens.access_token, headers: shop.headers, body: {} })).statusCode).toBe(200);
    let calls = 0;
    await until(async () => {
      calls += 1;
      return (await get(expressUrl, '/me', tokens.access_token)).status === 401;
    }, 'the revoked token to be refused', 5000);
    expect(Date.now() - revokedAt).toBeLessThan(5000);
    expect(await get(fastifyUrl, '/me', tokens.access_token)).toMatchObject({ status: 401, body: { detail: 'The session has ended' } });
    expect(calls).toBeGreaterThan(0);
    expect(toServer.length).toBe(before);
  });

  it('falls back to polling when the stream drops, and resumes from its cursor', async () => {
    const { tokens } = await shop.signUp('during-outage');
    await until(() => auth.feed?.mode === 'stream', 'the feed to follow the stream');
    // The server ends every stream and cannot open new ones for a while (an instance restarting);
    // the client reads ?since= until the stream is back.
    const streamsDown = vi.spyOn(t.deps.revocationStreams, 'open').mockRejectedValue(new Error('restarting'));
    try {
      const pollsBefore = toServer.filter((path) => path.endsWith('/revocations')).length;
      t.deps.revocationStreams.endAll();
      await until(() => auth.feed?.mode === 'polling', 'the feed to poll');
      expect((await t.call('POST', '/public/api/v1/auth/logout', { token: tokens.access_token, headers: shop.headers, body: {} })).statusCode).toBe(200);
      await until(async () => (await get(expressUrl, '/me', tokens.access_token)).status === 401, 'the revoked token to be refused while polling', 5000);
      expect(toServer.filter((path) => path.endsWith('/revocations')).length).toBeGreaterThan(pollsBefore);
    } finally {
      streamsDown.mockRestore();
    }
    await until(() => auth.feed?.mode === 'stream', 'the feed to follow the stream again');
  });
});

describe('failClosedAfterMs: how long the revocation feed may be unreachable', () => {
  it('refuses every token with 503 once the feed has been unreachable longer than the setting, and accepts again when it is back; by default it keeps accepting', async () => {
    // The feed's own clock, moved by hand; the requests to the server stay real.
    let offsetMs = 0;
    const now = () => Date.now() + offsetMs;
    let feedDown = false;
    const feedFetch = (input: string | URL | Request, init?: RequestInit) => {
      if (feedDown && new URL(String(input)).pathname.includes('/revocations')) return Promise.reject(new TypeError('fetch failed'));
      return fetch(input, { ...init, dispatcher: agent } as RequestInit);
    };
    // A project of its own: the shop's end-user IP has used its sign-ups' rate limit.
    const own = await projectWithKey(t, 'node-sdk-outage');
    const options = { url: serverUrl, issuer: `http://app.test/projects/${own.project.project_key}`, projectKey: own.project.project_key, apiKey: own.apiKey, fetch: feedFetch, now };
    const strict = createAuthPlatform({ ...options, failClosedAfterMs: 60_000 });
    const lenient = createAuthPlatform(options);
    const app = express();
    app.get('/strict', strict.requireAuth(), (_req, res) => res.json({ ok: true }));
    app.get('/lenient', lenient.requireAuth(), (_req, res) => res.json({ ok: true }));
    const server = await new Promise<import('node:http').Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await Promise.all([strict.start(), lenient.start()]);
      const { tokens } = await own.signUp('feed-outage');
      await until(() => strict.feed?.mode === 'stream' && lenient.feed?.mode === 'stream', 'both feeds to follow the stream');
      expect(strict.feed!.unreachableForMs()).toBe(0);

      // The server cannot be reached: the streams drop and every read of the feed fails.
      feedDown = true;
      t.deps.revocationStreams.endAll();
      await until(() => strict.feed?.mode === 'polling' && lenient.feed?.mode === 'polling', 'both feeds to lose the stream');
      expect(await get(base, '/strict', tokens.access_token)).toMatchObject({ status: 200 });

      offsetMs = 61_000;
      expect(strict.feed!.unreachableForMs()).toBeGreaterThan(60_000);
      expect(await get(base, '/strict', tokens.access_token)).toMatchObject({ status: 503, body: { detail: 'Revoked sessions cannot be checked right now' } });
      // Today's behaviour without the setting: offline verification goes on while the feed is down.
      offsetMs = 60 * 60_000;
      expect(await get(base, '/lenient', tokens.access_token)).toMatchObject({ status: 200 });

      // Back: the next successful read makes the feed current again.
      feedDown = false;
      await until(async () => (await get(base, '/strict', tokens.access_token)).status === 200, 'the strict middleware to accept again once the feed answers');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await Promise.all([strict.close(), lenient.close()]);
    }
  });
});

describe('requireMachine: calls from machine clients (the client-credentials grant)', () => {
  it("accepts a machine client's token with its scopes, refuses it where an end user is required (and the other way round), and refuses it within 5 s of the client's revocation or deletion", async () => {
    // A project of its own (the shop's developer token is two test days old), with two machine clients.
    const fleet = await projectWithKey(t, 'node-sdk-machines');
    const dev = { token: fleet.developer.access_token };
    const createClient = async (name: string) => {
      const created = await t.call('POST', `/api/v1/projects/${fleet.project.id}/machine-clients`, { ...dev, body: { name, scopes: ['invoices:read'] } });
      expect(created.statusCode, created.body).toBe(201);
      return created.json() as { id: string; client_id: string; client_secret: string };
    };
    const tokenOf = async (client: { client_id: string; client_secret: string }) => {
      const response = await fetch(`${serverUrl}/projects/${fleet.project.project_key}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'client_credentials' }),
        dispatcher: agent,
      } as RequestInit);
      expect(response.status).toBe(200);
      return ((await response.json()) as { access_token: string }).access_token;
    };
    const machines = createAuthPlatform({
      url: serverUrl,
      issuer: `http://app.test/projects/${fleet.project.project_key}`,
      projectKey: fleet.project.project_key,
      apiKey: fleet.apiKey,
      fetch: (input, init) => fetch(input, { ...init, dispatcher: agent } as RequestInit),
    });
    const app = express();
    app.get('/jobs', machines.requireMachine(), (req, res) => res.json((req as unknown as { machine: { clientId: string; scopes: string[] } }).machine));
    app.get('/invoices', machines.requireMachine({ scope: 'invoices:read' }), (_req, res) => res.json({ ok: true }));
    app.get('/invoices/write', machines.requireMachine({ scope: 'invoices:write' }), (_req, res) => res.json({ ok: true }));
    app.get('/me', machines.requireAuth(), (_req, res) => res.json({ ok: true }));
    const server = await new Promise<import('node:http').Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await machines.start();
      await until(() => machines.feed?.mode === 'stream', 'the feed to follow the stream');
      const billing = await createClient('Billing job');
      const reports = await createClient('Reports job');
      const billingToken = await tokenOf(billing);
      const reportsToken = await tokenOf(reports);

      expect(await get(base, '/jobs', billingToken)).toMatchObject({ status: 200, body: { clientId: billing.client_id, scopes: ['invoices:read'] } });
      expect((await get(base, '/invoices', billingToken)).status).toBe(200);
      expect(await get(base, '/invoices/write', billingToken)).toMatchObject({ status: 403, body: { detail: 'This needs the scope invoices:write' }, challenge: 'Bearer error="insufficient_scope"' });
      // A machine is no end user, and an end user no machine.
      expect(await get(base, '/me', billingToken)).toMatchObject({ status: 401, body: { detail: 'The access token is not valid' } });
      const { tokens } = await fleet.signUp('not-a-machine');
      expect(await get(base, '/jobs', tokens.access_token)).toMatchObject({ status: 401, body: { detail: 'The access token is not valid' } });
      expect((await get(base, '/me', tokens.access_token)).status).toBe(200);

      // Revoked in the dashboard: its unexpired token is refused within 5 s; the other client's still passes.
      const revokedAt = Date.now();
      expect((await t.call('PATCH', `/api/v1/projects/${fleet.project.id}/machine-clients/${billing.id}`, { ...dev, body: { revoked: true } })).statusCode).toBe(200);
      await until(async () => (await get(base, '/jobs', billingToken)).status === 401, "the revoked client's token to be refused", 5000);
      expect(Date.now() - revokedAt).toBeLessThan(5000);
      expect(await get(base, '/jobs', billingToken)).toMatchObject({ body: { detail: 'The machine client has been revoked' } });
      expect((await get(base, '/jobs', reportsToken)).status).toBe(200);

      // Deleted without being revoked first: the same.
      expect((await t.call('DELETE', `/api/v1/projects/${fleet.project.id}/machine-clients/${reports.id}`, dev)).statusCode).toBe(200);
      await until(async () => (await get(base, '/jobs', reportsToken)).status === 401, "the deleted client's token to be refused", 5000);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await machines.close();
    }
  });
});
