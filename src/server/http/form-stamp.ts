/**
 * The signed start time of a public form (the hidden `startedAt` field): the server's time when the
 * form was shown, in ms since the epoch, and an HMAC-SHA256 of it with a key derived from
 * `AUTH_SECRET` (src/server/secret.ts), as `"<ms>.<base64url hmac>"`. A visitor cannot make it
 * older than it is (the time-to-submit check) nor reuse it forever (it expires after a day).
 *
 * On-demand pages render a fresh one into the form; the islands of prerendered pages ask
 * `ROUTES.formStamp` (src/pages/api/form-stamp.ts) when the form is first used.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { getAuthSecret } from '../secret.ts';

/** A stamp older than this is refused: the visitor is asked to reload the page. */
export const FORM_STAMP_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** A stamp dated later than this ahead of our clock was not made by us (several processes share a clock within this). */
const MAX_CLOCK_SKEW_MS = 60 * 1000;

/** Keeps the stamp's MAC apart from anything else signed with the same secret (session cookies). */
const PURPOSE = 'vertice:form-stamp:v1:';
const STAMP_PATTERN = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

export type StampRefusal = 'missing' | 'malformed' | 'forged' | 'future' | 'expired';
export type StampCheck = { ok: true; time: number } | { ok: false; reason: StampRefusal };

function mac(secret: string, time: string): string {
  return createHmac('sha256', secret)
    .update(PURPOSE + time)
    .digest('base64url');
}

/** The stamp of `time` (ms since the epoch) under `secret`. */
export function signStamp(secret: string, time: number): string {
  const ms = String(Math.trunc(time));
  return `${ms}.${mac(secret, ms)}`;
}

/**
 * Checks a submitted stamp: present, well formed, signed with `secret` (compared in constant time),
 * not from the future and at most {@link FORM_STAMP_MAX_AGE_MS} old. Never throws.
 */
export function verifyStamp(value: unknown, secret: string, now = Date.now()): StampCheck {
  if (typeof value !== 'string' || value === '') return { ok: false, reason: 'missing' };
  const match = STAMP_PATTERN.exec(value);
  if (!match) return { ok: false, reason: 'malformed' };
  const [, ms, signature] = match as unknown as [string, string, string];
  const expected = Buffer.from(mac(secret, ms));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'forged' };
  const time = Number(ms);
  if (time > now + MAX_CLOCK_SKEW_MS) return { ok: false, reason: 'future' };
  if (now - time > FORM_STAMP_MAX_AGE_MS) return { ok: false, reason: 'expired' };
  return { ok: true, time };
}

/** A stamp of now, with this server's secret: what a page or the endpoint hands out. */
export function newFormStamp(now = Date.now()): string {
  return signStamp(getAuthSecret(), now);
}

/** Checks a submitted stamp against this server's secret. */
export function checkFormStamp(value: unknown, now = Date.now()): StampCheck {
  return verifyStamp(value, getAuthSecret(), now);
}
