import type { Kysely } from 'kysely';

// Frozen once landed. Projects belong to a developer (a platform user); deleting a project
// deletes its end users explicitly (users.project_id carries no foreign key, see the accounts migration).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('website_url', 'text')
    .addColumn('environment', 'text', (c) => c.notNull().defaultTo('development'))
    .addColumn('project_key', 'text', (c) => c.notNull().unique())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('signing_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('projects_owner_idx').on('projects').columns(['owner_id', 'created_at']).execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_project_idx').on('api_keys').column('project_id').execute();

  // Daily roll-ups, one row per project and UTC day, incremented as events happen.
  await db.schema
    .createTable('project_daily_stats')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('signups', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refreshes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('api_requests', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('project_daily_stats_pk', ['project_id', 'day'])
    .execute();

  await db.schema
    .createTable('api_key_daily_usage')
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('requests', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('api_key_daily_usage_pk', ['api_key_id', 'day'])
    .execute();

  // Distinct end users signed in per project and day, for monthly active users.
  await db.schema
    .createTable('project_active_users')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_active_users_pk', ['project_id', 'day', 'user_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['project_active_users', 'api_key_daily_usage', 'project_daily_stats', 'api_keys', 'projects']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
