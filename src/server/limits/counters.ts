/**
 * Fixed-window counters in the database, shared by every server process. A hit is reserved in one
 * atomic statement (`insert … on conflict do update … returning count`) BEFORE the work it limits, so
 * N parallel requests see N distinct counts and at most `limit` of them go ahead: nothing reads first
 * and writes after.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The connection or a transaction: a hit reserved inside a transaction counts only if it commits. */
type Db = Kysely<Database>;

/** No limiter uses a window longer than a day (the visitor-mail caps count per UTC day). */
const STALE_AFTER_MS = 2 * 24 * 60 * 60 * 1000;

/** Counts one hit for `key` in its current window of `windowMs`; returns the count including it. */
export async function reserveHit(db: Db, key: string, windowMs: number, now = Date.now()): Promise<number> {
  return (await reserveWindowHit(db, key, windowMs, now)).hits;
}

/** {@link reserveHit}, also saying when the key's current window began (epoch ms). */
export async function reserveWindowHit(db: Db, key: string, windowMs: number, now = Date.now()): Promise<{ hits: number; windowStart: number }> {
  const expired = sql<boolean>`${sql.ref('limitCounters.windowStart')} <= ${now - windowMs}`;
  const row = await db
    .insertInto('limitCounters')
    .values({ key, windowStart: now, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when ${expired} then 1 else ${sql.ref('limitCounters.count')} + 1 end`,
        windowStart: sql<number>`case when ${expired} then ${now} else ${sql.ref('limitCounters.windowStart')} end`,
      }),
    )
    .returning(['count', 'windowStart'])
    .executeTakeFirstOrThrow();
  // Housekeeping now and then: no window is longer than a day, so rows two days old are read by nobody.
  if (Math.random() < 0.01) await db.deleteFrom('limitCounters').where('windowStart', '<', now - STALE_AFTER_MS).execute();
  return { hits: Number(row.count), windowStart: Number(row.windowStart) };
}

/** Forgets `key` (a successful sign-in gives its network its allowance back). */
export async function clearHits(db: Db, key: string): Promise<void> {
  await db.deleteFrom('limitCounters').where('key', '=', key).execute();
}
