import { describe, expect, it } from 'vitest';
import { normalizeForSearch } from '../../src/server/text.ts';

describe('normalizeForSearch', () => {
  it('ignores case, accents and extra spaces', () => {
    expect(normalizeForSearch('  José   PÉREZ Núñez ')).toBe('jose perez nunez');
    expect(normalizeForSearch('Ñoño')).toBe('nono');
    expect(normalizeForSearch('INC-20260101-1234')).toBe('inc-20260101-1234');
  });
});
