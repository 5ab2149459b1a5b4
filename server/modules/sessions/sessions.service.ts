import type { Deps } from '../../deps.js';
import { preparedTransaction } from '../../db/prepared-transaction.js';
import { withTransaction, type Tx } from '../../db/transaction.js';
import type { UserRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { isoFormatter, isoIn, isoNow } from '../../lib/clock.js';
import { newId, randomToken, sha256 } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import type { SessionClient } from '../../../shared/schemas/sessions.js';
import { recordRefresh } from '../analytics/analytics.service.js';
import { realmKey, type Realm } from '../realms/realm.js';
import { recordLoginAttempt } from '../login-attempts/login-attempts.service.js';
import { emitSessionRevoked, emitSessionsRevoked, type RevokedReason } from './session-events.js';
import { ORGANIZATION_MESSAGES } from '../../../shared/schemas/organizations.js';
import { findClaimsUser, findOrganization } from '../organizations/organizations.repo.js';
import { accessTokenClaims, activeOrganizationOf, type ClaimsUser } from '../organizations/token-claims.js';
import {
  addSuccessorToken,
  replaceRefreshTokens,
  setActiveOrganization,
  findLiveSessionDetails,
  findLiveSessionWithUser,
  findRefreshToken,
  findRefreshTokenForRotation,
  insertSessionWithRefreshToken,
  revokeLiveSessionsOfUser,
  revokeSession,
  revokeSessionsByDeviceId,
  revokeSessionsByUserId,
  revokeSessionsUnusedSince,
  spendRefreshToken,
  touchSession,
  type TokenForRotation,
} from './sessions.repo.js';

export interface IssuedTokens {
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
  expires_in: number;
}

export interface Authenticated {
  user: UserRow;
  sessionId: string;
  /** The organization the session is in, as its tokens say (the user may have left it since); null for none. */
  activeOrganizationId?: string | null;
}

const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';
/** A session's use is written at most this often, so a burst of requests costs one write. */
export const LAST_USED_WRITE_INTERVAL_MS = 60_000;
const INVALID_REFRESH = 'Invalid refresh token';
const NOT_AUTHENTICATED = 'Not authenticated';

/**
 * How a session's user proved who they are: OIDC `amr` values (pwd, otp, hwk, mfa), and for a
 * session the OpenID Connect provider hands to an app, the hosted sign-in's time and the granted scopes.
 */
export interface SessionProof {
  authMethods: readonly string[];
  authenticatedAt?: string;
  oauthScope?: string;
}

/** Starts one session per sign-in: its id rides in the access token, its refresh token rotates. */
export async function startSession(
  deps: Deps,
  realm: Realm,
  userId: string,
  deviceId: string | null,
  request: { ip: string | null; userAgent: string | null; client: SessionClient; clientName?: string },
  proof: SessionProof,
  organizationId: string | null = null,
): Promise<{ sessionId: string; tokens: IssuedTokens }> {
  const sessionId = newId();
  const refreshToken = randomToken();
  const now = isoNow(deps.clock);
  await insertSessionWithRefreshToken(
    deps.db,
    {
      id: sessionId,
      user_id: userId,
      device_id: deviceId,
      ip_address: request.ip,
      user_agent: request.userAgent,
      created_at: now,
      expires_at: isoIn(deps.clock, realm.policy.refreshTokenTtlS),
      auth_methods: proof.authMethods.join(' '),
      authenticated_at: proof.authenticatedAt ?? null,
      oauth_scope: proof.oauthScope ?? null,
      active_organization_id: organizationId,
      client: request.client,
      client_name: request.clientName ?? null,
    },
    sha256(refreshToken),
  );
  const claims = await claimsOf(deps, realm, userId, organizationId);
  return { sessionId, tokens: issueTokens(realm, userId, sessionId, refreshToken, claims) };
}

/** A project's tokens' claims for the user (public metadata, active organization, custom claims); none on the platform. */
async function claimsOf(deps: Deps, realm: Realm, user: string | ClaimsUser, organizationId: string | null): Promise<Record<string, unknown>> {
  if (realm.projectId === null) return {};
  const found = typeof user === 'string' ? await findClaimsUser(deps.db, user) : user;
  return found ? accessTokenClaims(deps.db, realm, found, organizationId) : {};
}

function issueTokens(realm: Realm, userId: string, sessionId: string, refreshToken: string, claims: Record<string, unknown>): IssuedTokens {
  const access = realm.accessTokens.issue({ sub: userId, sid: sessionId, claims }, realm.policy.accessTokenTtlS);
  return { access_token: access.token, refresh_token: refreshToken, token_type: 'bearer', expires_in: access.expiresIn };
}

type SpentToken = Pick<TokenForRotation, 'used_at' | 'used_ip' | 'used_user_agent'>;

/**
 * The client that spent this token presenting it again within REFRESH_REUSE_INTERVAL: two tabs
 * refreshing at once, or a retried request. Anyone else, or later, is treated as a thief.
 */
function isBenignReplay(deps: Deps, token: SpentToken, request: RequestInfo, now: string): boolean {
  const intervalMs = deps.config.refreshReuseIntervalS * 1000;
  if (intervalMs === 0 || !token.used_at) return false;
  const sinceSpent = Date.parse(now) - Date.parse(token.used_at);
  return sinceSpent <= intervalMs && token.used_ip === request.ip && token.used_user_agent === request.userAgent;
}

type Rotation =
  | { outcome: 'rotated'; token: TokenForRotation }
  | { outcome: 'unknown' | 'expired' }
  | { outcome: 'reused'; token: TokenForRotation };

/**
 * Exchanges a refresh token for a new pair. Each token works once: presenting a spent one means it
 * was stolen or replayed, so the whole session (every token of the family) is revoked, unless it is
 * the benign replay of the client that just spent it (isBenignReplay), which gets a working pair.
 * Refreshes are limited per client network within the realm.
 *
 * The whole exchange is one transaction of prepared statements (it is the hot write path): read the
 * token with its session and user, spend it (guarded by `used_at is null`), insert the successor, slide
 * the session. A revocation it decides on (reuse, idle timeout) commits with it; only then is it refused.
 * A reuse in a project's realm sends session.revoked to its webhooks in that transaction.
 */
export async function refreshSession(deps: Deps, realm: Realm, refreshToken: string | undefined, request: RequestInfo): Promise<IssuedTokens> {
  await deps.limiters.refreshPerIp.consume(realmKey(realm, request.network));
  if (!refreshToken) throw new AppError('UNAUTHORIZED', INVALID_REFRESH);
  const oldHash = sha256(refreshToken);
  const nextToken = randomToken();
  const newHash = sha256(nextToken);
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const expiresAt = isoIn(deps.clock, realm.policy.refreshTokenTtlS);

  const rotation = await preparedTransaction(deps.db, async (unit): Promise<Rotation> => {
    const found = await findRefreshTokenForRotation(unit, oldHash);
    // Another realm's token is simply unknown here: it neither works nor revokes anything.
    if (!found || found.project_id !== realm.projectId) return { outcome: 'unknown' };
    if (found.revoked_at || found.expires_at <= nowIso || found.is_active !== 1) return { outcome: 'expired' };
    const cutoff = idleCutoff(found, now);
    if (cutoff !== null && found.last_used_at < cutoff) {
      await revokeSession(unit, found.session_id, nowIso, 'idle_timeout');
      return { outcome: 'expired' };
    }
    const spentNow = !found.used_at && (await spendRefreshToken(unit, oldHash, nowIso, { ip: request.ip, userAgent: request.userAgent }));
    if (!spentNow) {
      // Spent before, or just now by a parallel request: read who spent it.
      const spent = found.used_at ? found : await findRefreshTokenForRotation(unit, oldHash);
      if (!spent || !isBenignReplay(deps, spent, request, nowIso)) {
        await revokeSession(unit, found.session_id, nowIso, 'refresh_token_reuse');
        await emitSessionRevoked({ unit, clock: deps.clock }, realm.projectId, found.session_id, { id: found.user_id, email: found.email }, 'refresh_token_reuse');
        return { outcome: 'reused', token: found };
      }
    }
    await addSuccessorToken(unit, { tokenHash: newHash, sessionId: found.session_id, now: nowIso, expiresAt });
    await recordRefresh(unit, realm, now);
    return { outcome: 'rotated', token: found };
  });

  switch (rotation.outcome) {
    case 'rotated': {
      const { token } = rotation;
      const claims = await claimsOf(deps, realm, { ...token, id: token.user_id }, token.active_organization_id);
      return issueTokens(realm, token.user_id, token.session_id, nextToken, claims);
    }
    case 'unknown':
      throw new AppError('UNAUTHORIZED', INVALID_REFRESH);
    case 'expired':
      throw new AppError('UNAUTHORIZED', SESSION_EXPIRED);
    case 'reused':
      return refuseReuse(deps, realm, rotation.token, request);
  }
}

/**
 * Moves the caller's session into one of their organizations (null: out of any) and answers a new
 * pair whose access token carries it. The session's earlier refresh token counts as spent: the
 * client keeps the new pair. 404 for an organization the project does not have, 403 for one the
 * user is not a member of.
 */
export async function switchOrganization(deps: Deps, realm: Realm, session: Authenticated, organizationId: string | null, request: RequestInfo): Promise<IssuedTokens> {
  if (realm.projectId === null) throw new AppError('NOT_FOUND', ORGANIZATION_MESSAGES.notFound);
  if (organizationId !== null) {
    if (!(await findOrganization(deps.db, realm.projectId, organizationId))) throw new AppError('NOT_FOUND', ORGANIZATION_MESSAGES.notFound);
    if (!(await activeOrganizationOf(deps.db, realm.projectId, session.user.id, organizationId))) throw new AppError('FORBIDDEN', ORGANIZATION_MESSAGES.notMember);
  }
  const refreshToken = randomToken();
  await withTransaction(deps, async (tx) => {
    await setActiveOrganization(tx.db, session.sessionId, organizationId);
    await replaceRefreshTokens(tx.db, session.sessionId, sha256(refreshToken), isoNow(deps.clock), { ip: request.ip, userAgent: request.userAgent });
  });
  const claims = await claimsOf(deps, realm, session.user, organizationId);
  return issueTokens(realm, session.user.id, session.sessionId, refreshToken, claims);
}

/** After the reuse's revocation committed: log it, record it as a failed attempt, refuse. */
async function refuseReuse(deps: Deps, realm: Realm, token: TokenForRotation, request: RequestInfo): Promise<never> {
  deps.logger.warn({ sessionId: token.session_id }, 'refresh token reuse detected; session revoked');
  await recordLoginAttempt(
    deps,
    {
      projectId: realm.projectId,
      email: token.email,
      userId: token.user_id,
      success: false,
      failureReason: 'token_reuse',
      deviceFingerprint: null,
      verdict: deps.ipIntel.lookup(request.ip, request.headers, deps.config.trustProxy !== false),
    },
    request,
  );
  throw new AppError('UNAUTHORIZED', 'Refresh token was already used; the session has been revoked. Please sign in again.');
}

// Every authenticated request compares its session's times with these two instants.
const isoOfNow = isoFormatter();
const isoOfRecordedSince = isoFormatter();

/**
 * Resolves an access token to its live session and active user, or fails with 401. The session's
 * use is recorded at most once a minute (LAST_USED_WRITE_INTERVAL_MS), and the idle timeout is
 * checked against that record: a session may end up to that much early, never late.
 */
export async function authenticate(deps: Deps, realm: Realm, accessToken: string | undefined): Promise<Authenticated> {
  if (!accessToken) throw new AppError('UNAUTHORIZED', NOT_AUTHENTICATED);
  const claims = realm.accessTokens.verify(accessToken);
  if (!claims) throw new AppError('UNAUTHORIZED', 'Invalid or expired access token');
  const now = deps.clock.now();
  const nowMs = now.getTime();
  const nowIso = isoOfNow(nowMs);
  const live = await findLiveSessionWithUser(deps.db, claims.sid);
  if (!live || live.session_expires_at <= nowIso || live.id !== claims.sub || live.project_id !== realm.projectId) throw new AppError('UNAUTHORIZED', SESSION_EXPIRED);
  if (live.is_active !== 1) throw new AppError('UNAUTHORIZED', SESSION_EXPIRED);
  const sessionId = claims.sid;
  const lastUsedAt = live.session_last_used_at;
  if (live.session_idle_timeout_minutes !== null) await refuseIfIdle(deps, live, sessionId, lastUsedAt, now);
  const recordedSince = isoOfRecordedSince(nowMs - LAST_USED_WRITE_INTERVAL_MS);
  if (lastUsedAt < recordedSince) await touchSession(deps.db, sessionId, nowIso, recordedSince);
  // The row is the user's plus its session's last use, handed on as it is: copying the user's
  // columns out of it was a measurable share of a request, and nothing that reads `user` lists its fields.
  return { user: live, sessionId, activeOrganizationId: live.session_active_organization_id };
}

/** The oldest last use that keeps a session alive under the account's idle timeout; null when it has none. */
export function idleCutoff(user: Pick<UserRow, 'session_idle_timeout_minutes'>, now: Date): string | null {
  const minutes = user.session_idle_timeout_minutes;
  return minutes === null ? null : new Date(now.getTime() - minutes * 60_000).toISOString();
}

/** A session left unused past the account's idle timeout ends now (it stays ended if the timeout is lifted): 401. */
async function refuseIfIdle(deps: Deps, user: Pick<UserRow, 'session_idle_timeout_minutes'>, sessionId: string, lastUsedAt: string, now: Date): Promise<void> {
  const cutoff = idleCutoff(user, now);
  if (cutoff === null || lastUsedAt >= cutoff) return;
  await revokeSession(deps.db, sessionId, now.toISOString(), 'idle_timeout');
  throw new AppError('UNAUTHORIZED', SESSION_EXPIRED);
}

/**
 * Ends the sessions the account's idle timeout already refuses but nobody has presented since, so
 * that lifting or raising the timeout brings none of them back.
 */
export async function endIdleSessions(deps: Deps, user: Pick<UserRow, 'id' | 'session_idle_timeout_minutes'>): Promise<void> {
  const now = deps.clock.now();
  const cutoff = idleCutoff(user, now);
  if (cutoff !== null) await revokeSessionsUnusedSince(deps.db, user.id, cutoff, now.toISOString(), 'idle_timeout');
}

/** Signs out: revokes the session behind the access token, or failing that, behind the refresh token. */
export async function endSession(deps: Deps, realm: Realm, tokens: { accessToken?: string; refreshToken?: string }): Promise<void> {
  const claims = tokens.accessToken ? realm.accessTokens.verify(tokens.accessToken) : null;
  if (claims) {
    await revokeOneSession(deps, realm, claims.sid, 'logout');
    return;
  }
  if (tokens.refreshToken) {
    const found = await findRefreshToken(deps.db, sha256(tokens.refreshToken));
    if (found && found.project_id === realm.projectId) await revokeOneSession(deps, realm, found.session_id, 'logout');
  }
}

/**
 * Ends one session of `realm` now, on purpose (sign-out, revoked by its owner, an admin or the app):
 * its refresh token stops working and its access token is refused on the next request. In a project's
 * realm, session.revoked goes to its webhooks in the same transaction.
 */
export async function revokeOneSession(deps: Deps, realm: Pick<Realm, 'projectId'>, sessionId: string, reason: RevokedReason): Promise<boolean> {
  const now = isoNow(deps.clock);
  if (realm.projectId === null) return revokeSession(deps.db, sessionId, now, reason);
  return withTransaction(deps, async (tx) => {
    const revoked = await revokeSession(tx.db, sessionId, now, reason);
    if (revoked) await emitSessionsRevoked(tx, realm.projectId, [sessionId], reason);
    return revoked;
  });
}

/** Ends every live session of an account, but `exceptSessionId` (the caller's own). */
export async function revokeAllSessionsOfUser(deps: Deps, userId: string, reason: string, exceptSessionId?: string): Promise<number> {
  return revokeSessionsByUserId(deps.db, userId, isoNow(deps.clock), reason, exceptSessionId);
}

/**
 * Ends every live session of one account on purpose (its page's "Sign out everywhere"), in the unit of
 * work of `tx`: session.revoked for each in a project's realm. Answers how many ended.
 */
export async function revokeEverySessionOf(tx: Tx<Deps>, user: Pick<UserRow, 'id' | 'project_id'>, reason: RevokedReason): Promise<number> {
  const ids = await revokeLiveSessionsOfUser(tx.db, { userId: user.id, now: isoNow(tx.clock), usedSince: null }, { except: '' }, reason);
  await emitSessionsRevoked(tx, user.project_id, ids, reason);
  return ids.length;
}

export async function revokeAllSessionsOfDevice(deps: Deps, deviceId: string, reason: string): Promise<number> {
  return revokeSessionsByDeviceId(deps.db, deviceId, isoNow(deps.clock), reason);
}

/** A live session of an active user of `realm`, as the OpenID Connect provider reads it. */
export interface SessionDetails {
  id: string;
  userId: string;
  deviceId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  /** OIDC `amr` values; an older session without a record counts as a password sign-in. */
  authMethods: string[];
  /** When the user proved who they are (`auth_time`). */
  authenticatedAt: string;
  oauthScope: string | null;
  expiresAt: string;
}

export async function liveSessionDetails(deps: Deps, realm: Pick<Realm, 'projectId'>, sessionId: string): Promise<SessionDetails | null> {
  const row = await findLiveSessionDetails(deps.db, sessionId, isoNow(deps.clock));
  if (!row || row.project_id !== realm.projectId || row.user_is_active !== 1) return null;
  return {
    id: row.id,
    userId: row.user_id,
    deviceId: row.device_id,
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
    authMethods: row.auth_methods ? row.auth_methods.split(' ') : ['pwd'],
    authenticatedAt: row.authenticated_at ?? row.created_at,
    oauthScope: row.oauth_scope,
    expiresAt: row.expires_at,
  };
}

/**
 * The session a refresh token of `realm` belongs to, spent or not; null for another realm's or an unknown token.
 * `revoked`: the session was ended (signed out, revoked, a reuse, a deactivated user), not run out (expiry, idle timeout).
 */
export async function sessionOfRefreshToken(
  deps: Deps,
  realm: Pick<Realm, 'projectId'>,
  refreshToken: string,
): Promise<{ sessionId: string; spent: boolean; revoked: boolean } | null> {
  if (refreshToken.length > 200) return null;
  const found = await findRefreshToken(deps.db, sha256(refreshToken));
  if (!found || found.project_id !== realm.projectId) return null;
  const revoked = (found.revoked_at !== null && found.revoked_reason !== 'idle_timeout') || found.is_active !== 1;
  return { sessionId: found.session_id, spent: found.used_at !== null, revoked };
}
