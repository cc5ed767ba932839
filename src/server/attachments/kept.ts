/**
 * The files of a refused submission that were fine, kept for the next try (issue 21: "keeping everything
 * typed and every other file"). A page posted without JavaScript cannot be given its chosen files back,
 * so the good ones are stored (`blobs`, as any file) and the page carries a signed reference to each, for
 * a day: `<base64url JSON>.<base64url HMAC-SHA256>` under `AUTH_SECRET`, naming the action, the file's
 * name, type, size, blob and thumbnail. A reference sent back is checked (signature in constant time,
 * action, age) and read from `blobs` again; a forged or stale one is ignored. Blobs that no attachment
 * names are deleted two days after their last use ({@link purgeUnusedBlobs}).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import { storeBlobs } from './blob-store.ts';
import type { PreparedFile } from './files.ts';
import type { KeptFile } from '../../domain/attachments.ts';

type Db = Kysely<Database>;

/** How long a kept file may be sent back. */
export const KEPT_FOR_MS = 24 * 60 * 60 * 1000;
/** Unused blobs are kept past the last reference's life, then deleted. */
const UNUSED_BLOB_MS = 2 * KEPT_FOR_MS;
const PURPOSE = 'adjunto-conservado:';

export type { KeptFile } from '../../domain/attachments.ts';

interface Payload {
  a: string;
  n: string;
  t: string;
  s: number;
  b: string;
  h: string | null;
  x: number;
}

const mac = (secret: string, body: string) =>
  createHmac('sha256', secret)
    .update(PURPOSE + body)
    .digest('base64url');

/** Stores the files and returns a signed reference to each (for `action`, valid {@link KEPT_FOR_MS}). */
export async function keepFiles(
  db: Db,
  files: readonly PreparedFile[],
  action: string,
  secret: string,
  now: Date = new Date(),
): Promise<KeptFile[]> {
  const kept: KeptFile[] = [];
  for (const file of await storeBlobs(db, files, now)) {
    const payload: Payload = {
      a: action,
      n: file.filename,
      t: file.contentType,
      s: file.data.byteLength,
      b: file.blob!,
      h: file.thumbBlob ?? null,
      x: now.getTime() + KEPT_FOR_MS,
    };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    kept.push({ ref: `${body}.${mac(secret, body)}`, nombre: file.filename, tamano: payload.s });
  }
  return kept;
}

function verified(ref: string, action: string, secret: string, now: Date): Payload | null {
  const [body, signature, extra] = ref.split('.');
  if (!body || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(secret, body));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
    return payload.a === action && payload.x > now.getTime() ? payload : null;
  } catch {
    return null;
  }
}

/** The files these references name, read again from `blobs`: forged, stale, repeated or missing ones are left out. */
export async function keptFilesOf(
  db: Db,
  refs: readonly string[],
  action: string,
  secret: string,
  now: Date = new Date(),
): Promise<PreparedFile[]> {
  const files: PreparedFile[] = [];
  const seen = new Set<string>();
  for (const ref of refs) {
    const payload = verified(ref, action, secret, now);
    if (!payload || seen.has(payload.b)) continue;
    seen.add(payload.b);
    const rows = await db
      .selectFrom('blobs')
      .select(['sha256', 'data'])
      .where('sha256', 'in', payload.h ? [payload.b, payload.h] : [payload.b])
      .execute();
    const data = rows.find((row) => row.sha256 === payload.b)?.data;
    if (!data) continue;
    const thumb = payload.h ? (rows.find((row) => row.sha256 === payload.h)?.data ?? null) : null;
    files.push({
      filename: payload.n,
      contentType: payload.t,
      data: new Uint8Array(data),
      thumb: thumb ? new Uint8Array(thumb) : null,
      blob: payload.b,
      thumbBlob: thumb ? payload.h : null,
    });
  }
  return files;
}

/** Deletes the blobs no attachment names, unused for two days (kept files never sent back). */
export async function purgeUnusedBlobs(db: Db, now: Date = new Date()): Promise<number> {
  const result = await db
    .deleteFrom('blobs')
    .where('createdAt', '<', new Date(now.getTime() - UNUSED_BLOB_MS).toISOString())
    .where((eb) =>
      eb.and([
        eb.not(
          eb.exists(
            eb
              .selectFrom('incidentAttachments')
              .select('id')
              .whereRef('incidentAttachments.blobSha256', '=', 'blobs.sha256'),
          ),
        ),
        eb.not(
          eb.exists(
            eb
              .selectFrom('incidentAttachments')
              .select('id')
              .whereRef('incidentAttachments.thumbSha256', '=', 'blobs.sha256'),
          ),
        ),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
