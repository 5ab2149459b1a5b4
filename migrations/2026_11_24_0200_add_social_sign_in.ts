import { sql, type Kysely } from 'kysely';

// Frozen once landed.
// - login_attempts.method: how the attempt signed in: null for a password or passkey (as before), else
//   the provider (github, google, microsoft, oidc).
// - mfa_challenges.first_factor: the provider of a social sign-in waiting for its second factor (null:
//   a password), so the session's proof and the attempt name it.
// - users.password_set: 0 for an account made by a social sign-in, until "forgot password" sets one
//   (its password_hash is then a hash of a random secret nobody knows).
// - user_identities: an account's sign-ins at GitHub, Google, Microsoft or an OpenID Connect provider,
//   found by provider + subject (never by e-mail), unique per realm.
// - project_connections: a project's own providers for its end users (client secret sealed with the
//   master key; the endpoints overridable for tests and self-hosted providers).
// - social_sign_ins: a sign-in sent to a provider and waiting for its callback (state hashed, PKCE
//   verifier and nonce); on the public API its result waits there for the backend's exchange (one-time
//   code hashed, the provider's profile as JSON).
// - identity_link_requests: a provider identity whose verified e-mail matches an existing account,
//   waiting for the owner to prove the account by the mailed link (token hashed).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('login_attempts').addColumn('method', 'text').execute();
  await db.schema.alterTable('mfa_challenges').addColumn('first_factor', 'text').execute();
  await db.schema.alterTable('users').addColumn('password_set', 'integer', (c) => c.notNull().defaultTo(1)).execute();

  await db.schema
    .createTable('user_identities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'text')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await sql`create unique index user_identities_realm_subject_unique on user_identities ((coalesce(project_id, '')), provider, subject)`.execute(db);
  await db.schema.createIndex('user_identities_user_idx').on('user_identities').column('user_id').execute();

  await db.schema
    .createTable('project_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text')
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_secret', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text')
    .addColumn('authorize_url', 'text')
    .addColumn('token_url', 'text')
    .addColumn('api_url', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('project_connections_project_provider_unique', ['project_id', 'provider'])
    .execute();

  await db.schema
    .createTable('social_sign_ins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('state_hash', 'text', (c) => c.notNull().unique())
    .addColumn('project_id', 'text', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('intent', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('return_to', 'text')
    .addColumn('client_state', 'text')
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text')
    .addColumn('device_fingerprint', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('result_code_hash', 'text', (c) => c.unique())
    .addColumn('result', 'text')
    .addColumn('result_expires_at', 'text')
    .addColumn('exchanged_at', 'text')
    .execute();
  await db.schema.createIndex('social_sign_ins_expires_idx').on('social_sign_ins').column('expires_at').execute();

  await db.schema
    .createTable('identity_link_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('identity_link_requests_expires_idx').on('identity_link_requests').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('identity_link_requests').execute();
  await db.schema.dropTable('social_sign_ins').execute();
  await db.schema.dropTable('project_connections').execute();
  await db.schema.dropTable('user_identities').execute();
  await db.schema.alterTable('users').dropColumn('password_set').execute();
  await db.schema.alterTable('mfa_challenges').dropColumn('first_factor').execute();
  await db.schema.alterTable('login_attempts').dropColumn('method').execute();
}
