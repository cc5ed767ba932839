import { describe, expect, it } from 'vitest';
import { FORM_STAMP_MAX_AGE_MS, signStamp, verifyStamp } from '../../src/server/http/form-stamp.ts';

const SECRET = 'secreto-de-prueba-de-formularios-0123456789';
const NOW = Date.UTC(2025, 0, 31, 14, 0, 0);

describe('form stamp', () => {
  it('is the time and a base64url HMAC, and a good one verifies with its time', () => {
    const stamp = signStamp(SECRET, NOW - 5000);
    expect(stamp).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    expect(stamp.split('.')[0]).toBe(String(NOW - 5000));
    expect(verifyStamp(stamp, SECRET, NOW)).toEqual({ ok: true, time: NOW - 5000 });
    // Just inside the day still counts.
    expect(verifyStamp(signStamp(SECRET, NOW - FORM_STAMP_MAX_AGE_MS), SECRET, NOW).ok).toBe(true);
  });

  it('refuses a signature made with another secret, or changed by one character', () => {
    expect(verifyStamp(signStamp('otro-secreto-que-no-es-el-nuestro-012345', NOW), SECRET, NOW)).toEqual({
      ok: false,
      reason: 'forged',
    });
    const stamp = signStamp(SECRET, NOW);
    const last = stamp.at(-1) === 'A' ? 'B' : 'A';
    expect(verifyStamp(stamp.slice(0, -1) + last, SECRET, NOW)).toEqual({ ok: false, reason: 'forged' });
  });

  it('refuses a time changed under a good signature (an older start to pass the time-to-submit check)', () => {
    const [, signature] = signStamp(SECRET, NOW).split('.');
    expect(verifyStamp(`${NOW - 60_000}.${signature}`, SECRET, NOW)).toEqual({ ok: false, reason: 'forged' });
  });

  it('refuses a stamp older than 24 hours, and one dated ahead of the clock', () => {
    expect(verifyStamp(signStamp(SECRET, NOW - 25 * 60 * 60 * 1000), SECRET, NOW)).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(verifyStamp(signStamp(SECRET, NOW - FORM_STAMP_MAX_AGE_MS - 1), SECRET, NOW)).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(verifyStamp(signStamp(SECRET, NOW + 10 * 60 * 1000), SECRET, NOW)).toEqual({
      ok: false,
      reason: 'future',
    });
  });

  it('refuses a missing or malformed value without throwing', () => {
    for (const value of [undefined, null, ''])
      expect(verifyStamp(value, SECRET, NOW)).toEqual({ ok: false, reason: 'missing' });
    const signature = signStamp(SECRET, NOW).split('.')[1]!;
    for (const value of [
      String(NOW - 5000), // the old unsigned form
      `${NOW}.`,
      `.${signature}`,
      `${NOW}.${signature}=`,
      `${NOW}.${signature.slice(1)}`,
      `-${NOW}.${signature}`,
      `${NOW}.5.${signature}`,
      `1e12.${signature}`,
      `${NOW} .${signature}`,
      `${'9'.repeat(16)}.${signature}`,
      `${NOW}.${signature.slice(0, -1)}+`,
    ]) {
      expect(verifyStamp(value, SECRET, NOW), value).toEqual({ ok: false, reason: 'malformed' });
    }
    expect(verifyStamp(12345, SECRET, NOW)).toEqual({ ok: false, reason: 'missing' });
  });
});
