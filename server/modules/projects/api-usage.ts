import type { Deps } from '../../deps.js';
import { withTransaction } from '../../db/transaction.js';
import { recordApiRequests, utcDay } from '../analytics/analytics.service.js';
import { touchApiKey } from './projects.repo.js';

/** One key's calls on one UTC day, counted since the last write. */
interface Pending {
  projectId: string;
  apiKeyId: string;
  /** Days since the epoch (UTC). */
  day: number;
  count: number;
  /** Milliseconds since the epoch. */
  lastUsedAt: number;
}

const DAY_MS = 86_400_000;

export interface ApiUsage {
  /** Counts one public API call made with a key; a promise only when the call is written at once (`intervalMs` 0). */
  record(projectId: string, apiKeyId: string): Promise<void> | undefined;
  /** Writes what is counted so far. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left (on shutdown). */
  close(): Promise<void>;
}

/**
 * Each public API call counts towards its key's last use and the daily analytics. Written per call,
 * that is three writes on every request; instead calls are counted in memory and written every
 * `intervalMs` (one transaction per key and day), so a crash loses at most that long of counts.
 * With `intervalMs` 0 every call is written as it happens. Counting is on the hot path of every
 * call, so it keeps numbers and makes the dates only when it writes.
 */
export function createApiUsage(deps: Pick<Deps, 'db' | 'clock' | 'logger'>, intervalMs: number): ApiUsage {
  // This interval's calls by key, on the day of the key's latest call; a key's calls on an earlier
  // day (the interval crossed midnight) wait in `earlierDays`.
  let pending = new Map<string, Pending>();
  let earlierDays: Pending[] = [];

  const write = async (usage: Pending) => {
    const day = utcDay(new Date(usage.day * DAY_MS));
    await withTransaction(deps, async (tx) => {
      await recordApiRequests(tx, { projectId: usage.projectId, apiKeyId: usage.apiKeyId, day, count: usage.count });
      await touchApiKey(tx.db, usage.apiKeyId, new Date(usage.lastUsedAt).toISOString());
    });
  };

  const flush = async () => {
    const batch = [...earlierDays, ...pending.values()];
    pending = new Map();
    earlierDays = [];
    for (const usage of batch) {
      try {
        await write(usage);
      } catch (error) {
        // A key deleted with its project since the call has nowhere to count; nothing else is lost.
        deps.logger.warn({ err: error, apiKeyId: usage.apiKeyId, count: usage.count }, 'API usage not recorded');
      }
    }
  };

  const timer = intervalMs > 0 ? setInterval(() => void flush(), intervalMs) : null;
  timer?.unref();

  return {
    record(projectId, apiKeyId) {
      const now = deps.clock.now().getTime();
      const day = Math.floor(now / DAY_MS);
      if (!timer) return write({ projectId, apiKeyId, day, count: 1, lastUsedAt: now });
      const counted = pending.get(apiKeyId);
      if (counted?.day === day) {
        counted.count += 1;
        counted.lastUsedAt = now;
        return undefined;
      }
      if (counted) earlierDays.push(counted);
      pending.set(apiKeyId, { projectId, apiKeyId, day, count: 1, lastUsedAt: now });
      return undefined;
    },
    flush,
    async close() {
      if (timer) clearInterval(timer);
      await flush();
    },
  };
}
