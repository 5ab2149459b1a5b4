import type { Kysely } from 'kysely';

// Frozen once landed.
// - one_time_tokens.interaction_id: the app's sign-in (an OpenID Connect authorization request waiting
//   in oauth_interactions) that a hosted page's mailed link continues; null for links that continue none.
// - one_time_tokens.return_to: the page of the project's hosted pages a link continues to instead (a
//   path, checked by shared/safe-redirect.ts when stored).
// - one_time_tokens.flow_binding: SHA-256 of the hosted flow cookie of the browser that asked for the
//   mail: a link opened in that browser signs in without the password, in any other it only proves the address.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('one_time_tokens').addColumn('interaction_id', 'text').execute();
  await db.schema.alterTable('one_time_tokens').addColumn('return_to', 'text').execute();
  await db.schema.alterTable('one_time_tokens').addColumn('flow_binding', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['flow_binding', 'return_to', 'interaction_id']) await db.schema.alterTable('one_time_tokens').dropColumn(column).execute();
}
