import type { Kysely } from 'kysely';

// Frozen once landed.
// - projects: the OpenID Connect client settings (JSON arrays of exact URLs / origins) and the hosted
//   pages' branding (logo URL, accent colour as #rrggbb).
// - sessions.auth_methods: how the sign-in was proven, as OIDC `amr` values ("pwd", "pwd otp", "hwk");
//   sessions.authenticated_at: when (null = created_at; a session handed to an app by the provider
//   keeps the hosted sign-in's time); sessions.oauth_scope: the scopes an app was granted (null = not
//   made by the provider).
// - oauth_interactions: an authorization request waiting for the hosted sign-in (params as JSON).
// - oauth_codes: authorization codes, hashed; used once within 60 s, issued_session_id is the session
//   the first use made (revoked if the code comes back).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('redirect_uris', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema.alterTable('projects').addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema.alterTable('projects').addColumn('allowed_origins', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema.alterTable('projects').addColumn('logo_url', 'text').execute();
  await db.schema.alterTable('projects').addColumn('accent_color', 'text').execute();

  await db.schema.alterTable('sessions').addColumn('auth_methods', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('authenticated_at', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('oauth_scope', 'text').execute();

  await db.schema
    .createTable('oauth_interactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_interactions_expires_idx').on('oauth_interactions').column('expires_at').execute();

  await db.schema
    .createTable('oauth_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('hosted_session_id', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('issued_session_id', 'text')
    .execute();
  await db.schema.createIndex('oauth_codes_expires_idx').on('oauth_codes').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oauth_codes').execute();
  await db.schema.dropTable('oauth_interactions').execute();
  for (const column of ['oauth_scope', 'authenticated_at', 'auth_methods']) await db.schema.alterTable('sessions').dropColumn(column).execute();
  for (const column of ['accent_color', 'logo_url', 'allowed_origins', 'post_logout_redirect_uris', 'redirect_uris']) {
    await db.schema.alterTable('projects').dropColumn(column).execute();
  }
}
