/**
 * The cheap first line in front of every database limiter: fixed windows counted in this process's
 * memory. A request it refuses costs no database write; the database counters behind it stay the
 * authority, because they are what several server processes share (see first-line.ts).
 */
interface Window {
  start: number;
  count: number;
  /** The window's length, so that pruning knows when each key's window is over whatever its limiter. */
  windowMs: number;
}

export class MemoryLimiter {
  private readonly windows = new Map<string, Window>();

  private readonly maxKeys: number;

  /**
   * At most `maxKeys` keys are remembered: when a new key finds it full, the expired ones go, then the
   * oldest tenth, so a flood of new keys pays one sweep per tenth of `maxKeys`, not one per key.
   */
  constructor(maxKeys = 50_000) {
    this.maxKeys = maxKeys;
  }

  /** How many keys are remembered (never more than `maxKeys`). */
  get size(): number {
    return this.windows.size;
  }

  /** Counts one hit for `key`; true while it is within `limit` per `windowMs`. */
  hit(key: string, limit: number, windowMs: number, now = Date.now()): boolean {
    return this.count(key, windowMs, now) <= limit;
  }

  /** Counts one hit for `key`; returns the hits of its current window, this one included. */
  count(key: string, windowMs: number, now = Date.now()): number {
    let entry = this.windows.get(key);
    if (!entry || now - entry.start >= windowMs) {
      entry = this.replace(key, { start: now, count: 0, windowMs }, now);
    }
    entry.count += 1;
    return entry.count;
  }

  /**
   * Takes the count of a window another counter keeps (the database's, which began at `start`): from
   * now until that window ends, {@link exhausted} answers from it. A window already over is ignored.
   */
  record(key: string, start: number, count: number, windowMs: number, now = Date.now()): void {
    if (now - start >= windowMs) return;
    const entry = this.windows.get(key);
    if (entry && entry.start === start) entry.count = Math.max(entry.count, count);
    else this.replace(key, { start, count, windowMs }, now);
  }

  /** True when `key` has already used up `limit` in its current window (counts nothing). */
  exhausted(key: string, limit: number, windowMs: number, now = Date.now()): boolean {
    return this.used(key, windowMs, now) >= limit;
  }

  /** The hits `key` has used in its current window (0 when it has none); counts nothing. */
  used(key: string, windowMs: number, now = Date.now()): number {
    const entry = this.windows.get(key);
    return entry && now - entry.start < windowMs ? entry.count : 0;
  }

  /** When `key`'s current window began (undefined when it has none). */
  windowStart(key: string): number | undefined {
    return this.windows.get(key)?.start;
  }

  forget(key: string): void {
    this.windows.delete(key);
  }

  private replace(key: string, entry: Window, now: number): Window {
    if (this.windows.has(key)) this.windows.delete(key);
    else if (this.windows.size >= this.maxKeys) this.evict(now);
    this.windows.set(key, entry);
    return entry;
  }

  private evict(now: number): void {
    for (const [key, entry] of this.windows)
      if (now - entry.start >= entry.windowMs) this.windows.delete(key);
    // Still more than nine tenths full: drop the oldest (a Map iterates in insertion order).
    const keep = this.maxKeys - Math.max(1, Math.floor(this.maxKeys / 10));
    for (const key of this.windows.keys()) {
      if (this.windows.size <= keep) break;
      this.windows.delete(key);
    }
  }
}
