import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Db } from '../../server/db/connect.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { prepareStatement } from '../../server/db/prepared-statement.js';
import { preparedTransaction } from '../../server/db/prepared-transaction.js';

const NOW = '2026-11-23T12:00:00.000Z';

const insertUser = prepareStatement((db: Db, id: string, email: string) =>
  db.insertInto('users').values({ id, email, password_hash: 'x', created_at: NOW, updated_at: NOW } as never),
);
const findEmail = prepareStatement((db: Db, id: string) => db.selectFrom('users').select('email').where('id', '=', id));
const rename = prepareStatement((db: Db, id: string, email: string | null) => db.updateTable('users').set({ first_name: email }).where('id', '=', id));

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
    const kysely = db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values({ id: 'k1', email: 'k1@example.com', password_hash: 'x', created_at: NOW, updated_at: NOW } as never).execute();
      await held;
      throw new Error('rolled back');
    });
    const prepared = preparedTransaction(db, (unit) => unit.run(insertUser, 'p1', 'p1@example.com'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await expect(kysely).rejects.toThrow('rolled back');
    await prepared;
    expect(await emailOf(db, 'k1')).toBeUndefined();
    expect(await emailOf(db, 'p1')).toBe('p1@example.com');
  });
});
