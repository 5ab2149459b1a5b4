import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { readsOnlyWatched, trackWrites, watchesChange, type LookupChanges } from '../../server/db/lookup-changes.js';

/** A pooled connection as Kysely drives it: `query(text, values)` answering after a turn. */
function fakeClient() {
  const ran: string[] = [];
  const client = {
    query: async (text: string) => {
      ran.push(text);
      await new Promise((resolve) => setImmediate(resolve));
      if (text.startsWith('fail')) throw new Error('refused');
      return { rows: [] };
    },
  };
  return { client: client as unknown as pg.ClientBase & { query: (text: string, values?: unknown[]) => Promise<unknown> }, ran };
}

function changes(): LookupChanges & { announced: number } {
  const state = { databaseUrl: 'postgres://test', generation: 0, listening: true, lastPayload: '', announced: 0, announce: null as LookupChanges['announce'] };
  state.announce = async () => {
    state.announced += 1;
  };
  return state;
}

describe('which statements change what the request path remembers', () => {
  it('knows changes to sessions, users, API keys and projects, as Kysely writes them and as hand-written SQL does', () => {
    for (const text of [
      'insert into "sessions" ("id", "user_id") values ($1, $2)',
      'update "users" set "is_active" = $1 where "id" = $2',
      'delete from "api_keys" where "id" = $1',
      'delete from "projects" where "id" = $1',
      'UPDATE sessions SET revoked_at = now()',
      'with gone as (delete from "sessions" where "user_id" = $1 returning id) select count(*) from gone',
      'truncate table users cascade',
    ]) {
      expect(watchesChange(text), text).toBe(true);
    }
    for (const text of [
      'insert into "login_attempts" ("id") values ($1)',
      'update "refresh_tokens" set "used_at" = $1',
      'update "sessions_archive" set "x" = 1',
      'delete from "user_identities" where "user_id" = $1',
      'insert into "audit_log" ("before", "after") values ($1, $2)',
    ]) {
      expect(watchesChange(text), text).toBe(false);
    }
  });

  it('remembers only what reads nothing but those tables', () => {
    expect(readsOnlyWatched('select "users".* from "sessions" inner join "users" on "users"."id" = "sessions"."user_id" where "sessions"."id" = $1')).toBe(true);
    expect(readsOnlyWatched('select "projects".* from "api_keys" inner join "projects" on "projects"."id" = "api_keys"."project_id" inner join "users" as "owners" on "owners"."id" = "projects"."owner_id"')).toBe(true);
    expect(readsOnlyWatched('select * from "sessions" inner join "devices" on "devices"."id" = "sessions"."device_id"')).toBe(false);
    expect(readsOnlyWatched('select 1')).toBe(false);
  });
});

describe('a pooled connection reports what it commits', () => {
  it('moves the generation and announces after a change commits, not before', async () => {
    const { client } = fakeClient();
    const state = changes();
    trackWrites(client, state);
    const update = client.query('update "sessions" set "revoked_at" = $1', ['now']);
    expect(state.generation).toBe(0);
    await update;
    expect(state).toMatchObject({ generation: 1, announced: 1 });

    await client.query('begin');
    await client.query('update "users" set "role" = $1', ['admin']);
    expect(state).toMatchObject({ generation: 1, announced: 1 });
    await client.query('commit');
    expect(state).toMatchObject({ generation: 2, announced: 2 });
  });

  it('leaves reads, other tables and transactions that changed nothing watched alone', async () => {
    const { client, ran } = fakeClient();
    const state = changes();
    trackWrites(client, state);
    await client.query('select * from "sessions" where "id" = $1', ['s']);
    await client.query('insert into "login_attempts" ("id") values ($1)', ['a']);
    await client.query('begin');
    await client.query('insert into "audit_log" ("id") values ($1)', ['x']);
    await client.query('commit');
    expect(state).toMatchObject({ generation: 0, announced: 0 });
    expect(ran).toHaveLength(5);
  });

  it('counts a failed change or a rolled-back transaction as a change (it may have been applied)', async () => {
    const { client } = fakeClient();
    const state = changes();
    trackWrites(client, state);
    await client.query('begin');
    await client.query('delete from "sessions" where "user_id" = $1', ['u']);
    await client.query('rollback');
    expect(state.generation).toBe(1);
    await expect(client.query('fail: update "users" set "x" = 1')).rejects.toThrow('refused');
    expect(state.generation).toBe(2);
  });

  it('keeps a transaction open across its savepoints: the change is announced at the commit, not at a rollback to a savepoint', async () => {
    const { client } = fakeClient();
    const state = changes();
    trackWrites(client, state);
    await client.query('begin');
    await client.query('savepoint "sp1"');
    await client.query('update "sessions" set "revoked_at" = $1', ['now']);
    await client.query('rollback to savepoint "sp1"');
    await client.query('update "users" set "is_active" = 0');
    await client.query('release savepoint "sp1"');
    expect(state).toMatchObject({ generation: 0, announced: 0 });
    await client.query('commit');
    expect(state).toMatchObject({ generation: 1, announced: 1 });
  });

  it('answers the committed change even when the announcement fails', async () => {
    const { client } = fakeClient();
    const state = changes();
    state.announce = () => Promise.reject(new Error('Redis is away'));
    trackWrites(client, state);
    await expect(client.query('update "users" set "is_active" = 0')).resolves.toEqual({ rows: [] });
    expect(state.generation).toBe(1);
  });

  it('holds the commit until the other instances have been told', async () => {
    const { client } = fakeClient();
    const state = changes();
    let release!: () => void;
    state.announce = () => new Promise<void>((resolve) => (release = resolve));
    trackWrites(client, state);
    let done = false;
    const update = client.query('update "api_keys" set "revoked_at" = $1', ['now']).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(done).toBe(false);
    release();
    await update;
    expect(done).toBe(true);
  });
});
