import { createRequire } from 'node:module';
import type Holidays from 'date-holidays';
import { sql, type Kysely } from 'kysely';
import type { BusinessCalendar } from '../../../domain/business-hours.ts';
import { BLANK_CLOCK, nextClock, type ClockColumns } from '../../../domain/incident-clock.ts';
import type { ResponseTimes } from '../../../domain/response-times.ts';
import { isIncidentPriority, isIncidentState } from '../../../domain/incidents.ts';
import { isPostgres } from '../engine.ts';
import { timestampType } from './helpers.ts';

/**
 * The business-hours clock (issue 22, docs/decisions/0017, src/domain/incident-clock.ts):
 *
 * - `desk_settings`: one row per setting, its value JSON; 'tiempos-de-respuesta' holds the targets per
 *   priority and the business hours (absent: the defaults).
 * - on `incidents`, the stored clock: whether it started, the running stretch's start, the time counted
 *   per target (whole seconds), the first reply, each target's due time while it runs (`due_at` the
 *   nearer, 'Vence'), whether each target was met and when the clock stopped at 'Resuelto'. Indexed
 *   by `due_at` (the list's 'Vencidas' / 'Vencen hoy'), by each due time (the overdue timer), and by
 *   the first reply and the stop (the dashboard's '% dentro del plazo').
 * - `incident_clock_alerts`: the one overdue mail per incident and target; its primary key is what
 *   makes it one, whichever process of several gets there first.
 *
 * Existing incidents: the open ones are clocked from their creation (and their first staff reply) with
 * the default settings, as if the clock had always run; a target already past now is recorded as
 * alerted, so that the deploy does not mail every old incident at once (the list shows them red). The
 * ones resolved in the last 60 days get whether they met their targets (the dashboard's two periods);
 * older ones only start their clock.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('desk_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .execute();
  const columns: Array<[string, 'boolean' | 'integer' | typeof ts, boolean?]> = [
    ['clock_started', 'boolean'],
    ['clock_since', ts],
    ['first_reply_at', ts],
    ['first_reply_used_s', 'integer'],
    ['resolution_used_s', 'integer'],
    ['first_reply_due_at', ts],
    ['resolution_due_at', ts],
    ['due_at', ts],
    ['first_reply_met', 'boolean', true],
    ['resolution_met', 'boolean', true],
    ['clock_resolved_at', ts],
  ];
  for (const [name, type, nullable] of columns)
    await db.schema
      .alterTable('incidents')
      .addColumn(name, type, (c) =>
        type === 'boolean' && !nullable
          ? c.notNull().defaultTo(false)
          : type === 'integer'
            ? c.notNull().defaultTo(0)
            : c,
      )
      .execute();
  for (const column of [
    'due_at',
    'first_reply_due_at',
    'resolution_due_at',
    'first_reply_at',
    'clock_resolved_at',
  ])
    await db.schema.createIndex(`incidents_${column}_idx`).on('incidents').column(column).execute();
  await db.schema
    .createTable('incident_clock_alerts')
    .addColumn('incident_id', 'integer', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('due_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('incident_clock_alerts_pk', ['incident_id', 'target'])
    .execute();

  await backfill(db);
}

/**
 * The settings this migration clocked the existing incidents with, frozen here (issue 40): the
 * defaults of 'Tiempos de respuesta' when it was written (src/domain/response-times.ts then). A later
 * change of those defaults, or of how the live clock builds its calendar
 * (src/server/incidents/clock-calendar.ts), must not change what running it does.
 */
const RESPONSE_TIMES: ResponseTimes = {
  targets: {
    Urgente: { 'primera-respuesta': { amount: 1, unit: 'h' }, resolucion: { amount: 8, unit: 'h' } },
    Alta: { 'primera-respuesta': { amount: 4, unit: 'h' }, resolucion: { amount: 2, unit: 'd' } },
    Normal: { 'primera-respuesta': { amount: 8, unit: 'h' }, resolucion: { amount: 5, unit: 'd' } },
    Baja: { 'primera-respuesta': { amount: 2, unit: 'd' }, resolucion: { amount: 10, unit: 'd' } },
  },
  week: [
    null,
    { from: '08:00', to: '18:00' },
    { from: '08:00', to: '18:00' },
    { from: '08:00', to: '18:00' },
    { from: '08:00', to: '18:00' },
    { from: '08:00', to: '18:00' },
    { from: '08:00', to: '12:00' },
  ],
  timeZone: 'America/Santo_Domingo',
};

/**
 * Those hours as the clock counts them (minutes of the day, Sunday first), closed on the Dominican
 * public holidays of the `date-holidays` package (country 'DO', type 'public'), each year worked out once.
 */
function frozenCalendar(): BusinessCalendar {
  const library = new (createRequire(import.meta.url)('date-holidays') as typeof Holidays)('DO');
  const byYear = new Map<number, Set<string>>();
  const open: [number, number] = [8 * 60, 18 * 60];
  return {
    week: [null, open, open, open, open, open, [8 * 60, 12 * 60]],
    timeZone: RESPONSE_TIMES.timeZone,
    isHoliday: (ymd) => {
      const year = Number(ymd.slice(0, 4));
      let days = byYear.get(year);
      if (!days) {
        days = new Set(
          (library.getHolidays(year) || [])
            .filter((holiday) => holiday.type === 'public')
            .map((holiday) => holiday.date.slice(0, 10)),
        );
        byYear.set(year, days);
      }
      return days.has(ymd);
    },
  };
}

const iso = (value: unknown) =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();

async function backfill(db: Kysely<any>): Promise<void> {
  const now = new Date();
  const calendar = frozenCalendar();
  const since60 = new Date(now.getTime() - 60 * 24 * 3_600_000).toISOString();
  const rows = (
    await sql<{
      id: number;
      estado: string;
      prioridad: string;
      fecha: unknown;
      firstReply: unknown;
      lastResolved: unknown;
    }>`
      select i.id, i.estado, i.prioridad, i.fecha,
        (select min(r.created_at) from incident_entries r where r.incident_id = i.id and r.kind = 'reply') as "firstReply",
        (select max(e.fecha) from incident_events e where e.incident_id = i.id and e.estado = 'Resuelto') as "lastResolved"
      from incidents i`.execute(db)
  ).rows;
  const postgres = isPostgres(db);
  const bool = (value: boolean | null) => (value === null ? null : postgres ? value : value ? 1 : 0);
  for (const row of rows) {
    const fecha = iso(row.fecha)!;
    const prioridad = isIncidentPriority(row.prioridad) ? row.prioridad : 'Normal';
    const estado = isIncidentState(row.estado) ? row.estado : 'Registrado';
    const lastResolved = iso(row.lastResolved);
    const firstReply = iso(row.firstReply);
    let clock: ClockColumns = BLANK_CLOCK;
    const open = estado !== 'Resuelto';
    if (open || (lastResolved && lastResolved >= since60)) {
      const stop = open ? now : new Date(lastResolved!);
      // Running since its creation, as a new incident's clock is.
      clock = nextClock(
        { ...clock, estado: 'Registrado', prioridad, fecha },
        {},
        new Date(fecha),
        RESPONSE_TIMES,
        calendar,
      );
      if (firstReply && firstReply <= stop.toISOString())
        clock = nextClock(
          { ...clock, estado: 'En Proceso', prioridad, fecha },
          { reply: true },
          new Date(firstReply),
          RESPONSE_TIMES,
          calendar,
        );
      clock = nextClock({ ...clock, estado, prioridad, fecha }, {}, stop, RESPONSE_TIMES, calendar);
    } else {
      clock = { ...clock, clockStarted: true };
    }
    await sql`update incidents set clock_started = ${bool(true)}, clock_since = ${clock.clockSince},
        first_reply_at = ${clock.firstReplyAt}, first_reply_used_s = ${clock.firstReplyUsedS},
        resolution_used_s = ${clock.resolutionUsedS}, first_reply_due_at = ${clock.firstReplyDueAt},
        resolution_due_at = ${clock.resolutionDueAt}, due_at = ${clock.dueAt},
        first_reply_met = ${bool(clock.firstReplyMet)}, resolution_met = ${bool(clock.resolutionMet)},
        clock_resolved_at = ${clock.clockResolvedAt}
      where id = ${row.id}`.execute(db);
    for (const [target, due] of [
      ['primera-respuesta', clock.firstReplyDueAt],
      ['resolucion', clock.resolutionDueAt],
    ] as const)
      if (due && due <= now.toISOString())
        await sql`insert into incident_clock_alerts (incident_id, target, due_at, created_at)
          values (${row.id}, ${target}, ${due}, ${now.toISOString()})`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('incident_clock_alerts').ifExists().execute();
  for (const column of [
    'due_at',
    'first_reply_due_at',
    'resolution_due_at',
    'first_reply_at',
    'clock_resolved_at',
  ])
    await db.schema.dropIndex(`incidents_${column}_idx`).ifExists().execute();
  for (const column of [
    'clock_resolved_at',
    'resolution_met',
    'first_reply_met',
    'due_at',
    'resolution_due_at',
    'first_reply_due_at',
    'resolution_used_s',
    'first_reply_used_s',
    'first_reply_at',
    'clock_since',
    'clock_started',
  ])
    await db.schema.alterTable('incidents').dropColumn(column).execute();
  await db.schema.dropTable('desk_settings').ifExists().execute();
}
