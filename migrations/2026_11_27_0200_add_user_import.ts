import type { Kysely } from 'kysely';

// Frozen once landed.
// - users.external_id: the user's id in the developer's own system (an import's `external_id`), unique in
//   the project; null for none.
// - user_import_jobs: one import of end users (NDJSON or a JSON array), its progress as counts, its state
//   ('running', 'done', 'failed'), heartbeat_at (a running job's instance touches it; a job whose heartbeat
//   stopped was interrupted and reads as failed), and the reason a whole job failed.
// - user_import_errors: the failed lines of a job (the first 1,000; the rest are only counted).
// - user_import_hash_params: Firebase's hash parameters of one import, sealed with the master key; the
//   imported `$firebase-scrypt$p=<id>…` hashes name their row, and keep it until they are rehashed.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('external_id', 'text').execute();
  await db.schema.createIndex('users_project_external_id_idx').on('users').columns(['project_id', 'external_id']).unique().execute();

  await db.schema
    .createTable('user_import_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('created_by', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('dry_run', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('lines_read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failure', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('heartbeat_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('user_import_jobs_project_created_idx').on('user_import_jobs').columns(['project_id', 'created_at']).execute();

  await db.schema
    .createTable('user_import_errors')
    .addColumn('job_id', 'text', (c) => c.notNull().references('user_import_jobs.id').onDelete('cascade'))
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_import_errors_pk', ['job_id', 'line'])
    .execute();

  await db.schema
    .createTable('user_import_hash_params')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('sealed_params', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_import_hash_params').execute();
  await db.schema.dropTable('user_import_errors').execute();
  await db.schema.dropTable('user_import_jobs').execute();
  await db.schema.dropIndex('users_project_external_id_idx').execute();
  await db.schema.alterTable('users').dropColumn('external_id').execute();
}
