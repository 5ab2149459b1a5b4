import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once landed.
// The revocation feed also names machine clients (issue 31): a machine client revoked or deleted while it could
// still hold valid tokens writes a row, from a trigger in the transaction that ends it (whoever ends it: the
// dashboard, REST, an operator's SQL, the project's deletion). Such a row's subject_type is 'machine_client' and
// its session_id column holds the client's client_id (the `sub` of its tokens); a session's row stays 'session'.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('session_revocations').addColumn('subject_type', 'text', (c) => c.notNull().defaultTo('session')).execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create function authplatform_feed_machine_client_revoked() returns trigger language plpgsql as $$
      begin
        insert into session_revocations (project_id, session_id, subject_type, revoked_at) values (new.project_id, new.client_id, 'machine_client', new.revoked_at);
        return null;
      end
    $$`.execute(db);
    await sql`create trigger machine_clients_feed_revocation after update of revoked_at on machine_clients for each row
      when (old.revoked_at is null and new.revoked_at is not null) execute function authplatform_feed_machine_client_revoked()`.execute(db);
    await sql`create function authplatform_feed_machine_client_deleted() returns trigger language plpgsql as $$
      begin
        insert into session_revocations (project_id, session_id, subject_type, revoked_at)
          values (old.project_id, old.client_id, 'machine_client', to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
        return old;
      end
    $$`.execute(db);
    await sql`create trigger machine_clients_feed_deletion before delete on machine_clients for each row
      when (old.revoked_at is null) execute function authplatform_feed_machine_client_deleted()`.execute(db);
  } else {
    await sql`create trigger machine_clients_feed_revocation after update of revoked_at on machine_clients
      when old.revoked_at is null and new.revoked_at is not null
      begin
        insert into session_revocations (project_id, session_id, subject_type, revoked_at) values (new.project_id, new.client_id, 'machine_client', new.revoked_at);
      end`.execute(db);
    await sql`create trigger machine_clients_feed_deletion before delete on machine_clients when old.revoked_at is null
      begin
        insert into session_revocations (project_id, session_id, subject_type, revoked_at)
          values (old.project_id, old.client_id, 'machine_client', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
      end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger if exists machine_clients_feed_revocation on machine_clients`.execute(db);
    await sql`drop trigger if exists machine_clients_feed_deletion on machine_clients`.execute(db);
    await sql`drop function if exists authplatform_feed_machine_client_revoked()`.execute(db);
    await sql`drop function if exists authplatform_feed_machine_client_deleted()`.execute(db);
  } else {
    await sql`drop trigger if exists machine_clients_feed_revocation`.execute(db);
    await sql`drop trigger if exists machine_clients_feed_deletion`.execute(db);
  }
  await db.schema.alterTable('session_revocations').dropColumn('subject_type').execute();
}
