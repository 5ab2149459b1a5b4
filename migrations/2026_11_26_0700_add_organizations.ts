import type { Kysely } from 'kysely';

// Frozen once landed.
// Organizations of a project's end users (B2B):
// - organizations: per project, slug unique in the project; public/private metadata as JSON text.
// - organization_roles: a project's own roles (key unique in the project) with their permission keys
//   as a JSON list; the built-in org:admin and org:member are not stored (shared/schemas/organizations.ts).
// - organization_members: one row per organization and end user, with the role's key.
// - organization_invitations: by e-mail, the token stored as its SHA-256; accepted_at once used.
// - users.public_metadata / private_metadata / unsafe_metadata: JSON objects ('{}' for none).
// - sessions.active_organization_id: the organization the session's tokens carry; null for none.
// - oauth_codes.organization_id: the organization an authorization request asked to start in.
// - project_settings: whether end users may create organizations, how many one may belong to, and
//   the custom-claims template (JSON text); null: the default.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('logo_url', 'text')
    .addColumn('public_metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('private_metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('organizations_project_slug_idx').on('organizations').columns(['project_id', 'slug']).unique().execute();
  await db.schema.createIndex('organizations_project_created_idx').on('organizations').columns(['project_id', 'created_at']).execute();

  await db.schema
    .createTable('organization_roles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('organization_roles_project_key_idx').on('organization_roles').columns(['project_id', 'key']).unique().execute();

  await db.schema
    .createTable('organization_members')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('joined_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('organization_members_pk', ['organization_id', 'user_id'])
    .execute();
  await db.schema.createIndex('organization_members_user_idx').on('organization_members').columns(['user_id']).execute();

  await db.schema
    .createTable('organization_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('inviter_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .addColumn('accepted_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('organization_invitations_org_idx').on('organization_invitations').columns(['organization_id', 'created_at']).execute();

  for (const column of ['public_metadata', 'private_metadata', 'unsafe_metadata']) {
    await db.schema.alterTable('users').addColumn(column, 'text', (c) => c.notNull().defaultTo('{}')).execute();
  }
  await db.schema.alterTable('sessions').addColumn('active_organization_id', 'text').execute();
  await db.schema.alterTable('oauth_codes').addColumn('organization_id', 'text').execute();
  await db.schema.alterTable('project_settings').addColumn('organizations_self_service', 'integer').execute();
  await db.schema.alterTable('project_settings').addColumn('max_organizations_per_user', 'integer').execute();
  await db.schema.alterTable('project_settings').addColumn('custom_claims', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['custom_claims', 'max_organizations_per_user', 'organizations_self_service']) {
    await db.schema.alterTable('project_settings').dropColumn(column).execute();
  }
  await db.schema.alterTable('oauth_codes').dropColumn('organization_id').execute();
  await db.schema.alterTable('sessions').dropColumn('active_organization_id').execute();
  for (const column of ['unsafe_metadata', 'private_metadata', 'public_metadata']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
  await db.schema.dropTable('organization_invitations').execute();
  await db.schema.dropTable('organization_members').execute();
  await db.schema.dropTable('organization_roles').execute();
  await db.schema.dropTable('organizations').execute();
}
