import type { ExpressionBuilder, Insertable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database, EmailSignInsTable, EmailSignInRow } from '../../db/schema.js';

/** The realm's codes and links: a project's, or the platform's (project_id null). */
const ofRealm = (projectId: string | null) => (eb: ExpressionBuilder<Database, 'email_sign_ins'>) =>
  projectId === null ? eb('project_id', 'is', null) : eb('project_id', '=', projectId);

export async function insertEmailSignIn(db: Db, row: Insertable<EmailSignInsTable>): Promise<void> {
  await db.insertInto('email_sign_ins').values(row).execute();
}

/** Ends the address's live codes (or links): one live at a time. */
export async function expireEmailSignIns(db: Db, projectId: string | null, email: string, kind: EmailSignInRow['kind'], now: string): Promise<void> {
  await db
    .updateTable('email_sign_ins')
    .set({ expires_at: now })
    .where(ofRealm(projectId))
    .where('email', '=', email)
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
}

/** The address's live code, if any. */
export async function findLiveCode(db: Db, projectId: string | null, email: string, now: string): Promise<EmailSignInRow | undefined> {
  return db
    .selectFrom('email_sign_ins')
    .selectAll()
    .where(ofRealm(projectId))
    .where('email', '=', email)
    .where('kind', '=', 'code')
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Counts one try of a code if it has tries left; exactly `max` concurrent callers get true. */
export async function chargeCodeTry(db: Db, id: string, max: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('email_sign_ins')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('attempts', '<', max)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findLinkByDigest(db: Db, projectId: string, digest: string): Promise<EmailSignInRow | undefined> {
  return db.selectFrom('email_sign_ins').selectAll().where('secret_digest', '=', digest).where('project_id', '=', projectId).where('kind', '=', 'link').executeTakeFirst();
}

/** Marks a code or link used if it still is usable; exactly one concurrent caller gets true. */
export async function spendEmailSignIn(db: Db, id: string, now: string): Promise<boolean> {
  const result = await db.updateTable('email_sign_ins').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function storeExchangeCode(db: Db, id: string, codeHash: string, expiresAt: string): Promise<void> {
  await db.updateTable('email_sign_ins').set({ result_code_hash: codeHash, result_expires_at: expiresAt }).where('id', '=', id).execute();
}

export async function findExchangeCode(db: Db, projectId: string, codeHash: string): Promise<EmailSignInRow | undefined> {
  return db.selectFrom('email_sign_ins').selectAll().where('result_code_hash', '=', codeHash).where('project_id', '=', projectId).executeTakeFirst();
}

/** Spends the exchange code if unspent and in time; exactly one concurrent caller gets true. */
export async function spendExchangeCode(db: Db, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('email_sign_ins')
    .set({ exchanged_at: now })
    .where('id', '=', id)
    .where('exchanged_at', 'is', null)
    .where('result_expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The sweep: codes and links whose life (and whose exchange's) ended before `before`. */
export async function deleteEndedEmailSignIns(db: Db, before: string): Promise<number> {
  const result = await db
    .deleteFrom('email_sign_ins')
    .where('expires_at', '<', before)
    .where((eb) => eb.or([eb('result_expires_at', 'is', null), eb('result_expires_at', '<', before)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
