/**
 * 'Ver original' (issue 21): the stored raw message, decompressed, and the purge that keeps it
 * {@link ORIGINAL_RETENTION_DAYS} days. The record of the message (sender, subject, outcome) stays.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Db } from '../db/index.ts';

const gunzipAsync = promisify(gunzip);

/** Days a raw inbound message is kept for 'Ver original'. */
export const ORIGINAL_RETENTION_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The raw message with this id as text (UTF-8, invalid bytes replaced), or null when there is none (any more). */
export async function inboundOriginal(db: Db, id: number): Promise<string | null> {
  const row = await db
    .selectFrom('inboundMessages')
    .select('rawGzip')
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row?.rawGzip) return null;
  return new TextDecoder().decode(await gunzipAsync(row.rawGzip));
}

/** Drops the raw messages older than {@link ORIGINAL_RETENTION_DAYS} days; resolves with how many. */
export async function purgeOldOriginals(db: Db, now: Date = new Date()): Promise<number> {
  const before = new Date(now.getTime() - ORIGINAL_RETENTION_DAYS * DAY_MS).toISOString();
  const result = await db
    .updateTable('inboundMessages')
    .set({ rawGzip: null })
    .where('receivedAt', '<', before)
    .where('rawGzip', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

const PURGE_INTERVAL_MS = 60 * 60 * 1000;
let lastPurge = 0;

/** {@link purgeOldOriginals} at most once an hour (the server's background round calls it often). */
export async function purgeOldOriginalsIfDue(db: Db, now: Date = new Date()): Promise<number | null> {
  if (now.getTime() - lastPurge < PURGE_INTERVAL_MS) return null;
  lastPurge = now.getTime();
  return purgeOldOriginals(db, now);
}
