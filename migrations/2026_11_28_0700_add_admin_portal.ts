import type { Kysely } from 'kysely';

// Frozen once landed.
// The self-serve setup portal of enterprise SSO (issue 29):
// - admin_portal_links: a one-time link a project's team hands an organization's IT admin. Only the
//   SHA-256 of its token is kept; `used_at` is set by the one exchange it allows (for a portal session).
// - admin_portal_sessions: what that exchange opens: a session cookie (SHA-256 kept) scoped to the
//   link's organization, until `expires_at` (at most the link's own expiry). `test_result` holds the
//   attributes the last "test connection" round trip received (JSON), read back by this session only.
//   `next_connection_id` is the id the session's next new connection gets, so the guides show the values
//   the IdP needs (entity id, ACS URL, callback) before the IdP's metadata exists.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('admin_portal_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('admin_portal_links_expires_idx').on('admin_portal_links').column('expires_at').execute();

  await db.schema
    .createTable('admin_portal_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('link_id', 'text', (c) => c.notNull().references('admin_portal_links.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('test_result', 'text')
    .addColumn('next_connection_id', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('admin_portal_sessions_link_idx').on('admin_portal_sessions').column('link_id').execute();
}
