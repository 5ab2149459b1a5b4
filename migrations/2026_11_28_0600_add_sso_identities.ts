import type { Kysely } from 'kysely';

// Frozen once landed.
// sso_identities: an account's sign-ins through an enterprise connection (SAML or OpenID Connect): when it
// first and last signed in through it. The account is still found by its address (the connection's verified
// domain); this row is what the user page's "enterprise identities" and the connection's users read.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sso_identities')
    .addColumn('connection_id', 'text', (c) => c.notNull().references('sso_connections.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sso_identities_pk', ['connection_id', 'user_id'])
    .execute();
  await db.schema.createIndex('sso_identities_user_idx').on('sso_identities').column('user_id').execute();
}
