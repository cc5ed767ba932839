import { describe, expect, it } from 'vitest';
import { formatDateEs, isoDay } from '../../src/components/blog/format-date.ts';

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
