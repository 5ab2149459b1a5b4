import type { Db } from '../../db/connect.js';
import type { UserImportJobsTable } from '../../db/schema.js';
import type { Selectable, Updateable } from 'kysely';

export type ImportJobRow = Selectable<UserImportJobsTable>;

export async function insertImportJob(db: Db, row: ImportJobRow): Promise<void> {
  await db.insertInto('user_import_jobs').values(row).execute();
}

export async function findImportJob(db: Db, projectId: string, id: string): Promise<ImportJobRow | undefined> {
  return db.selectFrom('user_import_jobs').selectAll().where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
}

/** Changes a job only while it runs: a job marked interrupted (its heartbeat stopped) stays failed. */
export async function updateRunningJob(db: Db, id: string, changes: Updateable<UserImportJobsTable>): Promise<boolean> {
  const result = await db.updateTable('user_import_jobs').set(changes).where('id', '=', id).where('state', '=', 'running').executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks failed the running jobs whose heartbeat is older than `staleBefore` (their instance stopped). */
export async function failStaleJobs(db: Db, projectId: string, staleBefore: string, now: string, failure: string): Promise<void> {
  await db
    .updateTable('user_import_jobs')
    .set({ state: 'failed', failure, finished_at: now })
    .where('project_id', '=', projectId)
    .where('state', '=', 'running')
    .where('heartbeat_at', '<', staleBefore)
    .execute();
}

export async function countRunningJobs(db: Db, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('user_import_jobs')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('project_id', '=', projectId)
    .where('state', '=', 'running')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertImportErrors(db: Db, jobId: string, errors: readonly { line: number; reason: string }[]): Promise<void> {
  if (errors.length === 0) return;
  await db
    .insertInto('user_import_errors')
    .values(errors.map((error) => ({ job_id: jobId, line: error.line, reason: error.reason })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function listImportErrors(db: Db, jobId: string): Promise<{ line: number; reason: string }[]> {
  return db.selectFrom('user_import_errors').select(['line', 'reason']).where('job_id', '=', jobId).orderBy('line').execute();
}

/** Which of these addresses and external ids the project has already. */
export async function findTaken(db: Db, projectId: string, emails: string[], externalIds: string[]): Promise<{ emails: Set<string>; externalIds: Set<string> }> {
  const byEmail = emails.length
    ? await db.selectFrom('users').select('email').where('project_id', '=', projectId).where('email', 'in', emails).execute()
    : [];
  const byExternal = externalIds.length
    ? await db.selectFrom('users').select('external_id').where('project_id', '=', projectId).where('external_id', 'in', externalIds).execute()
    : [];
  return { emails: new Set(byEmail.map((row) => row.email)), externalIds: new Set(byExternal.map((row) => row.external_id!)) };
}

export async function findOrganizationIdsBySlug(db: Db, projectId: string, slugs: string[]): Promise<Map<string, string>> {
  if (slugs.length === 0) return new Map();
  const rows = await db.selectFrom('organizations').select(['id', 'slug']).where('project_id', '=', projectId).where('slug', 'in', slugs).execute();
  return new Map(rows.map((row) => [row.slug, row.id]));
}

export async function findRoleKeys(db: Db, projectId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('organization_roles').select('key').where('project_id', '=', projectId).execute();
  return new Set(rows.map((row) => row.key));
}
