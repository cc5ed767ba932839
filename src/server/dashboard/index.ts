/**
 * The staff home's charts (issue 12): page views per day, incidents opened and resolved per week, and
 * the median resolution time. Every number is aggregated in SQL (a few short queries, the same on
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
import { sql } from 'kysely';
import { utcDay, utcMonday } from 'd3-time';
import {
  INCIDENT_WEEKS,
  RESOLUTION_PERIOD_DAYS,
  RATING_PERIOD_DAYS,
  VISIT_DAYS,
  type DashboardCharts,
  type RatingSummary,
  type DayVisits,
  type ResolutionPeriod,
  type WeekIncidents,
} from '../../domain/dashboard.ts';
import { TIME_ZONE } from '../../domain/dates.ts';
import { localDay } from '../analytics/index.ts';
import type { Db } from '../db/index.ts';
import { isPostgres } from '../db/index.ts';

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
  // One statement of index range counts, one per week and column: cheaper than bucketing every row.
  const counts = (column: 'fecha' | 'resolved_at') =>
    mondays.map(
      (_, index) =>
        sql`(select count(*) from incidents where ${sql.ref(column)} >= ${limits[index]!} and ${sql.ref(column)} < ${limits[index + 1]!})`,
    );
  const columns = [...counts('fecha'), ...counts('resolved_at')].map(
    (count, index) => sql`${count} as ${sql.ref(`c${index}`)}`,
  );
  const { rows } = await sql<Record<string, number>>`select ${sql.join(columns)}`.execute(db);
  const row = rows[0] ?? {};
  const total = (index: number) => Number(row[`c${index}`] ?? 0);
  return mondays.map((monday, index) => ({
    week: calendarDay(monday),
    opened: total(index),
    resolved: total(weeks + index),
  }));
}

/**
 * The median time to the first resolution over the last {@link RESOLUTION_PERIOD_DAYS} days (today
 * included) and over the same number of days before them, taken in SQL: how many each period has, then
 * its middle row (or the two middle rows, averaged) of the durations in order. Both engines run this;
 * PostgreSQL's `percentile_cont` has no SQLite counterpart, and window functions (row_number over the
 * whole period) cost SQLite three times as much as this sort with LIMIT/OFFSET.
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
    ? sql<number>`extract(epoch from (resolved_at - fecha))`
    : sql<number>`(julianday(resolved_at) - julianday(fecha)) * 86400.0`;
  const median = async (
    from: string,
    to: string,
  ): Promise<{ medianSeconds: number | null; resolved: number }> => {
    const counted = await sql<{ total: number }>`
      select count(*) as total from incidents where resolved_at >= ${from} and resolved_at < ${to}`.execute(
      db,
    );
    const resolved = Number(counted.rows[0]?.total ?? 0);
    if (resolved === 0) return { medianSeconds: null, resolved };
    const { rows } = await sql<{ median: number }>`
      select avg(seconds) as median from (
        select ${seconds} as seconds from incidents where resolved_at >= ${from} and resolved_at < ${to}
        order by 1 limit ${sql.lit(resolved % 2 ? 1 : 2)} offset ${sql.lit(Math.floor((resolved - 1) / 2))}
      ) as middle`.execute(db);
    return { medianSeconds: Math.round(Number(rows[0]?.median)), resolved };
  };
  const [current, previous] = await Promise.all([median(middle, stop), median(start, middle)]);
  return {
    current: { from: calendarDay(currentFrom), to: calendarDay(today), ...current },
    previous: {
      from: calendarDay(previousFrom),
      to: calendarDay(utcDay.offset(currentFrom, -1)),
      ...previous,
    },
  };
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

/** Comments shown behind 'Ver comentarios' at most (the newest). */
const RATING_COMMENTS_SHOWN = 50;

/**
 * The customers' ratings (issue 22) of the last {@link RATING_PERIOD_DAYS} days up to `now`: count,
 * average, share of 4 and 5, and the newest comments. Ratings are read by their `rated_at`, indexed
 * (migration 0028; ISO text on both engines, so the comparison is the same on each).
 */
export async function ratingSummary(db: Db, now: Date = new Date()): Promise<RatingSummary> {
  const from = new Date(now.getTime() - RATING_PERIOD_DAYS * 24 * 60 * 60 * 1000).toISOString();
  const to = now.toISOString();
  const [totals, comments] = await Promise.all([
    db
      .selectFrom('incidentRatings')
      .select((eb) => [
        eb.fn.countAll<number>().as('count'),
        eb.fn.sum<number>('valor').as('total'),
        eb.fn.sum<number>(eb.case().when('valor', '>=', 4).then(1).else(0).end()).as('satisfied'),
      ])
      .where('ratedAt', '>=', from)
      .where('ratedAt', '<=', to)
      .executeTakeFirst(),
    db
      .selectFrom('incidentRatings')
      .innerJoin('incidents', 'incidents.id', 'incidentRatings.incidentId')
      .select([
        'incidents.numeroIncidencia',
        'incidentRatings.valor',
        'incidentRatings.comentario',
        'incidentRatings.ratedAt',
      ])
      .where('incidentRatings.ratedAt', '>=', from)
      .where('incidentRatings.ratedAt', '<=', to)
      .where('incidentRatings.comentario', 'is not', null)
      .orderBy('incidentRatings.ratedAt', 'desc')
      .limit(RATING_COMMENTS_SHOWN)
      .execute(),
  ]);
  const count = Number(totals?.count ?? 0);
  return {
    count,
    average: count ? Number(totals?.total ?? 0) / count : null,
    satisfied: count ? Number(totals?.satisfied ?? 0) / count : null,
    comments: comments.map((row) => ({
      numeroIncidencia: row.numeroIncidencia,
      valor: Number(row.valor),
      texto: row.comentario ?? '',
      fecha: row.ratedAt!,
    })),
  };
}
