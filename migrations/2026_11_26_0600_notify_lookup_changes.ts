import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once landed.
// PostgreSQL only: every statement that changes what the request path's lookups read (a session and
// its user, an API key and its project) tells the instances listening on `authplatform_lookup_changes`
// once its transaction commits, whoever made it (another instance, `npm run admin`, an operator's SQL);
// they drop the rows they remember (server/db/lookup-changes.ts). NOTIFY collapses one transaction's
// identical notifications into one. SQLite needs nothing: each process checks PRAGMA data_version.

const WATCHED_TABLES = ['sessions', 'users', 'api_keys', 'projects'];

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create function authplatform_notify_lookup_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('authplatform_lookup_changes', '');
      return null;
    end
  $$`.execute(db);
  for (const table of WATCHED_TABLES) {
    await sql`create trigger ${sql.raw(`${table}_notify_lookup_change`)} after insert or update or delete or truncate on ${sql.table(table)} for each statement execute function authplatform_notify_lookup_change()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const table of WATCHED_TABLES) await sql`drop trigger if exists ${sql.raw(`${table}_notify_lookup_change`)} on ${sql.table(table)}`.execute(db);
  await sql`drop function if exists authplatform_notify_lookup_change()`.execute(db);
}
