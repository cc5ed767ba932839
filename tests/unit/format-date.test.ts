import { describe, expect, it } from 'vitest';
import { formatDateEs, isoDay } from '../../src/components/blog/format-date.ts';
import { formatStaffDateTime } from '../../src/domain/dates.ts';

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
