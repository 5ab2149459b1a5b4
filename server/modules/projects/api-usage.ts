import type { Deps } from '../../deps.js';
import { withTransaction } from '../../db/transaction.js';
import { isoNow } from '../../lib/clock.js';
import { recordApiRequests, utcDay } from '../analytics/analytics.service.js';
import { touchApiKey } from './projects.repo.js';

interface Pending {
  projectId: string;
  apiKeyId: string;
  day: string;
  count: number;
  lastUsedAt: string;
}

export interface ApiUsage {
  /** Counts one public API call made with a key. */
  record(projectId: string, apiKeyId: string): Promise<void>;
  /** Writes what is counted so far. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left (on shutdown). */
  close(): Promise<void>;
}

/**
 * Each public API call counts towards its key's last use and the daily analytics. Written per call,
 * that is three writes on every request; instead calls are counted in memory and written every
 * `intervalMs` (one transaction per key and day), so a crash loses at most that long of counts.
 * With `intervalMs` 0 every call is written as it happens.
 */
export function createApiUsage(deps: Pick<Deps, 'db' | 'clock' | 'logger'>, intervalMs: number): ApiUsage {
  let pending = new Map<string, Pending>();

  const write = async (usage: Pending) => {
    await withTransaction(deps, async (tx) => {
      await recordApiRequests(tx, usage);
      await touchApiKey(tx.db, usage.apiKeyId, usage.lastUsedAt);
    });
  };

  const flush = async () => {
    const batch = pending;
    pending = new Map();
    for (const usage of batch.values()) {
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
    async record(projectId, apiKeyId) {
      const now = deps.clock.now();
      const usage = { projectId, apiKeyId, day: utcDay(now), count: 1, lastUsedAt: isoNow(deps.clock) };
      if (!timer) return write(usage);
      const key = `${apiKeyId} ${usage.day}`;
      const counted = pending.get(key);
      if (counted) {
        counted.count += 1;
        counted.lastUsedAt = usage.lastUsedAt;
      } else {
        pending.set(key, usage);
      }
    },
    flush,
    async close() {
      if (timer) clearInterval(timer);
      await flush();
    },
  };
}
