import type { Db } from '../../db/connect.js';
import { lockUntilCommit, withTransaction } from '../../db/transaction.js';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import type { LimitName } from '../../lib/rate-limit.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { realmKey, type Realm } from '../realms/realm.js';

/**
 * A row a request leaves waiting without a session (or with only an API key, whose backend names
 * its end users' addresses): a passkey sign-in's ceremony, an authorization request waiting for the
 * hosted sign-in, a sign-in sent to a provider.
 */
export interface PendingKind {
  /** Names the kind in the lock that makes counting and inserting one step. */
  name: string;
  /** The budget of one client network in the realm; its points are also how many of the network's rows may wait at once. */
  perNetwork: LimitName;
  /** The budget of one project, whatever addresses its callers name. */
  perProject: LimitName;
  /** How long a row waits. */
  ttlS: number;
}

/** The rows of a kind waiting in a realm (from one network, when it is named), and when the first of them ends. */
export type CountWaiting = (db: Db, where: { projectId: string | null; network?: string }, now: string) => Promise<{ count: number; firstExpiresAt: string | null }>;

const PENDING_FULL = 'Too many sign-ins are waiting to be finished. Try again later.';

/**
 * Spends the start's budgets, before any work: its network's in the realm first, so that one
 * address's flood is refused before it spends the budget the project's other users share.
 */
export async function chargePendingStart(deps: Deps, realm: Realm, request: RequestInfo, kind: PendingKind): Promise<void> {
  await deps.limiters[kind.perNetwork].consume(realmKey(realm, request.network));
  if (realm.projectId) await deps.limiters[kind.perProject].consume(realm.projectId);
}

/**
 * Inserts the row unless its network, or its project, already has its cap of rows waiting: then 429,
 * with Retry-After until the first of those ends. Without Redis the budgets live in each instance's
 * memory (and start over when it restarts); the caps hold in the database whatever the instances.
 *
 * - A network's cap is its budget's points: one address never has more waiting than it may start in a
 *   window. Filling it refuses that network only.
 * - A project's cap is what its budget admits over one row's life, so holding it full costs a flood
 *   from many addresses as much as exhausting the budget does: it bounds the rows, and is no cheaper
 *   way to shut the project's users out.
 *
 * Past a cap the start is refused, never made room for by evicting older rows: a flood cannot push
 * out a ceremony a real user is in the middle of. Counting and inserting are one step (one writer on
 * SQLite; a lock per kind and realm on PostgreSQL), so parallel requests cannot pass a cap together.
 */
export async function admitPending(deps: Deps, realm: Realm, request: RequestInfo, kind: PendingKind, countWaiting: CountWaiting, insert: (db: Db) => Promise<void>): Promise<void> {
  const perNetwork = deps.limiters[kind.perNetwork].rule;
  const perProject = realm.projectId ? deps.limiters[kind.perProject].rule : null;
  await withTransaction(deps, async (tx) => {
    await lockUntilCommit(tx.db, deps.dialect, `pending:${kind.name}:${realm.projectId ?? 'platform'}`);
    const now = isoNow(deps.clock);
    if (perNetwork) refuseWhenFull(deps, await countWaiting(tx.db, { projectId: realm.projectId, network: request.network }, now), perNetwork.points);
    if (perProject) refuseWhenFull(deps, await countWaiting(tx.db, { projectId: realm.projectId }, now), perProject.points * Math.ceil(kind.ttlS / perProject.durationS));
    await insert(tx.db);
  });
}

function refuseWhenFull(deps: Pick<Deps, 'clock'>, waiting: { count: number; firstExpiresAt: string | null }, cap: number): void {
  if (waiting.count < cap) return;
  const msLeft = waiting.firstExpiresAt ? Date.parse(waiting.firstExpiresAt) - deps.clock.now().getTime() : 0;
  throw new AppError('TOO_MANY_REQUESTS', PENDING_FULL, { retryAfterS: Math.max(1, Math.ceil(msLeft / 1000)) });
}
