import { sql, type Kysely } from 'kysely';
import { BLANK_CLOCK, nextClock, type ClockColumns } from '../../../domain/incident-clock.ts';
import { DEFAULT_RESPONSE_TIMES } from '../../../domain/response-times.ts';
import { isIncidentPriority, isIncidentState } from '../../../domain/incidents.ts';
import { calendarOf } from '../../incidents/index.ts';
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

const iso = (value: unknown) =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();

async function backfill(db: Kysely<any>): Promise<void> {
  const now = new Date();
  const calendar = calendarOf(DEFAULT_RESPONSE_TIMES);
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
        DEFAULT_RESPONSE_TIMES,
        calendar,
      );
      if (firstReply && firstReply <= stop.toISOString())
        clock = nextClock(
          { ...clock, estado: 'En Proceso', prioridad, fecha },
          { reply: true },
          new Date(firstReply),
          DEFAULT_RESPONSE_TIMES,
          calendar,
        );
      clock = nextClock({ ...clock, estado, prioridad, fecha }, {}, stop, DEFAULT_RESPONSE_TIMES, calendar);
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
