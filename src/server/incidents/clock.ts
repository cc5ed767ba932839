/**
 * The business-hours clock of the desk (issue 22, docs/decisions/0017): its settings ('Tiempos de
 * respuesta', `desk_settings`), the stored clock of each incident kept in the transaction of every
 * change that moves it (src/server/incidents/activity.ts calls {@link syncClock}), and the overdue
 * mails: one per incident and target, queued in the mail outbox by a timer of every server process.
 *
 * The overdue mail is made once by its row in `incident_clock_alerts` (primary key incident + target),
 * inserted in the transaction that queues the mail: two processes of one PostgreSQL database cannot
 * both insert it (the second waits for the first's commit, then inserts nothing), and a crash before
 * the commit leaves neither the row nor the mail, so the next round makes both.
 */
import { sql, type Transaction } from 'kysely';
import { localDate } from '../../domain/business-hours.ts';
import {
  BLANK_CLOCK,
  clockViews,
  nextClock,
  type ClockColumns,
  type ClockEvent,
  type ClockSubject,
  type ClockView,
} from '../../domain/incident-clock.ts';
import {
  DEFAULT_PRIORITY,
  INITIAL_STATE,
  isIncidentPriority,
  isIncidentState,
  type IncidentPriority,
  type IncidentState,
} from '../../domain/incidents.ts';
import {
  CLOCK_TARGETS,
  responseTimesFrom,
  type ClockTarget,
  type ResponseTimes,
} from '../../domain/response-times.ts';
import { TZDate } from '@date-fns/tz';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import { isPostgres } from '../db/index.ts';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/index.ts';
import { incidentOverdueMail } from '../mail/index.ts';
import { enqueueMail } from '../mail/index.ts';
import type { MailBrand } from '../mail/index.ts';
import { isCurrentStaff } from './staff-list.ts';
import { calendarOf } from './clock-calendar.ts';

export const RESPONSE_TIMES_KEY = 'tiempos-de-respuesta';

type Reader = Db | Transaction<Database>;

/** 'Tiempos de respuesta' as stored (the defaults for anything missing or wrong). */
export async function loadResponseTimes(db: Reader): Promise<ResponseTimes> {
  const row = await db
    .selectFrom('deskSettings')
    .select('value')
    .where('key', '=', RESPONSE_TIMES_KEY)
    .executeTakeFirst();
  if (!row) return responseTimesFrom(null);
  try {
    return responseTimesFrom(JSON.parse(row.value));
  } catch {
    return responseTimesFrom(null);
  }
}

const CLOCK_COLUMNS = [
  'clockStarted',
  'clockSince',
  'firstReplyAt',
  'firstReplyUsedS',
  'resolutionUsedS',
  'firstReplyDueAt',
  'resolutionDueAt',
  'dueAt',
  'firstReplyMet',
  'resolutionMet',
  'clockResolvedAt',
] as const;

type ClockRow = { [K in (typeof CLOCK_COLUMNS)[number]]: unknown } & {
  estado: string;
  prioridad: string;
  fecha: string;
};

/** A stored row as the clock reads it. */
export function clockSubject(row: ClockRow): ClockSubject {
  const flag = (value: unknown) => (value === null || value === undefined ? null : Boolean(value));
  return {
    estado: (isIncidentState(row.estado) ? row.estado : 'Registrado') as IncidentState,
    prioridad: (isIncidentPriority(row.prioridad) ? row.prioridad : 'Normal') as IncidentPriority,
    fecha: row.fecha,
    clockStarted: Boolean(row.clockStarted),
    clockSince: (row.clockSince as string | null) ?? null,
    firstReplyAt: (row.firstReplyAt as string | null) ?? null,
    firstReplyUsedS: Number(row.firstReplyUsedS) || 0,
    resolutionUsedS: Number(row.resolutionUsedS) || 0,
    firstReplyDueAt: (row.firstReplyDueAt as string | null) ?? null,
    resolutionDueAt: (row.resolutionDueAt as string | null) ?? null,
    dueAt: (row.dueAt as string | null) ?? null,
    firstReplyMet: flag(row.firstReplyMet),
    resolutionMet: flag(row.resolutionMet),
    clockResolvedAt: (row.clockResolvedAt as string | null) ?? null,
  };
}

/** The stored clock of a row, without the incident's own fields (`npm run data`'s export). */
export function clockColumnsOf(row: ClockRow): ClockColumns {
  const { estado: _estado, prioridad: _prioridad, fecha: _fecha, ...columns } = clockSubject(row);
  return columns;
}

/** The columns to write, booleans as the engine stores them. */
export function clockValues(db: Reader, clock: ClockColumns & { alerts?: unknown }) {
  const flag = (value: boolean | null) => (value === null ? null : isPostgres(db) ? value : Number(value));
  const { alerts: _alerts, ...columns } = clock;
  return {
    ...columns,
    clockStarted: flag(clock.clockStarted)!,
    firstReplyMet: flag(clock.firstReplyMet),
    resolutionMet: flag(clock.resolutionMet),
  };
}

/**
 * Moves the incident's clock for what just happened (its state is already the new one), in the
 * caller's transaction: a staff reply (`reply`), a state or priority change, the customer's answer.
 */
export async function syncClock(
  trx: Transaction<Database>,
  incidentId: number,
  event: ClockEvent,
  now: Date,
): Promise<void> {
  const row = await trx
    .selectFrom('incidents')
    .select(['estado', 'prioridad', 'fecha', ...CLOCK_COLUMNS])
    .where('id', '=', incidentId)
    .executeTakeFirst();
  if (!row) return;
  const times = await loadResponseTimes(trx);
  const next = nextClock(clockSubject(row), event, now, times, calendarOf(times));
  await trx.updateTable('incidents').set(clockValues(trx, next)).where('id', '=', incidentId).execute();
}

/** The clock of an incident created at `now` ('Registrado', 'Normal'), as the columns of its insert. */
export async function startingClock(trx: Transaction<Database>, fecha: string, now: Date) {
  const times = await loadResponseTimes(trx);
  const subject: ClockSubject = { ...BLANK_CLOCK, estado: INITIAL_STATE, prioridad: DEFAULT_PRIORITY, fecha };
  return clockValues(trx, nextClock(subject, {}, now, times, calendarOf(times)));
}

/** Both clocks of an incident for its page, with the settings they are counted against. */
export async function incidentClocks(
  db: Db,
  incidentId: number,
  now: Date = new Date(),
): Promise<{ clocks: ClockView[]; times: ResponseTimes } | null> {
  const row = await db
    .selectFrom('incidents')
    .select(['estado', 'prioridad', 'fecha', ...CLOCK_COLUMNS])
    .where('id', '=', incidentId)
    .executeTakeFirst();
  if (!row) return null;
  const times = await loadResponseTimes(db);
  return { clocks: clockViews(clockSubject(row), now, times, calendarOf(times)), times };
}

/** The end of the local day of `now` in the clock's time zone (ISO UTC): 'Vencen hoy'. */
export function endOfLocalDay(now: Date, timeZone: string): string {
  const [y, m, d] = localDate(now, timeZone).split('-').map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d + 1, 0, 0, 0, timeZone).getTime()).toISOString();
}

/**
 * Saves 'Tiempos de respuesta' and, in the same transaction, recounts every running clock with them
 * (the time counted so far stays; the due times follow the new targets and hours).
 */
export async function saveResponseTimes(
  db: Db,
  times: ResponseTimes,
  actor: AuditActor,
  now: Date = new Date(),
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const value = JSON.stringify(times);
    await trx
      .insertInto('deskSettings')
      .values({
        key: RESPONSE_TIMES_KEY,
        value,
        updatedAt: now.toISOString(),
        updatedBy: actor.actorEmail ?? null,
      })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({ value, updatedAt: now.toISOString(), updatedBy: actor.actorEmail ?? null }),
      )
      .execute();
    const calendar = calendarOf(times);
    const running = await trx
      .selectFrom('incidents')
      .select(['id', 'estado', 'prioridad', 'fecha', ...CLOCK_COLUMNS])
      .where('clockSince', 'is not', null)
      .execute();
    for (const row of running) {
      const next = nextClock(clockSubject(row), {}, now, times, calendar);
      await trx.updateTable('incidents').set(clockValues(trx, next)).where('id', '=', row.id).execute();
    }
    await recordEvent(trx, { ...actor, action: 'response-times.changed', subject: null, detail: null }, now);
    return running.length;
  });
}

/** How many overdue mails one round queues at most (the rest wait for the next round). */
const ALERTS_PER_ROUND = 50;

export interface OverdueOptions {
  brand: MailBrand;
  staffInbox: string;
  staffEmails: readonly string[];
}

/**
 * Queues the overdue mail of every target past its due time that has none yet: to the assignee when
 * they are staff, else to `staffInbox`. Safe to run from several processes at once (see the module's
 * comment). Returns how many it queued.
 */
export async function queueOverdueAlerts(
  db: Db,
  options: OverdueOptions,
  now: Date = new Date(),
): Promise<number> {
  const at = now.toISOString();
  let queued = 0;
  for (const target of CLOCK_TARGETS) {
    const column = target === 'primera-respuesta' ? 'firstReplyDueAt' : 'resolutionDueAt';
    const due = await db
      .selectFrom('incidents')
      .select(['incidents.id', `incidents.${column} as dueAt`])
      .where(`incidents.${column}`, '<=', at)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('incidentClockAlerts')
              .select(sql`1`.as('one'))
              .whereRef('incidentClockAlerts.incidentId', '=', 'incidents.id')
              .where('incidentClockAlerts.target', '=', target),
          ),
        ),
      )
      .orderBy(`incidents.${column}`)
      .limit(ALERTS_PER_ROUND)
      .execute();
    for (const candidate of due) if (await alertOnce(db, candidate.id, target, options, now)) queued += 1;
  }
  return queued;
}

/** One incident's overdue mail for one target, in one transaction with its alert row; false when another got there first. */
async function alertOnce(
  db: Db,
  incidentId: number,
  target: ClockTarget,
  options: OverdueOptions,
  now: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const column = target === 'primera-respuesta' ? 'firstReplyDueAt' : 'resolutionDueAt';
    // Read again in the transaction: a reply or a pause since the look-up takes the target out.
    const incident = await trx
      .selectFrom('incidents')
      .leftJoin('user', 'user.id', 'incidents.assignedTo')
      .select([
        'incidents.numeroIncidencia',
        'incidents.nombre',
        'incidents.prioridad',
        `incidents.${column} as dueAt`,
        'user.email as assigneeEmail',
        'user.name as assigneeName',
      ])
      .where('incidents.id', '=', incidentId)
      .executeTakeFirst();
    if (!incident?.dueAt || incident.dueAt > now.toISOString()) return false;
    const inserted = await trx
      .insertInto('incidentClockAlerts')
      .values({ incidentId, target, dueAt: incident.dueAt, createdAt: now.toISOString() })
      .onConflict((oc) => oc.columns(['incidentId', 'target']).doNothing())
      .returning('incidentId')
      .executeTakeFirst();
    if (!inserted) return false;
    const assignee =
      incident.assigneeEmail && isCurrentStaff(incident.assigneeEmail, options.staffEmails)
        ? { email: incident.assigneeEmail, name: incident.assigneeName ?? '' }
        : null;
    await enqueueMail(
      trx,
      {
        kind: 'incident.overdue',
        ...incidentOverdueMail(options.brand, assignee ?? { email: options.staffInbox, name: '' }, {
          numeroIncidencia: incident.numeroIncidencia,
          nombre: incident.nombre,
          prioridad: incident.prioridad,
          target,
          dueAt: incident.dueAt,
        }),
      },
      now,
    );
    return true;
  });
}

/** Every `intervalMs` at most: the overdue check of a server's background loop (src/server/startup.ts). */
export function overdueChecker(
  db: Db,
  options: () => OverdueOptions,
  intervalMs: number,
): () => Promise<number> {
  let last = 0;
  return async () => {
    if (Date.now() - last < intervalMs) return 0;
    last = Date.now();
    return queueOverdueAlerts(db, options());
  };
}

/** '% dentro del plazo' of one period: targets reached or missed in it. */
export interface OnTimePeriod {
  met: number;
  total: number;
}

export const ON_TIME_PERIOD_DAYS = 30;

/**
 * '% dentro del plazo' for the last 30 days and the 30 before: every first reply and resolution reached
 * in the period (met or not), plus every target that came due in it and is still open (missed).
 */
export async function onTimeSummary(
  db: Db,
  now: Date = new Date(),
): Promise<{ current: OnTimePeriod; previous: OnTimePeriod }> {
  const day = 24 * 3_600_000;
  const period = async (from: Date, to: Date): Promise<OnTimePeriod> => {
    const [a, b] = [from.toISOString(), to.toISOString()];
    const reached = (at: 'firstReplyAt' | 'clockResolvedAt', met: 'firstReplyMet' | 'resolutionMet') =>
      db
        .selectFrom('incidents')
        .select((eb) => [
          eb.fn.countAll<number>().as('total'),
          sql<number>`sum(case when ${sql.ref(met)} then 1 else 0 end)`.as('met'),
        ])
        .where(at, '>=', a)
        .where(at, '<', b)
        .where(met, 'is not', null)
        .executeTakeFirst();
    const missedOpen = (column: 'firstReplyDueAt' | 'resolutionDueAt') =>
      db
        .selectFrom('incidents')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where(column, '>=', a)
        .where(column, '<', b)
        .where(column, '<=', now.toISOString())
        .executeTakeFirst();
    const [replies, resolutions, openReplies, openResolutions] = await Promise.all([
      reached('firstReplyAt', 'firstReplyMet'),
      reached('clockResolvedAt', 'resolutionMet'),
      missedOpen('firstReplyDueAt'),
      missedOpen('resolutionDueAt'),
    ]);
    const met = Number(replies?.met ?? 0) + Number(resolutions?.met ?? 0);
    const total =
      Number(replies?.total ?? 0) +
      Number(resolutions?.total ?? 0) +
      Number(openReplies?.total ?? 0) +
      Number(openResolutions?.total ?? 0);
    return { met, total };
  };
  const start = new Date(now.getTime() - ON_TIME_PERIOD_DAYS * day);
  const [current, previous] = await Promise.all([
    period(start, new Date(now.getTime() + 1)),
    period(new Date(start.getTime() - ON_TIME_PERIOD_DAYS * day), start),
  ]);
  return { current, previous };
}
