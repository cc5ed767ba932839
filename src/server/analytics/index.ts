/**
 * First-party, cookie-less page-view counts: one row per day and path with a counter. No IP, no
 * identifier, no user agent is kept — only "how many views did /blog get on this day".
 */
import { sql } from 'kysely';
import { TIME_ZONE } from '../../domain/dates.ts';
import type { Db } from '../db/index.ts';

const MAX_PATH_LENGTH = 120;
// Our routes are lower-case ASCII slugs; anything else is noise (or abuse) and is not counted.
const PATH_PATTERN = /^\/[a-z0-9\-/]*$/;

/** The calendar day in Santo Domingo (`yyyy-mm-dd`): "today" means the staff's today. */
export function localDay(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** The path to count for a beacon body, or null when it is not one of ours. */
export function normalizeViewPath(raw: string): string | null {
  let path = raw.trim().split(/[?#]/)[0] ?? '';
  if (path.length > 1) path = path.replace(/\/+$/, '');
  if (!path || path.length > MAX_PATH_LENGTH || !PATH_PATTERN.test(path)) return null;
  if (path === '/admin' || path.startsWith('/admin/') || path.startsWith('/api/') || path === '/admin-login') return null;
  return path;
}

/** Counts one view of `rawPath` when it is one of ours (and, given `known`, one of those paths). */
export async function recordPageView(db: Db, rawPath: string, now: Date = new Date(), known?: ReadonlySet<string>): Promise<boolean> {
  const path = normalizeViewPath(rawPath);
  if (!path || (known && !known.has(path))) return false;
  await db
    .insertInto('pageViews')
    .values({ day: localDay(now), path, count: 1 })
    .onConflict((oc) => oc.columns(['day', 'path']).doUpdateSet({ count: sql`${sql.ref('pageViews.count')} + 1` }))
    .execute();
  return true;
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
export async function mostViewedPages(db: Db, days = 30, limit = 5, now: Date = new Date()): Promise<PathViews[]> {
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
