/**
 * The daily total of files the public forms may bring in (`PUBLIC_UPLOAD_DAILY_MB`, issue 21): one
 * counter per UTC day in `limit_counters`, in KiB (a day's total fits the column on both engines).
 * Staff uploads and mail do not count: the first are staff's, the second are bounded per mail.
 */
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const keyOf = (now: Date) => `public-uploads:${now.toISOString().slice(0, 10)}`;
const kib = (bytes: number) => Math.ceil(bytes / 1024);

/** KiB already taken today. */
async function usedToday(db: Db, now: Date): Promise<number> {
  const row = await db
    .selectFrom('limitCounters')
    .select(['count', 'windowStart'])
    .where('key', '=', keyOf(now))
    .executeTakeFirst();
  return row && Number(row.windowStart) === Math.floor(now.getTime() / DAY_MS) * DAY_MS
    ? Number(row.count)
    : 0;
}

/** Whether `bytes` more would still fit today's total (checked before a file is read: nothing reserved). */
export async function publicUploadFits(
  db: Db,
  bytes: number,
  dailyMb: number,
  now: Date = new Date(),
): Promise<boolean> {
  if (dailyMb <= 0) return true;
  return (await usedToday(db, now)) + kib(bytes) <= dailyMb * 1024;
}

/** Counts `bytes` against today's total; false (nothing counted) when they do not fit. */
export async function reservePublicUpload(
  db: Db,
  bytes: number,
  dailyMb: number,
  now: Date = new Date(),
): Promise<boolean> {
  if (dailyMb <= 0 || bytes <= 0) return true;
  const size = kib(bytes);
  const day = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const stale = sql<boolean>`${sql.ref('limitCounters.windowStart')} < ${day}`;
  const row = await db
    .insertInto('limitCounters')
    .values({ key: keyOf(now), windowStart: day, count: size })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when ${stale} then ${size} else ${sql.ref('limitCounters.count')} + ${size} end`,
        windowStart: day,
      }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  if (Number(row.count) <= dailyMb * 1024) return true;
  await db
    .updateTable('limitCounters')
    .set({ count: sql<number>`count - ${size}` })
    .where('key', '=', keyOf(now))
    .execute();
  return false;
}
