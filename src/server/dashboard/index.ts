/**
 * The staff home's charts (issue 12): page views per day, incidents opened and resolved per week, and
 * the median resolution time. Every number is aggregated in SQL (one short query each, the same on
 * both engines but for the one expression noted), then laid on the full calendar here so that a day or
 * a week without data is a zero, not a gap.
 *
 * Days and weeks are Santo Domingo's (weeks start on Monday). Their limits are computed here, as UTC
 * instants, from the zone's calendar, and the queries only compare stored times with them: no engine
 * time-zone function is involved, so SQLite and PostgreSQL put every row in the same bucket.
 *
 * A resolution is the first time an incident reaches 'Resuelto' (a reopened incident resolved again
 * is not counted twice, and a past week's figure never changes): the incident's `resolved_at`,
 * indexed with its `fecha` (migration 0019), so each query reads one index range. Its time is measured
 * from the incident's creation, its 'Registrado' entry.
 */
import { sql, type RawBuilder } from 'kysely';
import { utcDay, utcMonday } from 'd3-time';
import {
  INCIDENT_WEEKS,
  RESOLUTION_PERIOD_DAYS,
  VISIT_DAYS,
  type DashboardCharts,
  type DayVisits,
  type ResolutionPeriod,
  type WeekIncidents,
} from '../../domain/dashboard.ts';
import { TIME_ZONE } from '../../domain/dates.ts';
import { localDay } from '../analytics/index.ts';
import type { Db } from '../db/index.ts';
import { isPostgres } from '../db/engine.ts';

const WALL_CLOCK = new Intl.DateTimeFormat('en-US', {
  timeZone: TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** The zone's offset from UTC at `instant`, in milliseconds (negative west of Greenwich). */
function zoneOffset(instant: number): number {
  const parts = Object.fromEntries(
    WALL_CLOCK.formatToParts(instant).map((part) => [part.type, Number(part.value)]),
  );
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * A calendar day of Santo Domingo as a UTC `Date` at midnight (d3-time's UTC intervals then walk the
 * zone's calendar), and back.
 */
const calendarDate = (day: string) => new Date(`${day}T00:00:00Z`);
const calendarDay = (date: Date) => date.toISOString().slice(0, 10);

/** The UTC instant (ISO 8601) at which a calendar day (given as {@link calendarDate}) starts in Santo Domingo. */
export function dayStart(date: Date): string {
  const guess = date.getTime();
  return new Date(guess - zoneOffset(guess - zoneOffset(guess))).toISOString();
}

/** `case when t < limit1 then 0 when t < limit2 then 1 … end`: the bucket of a time among ordered limits. */
function bucketOf(column: RawBuilder<unknown>, limits: string[]): RawBuilder<number> {
  const branches = limits
    .slice(1)
    .map((limit, index) => sql`when ${column} < ${limit} then ${sql.lit(index)}`);
  return sql<number>`case ${sql.join(branches, sql` `)} else ${sql.lit(limits.length - 1)} end`;
}

/** Page views per day over the last {@link VISIT_DAYS} days, today included; 0 for a day without views. */
export async function visitsPerDay(db: Db, now: Date = new Date(), days = VISIT_DAYS): Promise<DayVisits[]> {
  const today = calendarDate(localDay(now));
  const calendar = utcDay.range(utcDay.offset(today, 1 - days), utcDay.offset(today, 1)).map(calendarDay);
  const rows = await db
    .selectFrom('pageViews')
    .select(['day', (eb) => eb.fn.sum<number>('count').as('views')])
    .where('day', '>=', calendar[0]!)
    .where('day', '<=', calendar.at(-1)!)
    .groupBy('day')
    .execute();
  const byDay = new Map(rows.map((row) => [row.day, Number(row.views)]));
  return calendar.map((day) => ({ day, views: byDay.get(day) ?? 0 }));
}

/** Incidents opened, and first resolved, per week over the last {@link INCIDENT_WEEKS} weeks; 0 for a quiet week. */
export async function incidentsPerWeek(
  db: Db,
  now: Date = new Date(),
  weeks = INCIDENT_WEEKS,
): Promise<WeekIncidents[]> {
  const thisWeek = utcMonday.floor(calendarDate(localDay(now)));
  const mondays = utcMonday.range(utcMonday.offset(thisWeek, 1 - weeks), utcMonday.offset(thisWeek, 1));
  // Where each week starts, plus where the last one ends.
  const limits = [...mondays, utcMonday.offset(thisWeek, 1)].map(dayStart);
  const from = limits[0]!;
  const to = limits.at(-1)!;
  const weekLimits = limits.slice(0, -1);
  const [opened, resolved] = await Promise.all([
    sql<{ bucket: number; total: number }>`
      select ${bucketOf(sql.ref('fecha'), weekLimits)} as bucket, count(*) as total
      from incidents where fecha >= ${from} and fecha < ${to} group by 1`.execute(db),
    sql<{ bucket: number; total: number }>`
      select ${bucketOf(sql.ref('resolved_at'), weekLimits)} as bucket, count(*) as total
      from incidents where resolved_at >= ${from} and resolved_at < ${to} group by 1`.execute(db),
  ]);
  const count = (rows: { bucket: number; total: number }[]) =>
    new Map(rows.map((row) => [Number(row.bucket), Number(row.total)]));
  const openedBy = count(opened.rows);
  const resolvedBy = count(resolved.rows);
  return mondays.map((monday, index) => ({
    week: calendarDay(monday),
    opened: openedBy.get(index) ?? 0,
    resolved: resolvedBy.get(index) ?? 0,
  }));
}

/**
 * The median time to the first resolution over the last {@link RESOLUTION_PERIOD_DAYS} days (today
 * included) and over the same number of days before them. The median is taken in SQL with window
 * functions (both engines have them; neither SQLite nor every PostgreSQL query has a median aggregate
 * that the other shares): the middle row, or the mean of the two middle rows.
 */
export async function resolutionTimes(
  db: Db,
  now: Date = new Date(),
  days = RESOLUTION_PERIOD_DAYS,
): Promise<{ current: ResolutionPeriod; previous: ResolutionPeriod }> {
  const today = calendarDate(localDay(now));
  const currentFrom = utcDay.offset(today, 1 - days);
  const previousFrom = utcDay.offset(currentFrom, -days);
  const end = utcDay.offset(today, 1);
  const [start, middle, stop] = [previousFrom, currentFrom, end].map(dayStart) as [string, string, string];
  // The one expression the engines say differently: seconds between two stored times.
  const seconds = isPostgres(db)
    ? sql`extract(epoch from (resolved_at - fecha))`
    : sql`(julianday(resolved_at) - julianday(fecha)) * 86400.0`;
  const { rows } = await sql<{ period: number; median: number; resolved: number }>`
    with durations as (
      select case when resolved_at >= ${middle} then 0 else 1 end as period, ${seconds} as seconds
      from incidents where resolved_at >= ${start} and resolved_at < ${stop}
    ), ranked as (
      select period, seconds,
        row_number() over (partition by period order by seconds) as position,
        count(*) over (partition by period) as resolved
      from durations
    )
    select period, avg(seconds) as median, max(resolved) as resolved from ranked
    where position in ((resolved + 1) / 2, (resolved + 2) / 2)
    group by period`.execute(db);
  const period = (index: number, from: Date, to: Date): ResolutionPeriod => {
    const row = rows.find((item) => Number(item.period) === index);
    return {
      from: calendarDay(from),
      to: calendarDay(utcDay.offset(to, -1)),
      medianSeconds: row ? Math.round(Number(row.median)) : null,
      resolved: row ? Number(row.resolved) : 0,
    };
  };
  return { current: period(0, currentFrom, end), previous: period(1, previousFrom, currentFrom) };
}

/** Everything the charts of the staff home show, read in parallel. */
export async function loadDashboardCharts(db: Db, now: Date = new Date()): Promise<DashboardCharts> {
  const [visits, weeks, resolution] = await Promise.all([
    visitsPerDay(db, now),
    incidentsPerWeek(db, now),
    resolutionTimes(db, now),
  ]);
  return { visits, weeks, resolution };
}
