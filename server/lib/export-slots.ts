import type { Redis } from 'ioredis';
import { randomToken } from './crypto.js';

/**
 * One running export per user: in this process's memory, or also in Redis (REDIS_URL) so that it holds
 * across instances. A slot in Redis is leased: its instance renews it while the export runs, and a
 * slot whose instance died lapses SLOT_LEASE_MS later.
 */
export interface ExportSlots {
  /** The user's slot, or null while an export of theirs runs. */
  take(userId: string): Promise<ExportSlot | null>;
}

export interface ExportSlot {
  /** Frees the slot; calling it again does nothing. */
  release(): void;
}

const SLOT_LEASE_MS = 30_000;

export function memoryExportSlots(): ExportSlots {
  const held = new Set<string>();
  return {
    async take(userId) {
      if (held.has(userId)) return null;
      held.add(userId);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          held.delete(userId);
        },
      };
    },
  };
}

// Renews or frees the lease only while it is still ours (a lapsed one may be another export's by now).
const RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0";
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/**
 * Slots in Redis (SET NX with a lease), and in this instance's memory first: a second click on the same
 * instance is refused without a round trip, and while Redis does not answer the slot holds here at least.
 */
export function redisExportSlots(redis: Redis, keyPrefix: string, memory: ExportSlots = memoryExportSlots()): ExportSlots {
  return {
    async take(userId) {
      const local = await memory.take(userId);
      if (!local) return null;
      const key = `${keyPrefix}export-slot:${userId}`;
      const lease = randomToken(16);
      try {
        if ((await redis.set(key, lease, 'PX', SLOT_LEASE_MS, 'NX')) !== 'OK') {
          local.release();
          return null;
        }
      } catch {
        return local;
      }
      const renewal = setInterval(() => redis.eval(RENEW, 1, key, lease, SLOT_LEASE_MS).catch(() => {}), SLOT_LEASE_MS / 3);
      renewal.unref();
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          clearInterval(renewal);
          local.release();
          // A failed release leaves the lease to lapse.
          redis.eval(RELEASE, 1, key, lease).catch(() => {});
        },
      };
    },
  };
}
