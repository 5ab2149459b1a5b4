import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, readConnectionOf, type Db } from '../../server/db/connect.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { preparedLookup } from '../../server/db/prepared-lookup.js';

const NOW = '2026-11-23T12:00:00.000Z';

const findProjectName = preparedLookup((db: Db, id: string, ownerId: string) =>
  db.selectFrom('projects').select(['id', 'name', 'is_active']).where('id', '=', id).where('is_active', '=', 1).where('owner_id', '=', ownerId),
);

async function insertOwnerAndProject(db: Db, id: string, name: string) {
  await db
    .insertInto('users')
    .values({ id: `owner-${id}`, email: `${id}@example.com`, password_hash: 'x', created_at: NOW, updated_at: NOW } as never)
    .execute();
  await db
    .insertInto('projects')
    .values({ id, owner_id: `owner-${id}`, name, project_key: `pk_${id}`, signing_key: 'sealed', is_active: 1, created_at: NOW, updated_at: NOW } as never)
    .execute();
}

describe('prepared lookups on a SQLite file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'authplatform-lookup-'));
  let db: Db;
  beforeAll(async () => {
    db = connectDatabase({ kind: 'sqlite', file: path.join(dir, 'lookup.db') }).db;
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('run on a read-only second connection', () => {
    const reader = readConnectionOf(db);
    expect(reader).toBeDefined();
    expect(() => reader!.prepare("delete from projects where id = 'x'").run()).toThrow(/readonly|query_only|attempt to write/i);
  });

  it('bind each call its own values, around the constants the query was built with', async () => {
    await insertOwnerAndProject(db, 'p1', 'First');
    await insertOwnerAndProject(db, 'p2', 'Second');
    expect(await findProjectName(db, 'p1', 'owner-p1')).toEqual({ id: 'p1', name: 'First', is_active: 1 });
    expect(await findProjectName(db, 'p2', 'owner-p2')).toEqual({ id: 'p2', name: 'Second', is_active: 1 });
    expect(await findProjectName(db, 'p2', 'owner-p1')).toBeUndefined();
    expect(await findProjectName(db, 'nope', 'owner-p1')).toBeUndefined();
    await db.updateTable('projects').set({ is_active: 0 }).where('id', '=', 'p2').execute();
    expect(await findProjectName(db, 'p2', 'owner-p2')).toBeUndefined();
  });

  it('see what is committed, never a transaction in progress; inside it, the transaction sees its own writes', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const seenInside: unknown[] = [];
    let inside!: () => void;
    const looked = new Promise<void>((resolve) => (inside = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await trx.updateTable('projects').set({ name: 'Renamed' }).where('id', '=', 'p1').execute();
      seenInside.push((await findProjectName(trx, 'p1', 'owner-p1'))?.name);
      inside();
      await held;
    });
    await looked;
    expect(seenInside).toEqual(['Renamed']);
    expect((await findProjectName(db, 'p1', 'owner-p1'))?.name).toBe('First');
    release();
    await transaction;
    expect((await findProjectName(db, 'p1', 'owner-p1'))?.name).toBe('Renamed');
  });

  it('answer a row read since the last commit again: this process\'s commit is seen by the next call, another process\'s by the next turn', async () => {
    await insertOwnerAndProject(db, 'p3', 'Third');
    expect((await findProjectName(db, 'p3', 'owner-p3'))?.name).toBe('Third');
    // This process's own write, in the same turn of the event loop.
    await db.updateTable('projects').set({ name: 'Renamed here' }).where('id', '=', 'p3').execute();
    expect((await findProjectName(db, 'p3', 'owner-p3'))?.name).toBe('Renamed here');
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('projects').set({ name: 'Renamed in a transaction' }).where('id', '=', 'p3').execute();
    });
    expect((await findProjectName(db, 'p3', 'owner-p3'))?.name).toBe('Renamed in a transaction');

    // Another process's connection to the same file (a second worker, `npm run admin`): its commit
    // came in while this turn was being answered, and is seen from the next one.
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    const other = new SQLite(path.join(dir, 'lookup.db'));
    try {
      other.prepare("update projects set name = 'Renamed elsewhere' where id = 'p3'").run();
      await nextTurn();
      expect((await findProjectName(db, 'p3', 'owner-p3'))?.name).toBe('Renamed elsewhere');
      other.prepare("update projects set is_active = 0 where id = 'p3'").run();
      await nextTurn();
      expect(await findProjectName(db, 'p3', 'owner-p3')).toBeUndefined();
      other.prepare("update projects set is_active = 1 where id = 'p3'").run();
      await nextTurn();
      expect(await findProjectName(db, 'p3', 'owner-p3')).toEqual({ id: 'p3', name: 'Renamed elsewhere', is_active: 1 });
    } finally {
      other.close();
    }
  });

  it('give each caller its own object, so changing one answer changes no other', async () => {
    const first = await findProjectName(db, 'p3', 'owner-p3');
    first!.name = 'Changed by a caller';
    expect((await findProjectName(db, 'p3', 'owner-p3'))?.name).toBe('Renamed elsewhere');
  });
});

describe('a SQLite file in a directory that does not exist yet (a fresh clone)', () => {
  it('is created with its directory, and its read connection opens', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'authplatform-fresh-'));
    const { db } = connectDatabase({ kind: 'sqlite', file: path.join(dir, 'data', 'nested', 'app.db') });
    await migrateToLatest(db);
    expect(readConnectionOf(db)).toBeDefined();
    await insertOwnerAndProject(db, 'p1', 'Fresh');
    expect(await findProjectName(db, 'p1', 'owner-p1')).toEqual({ id: 'p1', name: 'Fresh', is_active: 1 });
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('prepared lookups without a read connection', () => {
  it('run through Kysely on an in-memory database', async () => {
    const { db } = connectDatabase({ kind: 'sqlite', file: ':memory:' });
    await migrateToLatest(db);
    expect(readConnectionOf(db)).toBeUndefined();
    await insertOwnerAndProject(db, 'p1', 'Only');
    expect(await findProjectName(db, 'p1', 'owner-p1')).toEqual({ id: 'p1', name: 'Only', is_active: 1 });
    await db.destroy();
  });
});
