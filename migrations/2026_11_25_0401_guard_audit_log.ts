import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once landed.
// - audit_log: the ways around its update and delete triggers are refused too. PostgreSQL: TRUNCATE
//   runs no row triggers, so a statement trigger refuses it. SQLite: INSERT OR REPLACE (and REPLACE)
//   over an existing id deletes the old row by conflict resolution, which fires delete triggers only
//   with recursive_triggers on; a trigger refuses any insert whose id is already there (a plain
//   duplicate insert was refused by the primary key anyway).

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create trigger audit_log_no_truncate before truncate on audit_log for each statement execute function audit_log_append_only()`.execute(db);
  } else {
    await sql`create trigger audit_log_no_replace before insert on audit_log when exists (select 1 from audit_log where id = new.id) begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger if exists audit_log_no_truncate on audit_log`.execute(db);
  } else {
    await sql`drop trigger if exists audit_log_no_replace`.execute(db);
  }
}
