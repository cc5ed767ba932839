import { sql, type Kysely } from 'kysely';
import { up as createRateLimits } from './0002_rate_limits.ts';

/**
 * One table of window counters. The public forms counted in `rate_limits` (one row per key and
 * 10-minute window on the clock's grid, migration 0002), every other limiter in `limit_counters` (one
 * row per key, its current window, migration 0005): two tables and two writers for one job. The forms'
 * counts now live in `limit_counters` too, as windows that start on the grid (src/server/limits/counters.ts).
 *
 * Each key's newest window moves, so a limit reached just before the upgrade still holds after it;
 * `down` moves the grid windows back (a window that starts at its first hit lies exactly on the grid
 * about once in 600,000 rows).
 */
const WINDOW_MS = 10 * 60 * 1000;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`insert into limit_counters (key, window_start, count)
    select key, cast(slot as bigint) * ${sql.lit(WINDOW_MS)}, hits from rate_limits as r
    where slot = (select max(slot) from rate_limits where key = r.key)
    on conflict (key) do nothing`.execute(db);
  await db.schema.dropTable('rate_limits').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await createRateLimits(db);
  const onGrid = sql`window_start % ${sql.lit(WINDOW_MS)} = 0`;
  await sql`insert into rate_limits (key, slot, hits)
    select key, window_start / ${sql.lit(WINDOW_MS)}, count from limit_counters where ${onGrid}`.execute(db);
  await sql`delete from limit_counters where ${onGrid}`.execute(db);
}
