import type { Kysely } from 'kysely';

// Frozen once landed.
// SAML connections' own key pair and its options (issue 29):
// - saml_sp_private_key: the connection's RSA-2048 private key (PKCS#8 PEM), sealed with the master key;
//   saml_sp_certificate: its self-signed X.509 certificate (PEM), listed in the SP metadata for signing
//   and encryption. Both null until first needed: connections made before this get theirs lazily.
// - saml_sign_authn_requests: AuthnRequests are signed with that key (HTTP-Redirect SigAlg + Signature).
// - saml_require_encrypted_assertions: a response whose assertion is not encrypted is refused.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sso_connections').addColumn('saml_sp_private_key', 'text').execute();
  await db.schema.alterTable('sso_connections').addColumn('saml_sp_certificate', 'text').execute();
  await db.schema.alterTable('sso_connections').addColumn('saml_sign_authn_requests', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('sso_connections').addColumn('saml_require_encrypted_assertions', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sso_connections').dropColumn('saml_require_encrypted_assertions').execute();
  await db.schema.alterTable('sso_connections').dropColumn('saml_sign_authn_requests').execute();
  await db.schema.alterTable('sso_connections').dropColumn('saml_sp_certificate').execute();
  await db.schema.alterTable('sso_connections').dropColumn('saml_sp_private_key').execute();
}
