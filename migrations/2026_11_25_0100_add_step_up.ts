import type { Kysely } from 'kysely';

// Frozen once landed.
// - sessions.reauthenticated_at: when the session's user last proved who they are again (password, a
//   second-factor code or a passkey) to add a way in or move the account; null until they do. Together
//   with the sign-in's own time (authenticated_at, else created_at) it says whether a proof is recent.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('reauthenticated_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('reauthenticated_at').execute();
}
