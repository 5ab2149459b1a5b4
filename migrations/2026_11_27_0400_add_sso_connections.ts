import { sql, type Kysely } from 'kysely';

// Frozen once landed.
// Enterprise single sign-on (issue 29):
// - sso_connections: a project's SAML 2.0 or OpenID Connect connection for one of its organizations.
//   SAML: the IdP's entity id, SSO URL and signing certificates (JSON list of base64 DER), taken from its
//   metadata (XML pasted, or fetched from metadata_url). OIDC: issuer, client id and the client secret sealed
//   with the master key. default_role: the organization role a first sign-in gets; attribute_mapping: JSON
//   ({email, first_name, last_name, groups, group_roles}). enforce: the organization's domains may not sign
//   in with a password. The id is stable: later additions (a SCIM token per connection) hang off it.
// - sso_domains: the e-mail domains a connection claims; verified_at once the DNS TXT record with
//   verification_token was seen. A domain is verified for at most one connection of a project.
// - sso_assertions: SAML assertion ids seen, per connection, kept until the assertion expires (no replay,
//   on every instance).
// - social_sign_ins.sso_connection_id: a sign-in sent to an enterprise IdP (provider 'sso'); the waiting
//   row, the one-time code and its exchange are social sign-in's.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sso_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('saml_idp_entity_id', 'text')
    .addColumn('saml_idp_sso_url', 'text')
    .addColumn('saml_idp_certificates', 'text')
    .addColumn('saml_idp_metadata_url', 'text')
    .addColumn('oidc_issuer', 'text')
    .addColumn('oidc_client_id', 'text')
    .addColumn('oidc_client_secret', 'text')
    .addColumn('default_role', 'text', (c) => c.notNull())
    .addColumn('attribute_mapping', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('allow_idp_initiated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enforce', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_connections_project_idx').on('sso_connections').columns(['project_id', 'created_at']).execute();
  await db.schema.createIndex('sso_connections_organization_idx').on('sso_connections').columns(['organization_id']).execute();

  await db.schema
    .createTable('sso_domains')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) => c.notNull().references('sso_connections.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('verification_token', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_domains_connection_domain_idx').on('sso_domains').columns(['connection_id', 'domain']).unique().execute();
  await sql`create unique index sso_domains_project_verified_idx on sso_domains (project_id, domain) where verified_at is not null`.execute(db);

  await db.schema
    .createTable('sso_assertions')
    .addColumn('connection_id', 'text', (c) => c.notNull().references('sso_connections.id').onDelete('cascade'))
    .addColumn('assertion_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sso_assertions_pk', ['connection_id', 'assertion_id'])
    .execute();
  await db.schema.createIndex('sso_assertions_expires_idx').on('sso_assertions').columns(['expires_at']).execute();

  await db.schema.alterTable('social_sign_ins').addColumn('sso_connection_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('social_sign_ins').dropColumn('sso_connection_id').execute();
  await db.schema.dropTable('sso_assertions').execute();
  await db.schema.dropTable('sso_domains').execute();
  await db.schema.dropTable('sso_connections').execute();
}
