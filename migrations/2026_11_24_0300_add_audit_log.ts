import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once landed.
// - audit_log: every change an admin or a developer makes, append-only (triggers refuse updates and
//   deletes on both databases). No foreign keys: an entry outlives its actor, its project and its
//   target; the actor's e-mail and the target's label are kept as they were. project_id null: a
//   change outside any project (the admin area over developer accounts). before/after: JSON or null.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text')
    .addColumn('actor_id', 'text')
    .addColumn('actor_email', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text')
    .addColumn('target_label', 'text')
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_created_idx').on('audit_log').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('audit_log_project_created_idx').on('audit_log').columns(['project_id', 'created_at']).execute();

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create function audit_log_append_only() returns trigger language plpgsql as $$ begin raise exception 'audit_log is append-only'; end $$`.execute(db);
    await sql`create trigger audit_log_append_only before update or delete on audit_log for each row execute function audit_log_append_only()`.execute(db);
  } else {
    await sql`create trigger audit_log_no_update before update on audit_log begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
    await sql`create trigger audit_log_no_delete before delete on audit_log begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`drop function if exists audit_log_append_only()`.execute(db);
}
