import { enterpriseMethodKey } from '../../../shared/schemas/project-settings.js';
import type { Db } from '../../db/connect.js';
import type { ProjectSettingsRow } from '../../db/schema.js';
import { invalidateOnCommit } from '../../db/transaction.js';

export async function findProjectSettings(db: Db, projectId: string) {
  return db.selectFrom('project_settings').selectAll().where('project_id', '=', projectId).executeTakeFirst();
}

/** Writes the project's whole row (made on its first change); every instance drops its cached copy once it commits. */
export async function saveProjectSettings(db: Db, row: ProjectSettingsRow): Promise<void> {
  const { project_id: _id, ...changes } = row;
  await db
    .insertInto('project_settings')
    .values(row)
    .onConflict((conflict) => conflict.column('project_id').doUpdateSet(changes))
    .execute();
  invalidateOnCommit(db, 'project-settings');
}

/**
 * The project's configured connections, their ids for sign_in_methods and which are switched on: social
 * ones (project_connections) by provider, enterprise ones (sso_connections) as `sso:<id>`.
 */
export async function listConnectionStates(db: Db, projectId: string): Promise<{ provider: string; enabled: number }[]> {
  const social = await db.selectFrom('project_connections').select(['provider', 'enabled']).where('project_id', '=', projectId).orderBy('provider').execute();
  const enterprise = await db.selectFrom('sso_connections').select(['id', 'enabled']).where('project_id', '=', projectId).orderBy('created_at').execute();
  return [...social, ...enterprise.map((row) => ({ provider: enterpriseMethodKey(row.id), enabled: row.enabled }))];
}
