/**
 * The opening hours the public pages state, written from the week of 'Tiempos de respuesta' (issue 39
 * §12: one source; the clock counted Saturday while the pages said 'Lunes a viernes').
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RESPONSE_TIMES,
  formatOpeningHours,
  type ResponseTimes,
} from '../../src/domain/response-times.ts';

/** The sentence with its no-break spaces as plain ones, to compare. */
const hoursOf = (times: Pick<ResponseTimes, 'week'>) => formatOpeningHours(times).replaceAll('\u00a0', ' ');

const week = (edit: (days: ResponseTimes['week']) => void) => {
  const times = structuredClone(DEFAULT_RESPONSE_TIMES);
  edit(times.week);
  return times;
};

describe('formatOpeningHours', () => {
  it('joins the days with the same hours, Monday first, as the pages write times', () => {
    expect(hoursOf(DEFAULT_RESPONSE_TIMES)).toBe(
      'Lunes a viernes, de 8:00 a. m. a 6:00 p. m.; sábado, de 8:00 a. m. a 12:00 p. m.',
    );
    const weekdays = week((days) => {
      days[6] = null;
      for (const day of [1, 2, 3, 4, 5]) days[day] = { from: '08:30', to: '17:30' };
    });
    expect(hoursOf(weekdays)).toBe('Lunes a viernes, de 8:30 a. m. a 5:30 p. m.');
  });

  it('never breaks a time from its a. m. or p. m.', () => {
    expect(formatOpeningHours(DEFAULT_RESPONSE_TIMES)).toContain('6:00\u00a0p.\u00a0m.');
  });

  it('names a day alone, a run broken by a closed day, and a week with no open day', () => {
    const broken = week((days) => {
      days[3] = null;
      days[0] = { from: '09:00', to: '13:00' };
    });
    expect(hoursOf(broken)).toBe(
      'Lunes a martes, de 8:00 a. m. a 6:00 p. m.; jueves a viernes, de 8:00 a. m. a 6:00 p. m.; sábado, de 8:00 a. m. a 12:00 p. m.; domingo, de 9:00 a. m. a 1:00 p. m.',
    );
    expect(hoursOf({ week: [null, null, null, null, null, null, null] })).toBe('Sin horario de atención.');
  });
});
