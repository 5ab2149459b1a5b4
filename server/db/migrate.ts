import { Migrator, type MigrationResultSet } from 'kysely';
import { migrations } from '../../migrations/index.js';
import type { Db } from './connect.js';

const migrator = (db: Db) => new Migrator({ db, provider: { getMigrations: async () => migrations } });

export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const result = await migrator(db).migrateToLatest();
  if (result.error) throw result.error instanceof Error ? result.error : new Error(String(result.error));
  return result;
}

/** The migrations this version has that the database has not run, oldest first. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  return (await migrator(db).getMigrations()).filter((migration) => !migration.executedAt).map((migration) => migration.name);
}
