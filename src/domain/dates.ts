/**
 * Dates as the staff and the visitors of the Dominican Republic read them. Times are stored in UTC.
 */

/** The site's time zone: the staff dates, the mails and the daily visit counts use it. */
export const TIME_ZONE = 'America/Santo_Domingo';

// Building an Intl formatter costs about a millisecond: one serves every call (a CSV export makes two per row).
const STAFF_FORMAT = new Intl.DateTimeFormat('es-DO', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** An instant's fields in Santo Domingo time, two digits each (four for the year). */
function staffParts(iso: string): (type: string) => string {
  const parts = STAFF_FORMAT.formatToParts(new Date(iso));
  return (type) => parts.find((part) => part.type === type)?.value ?? '';
}

/**
 * A column or field of times as a person reads it (issue 39, polish): its label saying they are Santo
 * Domingo time ('Fecha de registro (hora de Santo Domingo)'), for the CSV files and `npm run admin -- list`.
 */
export const inSantoDomingoTime = (label: string): string => `${label} (hora de Santo Domingo)`;

/**
 * The texts of {@link formatStaffDateTime} already made, by instant: a staff list page shows the same
 * few dozen times on every load (a card's 'Registrada', 'Vence', 'Última actividad' and its history),
 * and `formatToParts` was about 3% of the incident list's CPU (issue 40 §3). Emptied when full.
 */
const STAFF_TEXTS = new Map<string, string>();
const STAFF_TEXTS_MAX = 10_000;

/** Dates as the staff read them: Santo Domingo time, `dd/mm/aaaa hh:mm` (same on server and browser). */
export function formatStaffDateTime(iso: string): string {
  const known = STAFF_TEXTS.get(iso);
  if (known !== undefined) return known;
  const get = staffParts(iso);
  const text = `${get('day')}/${get('month')}/${get('year')} ${get('hour')}:${get('minute')}`;
  if (STAFF_TEXTS.size >= STAFF_TEXTS_MAX) STAFF_TEXTS.clear();
  STAFF_TEXTS.set(iso, text);
  return text;
}

/** An instant as a date and a time field hold it, in Santo Domingo time (`aaaa-mm-dd`, `hh:mm`). */
export function staffDateTimeInputs(iso: string): { fecha: string; hora: string } {
  const get = staffParts(iso);
  return { fecha: `${get('year')}-${get('month')}-${get('day')}`, hora: `${get('hour')}:${get('minute')}` };
}

const RELATIVE = new Intl.RelativeTimeFormat('es', { numeric: 'always' });
const RELATIVE_UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 60 * 60_000],
  ['month', 30 * 24 * 60 * 60_000],
  ['day', 24 * 60 * 60_000],
  ['hour', 60 * 60_000],
  ['minute', 60_000],
];

/** How long ago, in Spanish words ("hace 3 días", "hace 1 hora"); under a minute, "hace un momento". */
export function formatAgo(iso: string, now: Date = new Date()): string {
  const elapsed = Math.max(0, now.getTime() - new Date(iso).getTime());
  for (const [unit, size] of RELATIVE_UNITS) {
    if (elapsed >= size) return RELATIVE.format(-Math.floor(elapsed / size), unit);
  }
  return 'hace un momento';
}

/**
 * The first instant after `now` at which {@link formatAgo}`(iso, …)` reads otherwise (ms since the
 * epoch): the next whole unit of the unit shown, or the next larger unit's threshold if that comes
 * first (a month is not a whole number of days' multiples of a larger unit). A page kept rendered
 * (src/server/page-cache/) holds no longer than that.
 */
export function agoChangesAt(iso: string, now: Date): number {
  const since = new Date(iso).getTime();
  const elapsed = Math.max(0, now.getTime() - since);
  const shown = RELATIVE_UNITS.find(([, size]) => elapsed >= size)?.[1];
  let next = shown ? (Math.floor(elapsed / shown) + 1) * shown : Infinity;
  for (const [, size] of RELATIVE_UNITS) if (size > elapsed) next = Math.min(next, size);
  // A time ahead of `now` reads 'hace un momento' until a minute after it: elapsed counts from 0 there too.
  return since + next;
}
