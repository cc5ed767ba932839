/**
 * Every database limiter behind one in-memory first line. The database counters stay the authority
 * (several server processes share them); this process only remembers, per key, the window the
 * database last reported once it was used up, and until that window ends refuses the key's requests
 * itself: a flood from one client costs no database write or read past its limit.
 *
 * It never refuses what the database would accept: it learns the window (start and count) from the
 * database's own answer, and the database's count of a window only grows. A refusal it makes is one
 * the database would have made, so the limits mean exactly what they meant without it.
 */
import type { Db } from '../db/index.ts';
import { reserveAlignedHit, reserveWindowHit, RATE_WINDOW_MS, type WindowHit } from './counters.ts';
import { MemoryLimiter } from './memory.ts';

/** The process's first line, shared by every limiter (their keys carry their own prefixes). */
export const processLimits = new MemoryLimiter();

export interface LimitedHit {
  allowed: boolean;
  /** The window's count: the database's, or the last one it reported when memory answered. */
  hits: number;
  /** Seconds until the window ends (for `Retry-After`). */
  retryAfterSeconds: number;
  /** True when memory refused and the database was not asked. */
  remembered: boolean;
}

export interface FirstLineOptions {
  /** A test gives each database a memory of its own; the process's otherwise. */
  memory?: MemoryLimiter;
  now?: number;
}

/**
 * One hit for `key` against `limit` per `windowMs`: refused from memory when this process has seen
 * the key's window used up, otherwise counted by `dbHit` (the database limiter, keyed and windowed
 * the same). `limit` 0 or less turns the limit off: nothing is counted anywhere.
 */
export async function limitedHit(
  key: string,
  limit: number,
  windowMs: number,
  dbHit: () => Promise<WindowHit>,
  { memory = processLimits, now = Date.now() }: FirstLineOptions = {},
): Promise<LimitedHit> {
  const secondsLeft = (start: number) => Math.max(0, Math.ceil((start + windowMs - now) / 1000));
  if (limit <= 0) return { allowed: true, hits: 0, retryAfterSeconds: 0, remembered: false };
  if (memory.exhausted(key, limit, windowMs, now)) {
    const start = memory.windowStart(key) ?? now;
    return {
      allowed: false,
      hits: memory.used(key, windowMs, now),
      retryAfterSeconds: secondsLeft(start),
      remembered: true,
    };
  }
  const { hits, windowStart } = await dbHit();
  // Used up (this hit may still have been the last one allowed): remember it until its window ends.
  if (hits >= limit) memory.record(key, windowStart, hits, windowMs, now);
  return { allowed: hits <= limit, hits, retryAfterSeconds: secondsLeft(windowStart), remembered: false };
}

/** The public forms' limit (windows of 10 minutes on the clock's grid) behind the first line. */
export function withinRateLimit(
  db: Db,
  key: string,
  limit: number,
  options: FirstLineOptions = {},
): Promise<LimitedHit> {
  const now = options.now ?? Date.now();
  return limitedHit(key, limit, RATE_WINDOW_MS, () => reserveAlignedHit(db, key, RATE_WINDOW_MS, now), {
    ...options,
    now,
  });
}

/** A limit counted in windows of any length, from their first hit, behind the first line. */
export function withinCounterLimit(
  db: Db,
  key: string,
  limit: number,
  windowMs: number,
  options: FirstLineOptions = {},
): Promise<LimitedHit> {
  const now = options.now ?? Date.now();
  return limitedHit(key, limit, windowMs, () => reserveWindowHit(db, key, windowMs, now), {
    ...options,
    now,
  });
}
