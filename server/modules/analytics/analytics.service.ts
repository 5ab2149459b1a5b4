import type { PreparedUnit } from '../../db/prepared-transaction.js';
import type { Deps } from '../../deps.js';
import type { Realm } from '../realms/realm.js';
import { bumpApiKeyUsage, bumpDailyCounter, bumpRefreshes, markUserActive } from './analytics.repo.js';

/**
 * Analytics events, rolled up as they happen per project and UTC day. Platform accounts are not a
 * project and count nothing here. They write through `deps.db`, so inside a unit of work they
 * commit or roll back with it.
 */
type Writer = Pick<Deps, 'db' | 'clock'>;

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The last `count` UTC days, oldest first, ending with the day of `now`. */
export function lastDays(now: Date, count: number): string[] {
  return Array.from({ length: count }, (_, i) => utcDay(new Date(now.getTime() - (count - 1 - i) * 86_400_000)));
}

const today = (deps: Writer) => utcDay(deps.clock.now());

export async function recordSignup(deps: Writer, realm: Realm): Promise<void> {
  if (realm.projectId) await bumpDailyCounter(deps.db, realm.projectId, today(deps), 'signups');
}

export async function recordLoginSucceeded(deps: Writer, realm: Realm, userId: string): Promise<void> {
  if (!realm.projectId) return;
  await bumpDailyCounter(deps.db, realm.projectId, today(deps), 'logins');
  await markUserActive(deps.db, realm.projectId, today(deps), userId);
}

export async function recordLoginFailed(deps: Writer, realm: Realm): Promise<void> {
  if (realm.projectId) await bumpDailyCounter(deps.db, realm.projectId, today(deps), 'failed_logins');
}

/** A refresh, counted in the refresh's own transaction (sessions.service's preparedTransaction). */
export async function recordRefresh(unit: PreparedUnit, realm: Realm, now: Date): Promise<void> {
  if (realm.projectId) await bumpRefreshes(unit, realm.projectId, utcDay(now));
}

/** `count` calls made with one API key on one UTC day (the public API counts them in memory and writes them in batches). */
export async function recordApiRequests(deps: Pick<Deps, 'db'>, usage: { projectId: string; apiKeyId: string; day: string; count: number }): Promise<void> {
  await bumpDailyCounter(deps.db, usage.projectId, usage.day, 'api_requests', usage.count);
  await bumpApiKeyUsage(deps.db, usage.apiKeyId, usage.day, usage.count);
}
