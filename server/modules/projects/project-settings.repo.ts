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

/** The project's configured connections (social's project_connections): their ids for sign_in_methods, and which are switched on. */
export async function listConnectionStates(db: Db, projectId: string): Promise<{ provider: string; enabled: number }[]> {
  return db.selectFrom('project_connections').select(['provider', 'enabled']).where('project_id', '=', projectId).orderBy('provider').execute();
}
