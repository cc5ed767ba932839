/**
 * One way to write numbers (issue 39, polish): '5.000 filas', '2.000 caracteres', '1,5 MB', where the
 * pages mixed '5,000', '2000' and '5.000'. Also what the texts built from the limits now say.
 */
import { describe, expect, it } from 'vitest';
import { formatNumber } from '../../src/domain/numbers.ts';
import { ARTICLE_MESSAGES } from '../../src/domain/articles.ts';
import { checkImportSize, IMPORT_MAX_ROWS } from '../../src/server/clients/csv.ts';
import { answerFormSchema } from '../../src/domain/forms/tracking.ts';
import { SAVED_REPLY_BODY_MAX_TEXT } from '../../src/domain/saved-replies.ts';
import { entryTextProblem } from '../../src/domain/incidents.ts';
import { fileSizeText } from '../../src/domain/attachments.ts';

describe('formatNumber', () => {
  it('groups thousands with a point from 1.000 up and writes decimals with a comma', () => {
    expect(formatNumber(5000)).toBe('5.000');
    expect(formatNumber(2000)).toBe('2.000');
    expect(formatNumber(100_000)).toBe('100.000');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(1.46, 1)).toBe('1,5');
    expect(formatNumber(4, 1, true)).toBe('4,0');
    expect(formatNumber(2, 1)).toBe('2');
  });

  it("is not es-DO's own format, which in Node 24 writes '5,000'", () => {
    // Why the site has its own: this is what the platform gives for the Dominican locale.
    expect(new Intl.NumberFormat('es-DO').format(5000)).toBe('5,000');
  });

  it('writes the limits in the messages staff and visitors read', () => {
    expect(IMPORT_MAX_ROWS).toBe(5000);
    expect(ARTICLE_MESSAGES.bodyLong).toBe('El texto admite hasta 100.000 caracteres.');
    expect(SAVED_REPLY_BODY_MAX_TEXT).toBe('5.000');
    expect(entryTextProblem('x'.repeat(12_345))).toBe(
      'El texto admite hasta 5.000 caracteres; tiene 12.345.',
    );
    expect(() => checkImportSize(3.5 * 1024 * 1024)).toThrow(/pesa 3,5 MB/);
    expect(fileSizeText(1.5 * 1024 * 1024)).toBe('1,5 MB');
    const parsed = answerFormSchema.safeParse({ token: 't', respuesta: 'x'.repeat(5001) });
    expect(JSON.stringify(parsed.error?.issues)).toContain('admite como máximo 5.000 caracteres');
  });
});
