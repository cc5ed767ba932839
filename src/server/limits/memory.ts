/**
 * The cheap first line in front of every database limiter: fixed windows counted in this process's
 * memory. A request it refuses costs no database write; the database counters behind it stay the
 * authority, because they are what several server processes share.
 */
export class MemoryLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  private readonly maxKeys: number;

  /** At most `maxKeys` keys are remembered: past that the expired ones go, then the oldest. */
  constructor(maxKeys = 50_000) {
    this.maxKeys = maxKeys;
  }

  /** Counts one hit for `key`; true while it is within `limit` per `windowMs`. */
  hit(key: string, limit: number, windowMs: number, now = Date.now()): boolean {
    return this.count(key, windowMs, now) <= limit;
  }

  /** Counts one hit for `key`; returns the hits of its current window, this one included. */
  count(key: string, windowMs: number, now = Date.now()): number {
    let entry = this.windows.get(key);
    if (!entry || now - entry.start >= windowMs) {
      if (entry) this.windows.delete(key);
      else if (this.windows.size >= this.maxKeys) this.evict(now, windowMs);
      entry = { start: now, count: 0 };
      this.windows.set(key, entry);
    }
    entry.count += 1;
    return entry.count;
  }

  /** True when `key` has already used up `limit` in its current window (counts nothing). */
  exhausted(key: string, limit: number, windowMs: number, now = Date.now()): boolean {
    const entry = this.windows.get(key);
    return Boolean(entry && now - entry.start < windowMs && entry.count >= limit);
  }

  forget(key: string): void {
    this.windows.delete(key);
  }

  private evict(now: number, windowMs: number): void {
    for (const [key, entry] of this.windows) if (now - entry.start >= windowMs) this.windows.delete(key);
    // Still full: drop the oldest (a Map iterates in insertion order).
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(key);
    }
  }
}
