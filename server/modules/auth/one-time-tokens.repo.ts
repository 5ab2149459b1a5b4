import type { Db } from '../../db/connect.js';
import type { TokenPurpose } from '../../db/schema.js';

export async function insertOneTimeToken(
  db: Db,
  token: { id: string; user_id: string; purpose: TokenPurpose; token_hash: string; expires_at: string; created_at: string },
): Promise<void> {
  await db.insertInto('one_time_tokens').values(token).execute();
}

/** Finds a token of the given realm's users only: a link from one project never works on another. */
export async function findOneTimeToken(db: Db, projectId: string | null, purpose: TokenPurpose, tokenHash: string) {
  return db
    .selectFrom('one_time_tokens')
    .innerJoin('users', 'users.id', 'one_time_tokens.user_id')
    .selectAll('one_time_tokens')
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

/** A new link replaces the older ones of the same purpose. */
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
