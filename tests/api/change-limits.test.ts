import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../server/lib/rate-limit.js';
import { createTestApp, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';
import { trpcFailure } from '../helpers/trpc-client.js';

/**
 * A developer cannot flood a project's configuration: each change writes an audit entry (kept for
 * ever), drops cached copies on every instance, and a test event or resend makes this server call an
 * address of the developer's choosing. Each kind has a budget per developer, one for REST and tRPC
 * alike; past it, 429 with Retry-After. Another developer's budget is their own.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE: 'on', WEBHOOK_POLL_MS: '0' } });
});
afterAll(() => t.close());

async function developerWithProject(tag: string) {
  const developer = await t.signUpAndLogIn(uniqueEmail(tag));
  const project = (await t.call('POST', '/api/v1/projects', { token: developer.access_token, body: { name: tag } })).json() as { id: string };
  return { token: developer.access_token, project };
}

/** Makes `budget` changes that succeed, then one more that must be refused with `detail` and Retry-After. */
async function spendThenRefused(budget: number, change: (i: number) => Promise<LightMyRequestResponse>, detail: string) {
  for (let i = 0; i < budget; i += 1) {
    const res = await change(i);
    expect(res.statusCode, `change ${i + 1}: ${res.body}`).toBeLessThan(300);
  }
  const refused = await change(budget);
  expect(refused.statusCode).toBe(429);
  expect(JSON.parse(refused.body)).toEqual({ detail });
  return refused;
}

describe('per developer, a budget of', () => {
  it('project updates: 30 a minute over REST and tRPC together, then 429', async () => {
    const { token, project } = await developerWithProject('update-flood');
    const { points, detail } = DEFAULT_LIMITS.projectUpdatesPerUser;
    const { api } = t.trpc({ token });
    // One budget for both transports: the first change over tRPC, the rest over REST.
    await api.projects.update.mutate({ id: project.id, description: 'over tRPC' });
    const refused = await spendThenRefused(points - 1, (i) => t.call('PATCH', `/api/v1/projects/${project.id}`, { token, body: { description: `change ${i}` } }), detail);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await trpcFailure(api.projects.update.mutate({ id: project.id, description: 'one more' }))).toMatchObject({ status: 429, message: detail });

    const other = await developerWithProject('update-calm');
    expect((await t.call('PATCH', `/api/v1/projects/${other.project.id}`, { token: other.token, body: { description: 'mine' } })).statusCode).toBe(200);
  });

  it('settings updates: 30 a minute over REST and tRPC together, then 429', async () => {
    const { token, project } = await developerWithProject('settings-flood');
    const { points, detail } = DEFAULT_LIMITS.projectSettingsUpdatesPerUser;
    const { api } = t.trpc({ token });
    await api.projectSettings.update.mutate({ id: project.id, password_min_length: 9 });
    await spendThenRefused(points - 1, (i) => t.call('PATCH', `/api/v1/projects/${project.id}/settings`, { token, body: { password_min_length: 10 + (i % 20) } }), detail);
    expect(await trpcFailure(api.projectSettings.update.mutate({ id: project.id, password_min_length: 12 }))).toMatchObject({ status: 429, message: detail });
  });

  it('webhook changes (create, update, delete): 30 a minute, then 429', async () => {
    const { token, project } = await developerWithProject('webhook-flood');
    const { points, detail } = DEFAULT_LIMITS.webhookChangesPerUser;
    const base = `/api/v1/projects/${project.id}/webhooks`;
    const created = await t.call('POST', base, { token, body: { url: 'http://127.0.0.1:9/hook', event_types: ['user.created'] } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    await spendThenRefused(points - 1, (i) => t.call('PATCH', `${base}/${id}`, { token, body: { description: `change ${i}` } }), detail);
    expect((await t.call('DELETE', `${base}/${id}`, { token })).statusCode).toBe(429);
  });

  it('webhook test events and resends, which make this server send a request: 10 a minute, then 429', async () => {
    const { token, project } = await developerWithProject('webhook-sends');
    const { points, detail } = DEFAULT_LIMITS.webhookSendsPerUser;
    const base = `/api/v1/projects/${project.id}/webhooks`;
    const id = (await t.call('POST', base, { token, body: { url: 'http://127.0.0.1:9/hook', event_types: ['user.created'] } })).json().id as string;
    expect((await t.call('POST', `${base}/${id}/test`, { token })).statusCode).toBe(201);
    const [delivery] = (await t.call('GET', `${base}/${id}/deliveries`, { token })).json().deliveries as { id: string }[];
    await spendThenRefused(points - 1, () => t.call('POST', `${base}/${id}/deliveries/${delivery!.id}/resend`, { token }), detail);
    expect((await t.call('POST', `${base}/${id}/test`, { token })).statusCode).toBe(429);
  });

  it('sign-in connection changes (save, remove): 30 a minute, then 429', async () => {
    const { token, project } = await developerWithProject('connection-flood');
    const { points, detail } = DEFAULT_LIMITS.connectionChangesPerUser;
    const url = `/api/v1/projects/${project.id}/connections/github`;
    expect((await t.call('PUT', url, { token, body: { client_id: 'gh-client', client_secret: 'gh-secret' } })).statusCode).toBe(200);
    await spendThenRefused(points - 1, (i) => t.call('PUT', url, { token, body: { client_id: `gh-client-${i}` } }), detail);
    expect((await t.call('DELETE', url, { token })).statusCode).toBe(429);
  });
});
