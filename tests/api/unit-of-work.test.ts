import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { Db } from '../../server/db/connect.js';
import { prepareStatement } from '../../server/db/prepared-statement.js';
import { preparedTransaction } from '../../server/db/prepared-transaction.js';
import { afterCommit, inTransaction, invalidateOnCommit, withTransaction } from '../../server/db/transaction.js';
import type { InvalidationTopic } from '../../server/lib/invalidations.js';
import type { RequestInfo } from '../../server/lib/request-info.js';
import { recordChange, type Change } from '../../server/modules/changes/record-change.js';
import { updateProject } from '../../server/modules/projects/projects.repo.js';
import { createTestDatabase } from '../helpers/test-database.js';

// The unit of work on the database the suite runs on: SQLite here, PostgreSQL in the server-postgres project.

const NOW = '2026-11-26T02:00:00.000Z';
const insertUser = prepareStatement((db: Db, id: string, email: string) =>
  db.insertInto('users').values({ id, email, password_hash: 'x', created_at: NOW, updated_at: NOW } as never),
);

describe('a unit of work', () => {
  let db: Db;
  let drop: () => Promise<void>;
  /** What each effect saw of the row `id` when it ran, and the invalidations published, in order. */
  let log: string[];
  const published: InvalidationTopic[] = [];
  const invalidations = {
    publish: async (topic: InvalidationTopic) => {
      published.push(topic);
      log.push(`published ${topic}`);
    },
  };
  const exists = async (id: string) => (await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  const insert = (on: Db, id: string) => on.insertInto('users').values({ id, email: `${id}@example.com`, password_hash: 'x', created_at: NOW, updated_at: NOW } as never).execute();

  beforeAll(async () => {
    ({ db, drop } = await createTestDatabase());
  });
  afterAll(() => drop());

  const fresh = () => {
    log = [];
    published.length = 0;
  };

  it('runs its effects once it has committed, in order, and before it answers', async () => {
    fresh();
    const answer = await withTransaction({ db, invalidations }, async (tx) => {
      await insert(tx.db, 'u1');
      tx.unit.afterCommit(async () => void log.push(`first sees the row: ${await exists('u1')}`));
      afterCommit(tx.db, () => void log.push('second'));
      log.push('work done');
      return 'answer';
    });
    log.push(`answered ${answer}`);
    expect(log).toEqual(['work done', 'first sees the row: true', 'second', 'answered answer']);
  });

  it('runs none of them when it rolls back', async () => {
    fresh();
    await expect(
      withTransaction({ db, invalidations }, async (tx) => {
        await insert(tx.db, 'u2');
        tx.unit.afterCommit(() => void log.push('effect'));
        await updateProject(tx.db, 'no-such-project', { name: 'x' });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(log).toEqual([]);
    expect(published).toEqual([]);
    expect(await exists('u2')).toBe(false);
  });

  it('publishes the invalidations its repo writes register, once per topic, after the commit', async () => {
    fresh();
    await withTransaction({ db, invalidations }, async (tx) => {
      await insert(tx.db, 'u3');
      await updateProject(tx.db, 'no-such-project', { name: 'x' });
      await updateProject(tx.db, 'no-such-project', { name: 'y' });
      // A service called inside joins the same unit, whatever deps it was given.
      await withTransaction({ db: tx.db }, async (inner) => invalidateOnCommit(inner.db, 'api-keys'));
      expect(published).toEqual([]);
      tx.unit.afterCommit(async () => void log.push(`effect sees the row: ${await exists('u3')}`));
    });
    expect(published).toEqual(['api-keys', 'project-settings']);
    expect(log).toEqual(['published api-keys', 'published project-settings', 'effect sees the row: true']);
  });

  it('gets its invalidations from a withTransaction joining a unit opened without them', async () => {
    fresh();
    await inTransaction(db, (trx) => withTransaction({ db: trx, invalidations }, async (tx) => updateProject(tx.db, 'no-such-project', { name: 'z' })));
    expect(published).toEqual(['api-keys', 'project-settings']);
  });

  it('refuses an invalidating write nobody can publish: outside a unit, or in one opened without the invalidations', async () => {
    fresh();
    await expect(updateProject(db, 'no-such-project', { name: 'x' })).rejects.toThrow('must be made in a unit of work');
    await expect(
      inTransaction(db, async (trx) => {
        await insert(trx, 'u4');
        await updateProject(trx, 'no-such-project', { name: 'x' });
      }),
    ).rejects.toThrow('needs a unit of work opened with the invalidations');
    expect(await exists('u4')).toBe(false);
  });

  it('runs an effect at once outside any unit', () => {
    fresh();
    afterCommit(db, () => void log.push('now'));
    expect(log).toEqual(['now']);
  });

  it('carries effects in a prepared transaction too: after its commit, and none when it rolls back', async () => {
    fresh();
    const answers = await Promise.all([
      preparedTransaction(db, async (unit) => {
        await unit.run(insertUser, 'p1', 'p1@example.com');
        unit.afterCommit(async () => void log.push(`p1 committed: ${await exists('p1')}`));
        return 'p1';
      }),
      preparedTransaction(db, async (unit) => {
        await unit.run(insertUser, 'p2', 'p2@example.com');
        unit.afterCommit(() => void log.push('p2 effect'));
        throw new Error('p2 refused');
      }).catch((error: Error) => error.message),
    ]);
    expect(answers).toEqual(['p1', 'p2 refused']);
    expect(log).toEqual(['p1 committed: true']);
    expect(await exists('p2')).toBe(false);
  });

  it("writes a change's audit entry and webhook event in its unit: both commit with it, neither when it rolls back", async () => {
    await insert(db, 'owner');
    await db.insertInto('projects').values({ id: 'proj', owner_id: 'owner', name: 'P', project_key: 'pk_proj', signing_key: 'sealed', is_active: 1, created_at: NOW, updated_at: NOW } as never).execute();
    const endpoint = { project_id: 'proj', url: 'https://receiver.example/hook', description: null, event_types: '["api_key.created"]', secret: 'sealed', enabled: 1 as const, created_at: NOW, updated_at: NOW };
    await db.insertInto('webhook_endpoints').values({ id: 'endpoint', ...endpoint }).execute();
    const deps = { db, invalidations, clock: { now: () => new Date(NOW) } };
    const actor = { user: { id: 'owner', email: 'owner@example.com' }, info: { ip: '203.0.113.9', userAgent: null } as RequestInfo };
    const change = (id: string): Change => ({ projectId: 'proj', action: 'api_key.created', target: { type: 'api_key', id }, event: { type: 'api_key.created', data: { api_key: { id, name: id, prefix: 'ak_' } } } });

    await withTransaction(deps, (tx) => recordChange(tx, actor, change('kept')));
    await expect(
      withTransaction(deps, async (tx) => {
        await recordChange(tx, actor, change('dropped'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    // Plain deps have no unit of work: nothing records a change outside one.
    expectTypeOf({ db, clock: deps.clock }).not.toExtend<Parameters<typeof recordChange>[0]>();

    const entries = await db.selectFrom('audit_log').select('target_id').where('project_id', '=', 'proj').execute();
    expect(entries.map((entry) => entry.target_id)).toEqual(['kept']);
    const events = await db.selectFrom('webhook_events').select('payload').where('project_id', '=', 'proj').execute();
    expect(events.map((event) => JSON.parse(event.payload).data.api_key.id)).toEqual(['kept']);
    expect(await db.selectFrom('webhook_deliveries').select('endpoint_id').execute()).toEqual([{ endpoint_id: 'endpoint' }]);
  });
});
