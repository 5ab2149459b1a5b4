import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, writeConnectionOf, type Db } from '../../server/db/connect.js';
import { MAX_GROUP } from '../../server/db/group-commit.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { prepareStatement } from '../../server/db/prepared-statement.js';
import { preparedTransaction } from '../../server/db/prepared-transaction.js';

const NOW = '2026-11-23T12:00:00.000Z';

const insertUser = prepareStatement((db: Db, id: string, email: string) =>
  db.insertInto('users').values({ id, email, password_hash: 'x', created_at: NOW, updated_at: NOW } as never),
);
const findEmail = prepareStatement((db: Db, id: string) => db.selectFrom('users').select('email').where('id', '=', id));
const rename = prepareStatement((db: Db, id: string, email: string | null) => db.updateTable('users').set({ first_name: email }).where('id', '=', id));

const insertOrRollback = prepareStatement((db: Db, id: string, email: string) =>
  db.insertInto('users').orRollback().values({ id, email, password_hash: 'x', created_at: NOW, updated_at: NOW } as never),
);

const emailOf = async (db: Db, id: string) => (await db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirst())?.email;

describe('prepared transactions on SQLite', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'authplatform-prepared-tx-'));
  let db: Db;
  beforeAll(async () => {
    db = connectDatabase({ kind: 'sqlite', file: path.join(dir, 'tx.db') }).db;
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('commit every statement together, read their own writes and count the rows each changed', async () => {
    const seen = await preparedTransaction(db, async (unit) => {
      await unit.run(insertUser, 'u1', 'one@example.com');
      const changed = await unit.run(rename, 'u1', null);
      return { email: (await unit.first(findEmail, 'u1'))?.email, changed, missing: await unit.first(findEmail, 'nobody') };
    });
    expect(seen).toEqual({ email: 'one@example.com', changed: 1, missing: undefined });
    expect(await emailOf(db, 'u1')).toBe('one@example.com');
  });

  it('roll everything back when the work throws', async () => {
    await expect(
      preparedTransaction(db, async (unit) => {
        await unit.run(insertUser, 'u2', 'two@example.com');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await emailOf(db, 'u2')).toBeUndefined();
    // The connection is usable afterwards, for both kinds of transaction.
    await preparedTransaction(db, (unit) => unit.run(insertUser, 'u3', 'three@example.com'));
    expect(await emailOf(db, 'u3')).toBe('three@example.com');
  });

  it('wait for a Kysely transaction in progress rather than running inside it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let wrote!: () => void;
    const inserted = new Promise<void>((resolve) => (wrote = resolve));
    const kysely = db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values({ id: 'k1', email: 'k1@example.com', password_hash: 'x', created_at: NOW, updated_at: NOW } as never).execute();
      wrote();
      await held;
      throw new Error('rolled back');
    });
    const prepared = preparedTransaction(db, (unit) => unit.run(insertUser, 'p1', 'p1@example.com'));
    await inserted;
    release();
    await expect(kysely).rejects.toThrow('rolled back');
    await prepared;
    expect(await emailOf(db, 'k1')).toBeUndefined();
    expect(await emailOf(db, 'p1')).toBe('p1@example.com');
  });

  /** Counts the commits made on the writer while `run` runs. */
  async function commitsDuring(run: () => Promise<unknown>): Promise<number> {
    const writer = writeConnectionOf(db)!;
    const prepare = writer.prepare;
    let commits = 0;
    writer.prepare = (text) => {
      if (text === 'commit') commits += 1;
      return prepare(text);
    };
    try {
      await run();
    } finally {
      writer.prepare = prepare;
    }
    return commits;
  }

  it('commit the transactions started in one turn together, each seeing the ones before it', async () => {
    let seen: string | undefined;
    const commits = await commitsDuring(() =>
      Promise.all([
        preparedTransaction(db, (unit) => unit.run(insertUser, 'g1', 'g1@example.com')),
        preparedTransaction(db, async (unit) => {
          seen = (await unit.first(findEmail, 'g1'))?.email;
          return unit.run(insertUser, 'g2', 'g2@example.com');
        }),
        preparedTransaction(db, (unit) => unit.run(insertUser, 'g3', 'g3@example.com')),
      ]),
    );
    expect(commits).toBe(1);
    expect(seen).toBe('g1@example.com');
    expect([await emailOf(db, 'g1'), await emailOf(db, 'g2'), await emailOf(db, 'g3')]).toEqual(['g1@example.com', 'g2@example.com', 'g3@example.com']);
  });

  it('roll back only the transaction of a group that fails, and answer the others', async () => {
    const outcomes = await commitsDuring(async () => {
      const settled = await Promise.allSettled([
        preparedTransaction(db, (unit) => unit.run(insertUser, 'f1', 'f1@example.com')),
        preparedTransaction(db, async (unit) => {
          await unit.run(insertUser, 'f2', 'f2@example.com');
          throw new Error('refused');
        }),
        // A constraint broken half-way: its first write goes with it.
        preparedTransaction(db, async (unit) => {
          await unit.run(insertUser, 'f3', 'f3@example.com');
          return unit.run(insertUser, 'f1', 'again@example.com');
        }),
        preparedTransaction(db, async (unit) => {
          await unit.run(insertUser, 'f4', 'f4@example.com');
          return (await unit.first(findEmail, 'f2'))?.email ?? 'f2 not seen';
        }),
      ]);
      expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
      expect((settled[1] as PromiseRejectedResult).reason.message).toBe('refused');
      expect((settled[2] as PromiseRejectedResult).reason.code).toBe('SQLITE_CONSTRAINT_PRIMARYKEY');
      expect((settled[3] as PromiseFulfilledResult<string>).value).toBe('f2 not seen');
    });
    expect(outcomes).toBe(1);
    expect(await Promise.all(['f1', 'f2', 'f3', 'f4'].map((id) => emailOf(db, id)))).toEqual(['f1@example.com', undefined, undefined, 'f4@example.com']);
  });

  it('run the rest of a group again when SQLite rolls the whole transaction back', async () => {
    const settled = await Promise.allSettled([
      preparedTransaction(db, (unit) => unit.run(insertUser, 'r1', 'r1@example.com')),
      // `or rollback` ends the whole transaction, the first one's insert with it.
      preparedTransaction(db, (unit) => unit.run(insertOrRollback, 'r1', 'again@example.com')),
      preparedTransaction(db, (unit) => unit.run(insertUser, 'r2', 'r2@example.com')),
    ]);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason.code).toBe('SQLITE_CONSTRAINT_PRIMARYKEY');
    expect([await emailOf(db, 'r1'), await emailOf(db, 'r2')]).toEqual(['r1@example.com', 'r2@example.com']);
    // The writer is usable afterwards.
    await preparedTransaction(db, (unit) => unit.run(insertUser, 'r3', 'r3@example.com'));
    expect(await emailOf(db, 'r3')).toBe('r3@example.com');
  });

  it('reject a group whose commit fails, each transaction whose own work failed with its own error, and write nothing', async () => {
    const writer = writeConnectionOf(db)!;
    const prepare = writer.prepare;
    const failingCommit = {
      run: () => {
        throw new Error('disk I/O error');
      },
    };
    writer.prepare = (text) => (text === 'commit' ? (failingCommit as never) : prepare(text));
    try {
      const settled = await Promise.allSettled([
        preparedTransaction(db, (unit) => unit.run(insertUser, 'c1', 'c1@example.com')),
        preparedTransaction(db, async (unit) => {
          await unit.run(insertUser, 'c2', 'c2@example.com');
          throw new Error('refused');
        }),
      ]);
      expect(settled.map((outcome) => (outcome as PromiseRejectedResult).reason?.message)).toEqual(['disk I/O error', 'refused']);
    } finally {
      writer.prepare = prepare;
    }
    expect([await emailOf(db, 'c1'), await emailOf(db, 'c2')]).toEqual([undefined, undefined]);
    await preparedTransaction(db, (unit) => unit.run(insertUser, 'c3', 'c3@example.com'));
    expect(await emailOf(db, 'c3')).toBe('c3@example.com');
  });

  it('answer no transaction of a group before its commit, and commit at most MAX_GROUP together', async () => {
    const other = new SQLite(path.join(dir, 'tx.db'), { readonly: true });
    try {
      const committed = (id: string) => other.prepare('select 1 from users where id = ?').get(id) !== undefined;
      const ids = Array.from({ length: MAX_GROUP + 6 }, (_, i) => `m${i}`);
      const commits = await commitsDuring(() =>
        Promise.all(ids.map((id) => preparedTransaction(db, (unit) => unit.run(insertUser, id, `${id}@example.com`)).then(() => expect(committed(id)).toBe(true)))),
      );
      expect(commits).toBe(2);
    } finally {
      other.close();
    }
  });
});
