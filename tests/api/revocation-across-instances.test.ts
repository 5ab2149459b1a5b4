import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEventStream, type ServerSentEvent } from '../../packages/node/src/sse.js';
import { sessionIdOf } from '../helpers/project-end-users.js';
import { until } from '../helpers/until.js';
import { STRONG_PASSWORD, createTestApp, uniqueEmail, uniqueIp, type TestApp } from '../helpers/create-test-app.js';
import { TEST_REDIS_URL, redisAnswers, testKeyPrefix } from '../helpers/test-redis.js';

/**
 * Instances keep API-key lookups in memory for speed; a revocation on one instance must still be
 * refused by every other at once. Two instances of one deployment (one database, each with its own
 * connections; one Redis): each change is made on one, and the very next request goes to the other,
 * whose cache was warm, over HTTP as a client reaches it.
 */
const reachable = await redisAnswers();
if (!reachable) console.warn(`Redis does not answer at ${TEST_REDIS_URL}: the revocation-across-instances tests are skipped.`);

const ADMIN = 'revocation-admin@example.com';
const keys = testKeyPrefix();

describe.runIf(reachable)('a revocation on one instance is refused by the other on the next request', () => {
  let a: TestApp;
  let b: TestApp;
  let bUrl: string;
  beforeAll(async () => {
    const env = { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: keys.prefix, ADMIN_EMAILS: ADMIN };
    a = await createTestApp({ env });
    b = await createTestApp({ env, sameDatabaseAs: a });
    bUrl = await b.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await keys.cleanUp();
  });

  /** A developer with a project, a key, and a signed-in end user; b has looked the key up (its cache is warm). */
  async function projectWithEndUser(tag: string) {
    const developer = await a.signUpAndLogIn(uniqueEmail(tag));
    const project = (await a.call('POST', '/api/v1/projects', { token: developer.access_token, body: { name: tag } })).json();
    const { id: keyId, secret } = (await a.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: developer.access_token, body: { name: 'k' } })).json();
    const headers = { 'x-api-key': secret, 'x-end-user-ip': uniqueIp() };
    const email = uniqueEmail(`${tag}-end-user`);
    expect((await b.call('POST', '/public/api/v1/auth/signup', { body: { email, password: STRONG_PASSWORD }, headers })).statusCode).toBe(201);
    const login = await b.call('POST', '/public/api/v1/auth/login', { body: { email, password: STRONG_PASSWORD }, headers });
    expect(login.statusCode).toBe(200);
    const endUser = login.json() as { access_token: string; refresh_token: string };
    const profileOnB = async () => {
      const response = await fetch(`${bUrl}/public/api/v1/profile`, { headers: { ...headers, authorization: `Bearer ${endUser.access_token}` } });
      return { statusCode: response.status, body: (await response.json()) as { detail?: string } };
    };
    expect((await profileOnB()).statusCode).toBe(200);
    return { developer, project, keyId, headers, endUser, profileOnB };
  }

  it('a revoked API key', async () => {
    const { developer, project, keyId, profileOnB } = await projectWithEndUser('revoked-key');
    const revoked = await a.call('DELETE', `/api/v1/projects/${project.id}/api-keys/${keyId}`, { token: developer.access_token });
    expect(revoked.statusCode).toBe(200);
    const refused = await profileOnB();
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toEqual({ detail: 'Invalid API key' });
  });

  it('a deactivated project, and again once it is reactivated', async () => {
    const { developer, project, profileOnB } = await projectWithEndUser('inactive-project');
    expect((await a.call('PATCH', `/api/v1/projects/${project.id}`, { token: developer.access_token, body: { is_active: false } })).statusCode).toBe(200);
    const refused = await profileOnB();
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toEqual({ detail: 'This project is inactive' });
    expect((await a.call('PATCH', `/api/v1/projects/${project.id}`, { token: developer.access_token, body: { is_active: true } })).statusCode).toBe(200);
    expect((await profileOnB()).statusCode).toBe(200);
  });

  it("a deleted project, and a deactivated developer's keys", async () => {
    const deleted = await projectWithEndUser('deleted-project');
    const deletion = await a.call('DELETE', `/api/v1/projects/${deleted.project.id}`, { token: deleted.developer.access_token });
    expect(deletion.statusCode, deletion.body).toBe(200);
    expect((await deleted.profileOnB()).statusCode).toBe(401);

    const owned = await projectWithEndUser('deactivated-owner');
    const adminToken = (await a.signUpAndLogIn(ADMIN)).access_token;
    const ownerId = (await a.call('GET', '/api/v1/auth/me', { token: owned.developer.access_token })).json().id;
    expect((await a.call('PATCH', `/api/v1/admin/users/${ownerId}/toggle-active`, { token: adminToken })).statusCode).toBe(200);
    const refused = await owned.profileOnB();
    expect(refused.statusCode).toBe(403);
    expect(refused.body.detail).toMatch(/owner's account is deactivated/);
  });

  it("an end user's session signed out on the other instance", async () => {
    const { headers, endUser, profileOnB } = await projectWithEndUser('signed-out');
    expect((await a.call('POST', '/public/api/v1/auth/logout', { token: endUser.access_token, headers, body: {} })).statusCode).toBe(200);
    const refused = await profileOnB();
    expect(refused.statusCode).toBe(401);
    const refreshed = await b.call('POST', '/public/api/v1/auth/refresh', { body: { refresh_token: endUser.refresh_token }, headers });
    expect(refreshed.statusCode).toBe(401);
  });

  it("the revocation feed's stream on one instance carries a session revoked on the other", async () => {
    const { project, headers, endUser } = await projectWithEndUser('feed-across');
    const agent = new Agent();
    const controller = new AbortController();
    const response = await fetch(`${bUrl}/public/api/v1/projects/${project.project_key}/revocations/stream`, {
      headers: { 'x-api-key': headers['x-api-key'] },
      signal: controller.signal,
      dispatcher: agent,
    } as RequestInit);
    expect(response.status).toBe(200);
    const events: ServerSentEvent[] = [];
    const arrived = new Promise<ServerSentEvent>((resolve) => {
      void readEventStream(response.body!, {
        onEvent(event) {
          events.push(event);
          if (event.event === 'revocation') resolve(event);
        },
      }).catch(() => {});
    });
    await until(() => events.some((event) => event.event === 'ready'), 'the stream to be ready');
    const revokedAt = Date.now();
    expect((await a.call('POST', '/public/api/v1/auth/logout', { token: endUser.access_token, headers, body: {} })).statusCode).toBe(200);
    const event = await arrived;
    expect(JSON.parse(event.data).session_id).toBe(sessionIdOf(endUser.access_token));
    expect(Date.now() - revokedAt).toBeLessThan(5000);
    controller.abort();
    await agent.close();
  });
});
