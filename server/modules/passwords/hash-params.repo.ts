import type { Deps } from '../../deps.js';
import type { Db } from '../../db/connect.js';
import { FirebaseScryptParamsSchema, type FirebaseScryptParams } from '../../../shared/schemas/user-transfer.js';

/** Keeps an import's Firebase hash parameters, sealed with the master key; its id goes into each `$firebase-scrypt$p=<id>…` hash. */
export async function insertFirebaseParams(deps: Pick<Deps, 'secretBox'>, db: Db, row: { id: string; projectId: string; params: FirebaseScryptParams; now: string }): Promise<void> {
  await db
    .insertInto('user_import_hash_params')
    .values({ id: row.id, project_id: row.projectId, algorithm: 'firebase_scrypt', sealed_params: deps.secretBox.seal(JSON.stringify(row.params)), created_at: row.now })
    .execute();
}

/** The parameters an imported Firebase hash names, only within the user's own project. */
export async function findFirebaseParams(deps: Pick<Deps, 'db' | 'secretBox'>, projectId: string | null, id: string): Promise<FirebaseScryptParams | null> {
  if (projectId === null) return null;
  const row = await deps.db
    .selectFrom('user_import_hash_params')
    .select('sealed_params')
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .where('algorithm', '=', 'firebase_scrypt')
    .executeTakeFirst();
  if (!row) return null;
  const parsed = FirebaseScryptParamsSchema.safeParse(JSON.parse(deps.secretBox.open(row.sealed_params)));
  return parsed.success ? parsed.data : null;
}
