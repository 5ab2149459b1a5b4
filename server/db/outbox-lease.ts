import type { Db, Dialect } from './connect.js';

/**
 * Seconds to wait after each failed attempt of an outbox row (webhook deliveries, mails): 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 10 h (about 28 hours in all), then failed.
 */
export const RETRY_DELAYS_S = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600];

/** When the attempt after `attempts` failed ones is due; null once the schedule is used up (give up). */
export function nextAttemptAt(at: Date, attempts: number): string | null {
  const delay = RETRY_DELAYS_S[attempts - 1];
  return delay === undefined ? null : new Date(at.getTime() + delay * 1000).toISOString();
}

/** The outbox tables: each has id, status, attempts, next_attempt_at and claimed_until. */
export type OutboxTable = 'webhook_deliveries' | 'mail_outbox';

/**
 * Claims up to `limit` pending rows of `table` that are due and not leased by another instance,
 * leasing them until `leaseUntil`. On PostgreSQL the rows are locked with SKIP LOCKED, so two
 * instances never claim the same one; on SQLite the one writer makes the statement atomic.
 */
export async function claimDueRows(db: Db, dialect: Dialect, table: OutboxTable, now: string, leaseUntil: string, limit: number): Promise<Array<{ id: string; attempts: number }>> {
  // Both tables have these columns; one name keeps Kysely's types simple.
  const t = table as 'mail_outbox';
  const due = db
    .selectFrom(t)
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('next_attempt_at')
    .limit(limit);
  return db
    .updateTable(t)
    .set({ claimed_until: leaseUntil })
    .where('id', 'in', dialect === 'postgres' ? due.forUpdate().skipLocked() : due)
    .returning(['id', 'attempts'])
    .execute();
}
