/**
 * The desk's business-hours arithmetic (issue 22, src/domain/business-hours.ts): the default hours
 * (Monday to Friday 8:00–18:00, Saturday 8:00–12:00, Santo Domingo, UTC−4 all year) and the Dominican
 * public holidays from date-holidays.
 */
import { describe, expect, it } from 'vitest';
import {
  addBusinessMs,
  businessMsBetween,
  isBusinessTime,
  localDate,
  type BusinessCalendar,
} from '../../src/domain/business-hours.ts';
import {
  DEFAULT_RESPONSE_TIMES,
  formatTarget,
  formatWorkingDuration,
  responseTimesFrom,
  targetMs,
  targetProblem,
  weekHours,
  workingDayMs,
} from '../../src/domain/response-times.ts';
import { dominicanHolidays, calendarOf } from '../../src/server/incidents/clock-calendar.ts';

const H = 3_600_000;
const MIN = 60_000;
const calendar: BusinessCalendar = calendarOf(DEFAULT_RESPONSE_TIMES);
/** Santo Domingo local time (UTC−4) as a Date. */
const sd = (local: string) => new Date(`${local}-04:00`);

describe('Dominican public holidays (date-holidays, DO, public)', () => {
  it('knows the fixed and the movable ones, and nothing else', () => {
    const holiday = dominicanHolidays();
    expect(holiday('2026-01-01')).toBe(true);
    expect(holiday('2026-02-27')).toBe(true); // Independencia
    expect(holiday('2026-04-03')).toBe(true); // Viernes Santo
    expect(holiday('2026-01-26')).toBe(true); // Duarte (moved to a Monday)
    expect(holiday('2026-12-25')).toBe(true);
    expect(holiday('2026-03-02')).toBe(false);
    expect(holiday('2027-02-27')).toBe(true);
  });
});

describe('business time between two instants', () => {
  it('counts within a day, clipped to the opening hours', () => {
    expect(businessMsBetween(calendar, sd('2026-03-02T09:00:00'), sd('2026-03-02T11:30:00'))).toBe(2.5 * H);
    expect(businessMsBetween(calendar, sd('2026-03-02T06:00:00'), sd('2026-03-02T20:00:00'))).toBe(10 * H);
    expect(businessMsBetween(calendar, sd('2026-03-02T19:00:00'), sd('2026-03-02T23:00:00'))).toBe(0);
    expect(businessMsBetween(calendar, sd('2026-03-02T11:00:00'), sd('2026-03-02T09:00:00'))).toBe(0);
  });

  it('skips Sunday and counts Saturday morning only, across a weekend', () => {
    // Friday 16:00 → Monday 10:00: 2 h Friday + 4 h Saturday + 2 h Monday.
    expect(businessMsBetween(calendar, sd('2026-03-06T16:00:00'), sd('2026-03-09T10:00:00'))).toBe(8 * H);
    expect(businessMsBetween(calendar, sd('2026-03-07T13:00:00'), sd('2026-03-08T23:59:00'))).toBe(0);
  });

  it('skips a Dominican holiday: Independencia, Friday 27 February 2026', () => {
    // Thursday 17:00 → Monday 9:00: 1 h Thursday, Friday off, 4 h Saturday, 1 h Monday.
    expect(businessMsBetween(calendar, sd('2026-02-26T17:00:00'), sd('2026-03-02T09:00:00'))).toBe(6 * H);
  });

  it('adds up a whole ordinary week: 5 × 10 h + 4 h', () => {
    expect(businessMsBetween(calendar, sd('2026-03-09T00:00:00'), sd('2026-03-16T00:00:00'))).toBe(54 * H);
  });
});

describe('the instant a working duration after (or before) another', () => {
  it('stays within the day when it fits, and lands at the close, not the next opening', () => {
    expect(addBusinessMs(calendar, sd('2026-03-02T09:00:00'), H)).toEqual(sd('2026-03-02T10:00:00'));
    expect(addBusinessMs(calendar, sd('2026-03-02T08:00:00'), 10 * H)).toEqual(sd('2026-03-02T18:00:00'));
    expect(addBusinessMs(calendar, sd('2026-03-02T09:00:00'), 0)).toEqual(sd('2026-03-02T09:00:00'));
  });

  it('starts at the opening when the clock starts out of hours', () => {
    expect(addBusinessMs(calendar, sd('2026-03-02T06:30:00'), 30 * MIN)).toEqual(sd('2026-03-02T08:30:00'));
    expect(addBusinessMs(calendar, sd('2026-03-02T21:00:00'), H)).toEqual(sd('2026-03-03T09:00:00'));
  });

  it('crosses a weekend: an Urgente incident of Saturday 11:30 is due Monday 8:30', () => {
    expect(addBusinessMs(calendar, sd('2026-03-07T11:30:00'), H)).toEqual(sd('2026-03-09T08:30:00'));
    // Friday 17:00 + 8 h: 1 h Friday, 4 h Saturday, 3 h Monday.
    expect(addBusinessMs(calendar, sd('2026-03-06T17:00:00'), 8 * H)).toEqual(sd('2026-03-09T11:00:00'));
  });

  it('crosses a holiday and a weekend: Thursday 26 February 2026 17:00 + 8 h is Monday 2 March 11:00', () => {
    expect(addBusinessMs(calendar, sd('2026-02-26T17:00:00'), 8 * H)).toEqual(sd('2026-03-02T11:00:00'));
    // Easter: Viernes Santo (3 April 2026) is a holiday, Saturday is not.
    expect(addBusinessMs(calendar, sd('2026-04-02T17:00:00'), 3 * H)).toEqual(sd('2026-04-04T10:00:00'));
  });

  it('walks backwards for a negative amount (a target already exceeded)', () => {
    expect(addBusinessMs(calendar, sd('2026-03-09T09:00:00'), -2 * H)).toEqual(sd('2026-03-07T11:00:00'));
    expect(addBusinessMs(calendar, sd('2026-03-02T09:00:00'), -6 * H)).toEqual(sd('2026-02-26T17:00:00'));
  });

  it('is the inverse of the count', () => {
    const start = sd('2026-02-20T15:17:00');
    for (const amount of [1, 7, 13, 54, 100].map((hours) => hours * H + 11 * MIN)) {
      const due = addBusinessMs(calendar, start, amount)!;
      expect(businessMsBetween(calendar, start, due)).toBe(amount);
      expect(addBusinessMs(calendar, due, -amount)).toEqual(
        start.getTime() < sd('2026-02-20T18:00:00').getTime() ? start : due,
      );
    }
  });

  it('gives up (null) on a week with no open hour', () => {
    const closed: BusinessCalendar = { ...calendar, week: [null, null, null, null, null, null, null] };
    expect(addBusinessMs(closed, sd('2026-03-02T09:00:00'), H)).toBeNull();
    expect(businessMsBetween(closed, sd('2026-03-02T09:00:00'), sd('2026-03-20T09:00:00'))).toBe(0);
  });

  it('follows a time zone with daylight saving time', () => {
    const madrid: BusinessCalendar = {
      week: calendar.week,
      timeZone: 'Europe/Madrid',
      isHoliday: () => false,
    };
    // Saturday 28 March 2026 11:00 CET + 2 h: 1 h Saturday, then Monday 30 March 8:00–9:00 CEST (UTC+2 since Sunday).
    expect(addBusinessMs(madrid, new Date('2026-03-28T10:00:00Z'), 2 * H)).toEqual(
      new Date('2026-03-30T07:00:00Z'),
    );
    expect(
      businessMsBetween(madrid, new Date('2026-03-27T00:00:00Z'), new Date('2026-03-31T00:00:00Z')),
    ).toBe(24 * H);
  });

  it('says whether an instant is working time', () => {
    expect(isBusinessTime(calendar, sd('2026-03-02T09:00:00'))).toBe(true);
    expect(isBusinessTime(calendar, sd('2026-03-02T18:00:00'))).toBe(false);
    expect(isBusinessTime(calendar, sd('2026-02-27T10:00:00'))).toBe(false);
    expect(localDate(sd('2026-03-02T23:30:00'), 'America/Santo_Domingo')).toBe('2026-03-02');
  });
});

describe("'Tiempos de respuesta'", () => {
  it('has the issue’s defaults, a día being the longest open day (10 h)', () => {
    expect(workingDayMs(DEFAULT_RESPONSE_TIMES)).toBe(10 * H);
    expect(targetMs(DEFAULT_RESPONSE_TIMES, 'Urgente', 'primera-respuesta')).toBe(H);
    expect(targetMs(DEFAULT_RESPONSE_TIMES, 'Urgente', 'resolucion')).toBe(8 * H);
    expect(targetMs(DEFAULT_RESPONSE_TIMES, 'Alta', 'resolucion')).toBe(20 * H);
    expect(targetMs(DEFAULT_RESPONSE_TIMES, 'Normal', 'resolucion')).toBe(50 * H);
    expect(targetMs(DEFAULT_RESPONSE_TIMES, 'Baja', 'primera-respuesta')).toBe(20 * H);
    expect(weekHours(DEFAULT_RESPONSE_TIMES)).toEqual([
      null,
      [480, 1080],
      [480, 1080],
      [480, 1080],
      [480, 1080],
      [480, 1080],
      [480, 720],
    ]);
  });

  it('keeps only valid stored values', () => {
    const parsed = responseTimesFrom({
      targets: {
        Urgente: { 'primera-respuesta': { amount: 2, unit: 'h' }, resolucion: { amount: -1, unit: 'h' } },
      },
      week: [null, { from: '09:00', to: '17:00' }, null, null, null, { from: '10:00', to: '09:00' }, null],
      timeZone: 'Mars/Olympus',
    });
    expect(parsed.targets.Urgente['primera-respuesta']).toEqual({ amount: 2, unit: 'h' });
    expect(parsed.targets.Urgente.resolucion).toEqual({ amount: 8, unit: 'h' });
    expect(parsed.week[1]).toEqual({ from: '09:00', to: '17:00' });
    expect(parsed.week[5]).toBeNull();
    expect(parsed.timeZone).toBe('America/Santo_Domingo');
    expect(responseTimesFrom('basura')).toEqual(DEFAULT_RESPONSE_TIMES);
  });

  it('speaks Spanish', () => {
    expect(formatTarget({ amount: 2, unit: 'd' })).toBe('2 días');
    expect(formatTarget({ amount: 1, unit: 'd' })).toBe('1 día');
    expect(formatTarget({ amount: 1.5, unit: 'h' })).toBe('1,5 h');
    expect(formatWorkingDuration(3 * H + 20 * MIN)).toBe('3 h 20 min');
    expect(formatWorkingDuration(45 * MIN)).toBe('45 min');
    expect(targetProblem({ amount: 0, unit: 'h' })).toBe('Escribe un número mayor que cero.');
    expect(targetProblem({ amount: 1, unit: 'semanas' })).toBe('Elige horas o días.');
    expect(targetProblem({ amount: 1.3, unit: 'h' })).toMatch(/cuartos/);
  });
});
