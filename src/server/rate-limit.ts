/**
 * Fixed-window rate limits for the public forms, counted in the database (table `rate_limits`) so
 * that every server process sees the same numbers. One atomic upsert per hit: no read-then-write race.
 */
import { sql } from 'kysely';
import type { Db } from './db/index.ts';

export const RATE_WINDOW_MS = 10 * 60 * 1000;

export interface RateLimitResult {
  allowed: boolean;
  hits: number;
  /** Seconds until the current window ends (for `Retry-After`). */
  retryAfterSeconds: number;
  /** When the current window began (epoch ms). */
  windowStart: number;
}

/**
 * Counts one hit for `key` (e.g. `incidents.create:203.0.113.9`) and says whether it is within
 * `limit` per window. `limit` 0 turns the limit off (nothing is written). This is the database alone:
 * the public forms call it through `withinRateLimit` (limits/first-line.ts), which refuses without
 * asking it once this process knows the key's window is used up.
 */
export async function hitRateLimit(
  db: Db,
  key: string,
  limit: number,
  now: Date = new Date(),
  windowMs: number = RATE_WINDOW_MS,
): Promise<RateLimitResult> {
  const window = Math.floor(now.getTime() / windowMs);
  const windowStart = window * windowMs;
  const retryAfterSeconds = Math.ceil((windowStart + windowMs - now.getTime()) / 1000);
  if (limit <= 0) return { allowed: true, hits: 0, retryAfterSeconds, windowStart };
  const row = await db
    .insertInto('rateLimits')
    .values({ key, slot: window, hits: 1 })
    .onConflict((oc) => oc.columns(['key', 'slot']).doUpdateSet({ hits: sql<number>`rate_limits.hits + 1` }))
    .returning('hits')
    .executeTakeFirstOrThrow();
  // Housekeeping now and then: windows older than the previous one are no longer read. Slots count
  // windows of RATE_WINDOW_MS, so only a call with that length may judge which are old (a longer
  // window's slot numbers are smaller, and would all look old); other lengths belong in limit_counters.
  if (windowMs === RATE_WINDOW_MS && Math.random() < 0.02) {
    await db
      .deleteFrom('rateLimits')
      .where('slot', '<', window - 1)
      .execute();
  }
  const hits = Number(row.hits);
  return { allowed: hits <= limit, hits, retryAfterSeconds, windowStart };
}

