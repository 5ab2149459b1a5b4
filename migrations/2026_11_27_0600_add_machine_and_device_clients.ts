import type { Kysely } from 'kysely';

// Frozen once landed.
// - machine_clients: a project's clients of the client-credentials grant. client_id is public
//   (mc_…); the secret is stored only as its SHA-256 (hex). scopes: a JSON array of the scopes a
//   token may carry. revoked_at: refused from then on, kept for the list and the audit log.
// - device_authorizations: RFC 8628 requests. device_code and user_code stored as SHA-256 (hex);
//   status pending → approved | denied; used_at once the device took its tokens. interval_s grows by
//   5 at each slow_down; client_network counts the waiting rows against their caps.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('machine_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('secret_hint', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('secret_rotated_at', 'text')
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('machine_clients_project_idx').on('machine_clients').column('project_id').execute();

  await db.schema
    .createTable('device_authorizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('device_code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('client_network', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('interval_s', 'integer', (c) => c.notNull())
    .addColumn('last_polled_at', 'text')
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('hosted_session_id', 'text')
    .addColumn('decided_at', 'text')
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('device_authorizations_expires_idx').on('device_authorizations').column('expires_at').execute();
  await db.schema.createIndex('device_authorizations_project_idx').on('device_authorizations').columns(['project_id', 'client_network']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('device_authorizations').execute();
  await db.schema.dropTable('machine_clients').execute();
}
