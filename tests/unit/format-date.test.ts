import { describe, expect, it } from 'vitest';
import { formatDateEs, isoDay } from '../../src/components/blog/format-date.ts';
import { agoChangesAt, formatAgo, formatStaffDateTime } from '../../src/domain/dates.ts';

describe('formatDateEs', () => {
  it('writes the date in Spanish with the month in words', () => {
    expect(formatDateEs(new Date('2025-03-03'))).toBe('3 de marzo de 2025');
    expect(formatDateEs(new Date('2025-12-31'))).toBe('31 de diciembre de 2025');
    expect(formatDateEs(new Date('2024-01-01'))).toBe('1 de enero de 2024');
  });

  it('keeps the calendar day of a YYYY-MM-DD date whatever the time zone of the process', () => {
    // Midnight UTC is still the previous evening in Santo Domingo (UTC-4): the article's day must not move.
    expect(formatDateEs(new Date('2025-04-15T00:00:00Z'))).toBe('15 de abril de 2025');
    expect(isoDay(new Date('2025-04-15T00:00:00Z'))).toBe('2025-04-15');
  });
});

describe('formatStaffDateTime', () => {
  it('writes staff dates in Santo Domingo time (UTC-4, no daylight saving) as dd/mm/aaaa hh:mm, 24-hour', () => {
    expect(formatStaffDateTime('2025-01-01T10:00:00.000Z')).toBe('01/01/2025 06:00');
    // Late evening in Santo Domingo is already the next day in UTC, and the reverse.
    expect(formatStaffDateTime('2025-03-04T03:30:00.000Z')).toBe('03/03/2025 23:30');
    expect(formatStaffDateTime('2025-07-15T23:59:00.000Z')).toBe('15/07/2025 19:59');
    expect(formatStaffDateTime('2025-12-31T04:00:00.000Z')).toBe('31/12/2025 00:00');
  });
});

describe('agoChangesAt', () => {
  const MINUTE = 60_000;
  const HOUR = 60 * MINUTE;
  const DAY = 24 * HOUR;
  const since = '2026-01-01T12:00:00.000Z';
  const at = (ms: number) => new Date(Date.parse(since) + ms);

  it('is the first instant at which the age reads otherwise, and the age holds until then', () => {
    // Under a minute, from a minute past a whole unit, across a unit's end, and the month that is no whole number of weeks.
    for (const elapsed of [
      0,
      30_000,
      MINUTE,
      59 * MINUTE + 59_000,
      5 * HOUR + 1,
      29 * DAY + 23 * HOUR,
      400 * DAY,
      -5_000,
    ]) {
      const now = at(elapsed);
      const change = agoChangesAt(since, now);
      expect(change).toBeGreaterThan(now.getTime());
      expect(formatAgo(since, new Date(change - 1))).toBe(formatAgo(since, now));
      expect(formatAgo(since, new Date(change))).not.toBe(formatAgo(since, now));
    }
    expect(agoChangesAt(since, at(30_000))).toBe(at(MINUTE).getTime());
    expect(agoChangesAt(since, at(29 * DAY + 23 * HOUR))).toBe(at(30 * DAY).getTime());
  });
});
