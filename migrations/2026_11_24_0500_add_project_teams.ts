import { sql, type Kysely } from 'kysely';

// Frozen once landed.
// - project_members: who works on a project and as what (owner, admin, viewer). Every project's
//   creator (projects.owner_id) becomes its first owner; owner_id stays the project's primary owner,
//   whose account state and plan the project follows.
// - project_invitations: an invitation by e-mail, its token kept as a SHA-256 hash, valid 7 days,
//   accepted once by the developer account with that address.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('project_members')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_members_pk', ['project_id', 'user_id'])
    .execute();
  await db.schema.createIndex('project_members_user_idx').on('project_members').column('user_id').execute();
  await sql`insert into project_members (project_id, user_id, role, created_at) select id, owner_id, 'owner', created_at from projects`.execute(db);

  await db.schema
    .createTable('project_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('project_invitations_project_idx').on('project_invitations').columns(['project_id', 'email']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('project_invitations').execute();
  await db.schema.dropTable('project_members').execute();
}
