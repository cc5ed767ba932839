/**
 * How a record of `npm run data`'s file is read, shared by every module that imports its own rows
 * (issue 40, 'One writer per table'): the data module (src/server/data/) reads the file and orders the
 * areas; each area's module reads its records with these helpers and stores them through its own
 * writer. A file of src/server itself, below every module, so that the areas and the data module share
 * it without importing one another.
 *
 * A record the site would not have stored is refused with its reason in Spanish
 * ({@link RecordRefused}); the data module counts it as invalid and goes on. Staff accounts are not
 * moved: a staff id travels as the account's e-mail ({@link StaffEmails} on the way out) and is mapped
 * back to the target's account with that e-mail ({@link StaffIds}), to null when there is none.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import { clientInputSchema } from '../domain/forms/client.ts';

/** A record the site would not have stored: the reason, in Spanish. */
export class RecordRefused extends Error {
  override name = 'RecordRefused';
}

/** A form's message as a refusal's reason ('El título…' → 'el título…'). */
export const refusedWith = (problem: string): RecordRefused =>
  new RecordRefused(problem.charAt(0).toLowerCase() + problem.slice(1));

/** What became of a record: stored, or already here (with everything nested in it). */
export type Outcome = 'imported' | 'skipped';

/** The target database's staff account by e-mail (any case); null when none has it. */
export type StaffIds = (email: string | null) => string | null;

/**
 * The e-mail to export for a staff id: the one stored beside it, else the account's current one (an
 * account removed since keeps what was stored).
 */
export interface StaffEmails {
  /** Each account's e-mail by its id. */
  byId: ReadonlyMap<string, string>;
  emailOf(id: string | null, stored: string | null): string | null;
}

/** Any of the accepted timestamp shapes → ISO 8601 UTC, or null when it is not a valid time. */
export function toIsoTime(value: unknown): string | null {
  let millis: number | null = null;
  if (typeof value === 'number' && Number.isFinite(value)) millis = value;
  else if (typeof value === 'string' && value.trim() !== '') {
    millis = /^\d+$/.test(value.trim()) ? Number(value) : Date.parse(value);
  } else if (value instanceof Date) millis = value.getTime();
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const seconds = record.seconds ?? record._seconds;
    const nanos = record.nanoseconds ?? record._nanoseconds ?? 0;
    if (typeof seconds === 'number' && typeof nanos === 'number')
      millis = seconds * 1000 + Math.floor(nanos / 1e6);
  }
  if (millis === null || !Number.isFinite(millis)) return null;
  const date = new Date(millis);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** A field as text, cut to `max` ('' when absent). */
export const text = (value: unknown, max = 5000): string =>
  typeof value === 'string' ? value.slice(0, max) : value == null ? '' : String(value).slice(0, max);

/** A text field that may be absent or null: the text (cut to `max`), or null. */
export const optionalText = (value: unknown, max = 200): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.slice(0, max) : null;

/** A list as an array, or as a map of document id → document (the original site's exports). */
export function asList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') return Object.values(value as Record<string, unknown>);
  return [];
}

/** Each item of a nested list, read by `read`; unreadable items are left out (as history entries are). */
export function nested<T>(value: unknown, read: (item: Record<string, unknown>) => T | null): T[] {
  return asList(value)
    .map((item) => (item && typeof item === 'object' ? read(item as Record<string, unknown>) : null))
    .filter((item) => item !== null);
}

/** A record of the file as an object (anything else: an empty one, which its reader refuses). */
export const asRecord = (value: unknown): Record<string, unknown> =>
  (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;

/**
 * An e-mail as the form that creates such a record would take it (its field schema in src/domain),
 * or a refusal naming the field and the form's own message. `optional`: absent or empty is null.
 */
export function email(value: unknown, field: z.ZodMiniType, label: string): string;
export function email(value: unknown, field: z.ZodMiniType, label: string, optional: true): string | null;
export function email(value: unknown, field: z.ZodMiniType, label: string, optional = false): string | null {
  if (optional && (value == null || (typeof value === 'string' && value.trim() === ''))) return null;
  const result = z.safeParse(field, typeof value === 'string' ? value : value == null ? '' : String(value));
  if (!result.success)
    throw new RecordRefused(
      `${label} «${text(value, 80)}»: ${result.error.issues[0]?.message ?? 'no es válido.'}`,
    );
  return String(result.data).trim();
}

/**
 * A staff member's e-mail: the client form's rule (no form of the site takes one): a field holding
 * `a@x, b@y` would otherwise later send mail to both.
 */
export const STAFF_EMAIL = clientInputSchema.shape.email;

/** A SHA-256 in hexadecimal, as tokens' hashes and the blobs' keys are stored. */
export const SHA256_PATTERN = /^[0-9a-f]{64}$/;

/** The file's `blobs` (issue 21): base64 by SHA-256. */
export type Blobs = ReadonlyMap<string, string>;

export function blobsOf(input: unknown): Blobs {
  const blobs =
    input && typeof input === 'object' && !Array.isArray(input)
      ? (input as Record<string, unknown>).blobs
      : null;
  if (!blobs || typeof blobs !== 'object') return new Map();
  return new Map(
    Object.entries(blobs as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

/** The bytes of a blob the file names, checked against their SHA-256; null when it names none. */
export function blobBytes(blobs: Blobs, key: unknown): Uint8Array | null {
  if (typeof key !== 'string' || !SHA256_PATTERN.test(key)) return null;
  const base64 = blobs.get(key);
  if (base64 === undefined)
    throw new RecordRefused(`falta el contenido del archivo ${key.slice(0, 12)}… en «blobs».`);
  const data = Buffer.from(base64, 'base64');
  if (createHash('sha256').update(data).digest('hex') !== key)
    throw new RecordRefused(`el archivo ${key.slice(0, 12)}… no coincide con su huella SHA-256.`);
  return new Uint8Array(data);
}

/** The exported file's `blobs` as it is written: base64 by SHA-256, in the order first named. */
export type ExportedBlobs = Record<string, string>;
