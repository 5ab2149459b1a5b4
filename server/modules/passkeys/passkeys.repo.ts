import type { Insertable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { PasskeyRow, WebAuthnChallengesTable, WebAuthnPurpose } from '../../db/schema.js';

export async function listPasskeys(db: Db, userId: string): Promise<PasskeyRow[]> {
  return db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('created_at', 'asc').orderBy('id').execute();
}

export async function findPasskeyByCredentialId(db: Db, credentialId: string): Promise<PasskeyRow | undefined> {
  return db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
}

/** False when the credential is already registered (to this account or another). */
export async function insertPasskey(db: Db, passkey: PasskeyRow): Promise<boolean> {
  const result = await db.insertInto('passkeys').values(passkey).onConflict((oc) => oc.column('credential_id').doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function renamePasskey(db: Db, userId: string, id: string, name: string): Promise<PasskeyRow | undefined> {
  return db.updateTable('passkeys').set({ name }).where('id', '=', id).where('user_id', '=', userId).returningAll().executeTakeFirst();
}

export async function deletePasskey(db: Db, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function deletePasskeysOf(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('passkeys').where('user_id', '=', userId).execute();
}

/**
 * Records a use: the counter moves only forward (a clone replaying an old counter loses the race
 * here too), false when another request already moved it past `counter`.
 */
export async function recordPasskeyUse(db: Db, id: string, previousCounter: number, counter: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('passkeys')
    .set({ counter, last_used_at: now })
    .where('id', '=', id)
    .where('counter', '=', previousCounter)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertWebAuthnChallenge(db: Db, challenge: Omit<Insertable<WebAuthnChallengesTable>, 'used_at'>): Promise<void> {
  await db.insertInto('webauthn_challenges').values({ ...challenge, used_at: null }).execute();
}

/**
 * A ceremony of an account (registration, step-up) or of a waiting sign-in (second factor): it takes
 * the place of the owner's earlier ones of that purpose not yet answered, so asking again and again
 * keeps one row waiting. `db` is a transaction holding the owner's lock (parallel asks would each see
 * nothing to replace).
 */
export async function replaceOwnedWebAuthnChallenge(db: Db, challenge: Omit<Insertable<WebAuthnChallengesTable>, 'used_at'> & { user_id: string }): Promise<void> {
  let earlier = db.deleteFrom('webauthn_challenges').where('purpose', '=', challenge.purpose).where('user_id', '=', challenge.user_id).where('used_at', 'is', null);
  if (challenge.mfa_challenge_id) earlier = earlier.where('mfa_challenge_id', '=', challenge.mfa_challenge_id);
  await earlier.execute();
  await insertWebAuthnChallenge(db, challenge);
}

/** A realm's sign-in ceremonies still waiting for their answer (from one network, when it is named). */
export async function countWaitingLoginCeremonies(db: Db, where: { projectId: string | null; network?: string }, now: string) {
  let query = db
    .selectFrom('webauthn_challenges')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('expires_at').as('first_expires_at')])
    .where('purpose', '=', 'login')
    .where('project_id', where.projectId === null ? 'is' : '=', where.projectId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now);
  if (where.network !== undefined) query = query.where('client_network', '=', where.network);
  const row = await query.executeTakeFirstOrThrow();
  return { count: Number(row.count), firstExpiresAt: row.first_expires_at ?? null };
}

/**
 * Spends a live challenge of this purpose: true once. `owner` narrows it to the user (register, mfa),
 * the realm (login) or the waiting sign-in (mfa) it was issued for.
 */
export async function spendWebAuthnChallenge(
  db: Db,
  challenge: string,
  purpose: WebAuthnPurpose,
  owner: { userId?: string; projectId?: string | null; mfaChallengeId?: string },
  now: string,
): Promise<boolean> {
  let query = db
    .updateTable('webauthn_challenges')
    .set({ used_at: now })
    .where('challenge', '=', challenge)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now);
  if (owner.userId !== undefined) query = query.where('user_id', '=', owner.userId);
  if (owner.projectId !== undefined) query = query.where('project_id', owner.projectId === null ? 'is' : '=', owner.projectId);
  if (owner.mfaChallengeId !== undefined) query = query.where('mfa_challenge_id', '=', owner.mfaChallengeId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
