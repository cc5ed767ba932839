/**
 * First-party, cookie-less page-view counts: one row per day and path with a counter. No IP, no
 * identifier, no user agent is kept — only "how many views did /blog get on this day".
 */
import { sql } from 'kysely';
import { TIME_ZONE } from '../../domain/dates.ts';
import { isPrivatePath } from '../../routes.ts';
import type { Db } from '../db/index.ts';

const MAX_PATH_LENGTH = 120;
// Our routes are lower-case ASCII slugs; anything else is noise (or abuse) and is not counted.
const PATH_PATTERN = /^\/[a-z0-9\-/]*$/;

/** Made once: building a formatter costs far more than formatting (it was a beacon's largest cost). */
const LOCAL_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The calendar day in Santo Domingo (`yyyy-mm-dd`): "today" means the staff's today. */
export function localDay(now: Date = new Date()): string {
  return LOCAL_DAY.format(now);
}

/** The path to count for a beacon body, or null when it is not one of ours. */
export function normalizeViewPath(raw: string): string | null {
  let path = raw.trim().split(/[?#]/)[0] ?? '';
  if (path.length > 1) path = path.replace(/\/+$/, '');
  if (!path || path.length > MAX_PATH_LENGTH || !PATH_PATTERN.test(path)) return null;
  if (isPrivatePath(path)) return null;
  return path;
}

/** Adds `count` views of `path` on `day`: one write, whatever the count. */
async function addViews(db: Db, day: string, path: string, count: number): Promise<void> {
  await db
    .insertInto('pageViews')
    .values({ day, path, count })
    .onConflict((oc) =>
      oc.columns(['day', 'path']).doUpdateSet({ count: sql`${sql.ref('pageViews.count')} + ${count}` }),
    )
    .execute();
}

/**
 * Views counted in memory and written every {@link FLUSH_MS} in one write per day and path, so a loop
 * of beacons costs no database write per request (issue 13). Kept on `globalThis`: the bundled beacon
 * route and the start script (which flushes at shutdown) load separate copies of this module.
 */
interface ViewBuffer {
  counts: Map<string, number>;
  db?: Db;
  timer?: NodeJS.Timeout;
  /** Shutting down: views are written as they come, since no later flush will run. */
  closing: boolean;
}

export const FLUSH_MS = 5000;
const BUFFER_KEY = Symbol.for('vertice.analytics.views');

function viewBuffer(): ViewBuffer {
  const holder = globalThis as { [BUFFER_KEY]?: ViewBuffer };
  holder[BUFFER_KEY] ??= { counts: new Map(), closing: false };
  return holder[BUFFER_KEY];
}

/** Counts one view in memory (see {@link ViewBuffer}); false when the path is not one of ours. */
export async function bufferPageView(
  db: Db,
  rawPath: string,
  now: Date = new Date(),
  known?: ReadonlySet<string>,
): Promise<boolean> {
  const path = normalizeViewPath(rawPath);
  if (!path || (known && !known.has(path))) return false;
  const buffer = viewBuffer();
  buffer.db = db;
  if (buffer.closing) {
    await addViews(db, localDay(now), path, 1);
    return true;
  }
  const key = `${localDay(now)} ${path}`;
  buffer.counts.set(key, (buffer.counts.get(key) ?? 0) + 1);
  buffer.timer ??= setTimeout(() => void flushPageViews().catch(() => undefined), FLUSH_MS).unref();
  return true;
}

/** Writes the views counted in memory; what could not be written is kept for the next flush. */
export async function flushPageViews(db?: Db): Promise<number> {
  const buffer = viewBuffer();
  clearTimeout(buffer.timer);
  buffer.timer = undefined;
  const target = db ?? buffer.db;
  if (!target || buffer.counts.size === 0) return 0;
  const pending = buffer.counts;
  buffer.counts = new Map();
  const entries = [...pending];
  let written = 0;
  for (const [index, [key, count]] of entries.entries()) {
    const [day, path] = key.split(' ') as [string, string];
    try {
      await addViews(target, day, path, count);
      written += count;
    } catch (error) {
      // The database did not answer: this and every later entry wait for the next flush.
      for (const [laterKey, laterCount] of entries.slice(index))
        buffer.counts.set(laterKey, (buffer.counts.get(laterKey) ?? 0) + laterCount);
      buffer.timer ??= setTimeout(() => void flushPageViews().catch(() => undefined), FLUSH_MS).unref();
      throw error;
    }
  }
  return written;
}

/** At shutdown: writes what is counted, and from then on writes each view as it comes. */
export async function closePageViews(db: Db): Promise<number> {
  viewBuffer().closing = true;
  return flushPageViews(db);
}

export async function visitsOnDay(db: Db, day: string = localDay()): Promise<number> {
  const row = await db
    .selectFrom('pageViews')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('count'), eb.lit(0)).as('total'))
    .where('day', '=', day)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

export interface PathViews {
  path: string;
  views: number;
}

/** The most viewed paths over the last `days` days (today included). */
export async function mostViewedPages(
  db: Db,
  days = 30,
  limit = 5,
  now: Date = new Date(),
): Promise<PathViews[]> {
  const since = localDay(new Date(now.getTime() - (days - 1) * 86_400_000));
  const rows = await db
    .selectFrom('pageViews')
    .select(['path', (eb) => eb.fn.sum<number>('count').as('views')])
    .where('day', '>=', since)
    .groupBy('path')
    .orderBy('views', 'desc')
    .orderBy('path')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ path: row.path, views: Number(row.views) }));
}
