import type { Db } from '../../db/connect.js';
import type { TokenPurpose } from '../../db/schema.js';

export async function insertOneTimeToken(
  db: Db,
  token: {
    id: string;
    user_id: string;
    purpose: TokenPurpose;
    token_hash: string;
    expires_at: string;
    created_at: string;
    password_hash: string | null;
    new_email?: string | null;
    interaction_id?: string | null;
    return_to?: string | null;
    flow_binding?: string | null;
  },
): Promise<void> {
  await db.insertInto('one_time_tokens').values(token).execute();
}

/** Finds a token of the given realm's users only: a link from one project never works on another. */
export async function findOneTimeToken(db: Db, projectId: string | null, purpose: TokenPurpose, tokenHash: string) {
  return db
    .selectFrom('one_time_tokens')
    .innerJoin('users', 'users.id', 'one_time_tokens.user_id')
    .selectAll('one_time_tokens')
    .select(['users.is_verified as user_is_verified', 'users.email as user_email'])
    .where('one_time_tokens.token_hash', '=', tokenHash)
    .where('one_time_tokens.purpose', '=', purpose)
    .where((eb) => (projectId === null ? eb('users.project_id', 'is', null) : eb('users.project_id', '=', projectId)))
    .executeTakeFirst();
}

/** Marks the token used if it still is usable; exactly one concurrent caller gets true. */
export async function consumeOneTimeToken(db: Db, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('one_time_tokens')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The password of the newest sign-up attempt that sent a verification link, if any. */
export async function findLatestAttemptPassword(db: Db, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('one_time_tokens')
    .select('password_hash')
    .where('user_id', '=', userId)
    .where('purpose', '=', 'verify_email')
    .where('password_hash', 'is not', null)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.password_hash ?? null;
}

/** Ends the user's pending links of one purpose (once one of them is used, or the password changes). */
export async function expireOneTimeTokens(db: Db, userId: string, purpose: TokenPurpose, now: string): Promise<void> {
  await db
    .updateTable('one_time_tokens')
    .set({ expires_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
}

/** A user's session's latest tokens of one purpose (`binding`: SHA-256 of the session it is bound to), used or not, newest first. */
export async function listBoundTokens(db: Db, userId: string, purpose: TokenPurpose, binding: string, limit = 20) {
  return db
    .selectFrom('one_time_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('flow_binding', '=', binding)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}
