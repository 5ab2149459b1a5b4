import type { Db } from '../../db/connect.js';
import type { LoginAttemptsTable } from '../../db/schema.js';

export async function insertLoginAttempt(db: Db, attempt: LoginAttemptsTable): Promise<void> {
  await db.insertInto('login_attempts').values(attempt).execute();
}

/** The addresses failed sign-ins to one account came from since `since` (to lift their per-address budgets). */
export async function listFailedAttemptAddresses(db: Db, projectId: string | null, email: string, since: string): Promise<string[]> {
  const rows = await db
    .selectFrom('login_attempts')
    .select('ip_address')
    .distinct()
    .where('email', '=', email)
    .where((eb) => (projectId === null ? eb('project_id', 'is', null) : eb('project_id', '=', projectId)))
    .where('success', '=', 0)
    .where('created_at', '>=', since)
    .execute();
  return rows.flatMap((row) => (row.ip_address ? [row.ip_address] : []));
}
