/**
 * 'Tiempos de respuesta' (issue 22): the targets per priority for the first reply and for the
 * resolution, and the business hours they are counted in. Plain data and its rules, shared by the
 * settings form, the clock (src/server/incidents/clock.ts) and the pages; the arithmetic is
 * ./business-hours.ts. A 'día' of a target is a working day: the hours of the longest open day of the
 * week (10 h with the default hours).
 */
import type { DayHours } from './business-hours.ts';
import { INCIDENT_PRIORITIES, type IncidentPriority } from './incidents.ts';

export const TARGET_UNITS = ['h', 'd'] as const;
export type TargetUnit = (typeof TARGET_UNITS)[number];

export interface TargetTime {
  amount: number;
  unit: TargetUnit;
}

/** The two clocks of an incident. */
export const CLOCK_TARGETS = ['primera-respuesta', 'resolucion'] as const;
export type ClockTarget = (typeof CLOCK_TARGETS)[number];

export const CLOCK_TARGET_LABEL: Record<ClockTarget, string> = {
  'primera-respuesta': 'Primera respuesta',
  resolucion: 'Resolución',
};

export type PriorityTargets = Record<ClockTarget, TargetTime>;

/** Opening hours of a weekday as the form writes them (`HH:MM`), or null when closed. */
export type DayOpening = { from: string; to: string } | null;

export interface ResponseTimes {
  targets: Record<IncidentPriority, PriorityTargets>;
  /** Index 0 is Sunday … 6 Saturday. */
  week: DayOpening[];
  timeZone: string;
}

export const DEFAULT_TIME_ZONE = 'America/Santo_Domingo';

/** Monday to Friday 8:00–18:00, Saturday 8:00–12:00, Santo Domingo; Urgente 1 h / 8 h … Baja 2 días / 10 días. */
export const DEFAULT_RESPONSE_TIMES: ResponseTimes = {
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
  timeZone: DEFAULT_TIME_ZONE,
};

/** The weekdays in the order the form lists them (Monday first), with their `Date#getDay` index. */
export const WEEKDAYS: ReadonlyArray<{ index: number; name: string }> = [
  { index: 1, name: 'Lunes' },
  { index: 2, name: 'Martes' },
  { index: 3, name: 'Miércoles' },
  { index: 4, name: 'Jueves' },
  { index: 5, name: 'Viernes' },
  { index: 6, name: 'Sábado' },
  { index: 0, name: 'Domingo' },
];

/** The longest target: a year of working days. */
export const TARGET_MAX = { h: 2000, d: 250 } as const;

const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$|^24:00$/;

/** Minutes from midnight of `HH:MM`, or null. */
export function minutesOf(text: string): number | null {
  const match = TIME_PATTERN.exec(text);
  if (!match) return null;
  if (text === '24:00') return 1440;
  return Number(match[1]) * 60 + Number(match[2]);
}

/** The week as the arithmetic reads it (minutes), index 0 Sunday. */
export function weekHours(times: Pick<ResponseTimes, 'week'>): DayHours[] {
  return times.week.map((day) => {
    if (!day) return null;
    const from = minutesOf(day.from);
    const to = minutesOf(day.to);
    return from !== null && to !== null && to > from ? ([from, to] as const) : null;
  });
}

const HOUR_MS = 3_600_000;

/** How long a 'día' of the targets lasts: the longest open day of the week (0 when none is open). */
export function workingDayMs(times: Pick<ResponseTimes, 'week'>): number {
  return Math.max(0, ...weekHours(times).map((day) => (day ? (day[1] - day[0]) * 60_000 : 0)));
}

/** A target in working milliseconds. */
export function targetMs(times: ResponseTimes, priority: IncidentPriority, target: ClockTarget): number {
  const { amount, unit } = times.targets[priority][target];
  return unit === 'h' ? amount * HOUR_MS : amount * workingDayMs(times);
}

/** '1 h', '8 h', '2 días', '1 día', '1,5 h'. */
export function formatTarget({ amount, unit }: TargetTime): string {
  const number = String(amount).replace('.', ',');
  return unit === 'h' ? `${number} h` : `${number} ${amount === 1 ? 'día' : 'días'}`;
}

/** A working duration, rounded to minutes: '3 h 20 min', '45 min', '0 min'. */
export function formatWorkingDuration(milliseconds: number): string {
  const minutes = Math.round(Math.abs(milliseconds) / 60_000);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (!hours) return `${rest} min`;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

export function isValidTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('es-DO', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** What a stored or posted value says, kept only where it follows the rules; the defaults fill the rest. */
export function responseTimesFrom(value: unknown): ResponseTimes {
  const result: ResponseTimes = structuredClone(DEFAULT_RESPONSE_TIMES);
  if (!value || typeof value !== 'object') return result;
  const input = value as Partial<ResponseTimes>;
  for (const priority of INCIDENT_PRIORITIES)
    for (const target of CLOCK_TARGETS) {
      const time = input.targets?.[priority]?.[target];
      if (time && targetProblem(time) === null)
        result.targets[priority][target] = { amount: time.amount, unit: time.unit };
    }
  if (Array.isArray(input.week) && input.week.length === 7)
    result.week = input.week.map((day) =>
      day &&
      minutesOf(day.from) !== null &&
      minutesOf(day.to) !== null &&
      minutesOf(day.to)! > minutesOf(day.from)!
        ? { from: day.from, to: day.to }
        : null,
    );
  if (typeof input.timeZone === 'string' && isValidTimeZone(input.timeZone)) result.timeZone = input.timeZone;
  return result;
}

/** The Spanish message of a target that cannot be used, or null. */
export function targetProblem(time: { amount: unknown; unit: unknown }): string | null {
  if (!(TARGET_UNITS as readonly unknown[]).includes(time.unit)) return 'Elige horas o días.';
  const unit = time.unit as TargetUnit;
  if (typeof time.amount !== 'number' || !Number.isFinite(time.amount) || time.amount <= 0)
    return 'Escribe un número mayor que cero.';
  if (time.amount > TARGET_MAX[unit])
    return `Como máximo ${TARGET_MAX[unit]} ${unit === 'h' ? 'horas' : 'días'}.`;
  if (Math.round(time.amount * 4) !== time.amount * 4)
    return 'Usa horas enteras o cuartos (0,25; 0,5; 0,75).';
  return null;
}

/** The form's field names ('Tiempos de respuesta' in Configuración). */
export const responseTimeFields = {
  amount: (priority: IncidentPriority, target: ClockTarget) => `${target}-${priority}`,
  unit: (priority: IncidentPriority, target: ClockTarget) => `${target}-${priority}-unidad`,
  open: (day: number) => `dia-${day}-abierto`,
  from: (day: number) => `dia-${day}-desde`,
  to: (day: number) => `dia-${day}-hasta`,
  timeZone: 'zona',
} as const;

/** The posted form read into settings, or each field's Spanish message. */
export function responseTimesFromForm(
  value: (name: string) => string,
): { ok: true; times: ResponseTimes } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const times: ResponseTimes = structuredClone(DEFAULT_RESPONSE_TIMES);
  for (const priority of INCIDENT_PRIORITIES)
    for (const target of CLOCK_TARGETS) {
      const amountField = responseTimeFields.amount(priority, target);
      const raw = value(amountField).trim().replace(',', '.');
      const amount = raw === '' ? Number.NaN : Number(raw);
      const time = { amount, unit: value(responseTimeFields.unit(priority, target)) };
      const problem = targetProblem(time);
      if (problem) errors[amountField] = problem;
      else times.targets[priority][target] = time as TargetTime;
    }
  for (const { index, name } of WEEKDAYS) {
    if (value(responseTimeFields.open(index)) === '') {
      times.week[index] = null;
      continue;
    }
    const from = value(responseTimeFields.from(index)).trim();
    const to = value(responseTimeFields.to(index)).trim();
    const start = minutesOf(from);
    const end = minutesOf(to);
    if (start === null || end === null)
      errors[responseTimeFields.from(index)] =
        `Escribe la hora de apertura y de cierre del ${name.toLowerCase()} (HH:MM).`;
    else if (end <= start)
      errors[responseTimeFields.from(index)] = `El ${name.toLowerCase()} cierra antes de abrir.`;
    else times.week[index] = { from, to };
  }
  if (!Object.keys(errors).length && times.week.every((day) => day === null))
    errors[responseTimeFields.open(1)] =
      'Abre al menos un día: sin horario laborable los plazos nunca vencerían.';
  const zone = value(responseTimeFields.timeZone).trim();
  if (!isValidTimeZone(zone))
    errors[responseTimeFields.timeZone] = 'Escribe una zona horaria válida, como America/Santo_Domingo.';
  else times.timeZone = zone;
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, times };
}

/**
 * '8:30 a. m.', '12:00 p. m.', '5:30 p. m.' (minutes from midnight, as the public pages write times),
 * its spaces no-break ones: a narrow column never leaves '6:00' at a line's end and 'p. m.' on the next.
 */
function publicTime(minutes: number): string {
  const hour = Math.floor(minutes / 60) % 24;
  const minute = String(minutes % 60).padStart(2, '0');
  const twelve = hour % 12 === 0 ? 12 : hour % 12;
  return `${twelve}:${minute}\u00a0${hour < 12 ? 'a.\u00a0m.' : 'p.\u00a0m.'}`;
}

/**
 * The opening hours as the public pages state them, from the week the desk's clock counts in (issue 39
 * §12: one source, 'Tiempos de respuesta'): consecutive days with the same hours joined ('Lunes a
 * viernes, de 8:00 a. m. a 6:00 p. m.; sábado, de 8:00 a. m. a 12:00 p. m.'). Monday first.
 */
export function formatOpeningHours(times: Pick<ResponseTimes, 'week'>): string {
  const week = weekHours(times);
  const runs: Array<{ first: string; last: string; hours: readonly [number, number] }> = [];
  for (const { index, name } of WEEKDAYS) {
    const hours = week[index];
    if (!hours) continue;
    const previous = runs.at(-1);
    const follows =
      previous &&
      WEEKDAYS.findIndex((day) => day.name === previous.last) ===
        WEEKDAYS.findIndex((day) => day.index === index) - 1;
    if (previous && follows && previous.hours[0] === hours[0] && previous.hours[1] === hours[1])
      previous.last = name;
    else runs.push({ first: name, last: name, hours });
  }
  if (!runs.length) return 'Sin horario de atención.';
  const text = runs
    .map(({ first, last, hours }, position) => {
      const days = first === last ? first : `${first} a ${last.toLowerCase()}`;
      return `${position ? days.toLowerCase() : days}, de ${publicTime(hours[0])} a ${publicTime(hours[1])}`;
    })
    .join('; ');
  return text;
}
