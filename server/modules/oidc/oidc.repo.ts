import type { Db } from '../../db/connect.js';
import type { Insertable, Selectable } from 'kysely';
import type { OAuthCodesTable, OAuthInteractionsTable } from '../../db/schema.js';

export type InteractionRow = Selectable<OAuthInteractionsTable>;
export type CodeRow = Selectable<OAuthCodesTable>;

export async function insertInteraction(db: Db, interaction: InteractionRow): Promise<void> {
  await db.insertInto('oauth_interactions').values(interaction).execute();
}

export async function findInteraction(db: Db, id: string, projectId: string, now: string): Promise<InteractionRow | undefined> {
  return db
    .selectFrom('oauth_interactions')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** A project's authorization requests waiting for the hosted sign-in (from one network, when it is named). */
export async function countWaitingInteractions(db: Db, where: { projectId: string | null; network?: string }, now: string) {
  let query = db
    .selectFrom('oauth_interactions')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('expires_at').as('first_expires_at')])
    .where('project_id', where.projectId === null ? 'is' : '=', where.projectId)
    .where('expires_at', '>', now);
  if (where.network !== undefined) query = query.where('client_network', '=', where.network);
  const row = await query.executeTakeFirstOrThrow();
  return { count: Number(row.count), firstExpiresAt: row.first_expires_at ?? null };
}

export async function deleteInteraction(db: Db, id: string): Promise<void> {
  await db.deleteFrom('oauth_interactions').where('id', '=', id).execute();
}

export async function insertCode(db: Db, code: Insertable<OAuthCodesTable>): Promise<void> {
  await db.insertInto('oauth_codes').values(code).execute();
}

export async function findCode(db: Db, codeHash: string): Promise<CodeRow | undefined> {
  return db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
}

/** Spends a code; false when it was spent already (a replay, or the loser of two parallel exchanges). */
export async function spendCode(db: Db, codeHash: string, now: string): Promise<boolean> {
  const result = await db.updateTable('oauth_codes').set({ used_at: now }).where('code_hash', '=', codeHash).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function recordIssuedSession(db: Db, codeHash: string, sessionId: string): Promise<void> {
  await db.updateTable('oauth_codes').set({ issued_session_id: sessionId }).where('code_hash', '=', codeHash).execute();
}

/** The sweep: interactions, and codes never spent, past their (short) lives. */
export async function deleteExpiredWaitingOAuthRows(db: Db, now: string): Promise<number> {
  const codes = await db.deleteFrom('oauth_codes').where('expires_at', '<=', now).where('used_at', 'is', null).executeTakeFirst();
  const interactions = await db.deleteFrom('oauth_interactions').where('expires_at', '<=', now).executeTakeFirst();
  return Number(codes.numDeletedRows) + Number(interactions.numDeletedRows);
}

/** Retention: codes (spent ones, by then) whose lives ended before `before`. */
export async function deleteCodesExpiredBefore(db: Db, before: string): Promise<number> {
  const codes = await db.deleteFrom('oauth_codes').where('expires_at', '<', before).executeTakeFirst();
  return Number(codes.numDeletedRows);
}
