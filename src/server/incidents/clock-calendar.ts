/**
 * The business calendar of the desk's clock (issue 22): the opening hours of 'Tiempos de respuesta'
 * and the Dominican public holidays, from the maintained `date-holidays` package (country 'DO', type
 * 'public'), never a hand-kept list. Each year's holidays are computed once per process. The library
 * (with every country's data: ~200 ms to load) is loaded on the first holiday asked for, not when a
 * process starts: the command-line scripts that never count a clock do not pay for it.
 */
import { createRequire } from 'node:module';
import type Holidays from 'date-holidays';
import type { BusinessCalendar } from '../../domain/business-hours.ts';
import { weekHours, type ResponseTimes } from '../../domain/response-times.ts';

const byYear = new Map<number, Set<string>>();
let library: Holidays | null = null;

/** Whether a local date (`yyyy-mm-dd`) is a Dominican public holiday. */
export function dominicanHolidays(): (ymd: string) => boolean {
  return (ymd) => {
    const year = Number(ymd.slice(0, 4));
    let days = byYear.get(year);
    if (!days) {
      library ??= new (createRequire(import.meta.url)('date-holidays') as typeof Holidays)('DO');
      days = new Set(
        (library.getHolidays(year) || [])
          .filter((holiday) => holiday.type === 'public')
          .map((holiday) => holiday.date.slice(0, 10)),
      );
      byYear.set(year, days);
    }
    return days.has(ymd);
  };
}

let latest: { key: string; calendar: BusinessCalendar } | undefined;

/**
 * The calendar the clock counts in for these settings: the same object while they stay the same, so
 * that the days it has worked out (src/domain/business-hours.ts) serve every later count.
 */
export function calendarOf(times: ResponseTimes): BusinessCalendar {
  const week = weekHours(times);
  const key = JSON.stringify([week, times.timeZone]);
  if (latest?.key !== key)
    latest = { key, calendar: { week, timeZone: times.timeZone, isHoliday: dominicanHolidays() } };
  return latest.calendar;
}
