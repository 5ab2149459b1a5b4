import type { Kysely } from 'kysely';

// Frozen once landed.
// SCIM 2.0 provisioning of enterprise connections (issue 29):
// - sso_connections.scim_token_hash / scim_token_created_at: the connection's SCIM bearer token, SHA-256
//   hashed (shown once; rotating replaces it, revoking clears both). Null: SCIM is off for the connection.
// - scim_users: an end user the connection's IdP provisions (the SCIM resource id is the user's id); its
//   userName and externalId as the IdP sent them, and whether the IdP has it active. An account is linked
//   to one connection at most.
// - scim_groups: the IdP's groups pushed to a connection; a group's role in the connection's organization
//   comes from the connection's attribute_mapping.group_roles, by display name (the mapping SAML/OIDC
//   sign-ins already use), so no role column here.
// - scim_group_members: who is in each group.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sso_connections').addColumn('scim_token_hash', 'text').execute();
  await db.schema.alterTable('sso_connections').addColumn('scim_token_created_at', 'text').execute();

  await db.schema
    .createTable('scim_users')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('connection_id', 'text', (c) => c.notNull().references('sso_connections.id').onDelete('cascade'))
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // userName is unique within a connection, compared without case (RFC 7643 §4.1.1); stored lowercased.
  await db.schema.createIndex('scim_users_connection_user_name_idx').on('scim_users').columns(['connection_id', 'user_name']).unique().execute();
  await db.schema.createIndex('scim_users_connection_external_id_idx').on('scim_users').columns(['connection_id', 'external_id']).execute();

  await db.schema
    .createTable('scim_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) => c.notNull().references('sso_connections.id').onDelete('cascade'))
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('scim_groups_connection_display_name_idx').on('scim_groups').columns(['connection_id', 'display_name']).unique().execute();

  await db.schema
    .createTable('scim_group_members')
    .addColumn('group_id', 'text', (c) => c.notNull().references('scim_groups.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('scim_group_members_pk', ['group_id', 'user_id'])
    .execute();
  await db.schema.createIndex('scim_group_members_user_idx').on('scim_group_members').columns(['user_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('scim_group_members').execute();
  await db.schema.dropTable('scim_groups').execute();
  await db.schema.dropTable('scim_users').execute();
  await db.schema.alterTable('sso_connections').dropColumn('scim_token_created_at').execute();
  await db.schema.alterTable('sso_connections').dropColumn('scim_token_hash').execute();
}
