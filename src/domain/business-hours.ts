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

interface DayAnchor {
  year: number;
  month: number;
  day: number;
}

function anchorOf(instant: number, timeZone: string): DayAnchor {
  const local = new TZDate(instant, timeZone);
  return { year: local.getFullYear(), month: local.getMonth(), day: local.getDate() };
}

/** The working window of the day `offset` days after the anchor's, as UTC milliseconds; null when closed. */
function windowOf(calendar: BusinessCalendar, anchor: DayAnchor, offset: number): [number, number] | null {
  const midnight = new TZDate(anchor.year, anchor.month, anchor.day + offset, 0, 0, 0, calendar.timeZone);
  const hours = calendar.week[midnight.getDay()];
  if (!hours) return null;
  const ymd = `${midnight.getFullYear()}-${pad(midnight.getMonth() + 1)}-${pad(midnight.getDate())}`;
  if (calendar.isHoliday(ymd)) return null;
  const [y, m, d] = [midnight.getFullYear(), midnight.getMonth(), midnight.getDate()];
  const start = new TZDate(y, m, d, 0, hours[0], 0, calendar.timeZone).getTime();
  const end = new TZDate(y, m, d, 0, hours[1], 0, calendar.timeZone).getTime();
  return end > start ? [start, end] : null;
}

const ms = (instant: Date | number) => (typeof instant === 'number' ? instant : instant.getTime());

/** Working milliseconds in `[from, to)`; 0 when `to` is not after `from`. */
export function businessMsBetween(calendar: BusinessCalendar, from: Date | number, to: Date | number): number {
  const start = ms(from);
  const end = ms(to);
  if (!(end > start)) return 0;
  const anchor = anchorOf(start, calendar.timeZone);
  let total = 0;
  for (let offset = 0; offset <= MAX_DAYS; offset += 1) {
    const window = windowOf(calendar, anchor, offset);
    if (window) {
      if (window[0] >= end) break;
      total += Math.max(0, Math.min(window[1], end) - Math.max(window[0], start));
    } else if (new TZDate(anchor.year, anchor.month, anchor.day + offset, 0, 0, 0, calendar.timeZone).getTime() >= end) {
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
  const anchor = anchorOf(start, calendar.timeZone);
  let left = Math.abs(amount);
  const step = amount > 0 ? 1 : -1;
  for (let offset = 0; Math.abs(offset) <= MAX_DAYS; offset += step) {
    const window = windowOf(calendar, anchor, offset);
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
  const window = windowOf(calendar, anchorOf(at, calendar.timeZone), 0);
  return window !== null && at >= window[0] && at < window[1];
}
