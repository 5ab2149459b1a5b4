import type { Db } from '../../db/connect.js';
import type { MfaChallengeRow } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { newId } from '../../lib/crypto.js';

export async function setPendingTotpSecret(db: Db, userId: string, sealedSecret: string, now: string): Promise<void> {
  await db.updateTable('users').set({ totp_pending_secret: sealedSecret, updated_at: now }).where('id', '=', userId).execute();
}

/** Turns two factors on with the confirmed secret and a fresh set of recovery codes, in one step. */
export async function enableTotp(db: Db, userId: string, change: { sealedSecret: string; step: number; codeHashes: readonly string[]; now: string }): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx
      .updateTable('users')
      .set({ totp_secret: change.sealedSecret, totp_pending_secret: null, totp_enabled_at: change.now, totp_last_step: change.step, updated_at: change.now })
      .where('id', '=', userId)
      .execute();
    await replaceRecoveryCodes(trx, userId, change.codeHashes, change.now);
  });
}

/** Accepts a TOTP time step once: false when this step (or a later one) was already used. */
export async function acceptTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Two factors off: the secret, the recovery codes and any sign-in waiting for a second factor go. */
export async function removeSecondFactors(db: Db, userId: string, now: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx
      .updateTable('users')
      .set({ totp_secret: null, totp_pending_secret: null, totp_enabled_at: null, totp_last_step: null, updated_at: now })
      .where('id', '=', userId)
      .execute();
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await trx.deleteFrom('mfa_challenges').where('user_id', '=', userId).execute();
  });
}

export async function replaceRecoveryCodes(db: Db, userId: string, codeHashes: readonly string[], now: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await trx
      .insertInto('recovery_codes')
      .values(codeHashes.map((code_hash) => ({ id: newId(), user_id: userId, code_hash, created_at: now, used_at: null })))
      .execute();
  });
}

/**
 * Spends a recovery code stored in either form: true once, false ever after (and for a code that is not
 * the user's). The spent row keeps only the keyed form.
 */
export async function useRecoveryCode(db: Db, userId: string, digests: { keyed: string; unkeyed: string }, now: string): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now, code_hash: digests.keyed })
    .where('user_id', '=', userId)
    .where('code_hash', 'in', [digests.keyed, digests.unkeyed])
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Recovery codes still stored as an earlier version's plain SHA-256 (every stored form since starts with `k1:`). */
export async function findUnkeyedRecoveryCodes(db: Db, limit: number): Promise<Array<{ id: string; user_id: string; code_hash: string }>> {
  return db.selectFrom('recovery_codes').select(['id', 'user_id', 'code_hash']).where('code_hash', 'not like', 'k1:%').limit(limit).execute();
}

/** Rewrites stored digests, each only if it still holds the value read; answers how many changed. */
export async function rewriteRecoveryCodeHashes(db: Db, changes: ReadonlyArray<{ id: string; from: string; to: string }>): Promise<number> {
  if (changes.length === 0) return 0;
  return inTransaction(db, async (trx) => {
    let changed = 0;
    for (const change of changes) {
      const result = await trx.updateTable('recovery_codes').set({ code_hash: change.to }).where('id', '=', change.id).where('code_hash', '=', change.from).executeTakeFirst();
      changed += Number(result.numUpdatedRows);
    }
    return changed;
  });
}

export async function insertMfaChallenge(db: Db, challenge: Omit<MfaChallengeRow, 'failed_attempts' | 'used_at'>): Promise<void> {
  await db.insertInto('mfa_challenges').values({ ...challenge, used_at: null }).execute();
}

/**
 * Charges one attempt to a live challenge before its code is checked (so a parallel burst counts in
 * full) and returns it; undefined when it is unknown, used, expired or out of attempts.
 */
export async function chargeMfaChallenge(db: Db, tokenHash: string, now: string, maxAttempts: number): Promise<MfaChallengeRow | undefined> {
  return db
    .updateTable('mfa_challenges')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('failed_attempts', '<', maxAttempts)
    .returningAll()
    .executeTakeFirst();
}

/** A live challenge, without charging it (a passkey ceremony is about to start for it). */
export async function findLiveMfaChallenge(db: Db, tokenHash: string, now: string, maxAttempts: number): Promise<MfaChallengeRow | undefined> {
  return db
    .selectFrom('mfa_challenges')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('failed_attempts', '<', maxAttempts)
    .executeTakeFirst();
}

/** Ends a challenge on success; false if another request finished it first. */
export async function completeMfaChallenge(db: Db, id: string, now: string): Promise<boolean> {
  const result = await db.updateTable('mfa_challenges').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
