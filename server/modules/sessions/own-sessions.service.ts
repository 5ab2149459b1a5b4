import type { OwnSession } from '../../../shared/schemas/sessions.js';
import type { Deps } from '../../deps.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { deviceLabel } from '../../lib/user-agent.js';
import { listLiveSessionsOfUser, revokeLiveSessionsOfUser, type LiveFilter } from './sessions.repo.js';
import { emitSessionsRevoked } from './session-events.js';
import { idleCutoff, type Authenticated } from './sessions.service.js';

/** The signed-in account's own sessions, in either realm: the caller is the session of its access token. */

export const SESSION_NOT_FOUND = 'Session not found';
const REVOKED_BY_USER = 'revoked_by_user' as const;

/** The account's sessions that would still be accepted now: not revoked, not expired, not idle past its timeout. */
function liveOf(deps: Deps, caller: Authenticated): LiveFilter {
  const now = deps.clock.now();
  return { userId: caller.user.id, now: now.toISOString(), usedSince: idleCutoff(caller.user, now) };
}

export async function listOwnSessions(deps: Deps, caller: Authenticated): Promise<OwnSession[]> {
  const rows = await listLiveSessionsOfUser(deps.db, liveOf(deps, caller));
  return rows.map((row) => ({
    ...row,
    device: deviceLabel(row.user_agent),
    country_code: row.ip_address ? deps.ipIntel.lookup(row.ip_address, {}, true).country_code : null,
    current: row.id === caller.sessionId,
  }));
}

/** Ends one of the account's live sessions now; any other id (another account's, unknown, ended) is 404 alike. */
export async function revokeOwnSession(deps: Deps, caller: Authenticated, sessionId: string): Promise<void> {
  const revoked = await revokeOwn(deps, caller, { only: sessionId });
  if (revoked !== 1) throw new AppError('NOT_FOUND', SESSION_NOT_FOUND);
}

/** Ends every live session of the account but the caller's; answers how many. */
export async function revokeOtherOwnSessions(deps: Deps, caller: Authenticated): Promise<number> {
  return revokeOwn(deps, caller, { except: caller.sessionId });
}

/** A project's end user's revocations send session.revoked, one per session, in the same transaction. */
async function revokeOwn(deps: Deps, caller: Authenticated, which: { only: string } | { except: string }): Promise<number> {
  return withTransaction(deps, async (tx) => {
    const ids = await revokeLiveSessionsOfUser(tx.db, liveOf(deps, caller), which, REVOKED_BY_USER);
    await emitSessionsRevoked(tx, caller.user.project_id, ids, REVOKED_BY_USER);
    return ids.length;
  });
}
