import type { Db } from '../../db/connect.js';
import type { SessionRow } from '../../db/schema.js';
import { preparedLookup } from '../../db/prepared-lookup.js';
import { prepareStatement } from '../../db/prepared-statement.js';
import type { PreparedUnit } from '../../db/prepared-transaction.js';
import { inTransaction } from '../../db/transaction.js';
import { statementsOf, type Statements } from '../../db/unit-of-work.js';

export type NewSession = Omit<SessionRow, 'last_used_at' | 'revoked_at' | 'revoked_reason' | 'reauthenticated_at' | 'active_organization_id'> & { active_organization_id?: string | null };

export async function insertSessionWithRefreshToken(
  db: Db,
  session: NewSession,
  refreshTokenHash: string,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto('sessions')
      .values({ ...session, last_used_at: session.created_at, revoked_at: null, revoked_reason: null })
      .execute();
    await trx.insertInto('refresh_tokens').values({ token_hash: refreshTokenHash, session_id: session.id, created_at: session.created_at, used_at: null, used_ip: null, used_user_agent: null }).execute();
  });
}

/**
 * The unrevoked session's user, with the session's last use and end: the per-request cost of
 * authentication, one indexed lookup (or none, see preparedLookup). The row is the user's (UserRow)
 * plus `session_last_used_at` and `session_expires_at`, which the caller compares with its clock.
 */
export const findLiveSessionWithUser = preparedLookup((db: Db, sessionId: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select(['sessions.last_used_at as session_last_used_at', 'sessions.expires_at as session_expires_at', 'sessions.active_organization_id as session_active_organization_id'])
    .where('sessions.id', '=', sessionId)
    .where('sessions.revoked_at', 'is', null),
);

/** A refresh token's session and realm, spent or not: for signing out and the OpenID Connect revocation and introspection. */
export async function findRefreshToken(db: Db, tokenHash: string) {
  return db
    .selectFrom('refresh_tokens')
    .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['refresh_tokens.used_at', 'sessions.id as session_id', 'sessions.revoked_at', 'sessions.revoked_reason', 'users.project_id', 'users.is_active'])
    .where('refresh_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * The refresh token with what deciding a refresh needs: its session (with the session's last use)
 * and the session's user (realm, e-mail for the attempt log, active flag, idle timeout).
 */
const refreshTokenForRotation = prepareStatement((db: Db, tokenHash: string) =>
  db
    .selectFrom('refresh_tokens')
    .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'refresh_tokens.used_at',
      'refresh_tokens.used_ip',
      'refresh_tokens.used_user_agent',
      'sessions.id as session_id',
      'sessions.user_id',
      'sessions.expires_at',
      'sessions.revoked_at',
      'sessions.last_used_at',
      'users.project_id',
      'users.email',
      'users.is_active',
      'users.session_idle_timeout_minutes',
      'sessions.active_organization_id',
      'users.is_verified',
      'users.first_name',
      'users.last_name',
      'users.public_metadata',
    ])
    .where('refresh_tokens.token_hash', '=', tokenHash),
);

export type TokenForRotation = NonNullable<Awaited<ReturnType<typeof findRefreshTokenForRotation>>>;

export function findRefreshTokenForRotation(unit: PreparedUnit, tokenHash: string) {
  return unit.first(refreshTokenForRotation, tokenHash);
}

const spendToken = prepareStatement((db: Db, tokenHash: string, now: string, ip: string, userAgent: string | null) =>
  db.updateTable('refresh_tokens').set({ used_at: now, used_ip: ip, used_user_agent: userAgent }).where('token_hash', '=', tokenHash).where('used_at', 'is', null),
);

/** Spends a refresh token; false when it was spent already (a reuse, or the loser of two parallel refreshes). */
export async function spendRefreshToken(unit: PreparedUnit, tokenHash: string, now: string, usedBy: { ip: string; userAgent: string | null }): Promise<boolean> {
  return (await unit.run(spendToken, tokenHash, now, usedBy.ip, usedBy.userAgent)) === 1;
}

const insertToken = prepareStatement((db: Db, tokenHash: string, sessionId: string, now: string) =>
  db.insertInto('refresh_tokens').values({ token_hash: tokenHash, session_id: sessionId, created_at: now, used_at: null, used_ip: null, used_user_agent: null }),
);
const slideSession = prepareStatement((db: Db, sessionId: string, now: string, expiresAt: string) =>
  db.updateTable('sessions').set({ last_used_at: now, expires_at: expiresAt }).where('id', '=', sessionId),
);

/** Records the session's next refresh token and slides the session's expiry. */
export async function addSuccessorToken(unit: PreparedUnit, next: { tokenHash: string; sessionId: string; now: string; expiresAt: string }): Promise<void> {
  await unit.run(insertToken, next.tokenHash, next.sessionId, next.now);
  await unit.run(slideSession, next.sessionId, next.now, next.expiresAt);
}

const revokeLiveSession = prepareStatement((db: Db, sessionId: string, now: string, reason: string) =>
  db.updateTable('sessions').set({ revoked_at: now, revoked_reason: reason }).where('id', '=', sessionId).where('revoked_at', 'is', null),
);

/** Ends a live session (false when it already was ended), in a unit of work (a prepared one: the refresh's) or on its own. */
export async function revokeSession(on: Db | Statements, sessionId: string, now: string, reason: string): Promise<boolean> {
  return (await statementsOf(on).run(revokeLiveSession, sessionId, now, reason)) === 1;
}

/** Records a use of the session, unless one was recorded since `recordedSince` (so a burst of requests writes once). */
export async function touchSession(db: Db, sessionId: string, now: string, recordedSince: string): Promise<void> {
  await db.updateTable('sessions').set({ last_used_at: now }).where('id', '=', sessionId).where('last_used_at', '<', recordedSince).execute();
}

/**
 * Which of an account's sessions are live: not revoked, not expired, and, with an idle timeout,
 * used since `usedSince` (null: no idle timeout).
 */
export interface LiveFilter {
  userId: string;
  now: string;
  usedSince: string | null;
}

/** An account's live sessions, most recently used first. */
export async function listLiveSessionsOfUser(db: Db, live: LiveFilter) {
  let query = db
    .selectFrom('sessions')
    .select(['id', 'ip_address', 'user_agent', 'created_at', 'last_used_at'])
    .where('user_id', '=', live.userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', live.now);
  if (live.usedSince) query = query.where('last_used_at', '>=', live.usedSince);
  return query.orderBy('last_used_at', 'desc').orderBy('created_at', 'desc').orderBy('id').execute();
}

/** Revokes live sessions of one account: the one `only` names, or every one but `except`. Answers their ids. */
export async function revokeLiveSessionsOfUser(db: Db, live: LiveFilter, which: { only: string } | { except: string }, reason: string): Promise<string[]> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: live.now, revoked_reason: reason })
    .where('user_id', '=', live.userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', live.now);
  if (live.usedSince) query = query.where('last_used_at', '>=', live.usedSince);
  query = 'only' in which ? query.where('id', '=', which.only) : query.where('id', '!=', which.except);
  return (await query.returning('id').execute()).map((row) => row.id);
}

/** Revokes the account's sessions unused since `usedBefore`. */
export async function revokeSessionsUnusedSince(db: Db, userId: string, usedBefore: string, now: string, reason: string): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('last_used_at', '<', usedBefore)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}


export async function revokeSessionsByUserId(db: Db, userId: string, now: string, reason: string, exceptSessionId?: string): Promise<number> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function revokeSessionsByDeviceId(db: Db, deviceId: string, now: string, reason: string): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('device_id', '=', deviceId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Who each of these sessions belongs to (for the session.revoked event). */
export async function findSessionOwners(db: Db, sessionIds: string[]) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.id as session_id', 'users.id as user_id', 'users.email'])
    .where('sessions.id', 'in', sessionIds)
    .orderBy('sessions.created_at')
    .execute();
}

/** A live session with its owner's realm and state: what the OpenID Connect provider hands on to an app. */
export async function findLiveSessionDetails(db: Db, sessionId: string, now: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('sessions')
    .select(['users.project_id', 'users.is_active as user_is_active'])
    .where('sessions.id', '=', sessionId)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .executeTakeFirst();
}

/** When the session's user proved who they are: the sign-in (authenticated_at, else created_at) and the last step-up. */
export async function findSessionProof(db: Db, sessionId: string) {
  return db
    .selectFrom('sessions')
    .select(['created_at', 'authenticated_at', 'reauthenticated_at'])
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** A step-up: the live session's user proved who they are again at `now`. */
export async function recordSessionProof(db: Db, sessionId: string, now: string): Promise<boolean> {
  const result = await db.updateTable('sessions').set({ reauthenticated_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Moves a session into an organization (null: out of any); its next tokens carry it. */
export async function setActiveOrganization(db: Db, sessionId: string, organizationId: string | null): Promise<void> {
  await db.updateTable('sessions').set({ active_organization_id: organizationId }).where('id', '=', sessionId).execute();
}

/**
 * Spends every unspent refresh token of the session and records `tokenHash` as its one live token:
 * the pair answered by a switch of organization replaces the client's, and the old refresh token
 * then counts as spent (a benign replay within the reuse interval, a reuse after it).
 */
export async function replaceRefreshTokens(db: Db, sessionId: string, tokenHash: string, now: string, usedBy: { ip: string; userAgent: string | null }): Promise<void> {
  await db.updateTable('refresh_tokens').set({ used_at: now, used_ip: usedBy.ip, used_user_agent: usedBy.userAgent }).where('session_id', '=', sessionId).where('used_at', 'is', null).execute();
  await db.insertInto('refresh_tokens').values({ token_hash: tokenHash, session_id: sessionId, created_at: now, used_at: null, used_ip: null, used_user_agent: null }).execute();
}
