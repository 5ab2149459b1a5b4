import type { Kysely } from 'kysely';

// Frozen once landed.
// - sessions.client: the door the sign-in came through: 'dashboard', 'hosted' (a project's hosted
//   pages), 'public_api' (a developer's backend with the project's key) or 'oidc' (a session the
//   OpenID Connect provider handed to an app). null: a session started before it was recorded.
// - sessions.client_name: the OpenID Connect client's name when the session was handed out; null otherwise.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('client', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('client_name', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('client_name').execute();
  await db.schema.alterTable('sessions').dropColumn('client').execute();
}
