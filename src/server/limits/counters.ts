/**
 * Fixed-window counters in the database (`limit_counters`), shared by every server process: the public
 * forms' limit, the sign-in and settings limits, the visitor-mail caps. A hit is reserved in one atomic
 * statement (`insert … on conflict do update … returning count`) BEFORE the work it limits, so N
 * parallel requests see N distinct counts and at most `limit` of them go ahead: nothing reads first
 * and writes after. One row per key: the start of its current window (epoch ms) and the hits in it.
 *
 * A key's window either starts at its first hit ({@link reserveWindowHit}) or lies on the clock's grid
 * ({@link reserveAlignedHit}: multiples of its length, as the public forms count). A key is counted
 * one way only (each limiter's keys carry their own prefix).
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/index.ts';

/** The connection or a transaction: a hit reserved inside a transaction counts only if it commits. */
type Db = Kysely<Database>;

/** No limiter uses a window longer than a day (the visitor-mail caps count per UTC day). */
const STALE_AFTER_MS = 2 * 24 * 60 * 60 * 1000;

/** The public forms' window (`FORM_RATE_LIMIT` per client network per 10 minutes). */
export const RATE_WINDOW_MS = 10 * 60 * 1000;

/** A window's count, this hit included, and when the window began (epoch ms). */
export interface WindowHit {
  hits: number;
  windowStart: number;
}

/**
 * Counts one hit for `key`: a new window starting at `start` when the stored one is `over`, else one
 * more in the stored window.
 */
async function reserve(
  db: Db,
  key: string,
  start: number,
  over: (stored: RawBuilder<number>) => RawBuilder<boolean>,
  now: number,
): Promise<WindowHit> {
  const expired = over(sql.ref('limitCounters.windowStart'));
  const row = await db
    .insertInto('limitCounters')
    .values({ key, windowStart: start, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when ${expired} then 1 else ${sql.ref('limitCounters.count')} + 1 end`,
        windowStart: sql<number>`case when ${expired} then ${start} else ${sql.ref('limitCounters.windowStart')} end`,
      }),
    )
    .returning(['count', 'windowStart'])
    .executeTakeFirstOrThrow();
  // Housekeeping now and then: no window is longer than a day, so rows two days old are read by nobody.
  if (Math.random() < 0.01)
    await db
      .deleteFrom('limitCounters')
      .where('windowStart', '<', now - STALE_AFTER_MS)
      .execute();
  return { hits: Number(row.count), windowStart: Number(row.windowStart) };
}

/** Counts one hit for `key` in its current window of `windowMs`; returns the count including it. */
export async function reserveHit(db: Db, key: string, windowMs: number, now = Date.now()): Promise<number> {
  return (await reserveWindowHit(db, key, windowMs, now)).hits;
}

/** {@link reserveHit}, also saying when the key's current window began (epoch ms): at its first hit. */
export async function reserveWindowHit(
  db: Db,
  key: string,
  windowMs: number,
  now = Date.now(),
): Promise<WindowHit> {
  return reserve(db, key, now, (stored) => sql<boolean>`${stored} <= ${now - windowMs}`, now);
}

/**
 * One hit for `key` in the window of the clock's grid that holds `now` (10:00–10:10, 10:10–10:20… for
 * 10 minutes): every key's window ends at the same time. A stored window before it starts a new count.
 */
export async function reserveAlignedHit(
  db: Db,
  key: string,
  windowMs: number,
  now = Date.now(),
): Promise<WindowHit> {
  const start = Math.floor(now / windowMs) * windowMs;
  return reserve(db, key, start, (stored) => sql<boolean>`${stored} < ${start}`, now);
}

/** Forgets `key` (a successful sign-in gives its network its allowance back). */
export async function clearHits(db: Db, key: string): Promise<void> {
  await db.deleteFrom('limitCounters').where('key', '=', key).execute();
}

export interface RateLimitResult {
  allowed: boolean;
  hits: number;
  /** Seconds until the current window ends (for `Retry-After`). */
  retryAfterSeconds: number;
  /** When the current window began (epoch ms). */
  windowStart: number;
}

/**
 * The public forms' limit: counts one hit for `key` (e.g. `incidents.create:203.0.113.9`) in its
 * window of the clock's grid and says whether it is within `limit` per window. `limit` 0 turns the
 * limit off (nothing is written). This is the database alone: the public forms call it through
 * `withinRateLimit` (first-line.ts), which refuses without asking it once this process knows the
 * key's window is used up.
 */
export async function hitRateLimit(
  db: Db,
  key: string,
  limit: number,
  now: Date = new Date(),
  windowMs: number = RATE_WINDOW_MS,
): Promise<RateLimitResult> {
  const windowStart = Math.floor(now.getTime() / windowMs) * windowMs;
  const retryAfterSeconds = Math.ceil((windowStart + windowMs - now.getTime()) / 1000);
  if (limit <= 0) return { allowed: true, hits: 0, retryAfterSeconds, windowStart };
  const { hits } = await reserveAlignedHit(db, key, windowMs, now.getTime());
  return { allowed: hits <= limit, hits, retryAfterSeconds, windowStart };
}
