import type { Db } from '../../db/connect.js';

export async function deleteLoginAttemptsBefore(db: Db, before: string): Promise<number> {
  const result = await db.deleteFrom('login_attempts').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Sessions expired or revoked before `before`; their refresh tokens go with them (foreign key). */
export async function deleteDeadSessionsBefore(db: Db, before: string): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Refresh tokens spent before `before` (of sessions still alive): too old for reuse detection to matter. */
export async function deleteSpentRefreshTokensBefore(db: Db, before: string): Promise<number> {
  const result = await db.deleteFrom('refresh_tokens').where('used_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** One-time links used or expired before `before` (a verification link holds a password hash). */
export async function deleteSpentOneTimeTokensBefore(db: Db, before: string): Promise<number> {
  const result = await db
    .deleteFrom('one_time_tokens')
    .where((eb) => eb.or([eb('used_at', '<', before), eb('expires_at', '<', before)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Second-factor challenges (mfa_tokens) expired before `before`. */
export async function deleteExpiredMfaChallengesBefore(db: Db, before: string): Promise<number> {
  const result = await db.deleteFrom('mfa_challenges').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** WebAuthn ceremony challenges whose 5 minutes have ended. */
export async function deleteExpiredWebAuthnChallenges(db: Db, now: string): Promise<number> {
  const result = await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
