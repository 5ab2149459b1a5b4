import type { Db } from '../../db/connect.js';
import type { LoginAttemptsTable } from '../../db/schema.js';

export async function insertLoginAttempt(db: Db, attempt: LoginAttemptsTable): Promise<void> {
  await db.insertInto('login_attempts').values(attempt).execute();
}
