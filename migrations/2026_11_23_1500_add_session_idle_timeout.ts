import type { Kysely } from 'kysely';

// Frozen once landed.
// - users.session_idle_timeout_minutes: the account's own setting; a session unused for longer is
//   refused (access and refresh). null (every existing account) means no idle timeout.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('session_idle_timeout_minutes', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('session_idle_timeout_minutes').execute();
}
