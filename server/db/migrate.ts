import { Migrator, sql, type MigrationResultSet } from 'kysely';
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

/** The migrations the database has run that this version does not know: it was migrated by a newer version. */
export async function unknownMigrations(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((row) => row.name).filter((name) => !Object.hasOwn(migrations, name));
}
