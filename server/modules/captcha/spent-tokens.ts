/**
 * Remembers captcha tokens that have already been accepted, so each works once.
 * Entries leave when they expire (by the injected clock) or, past `maxEntries`, oldest first.
 * Kept in memory: with several server instances a token could be spent once per instance.
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
