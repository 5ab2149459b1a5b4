import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { DatabaseTarget } from '../../server/config.js';
import { connectDatabase, type Db, type Dialect } from '../../server/db/connect.js';
import { migrateToLatest } from '../../server/db/migrate.js';

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The migrated database the API suite's databases are copied from (tests/helpers/database-template.setup.ts). */
export type DatabaseTemplate = { kind: 'sqlite'; file: string } | { kind: 'postgres'; name: string };

export function testDialect(): Dialect {
  return process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
}

/**
 * A fresh, migrated database: a SQLite file in a throwaway directory (a file, as the server runs on,
 * so its read connection is in play), or a throwaway PostgreSQL database when TEST_DATABASE=postgres.
 * A copy of the run's migrated template when the project has one, else migrated here.
 */
export async function createTestDatabase(): Promise<{ db: Db; dialect: Dialect; target: DatabaseTarget; drop: () => Promise<void> }> {
  const template = inject('databaseTemplate') as DatabaseTemplate | undefined;
  if (testDialect() === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'authplatform-test-db-'));
    const target: DatabaseTarget = { kind: 'sqlite', file: path.join(dir, 'test.db') };
    if (template?.kind === 'sqlite') fs.copyFileSync(template.file, target.file);
    const { db, dialect } = connectDatabase(target);
    if (template?.kind !== 'sqlite') await migrateToLatest(db);
    return {
      db,
      dialect,
      target,
      drop: async () => {
        await db.destroy();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `authplatform_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(template?.kind === 'postgres' ? `create database "${name}" template "${template.name}"` : `create database "${name}"`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const target: DatabaseTarget = { kind: 'postgres', url: url.toString() };
  // Dropping the database (with force) ends connections the pool is still closing: expected here.
  const { db, dialect } = connectDatabase(target, { onIdleConnectionError: () => {} });
  if (template?.kind !== 'postgres') await migrateToLatest(db);
  return {
    db,
    dialect,
    target,
    drop: async () => {
      await db.destroy();
      const cleanup = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists "${name}" with (force)`);
      await cleanup.end();
    },
  };
}

/** True when a PostgreSQL server answers at TEST_POSTGRES_URL (used to decide whether to run the suite there too). */
export async function postgresReachable(url = POSTGRES_ADMIN_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
