import type { Kysely } from 'kysely';

// Frozen once landed.
// - identity_link_requests.return_to: the page of our own (a checked path) that the sign-in with a
//   provider which sent the link was going to, such as an app's waiting sign-in on the hosted pages;
//   the page of the link offers to sign in and go on there. Null when there was none.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('identity_link_requests').addColumn('return_to', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('identity_link_requests').dropColumn('return_to').execute();
}
