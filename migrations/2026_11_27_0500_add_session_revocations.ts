import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once landed.
// - session_revocations: the revocation feed (issue 31): one row per end-user session of a project
//   that ended before its time, written by triggers in the transaction that ends it, whoever ends it
//   (every service path, `npm run admin`, an operator's SQL): a session whose revoked_at is set
//   (sign-out, revocations, reuse detection, password reset or change, deactivation, device block,
//   idle timeout), and the live sessions of an end user deleted (their own deletion, an owner's, the
//   project's). Platform accounts (project_id null) have no feed.
// - The feed reads in (txid, id) order. SQLite has one writer at a time, so ids follow commit order
//   and txid stays 0. On PostgreSQL an id is taken at insert but becomes visible at commit, so a
//   reader that went by id could pass over a row committed later with a smaller id; txid is the
//   writing transaction's id (xid8), and the feed reads only rows of transactions older than every
//   transaction still running (pg_snapshot_xmin), which no later commit can precede.
// - Purged by the retention job once no access token of the session can still be valid.

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create table session_revocations (
      id bigint generated always as identity primary key,
      txid xid8 not null default pg_current_xact_id(),
      project_id text not null,
      session_id text not null,
      revoked_at text not null
    )`.execute(db);
    await sql`create index session_revocations_position_idx on session_revocations (txid, id)`.execute(db);
    await sql`create index session_revocations_project_position_idx on session_revocations (project_id, txid, id)`.execute(db);
    await sql`create function authplatform_feed_session_revoked() returns trigger language plpgsql as $$
      begin
        insert into session_revocations (project_id, session_id, revoked_at)
          select users.project_id, new.id, new.revoked_at from users where users.id = new.user_id and users.project_id is not null;
        return null;
      end
    $$`.execute(db);
    await sql`create trigger sessions_feed_revocation after update of revoked_at on sessions for each row
      when (old.revoked_at is null and new.revoked_at is not null) execute function authplatform_feed_session_revoked()`.execute(db);
    await sql`create function authplatform_feed_user_deleted() returns trigger language plpgsql as $$
      begin
        insert into session_revocations (project_id, session_id, revoked_at)
          select old.project_id, sessions.id, to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
          from sessions where sessions.user_id = old.id and sessions.revoked_at is null;
        return old;
      end
    $$`.execute(db);
    await sql`create trigger users_feed_revocations before delete on users for each row
      when (old.project_id is not null) execute function authplatform_feed_user_deleted()`.execute(db);
  } else {
    await sql`create table session_revocations (
      id integer primary key autoincrement,
      txid integer not null default 0,
      project_id text not null,
      session_id text not null,
      revoked_at text not null
    )`.execute(db);
    await sql`create index session_revocations_project_position_idx on session_revocations (project_id, txid, id)`.execute(db);
    await sql`create trigger sessions_feed_revocation after update of revoked_at on sessions
      when old.revoked_at is null and new.revoked_at is not null
      begin
        insert into session_revocations (project_id, session_id, revoked_at)
          select users.project_id, new.id, new.revoked_at from users where users.id = new.user_id and users.project_id is not null;
      end`.execute(db);
    await sql`create trigger users_feed_revocations before delete on users when old.project_id is not null
      begin
        insert into session_revocations (project_id, session_id, revoked_at)
          select old.project_id, sessions.id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
          from sessions where sessions.user_id = old.id and sessions.revoked_at is null;
      end`.execute(db);
  }
  await sql`create index session_revocations_revoked_idx on session_revocations (revoked_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger if exists sessions_feed_revocation on sessions`.execute(db);
    await sql`drop trigger if exists users_feed_revocations on users`.execute(db);
    await sql`drop function if exists authplatform_feed_session_revoked()`.execute(db);
    await sql`drop function if exists authplatform_feed_user_deleted()`.execute(db);
  } else {
    await sql`drop trigger if exists sessions_feed_revocation`.execute(db);
    await sql`drop trigger if exists users_feed_revocations`.execute(db);
  }
  await db.schema.dropTable('session_revocations').execute();
}
