/**
 * Business-hours arithmetic for the desk's clock (issue 22, docs/decisions/0017): how much working time
 * lies between two instants, and which instant is a given amount of working time after (or before)
 * another. Working time is each weekday's opening hours in a time zone, minus the holidays. Pure: the
 * holidays come in as a function (src/server/incidents/clock.ts asks date-holidays), the time zone's
 * offsets from @date-fns/tz, so nothing here reads a clock, a file or the database.
 */
import { TZDate } from '@date-fns/tz';

/** One day's opening hours in minutes from local midnight, `from < to ≤ 1440`; null: closed. */
export type DayHours = readonly [from: number, to: number] | null;

export interface BusinessCalendar {
  /** Index 0 is Sunday, 6 Saturday (as `Date#getDay`). */
  week: readonly DayHours[];
  /** An IANA zone, e.g. 'America/Santo_Domingo'. */
  timeZone: string;
  /** Whether a local date (`yyyy-mm-dd`) is a holiday: closed all day. */
  isHoliday: (ymd: string) => boolean;
}

/** How far the arithmetic walks (about ten years): a calendar with no open hour ends there. */
export const MAX_DAYS = 3660;

const pad = (value: number) => String(value).padStart(2, '0');

/** The local date (`yyyy-mm-dd`) of an instant in a time zone. */
export function localDate(instant: Date | number, timeZone: string): string {
  const local = new TZDate(typeof instant === 'number' ? instant : instant.getTime(), timeZone);
  return `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`;
}

const DAY_MS = 86_400_000;

/** A local date as a day number (days since 1970-01-01 of that calendar date), for arithmetic on dates. */
function dayNumberOf(instant: number, timeZone: string): number {
  const local = new TZDate(instant, timeZone);
  return Date.UTC(local.getFullYear(), local.getMonth(), local.getDate()) / DAY_MS;
}

interface Day {
  /** The local midnight that starts it, as UTC milliseconds. */
  midnight: number;
  /** Its working window, as UTC milliseconds; null when closed (its weekday, a holiday). */
  window: [number, number] | null;
}

/**
 * Each calendar's days, worked out once: a clock counted over months walks the same days for every
 * incident, and a day's time-zone arithmetic costs far more than a look-up (a migration clocking
 * 100,000 open incidents took most of an hour without it). A calendar is never changed once made.
 */
const daysOf = new WeakMap<BusinessCalendar, Map<number, Day>>();

/** The day `dayNumber` of the calendar. */
function dayOf(calendar: BusinessCalendar, dayNumber: number): Day {
  let days = daysOf.get(calendar);
  if (!days) daysOf.set(calendar, (days = new Map()));
  const known = days.get(dayNumber);
  if (known) return known;
  const date = new Date(dayNumber * DAY_MS);
  const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
  const midnight = new TZDate(y, m, d, 0, 0, 0, calendar.timeZone).getTime();
  const hours = calendar.week[date.getUTCDay()];
  let window: [number, number] | null = null;
  if (hours && !calendar.isHoliday(`${y}-${pad(m + 1)}-${pad(d)}`)) {
    const start = new TZDate(y, m, d, 0, hours[0], 0, calendar.timeZone).getTime();
    const end = new TZDate(y, m, d, 0, hours[1], 0, calendar.timeZone).getTime();
    if (end > start) window = [start, end];
  }
  const day = { midnight, window };
  days.set(dayNumber, day);
  return day;
}

const ms = (instant: Date | number) => (typeof instant === 'number' ? instant : instant.getTime());

/** Working milliseconds in `[from, to)`; 0 when `to` is not after `from`. */
export function businessMsBetween(
  calendar: BusinessCalendar,
  from: Date | number,
  to: Date | number,
): number {
  const start = ms(from);
  const end = ms(to);
  if (!(end > start)) return 0;
  const first = dayNumberOf(start, calendar.timeZone);
  let total = 0;
  for (let offset = 0; offset <= MAX_DAYS; offset += 1) {
    const { midnight, window } = dayOf(calendar, first + offset);
    if (window) {
      if (window[0] >= end) break;
      total += Math.max(0, Math.min(window[1], end) - Math.max(window[0], start));
    } else if (midnight >= end) {
      break;
    }
  }
  return total;
}

/**
 * The instant `amount` working milliseconds after `from` (before it, when negative): the due time of a
 * target with `amount` left. A due time falls inside working hours (at the close at the latest, never
 * at the next opening). `from` itself for 0; null when the calendar has no working time within
 * {@link MAX_DAYS} (every day closed).
 */
export function addBusinessMs(calendar: BusinessCalendar, from: Date | number, amount: number): Date | null {
  const start = ms(from);
  if (amount === 0) return new Date(start);
  const first = dayNumberOf(start, calendar.timeZone);
  let left = Math.abs(amount);
  const step = amount > 0 ? 1 : -1;
  for (let offset = 0; Math.abs(offset) <= MAX_DAYS; offset += step) {
    const { window } = dayOf(calendar, first + offset);
    if (!window) continue;
    if (step > 0) {
      const open = Math.max(window[0], start);
      if (open >= window[1]) continue;
      if (left <= window[1] - open) return new Date(open + left);
      left -= window[1] - open;
    } else {
      const close = Math.min(window[1], start);
      if (close <= window[0]) continue;
      if (left <= close - window[0]) return new Date(close - left);
      left -= close - window[0];
    }
  }
  return null;
}

/** Whether an instant falls inside working time (a holiday or a closed hour is outside). */
export function isBusinessTime(calendar: BusinessCalendar, instant: Date | number): boolean {
  const at = ms(instant);
  const { window } = dayOf(calendar, dayNumberOf(at, calendar.timeZone));
  return window !== null && at >= window[0] && at < window[1];
}
