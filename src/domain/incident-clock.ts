/**
 * An incident's two clocks (issue 22): the first reply and the resolution, each counted in business
 * hours against its priority's target ('Tiempos de respuesta'). Pure: given the stored clock, what
 * happened and when, it answers the clock to store (src/server/incidents/clock.ts writes it in the
 * transaction of the change; migration 0031 fills it for the incidents that existed before).
 *
 * The clock runs in every state but 'Esperando al cliente' (paused until the customer answers) and
 * 'Resuelto' (stopped; a reopened incident runs again from the time already counted). Time is counted
 * in whole seconds per running stretch (`usedS`); while running, the due times are stored, so the
 * list can filter and sort by them: `dueAt` is the nearer of the two ('Vence'). The first reply is the
 * first staff reply to the customer; resolving an incident nobody answered counts as its first reply.
 */
import { addBusinessMs, businessMsBetween, type BusinessCalendar } from './business-hours.ts';
import { WAITING_STATE, type IncidentPriority, type IncidentState } from './incidents.ts';
import { targetMs, type ClockTarget, type ResponseTimes } from './response-times.ts';

/** The stored clock of an incident (migration 0031); times ISO 8601 UTC. */
export interface ClockColumns {
  /** False for a row stored without a clock (before 0031's backfill, an import): it starts at its creation. */
  clockStarted: boolean;
  /** When the current running stretch began; null while paused or stopped. */
  clockSince: string | null;
  firstReplyAt: string | null;
  firstReplyUsedS: number;
  resolutionUsedS: number;
  firstReplyDueAt: string | null;
  resolutionDueAt: string | null;
  /** The nearer of the two due times ('Vence'); null while paused or stopped. */
  dueAt: string | null;
  /** Whether each target was met, once it was reached; null before. */
  firstReplyMet: boolean | null;
  resolutionMet: boolean | null;
  /** When the clock stopped at 'Resuelto' (the dashboard's '% dentro del plazo'); null while open. */
  clockResolvedAt: string | null;
}

export interface ClockSubject extends ClockColumns {
  /** The state after the change. */
  estado: IncidentState;
  prioridad: IncidentPriority;
  /** Creation, ISO. */
  fecha: string;
}

/** What happened: a staff reply to the customer, or anything else (a state or priority change, an answer, new settings). */
export interface ClockEvent {
  reply?: boolean;
}

export const isClockRunningIn = (estado: IncidentState) => estado !== 'Resuelto' && estado !== WAITING_STATE;

/** A clock that has not started: what a new incident gets before its first {@link nextClock}. */
export const BLANK_CLOCK: ClockColumns = {
  clockStarted: false,
  clockSince: null,
  firstReplyAt: null,
  firstReplyUsedS: 0,
  resolutionUsedS: 0,
  firstReplyDueAt: null,
  resolutionDueAt: null,
  dueAt: null,
  firstReplyMet: null,
  resolutionMet: null,
  clockResolvedAt: null,
};

/** The clock after `event` at `now`, the incident being in `subject.estado` from now on. */
export function nextClock(
  subject: ClockSubject,
  event: ClockEvent,
  now: Date,
  times: ResponseTimes,
  calendar: BusinessCalendar,
): ClockColumns {
  const at = now.toISOString();
  const next: ClockColumns = {
    clockStarted: true,
    clockSince: subject.clockSince,
    firstReplyAt: subject.firstReplyAt,
    firstReplyUsedS: Number(subject.firstReplyUsedS) || 0,
    resolutionUsedS: Number(subject.resolutionUsedS) || 0,
    firstReplyDueAt: null,
    resolutionDueAt: null,
    dueAt: null,
    firstReplyMet: subject.firstReplyMet === null ? null : Boolean(subject.firstReplyMet),
    resolutionMet: subject.resolutionMet === null ? null : Boolean(subject.resolutionMet),
    clockResolvedAt: subject.clockResolvedAt,
  };
  const running = isClockRunningIn(subject.estado);
  // A row without a clock: running since its creation if it is open now; otherwise nothing to count.
  if (!subject.clockStarted) next.clockSince = running ? subject.fecha : null;
  if (next.clockSince) {
    const seconds = Math.floor(businessMsBetween(calendar, new Date(next.clockSince), now) / 1000);
    if (!next.firstReplyAt) next.firstReplyUsedS += seconds;
    next.resolutionUsedS += seconds;
  }
  const target = (which: ClockTarget) => targetMs(times, subject.prioridad, which);
  const wasRunning = next.clockSince !== null;
  if (!next.firstReplyAt && (event.reply || (subject.estado === 'Resuelto' && wasRunning))) {
    next.firstReplyAt = at;
    next.firstReplyMet = next.firstReplyUsedS * 1000 <= target('primera-respuesta');
  }
  if (subject.estado === 'Resuelto') {
    if (wasRunning) {
      next.resolutionMet = next.resolutionUsedS * 1000 <= target('resolucion');
      next.clockResolvedAt = at;
    }
    next.clockSince = null;
    return next;
  }
  // Reopened: the resolution is open again (and counts in the dashboard when it is reached again).
  next.clockResolvedAt = null;
  next.resolutionMet = null;
  if (!running) {
    next.clockSince = null;
    return next;
  }
  next.clockSince = at;
  const due = (which: ClockTarget, usedS: number) =>
    addBusinessMs(calendar, now, target(which) - usedS * 1000)?.toISOString() ?? null;
  next.firstReplyDueAt = next.firstReplyAt ? null : due('primera-respuesta', next.firstReplyUsedS);
  next.resolutionDueAt = due('resolucion', next.resolutionUsedS);
  const dues = [next.firstReplyDueAt, next.resolutionDueAt]
    .filter((value): value is string => value !== null)
    .sort();
  next.dueAt = dues[0] ?? null;
  return next;
}

/** The clock as `npm run data` carries it (issue 22): the stored columns and the overdue mails already sent. */
export interface ExportedClock extends ClockColumns {
  alerts: Array<{ target: ClockTarget; dueAt: string; createdAt: string }>;
}

const isIsoOrNull = (value: unknown): value is string | null =>
  value === null || (typeof value === 'string' && !Number.isNaN(Date.parse(value)));
const isFlagOrNull = (value: unknown): value is boolean | null =>
  value === null || typeof value === 'boolean';

/** An exported clock read back, or null when it is missing or malformed (the clock then starts anew). */
export function clockFromExport(value: unknown): ExportedClock | null {
  if (!value || typeof value !== 'object') return null;
  const clock = value as Record<string, unknown>;
  const times = [
    'clockSince',
    'firstReplyAt',
    'firstReplyDueAt',
    'resolutionDueAt',
    'dueAt',
    'clockResolvedAt',
  ] as const;
  const toIso = (item: unknown) => (item === null ? null : new Date(item as string).toISOString());
  if (!times.every((key) => isIsoOrNull(clock[key]))) return null;
  if (
    !isFlagOrNull(clock.firstReplyMet) ||
    !isFlagOrNull(clock.resolutionMet) ||
    typeof clock.clockStarted !== 'boolean'
  )
    return null;
  const seconds = (item: unknown) =>
    typeof item === 'number' && Number.isInteger(item) && item >= 0 && item < 2 ** 31 ? item : null;
  const firstReplyUsedS = seconds(clock.firstReplyUsedS);
  const resolutionUsedS = seconds(clock.resolutionUsedS);
  if (firstReplyUsedS === null || resolutionUsedS === null) return null;
  const alerts = Array.isArray(clock.alerts)
    ? clock.alerts.flatMap((alert: unknown) => {
        const item = alert as Record<string, unknown> | null;
        const target = item?.target;
        return item &&
          (target === 'primera-respuesta' || target === 'resolucion') &&
          typeof item.dueAt === 'string' &&
          typeof item.createdAt === 'string' &&
          isIsoOrNull(item.dueAt) &&
          isIsoOrNull(item.createdAt)
          ? [{ target: target as ClockTarget, dueAt: toIso(item.dueAt)!, createdAt: toIso(item.createdAt)! }]
          : [];
      })
    : [];
  return {
    clockStarted: clock.clockStarted,
    clockSince: toIso(clock.clockSince),
    firstReplyAt: toIso(clock.firstReplyAt),
    firstReplyUsedS,
    resolutionUsedS,
    firstReplyDueAt: toIso(clock.firstReplyDueAt),
    resolutionDueAt: toIso(clock.resolutionDueAt),
    dueAt: toIso(clock.dueAt),
    firstReplyMet: clock.firstReplyMet,
    resolutionMet: clock.resolutionMet,
    clockResolvedAt: toIso(clock.clockResolvedAt),
    alerts,
  };
}

/** A clock as the incident page shows it. */
export interface ClockView {
  target: ClockTarget;
  /** The target in working milliseconds. */
  targetMs: number;
  /** Working milliseconds counted so far (up to now while running). */
  usedMs: number;
  status: 'running' | 'paused' | 'met' | 'missed' | 'stopped';
  /** While running: when it is due (ISO) and whether that is past. */
  dueAt: string | null;
  overdue: boolean;
}

/** Both clocks of an incident at `now`, for its page. */
export function clockViews(
  subject: ClockSubject,
  now: Date,
  times: ResponseTimes,
  calendar: BusinessCalendar,
): ClockView[] {
  const running = subject.clockStarted ? subject.clockSince !== null : isClockRunningIn(subject.estado);
  const since = subject.clockStarted ? subject.clockSince : subject.fecha;
  const stretch = running && since ? businessMsBetween(calendar, new Date(since), now) : 0;
  const view = (target: ClockTarget): ClockView => {
    const done =
      target === 'primera-respuesta' ? subject.firstReplyAt !== null : subject.estado === 'Resuelto';
    const met = target === 'primera-respuesta' ? subject.firstReplyMet : subject.resolutionMet;
    const usedMs =
      (Number(target === 'primera-respuesta' ? subject.firstReplyUsedS : subject.resolutionUsedS) || 0) *
        1000 +
      (done ? 0 : stretch);
    const limit = targetMs(times, subject.prioridad, target);
    const dueAt =
      !done && running
        ? target === 'primera-respuesta'
          ? subject.firstReplyDueAt
          : subject.resolutionDueAt
        : null;
    const status: ClockView['status'] = done
      ? met === null
        ? 'stopped'
        : met
          ? 'met'
          : 'missed'
      : running
        ? 'running'
        : 'paused';
    return {
      target,
      targetMs: limit,
      usedMs,
      status,
      dueAt,
      overdue: (status === 'running' || status === 'paused') && usedMs > limit,
    };
  };
  return [view('primera-respuesta'), view('resolucion')];
}
