import type { Redis } from 'ioredis';

/** Where accepted captcha tokens are remembered, so each works once. */
export interface SpentTokenStore {
  has(key: string): Promise<boolean>;
  /** Marks `key` spent until `expiresAtMs`; false when it already was. Atomic: two racing requests cannot both win. */
  spend(key: string, expiresAtMs: number): Promise<boolean>;
}

/**
 * Remembers captcha tokens that have already been accepted, in this process's memory.
 * Entries leave when they expire (by the injected clock) or, past `maxEntries`, oldest first.
 * With several server instances a token could be spent once per instance: use redisSpentTokens.
 */
export class SpentTokens {
  private readonly entries = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly maxEntries: number,
  ) {}

  has(key: string): boolean {
    const expiresAt = this.entries.get(key);
    if (expiresAt === undefined) return false;
    if (expiresAt <= this.now()) {
      this.entries.delete(key);
      return false;
    }
    return true;
  }

  /** Marks `key` spent until `expiresAtMs`; false when it already was (synchronous, so two racing requests cannot both win). */
  spend(key: string, expiresAtMs: number): boolean {
    if (this.has(key)) return false;
    this.prune();
    this.entries.set(key, expiresAtMs);
    return true;
  }

  get size(): number {
    return this.entries.size;
  }

  private prune(): void {
    const now = this.now();
    // Insertion order is close to expiry order (expiries are "a few minutes after issue"), so
    // dropping expired entries from the front is cheap; a late, still-valid one just stops the sweep.
    for (const [key, expiresAt] of this.entries) {
      if (expiresAt > now) break;
      this.entries.delete(key);
    }
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }
}

export function memorySpentTokens(spent: SpentTokens): SpentTokenStore {
  return { has: async (key) => spent.has(key), spend: async (key, expiresAtMs) => spent.spend(key, expiresAtMs) };
}

/**
 * Spent tokens in Redis (SET NX with the token's expiry), shared by every instance. While Redis does
 * not answer, `fallback` (this instance's memory) keeps each token single-use here at least.
 */
export function redisSpentTokens(redis: Redis, keyPrefix: string, now: () => number, fallback: SpentTokens): SpentTokenStore {
  const keyOf = (key: string) => `${keyPrefix}captcha-spent:${key}`;
  return {
    async has(key) {
      try {
        return (await redis.exists(keyOf(key))) === 1 || fallback.has(key);
      } catch {
        return fallback.has(key);
      }
    },
    async spend(key, expiresAtMs) {
      const ttlMs = Math.max(1, Math.ceil(expiresAtMs - now()));
      try {
        return (await redis.set(keyOf(key), '1', 'PX', ttlMs, 'NX')) === 'OK';
      } catch {
        return fallback.spend(key, expiresAtMs);
      }
    },
  };
}
