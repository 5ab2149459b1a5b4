import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectDatabase } from '../../server/db/connect.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { POSTGRES_ADMIN_URL, type DatabaseTemplate } from './test-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplate: DatabaseTemplate;
  }
}

/**
 * The API suite's databases are copies of one migrated once per run (createTestDatabase): a copied SQLite
 * file, or a PostgreSQL database made `template` of it. Migrating each took 2-4 s on PostgreSQL and about
 * 0.5 s on SQLite, for some 180 databases per project; a copy takes about 0.3 s and a few ms.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (project.config.env?.TEST_DATABASE === 'postgres') {
    const name = `authplatform_template_${Date.now()}_${randomBytes(4).toString('hex')}`;
    await adminQuery(`create database "${name}"`);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    const { db } = connectDatabase({ kind: 'postgres', url: url.toString() });
    await migrateToLatest(db);
    await db.destroy();
    project.provide('databaseTemplate', { kind: 'postgres', name });
    return () => adminQuery(`drop database if exists "${name}" with (force)`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'authplatform-test-template-'));
  const file = path.join(dir, 'template.db');
  const { db } = connectDatabase({ kind: 'sqlite', file });
  await migrateToLatest(db);
  // Everything in the file itself, so a copy of that one file is the whole database.
  await sql`pragma wal_checkpoint(truncate)`.execute(db);
  await db.destroy();
  project.provide('databaseTemplate', { kind: 'sqlite', file });
  return async () => fs.rmSync(dir, { recursive: true, force: true });
}

async function adminQuery(text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}
