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
