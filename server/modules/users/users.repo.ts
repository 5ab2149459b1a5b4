import type { Db } from '../../db/connect.js';
import type { NewUser, UserRow, UserUpdate } from '../../db/schema.js';
import { invalidateOnCommit } from '../../db/transaction.js';
import { normalizeEmail } from '../../lib/email.js';

/** How many passkeys the account has: read by the account core (sessions' step-up methods, mfa) and by passkeys, so it sits with the account. */
export async function countPasskeys(db: Db, userId: string): Promise<number> {
  const row = await db.selectFrom('passkeys').select((eb) => eb.fn.countAll<number>().as('count')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function findUserByEmail(db: Db, projectId: string | null, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', normalizeEmail(email))
    .where((eb) => (projectId === null ? eb('project_id', 'is', null) : eb('project_id', '=', projectId)))
    .executeTakeFirst();
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Inserts unless the e-mail is taken in the user's realm; returns false then (the unique index settles races). */
export async function insertUserIfNew(db: Db, user: NewUser): Promise<boolean> {
  const result = await db
    .insertInto('users')
    .values({ ...user, email: normalizeEmail(user.email) })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** A developer's keys follow the account: their cached lookups (whether the owner is active) are dropped once a change of `is_active` commits. */
export async function updateUser(db: Db, id: string, changes: UserUpdate): Promise<UserRow | undefined> {
  await db.updateTable('users').set(changes).where('id', '=', id).executeTakeFirst();
  const updated = await findUserById(db, id);
  if (changes.is_active !== undefined && updated?.project_id === null) invalidateOnCommit(db, 'api-keys');
  return updated;
}

/** A unique index refused the write (SQLite or PostgreSQL). */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

/**
 * Moves the account to `email` unless another account of its realm has it; false then. The unique
 * index decides, so an account created with that address a moment before cannot end up sharing it.
 * On PostgreSQL the refused write spoils the surrounding transaction: the caller must abandon it.
 */
export async function changeEmailIfFree(db: Db, id: string, email: string, changes: Omit<UserUpdate, 'email'>): Promise<boolean> {
  try {
    await db.updateTable('users').set({ ...changes, email: normalizeEmail(email) }).where('id', '=', id).execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** ADMIN_EMAILS is the source of truth for listed admins: applied at every start. */
export async function promoteUsersByEmail(db: Db, emails: readonly string[]): Promise<number> {
  if (emails.length === 0) return 0;
  const result = await db
    .updateTable('users')
    .set({ role: 'admin' })
    .where('email', 'in', emails.map(normalizeEmail))
    .where('project_id', 'is', null)
    .where('role', '!=', 'admin')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function setPlatformRoleByEmail(db: Db, email: string, role: UserRow['role'], now: string): Promise<UserRow | undefined> {
  const result = await db
    .updateTable('users')
    .set({ role, updated_at: now })
    .where('email', '=', normalizeEmail(email))
    .where('project_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 0 ? undefined : findUserByEmail(db, null, email);
}

export async function listPlatformAdmins(db: Db): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().where('role', '=', 'admin').where('project_id', 'is', null).orderBy('email').execute();
}

/**
 * The account and its login history; sessions, devices and tokens go with it by foreign key. A
 * developer's keys' cached lookups are dropped once it commits.
 */
export async function deleteUserAndHistory(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('login_attempts').where('user_id', '=', userId).execute();
  const deleted = await db.deleteFrom('users').where('id', '=', userId).returning('project_id').executeTakeFirst();
  if (deleted && deleted.project_id === null) invalidateOnCommit(db, 'api-keys');
}
