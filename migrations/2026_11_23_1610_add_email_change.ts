import type { Kysely } from 'kysely';

// Frozen once landed.
// - one_time_tokens.new_email: for purpose 'change_email', the address the account moves to when
//   the link mailed there is used (the link's token is stored hashed, like every other link).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('one_time_tokens').addColumn('new_email', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('one_time_tokens').dropColumn('new_email').execute();
}
