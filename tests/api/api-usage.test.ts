import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, manualClock, uniqueEmail, type TestApp } from '../helpers/create-test-app.js';

/**
 * Public API calls are counted in memory and written in batches (API_USAGE_FLUSH_MS), instead of
 * three writes per call: the key's last use, the project's daily requests and the key's daily usage.
 * A long interval here, so nothing is written until the test flushes or the server shuts down.
 */
const clock = manualClock(new Date('2026-05-10T23:59:58Z'));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock, env: { API_USAGE_FLUSH_MS: '60000' } });
});
afterAll(() => t.close());

async function projectWithKey(tag: string) {
  const owner = await t.signUpAndLogIn(uniqueEmail(tag));
  const project = (await t.call('POST', '/api/v1/projects', { token: owner.access_token, body: { name: `Counted ${tag}` } })).json();
  const key = (await t.call('POST', `/api/v1/projects/${project.id}/api-keys`, { token: owner.access_token, body: { name: 'backend' } })).json();
  return { owner, project, key };
}

const callWithKey = (secret: string) => t.call('POST', '/public/api/v1/auth/forgot-password', { body: { email: uniqueEmail('nobody') }, headers: { 'x-api-key': secret } });

async function usageOf(projectId: string, keyId: string) {
  const key = await t.db.selectFrom('api_keys').select('last_used_at').where('id', '=', keyId).executeTakeFirstOrThrow();
  const perKey = await t.db.selectFrom('api_key_daily_usage').select(['day', 'requests']).where('api_key_id', '=', keyId).orderBy('day').execute();
  const perProject = await t.db.selectFrom('project_daily_stats').select(['day', 'api_requests']).where('project_id', '=', projectId).orderBy('day').execute();
  return { lastUsedAt: key.last_used_at, perKey, perProject: perProject.map((row) => ({ day: row.day, requests: row.api_requests })) };
}

describe('public API usage, counted in memory', () => {
  it('writes nothing per call; a flush writes the counts per key and UTC day, and the last use', async () => {
    const { project, key } = await projectWithKey('batched');
    for (let i = 0; i < 4; i++) expect((await callWithKey(key.secret)).statusCode).toBe(200);
    expect(await usageOf(project.id, key.id)).toEqual({ lastUsedAt: null, perKey: [], perProject: [] });

    clock.advance(3); // past midnight: the next calls count on the next day
    for (let i = 0; i < 2; i++) await callWithKey(key.secret);
    await t.deps.projectRealms.flushUsage();
    expect(await usageOf(project.id, key.id)).toEqual({
      lastUsedAt: clock.now().toISOString(),
      perKey: [
        { day: '2026-05-10', requests: 4 },
        { day: '2026-05-11', requests: 2 },
      ],
      perProject: [
        { day: '2026-05-10', requests: 4 },
        { day: '2026-05-11', requests: 2 },
      ],
    });

    // Counts add up across flushes.
    await callWithKey(key.secret);
    await t.deps.projectRealms.flushUsage();
    expect((await usageOf(project.id, key.id)).perKey.at(-1)).toEqual({ day: '2026-05-11', requests: 3 });
  });

  it('a key deleted with its project before the flush loses only its own counts', async () => {
    const gone = await projectWithKey('deleted');
    const kept = await projectWithKey('kept');
    await callWithKey(gone.key.secret);
    await callWithKey(kept.key.secret);
    expect((await t.call('DELETE', `/api/v1/projects/${gone.project.id}`, { token: gone.owner.access_token })).statusCode).toBe(200);
    await t.deps.projectRealms.flushUsage();
    expect((await usageOf(kept.project.id, kept.key.id)).perKey).toHaveLength(1);
    expect(await t.db.selectFrom('api_key_daily_usage').selectAll().where('api_key_id', '=', gone.key.id).execute()).toEqual([]);
  });

  it('a shutdown writes what is still counted', async () => {
    const { project, key } = await projectWithKey('shutdown');
    const second = await createTestApp({ clock, sameDatabaseAs: t, env: { API_USAGE_FLUSH_MS: '60000' } });
    await second.call('POST', '/public/api/v1/auth/forgot-password', { body: { email: uniqueEmail('nobody') }, headers: { 'x-api-key': key.secret } });
    expect((await usageOf(project.id, key.id)).perKey).toEqual([]);
    await second.app.close();
    expect((await usageOf(project.id, key.id)).perKey).toEqual([{ day: '2026-05-11', requests: 1 }]);
    await second.close();
  });
});
