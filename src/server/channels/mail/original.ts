/**
 * 'Ver original' (issue 21): the stored raw message, decompressed, and the purge that keeps it
 * {@link ORIGINAL_RETENTION_DAYS} days. The record of the message (sender, subject, outcome) stays.
 *
 * The original is the raw message's gzip, kept in parts of at most {@link ORIGINAL_PART_BYTES} in
 * `inbound_original_parts` (migration 0034), so that no single value of its whole size is written or
 * read; `inbound_messages.original_parts` says how many, once all are written (null: none, or unfinished).
 */
import { createGunzip } from 'node:zlib';
import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/index.ts';

/** Days a raw inbound message is kept for 'Ver original'. */
export const ORIGINAL_RETENTION_DAYS = 90;
/** Most bytes of the gzip in one part (the reader's worker writes parts of this size too). */
export const ORIGINAL_PART_BYTES = 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

type Executor = Kysely<Database> | Transaction<Database>;

/** The gzip cut into parts of at most {@link ORIGINAL_PART_BYTES} (views of it, not copies). */
export function originalParts(gzip: Uint8Array): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let offset = 0; offset < gzip.byteLength; offset += ORIGINAL_PART_BYTES) {
    parts.push(gzip.subarray(offset, offset + ORIGINAL_PART_BYTES));
  }
  return parts;
}

/**
 * Writes the gzip as the original of the message `inboundId` through `db` (in a transaction of the
 * caller's or one of its own): what parts it had are replaced, and the count is set last. With
 * `onlyIfMissing`, only when it has none (complete). Used where the bytes are on the server's thread
 * (an import, a message read whole, SQLite in memory); the reader's worker does the same itself.
 */
export async function writeOriginal(
  db: Executor,
  inboundId: number,
  gzip: Uint8Array,
  onlyIfMissing = false,
): Promise<void> {
  const write = async (trx: Executor) => {
    if (onlyIfMissing) {
      const row = await trx
        .selectFrom('inboundMessages')
        .select('originalParts')
        .where('id', '=', inboundId)
        .executeTakeFirst();
      if (!row || row.originalParts !== null) return;
    }
    await trx.deleteFrom('inboundOriginalParts').where('inboundId', '=', inboundId).execute();
    const parts = originalParts(gzip);
    for (const [part, data] of parts.entries()) {
      await trx.insertInto('inboundOriginalParts').values({ inboundId, part, data }).execute();
    }
    await trx
      .updateTable('inboundMessages')
      .set({ originalParts: parts.length })
      .where('id', '=', inboundId)
      .execute();
  };
  if (db.isTransaction) await write(db);
  else await (db as Kysely<Database>).transaction().execute(write);
}

/**
 * The gzip's parts of the message `id`, in order, one read at a time; null when it has no complete
 * original (none, purged, unfinished, or a part missing).
 */
async function gzipParts(db: Executor, id: number): Promise<AsyncGenerator<Uint8Array> | null> {
  const row = await db
    .selectFrom('inboundMessages')
    .select('originalParts')
    .where('id', '=', id)
    .executeTakeFirst();
  const count = row?.originalParts;
  if (count === null || count === undefined) return null;
  const stored = await db
    .selectFrom('inboundOriginalParts')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('inboundId', '=', id)
    .where('part', '<', Number(count))
    .executeTakeFirstOrThrow();
  if (Number(stored.n) !== Number(count)) return null;
  return (async function* () {
    for (let part = 0; part < Number(count); part += 1) {
      const row = await db
        .selectFrom('inboundOriginalParts')
        .select('data')
        .where('inboundId', '=', id)
        .where('part', '=', part)
        .executeTakeFirst();
      if (!row) throw new Error(`Falta la parte ${part} del original del correo ${id}`);
      yield row.data;
    }
  })();
}

/** The gzip of the message `id`, joined (for an export); null when it has no complete original. */
export async function originalGzip(db: Executor, id: number): Promise<Buffer | null> {
  const parts = await gzipParts(db, id);
  if (!parts) return null;
  const chunks: Uint8Array[] = [];
  for await (const part of parts) chunks.push(part);
  return Buffer.concat(chunks);
}

/**
 * The raw message `id`, its parts read in order and gunzipped as a stream; null when it has no
 * complete original.
 */
export async function originalBytes(db: Executor, id: number): Promise<Buffer | null> {
  const parts = await gzipParts(db, id);
  if (!parts) return null;
  const gunzip = createGunzip();
  const chunks: Buffer[] = [];
  gunzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    gunzip.once('end', resolve);
    gunzip.once('error', reject);
  });
  try {
    for await (const part of parts) {
      if (!gunzip.write(part)) await new Promise((resolve) => gunzip.once('drain', resolve));
    }
    gunzip.end();
    await ended;
  } catch (error) {
    gunzip.destroy();
    throw error;
  }
  return Buffer.concat(chunks);
}

/** The raw message with this id as text (UTF-8, invalid bytes replaced), or null when there is none (any more). */
export async function inboundOriginal(db: Db, id: number): Promise<string | null> {
  const bytes = await originalBytes(db, id);
  return bytes ? new TextDecoder().decode(bytes) : null;
}

/** Drops the raw messages older than {@link ORIGINAL_RETENTION_DAYS} days; resolves with how many. */
export async function purgeOldOriginals(db: Db, now: Date = new Date()): Promise<number> {
  const before = new Date(now.getTime() - ORIGINAL_RETENTION_DAYS * DAY_MS).toISOString();
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('inboundMessages')
      .set({ originalParts: null })
      .where('receivedAt', '<', before)
      .where('originalParts', 'is not', null)
      .executeTakeFirst();
    // And the parts of unfinished ones.
    await trx
      .deleteFrom('inboundOriginalParts')
      .where(
        'inboundId',
        'in',
        trx.selectFrom('inboundMessages').select('id').where('receivedAt', '<', before),
      )
      .execute();
    return Number(result.numUpdatedRows);
  });
}

const PURGE_INTERVAL_MS = 60 * 60 * 1000;
let lastPurge = 0;

/** {@link purgeOldOriginals} at most once an hour (the server's background round calls it often). */
export async function purgeOldOriginalsIfDue(db: Db, now: Date = new Date()): Promise<number | null> {
  if (now.getTime() - lastPurge < PURGE_INTERVAL_MS) return null;
  lastPurge = now.getTime();
  return purgeOldOriginals(db, now);
}
