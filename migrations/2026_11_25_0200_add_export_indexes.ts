import { sql, type Kysely } from 'kysely';

// Frozen once landed.
// - users_platform_created_idx: the platform's accounts (project_id is null) in (created_at, id) order.
//   The CSV exports read accounts newest first, a chunk at a time after the last row read; a project's
//   are in order in users_project_created_idx, but PostgreSQL cannot read that index in created_at
//   order for `project_id is null` (only for `project_id = ?`), so without this each chunk of the
//   admin area's users, devices and sessions exports sorted every platform account.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('users_platform_created_idx').on('users').columns(['created_at', 'id']).where(sql.ref('project_id'), 'is', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_platform_created_idx').execute();
}
