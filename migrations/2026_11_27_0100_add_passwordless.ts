import type { Kysely } from 'kysely';

// Frozen once landed.
// - project_settings.sign_in_methods: JSON of the first factors a project chose ({ password, magic_link,
//   email_code, passkey, connections: { id: bool } }); null (or a field left out): the defaults.
// - email_sign_ins: a mailed sign-in code or magic link of one project's address (the address may have no
//   account yet). The secret is stored as a keyed digest; a code counts its wrong tries; a magic link keeps
//   what it continues (the asking browser's binding, the developer's redirect URI and state, or the hosted
//   pages' app sign-in) and, once opened for the public API, the hash of the one-time code for the exchange.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('project_settings').addColumn('sign_in_methods', 'text').execute();
  await db.schema
    .createTable('email_sign_ins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('secret_digest', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('flow_binding', 'text')
    .addColumn('redirect_uri', 'text')
    .addColumn('client_state', 'text')
    .addColumn('interaction_id', 'text')
    .addColumn('return_to', 'text')
    .addColumn('device_fingerprint', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('result_code_hash', 'text')
    .addColumn('result_expires_at', 'text')
    .addColumn('exchanged_at', 'text')
    .execute();
  await db.schema.createIndex('email_sign_ins_address_idx').on('email_sign_ins').columns(['project_id', 'email', 'kind']).execute();
  await db.schema.createIndex('email_sign_ins_secret_idx').on('email_sign_ins').column('secret_digest').execute();
  await db.schema.createIndex('email_sign_ins_result_idx').on('email_sign_ins').column('result_code_hash').execute();
  await db.schema.createIndex('email_sign_ins_expiry_idx').on('email_sign_ins').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('email_sign_ins').execute();
  await db.schema.alterTable('project_settings').dropColumn('sign_in_methods').execute();
}
