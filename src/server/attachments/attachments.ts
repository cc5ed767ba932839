/**
 * Incident attachments (issue 21, "Attachments"; docs/decisions/0015): the one writer of `blobs` and
 * `incident_attachments`, and their readers for the timelines, the download routes and the mails.
 *
 * Bytes live in `blobs`, keyed by their SHA-256: the same file sent twice is stored once. A file
 * belongs to one incident, and to one timeline entry or (entry null) to the problem itself.
 */
import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { fileNameForType, safeFileName } from '../../domain/attachments.ts';
import { shownToCustomer, type Database } from '../db/index.ts';
import type { MailAttachment } from '../mail/index.ts';
import { IMAGE_TYPES, type PreparedFile, type RefusedFile } from './files.ts';

type Db = Kysely<Database>;
type Writer = Transaction<Database> | Db;

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** A Node Buffer over the same bytes (pg sends Buffers as bytea; a bare Uint8Array it would not). */
const asBuffer = (data: Uint8Array) =>
  Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);

/**
 * Stores the bytes once; their SHA-256 (hex). A blob already stored only has its time moved on, so that
 * the purge of unused blobs (kept.ts) never takes one that was just used again.
 */
export async function putBlob(trx: Writer, data: Uint8Array, now: Date): Promise<string> {
  const key = sha256(data);
  await trx
    .insertInto('blobs')
    .values({ sha256: key, size: data.byteLength, data: asBuffer(data), createdAt: now.toISOString() })
    .onConflict((oc) => oc.column('sha256').doUpdateSet({ createdAt: now.toISOString() }))
    .execute();
  return key;
}

/**
 * Stores prepared files (files.ts) as attachments of the incident, of `entryId` or of the problem (null),
 * and records the refused ones of a mail (`dropped`: no bytes, the reason shown in the timeline).
 */
export async function storeAttachments(
  trx: Writer,
  input: {
    incidentId: number;
    entryId: number | null;
    files: readonly PreparedFile[];
    dropped?: readonly RefusedFile[];
  },
  now: Date,
): Promise<number[]> {
  const ids: number[] = [];
  for (const file of input.files) {
    // Stored ahead of the transaction when the file went through storeBlobs (blob-store.ts).
    const blob = file.blob ?? (await putBlob(trx, file.data, now));
    const thumb =
      file.thumbBlob !== undefined ? file.thumbBlob : file.thumb ? await putBlob(trx, file.thumb, now) : null;
    const row = await trx
      .insertInto('incidentAttachments')
      .values({
        incidentId: input.incidentId,
        entryId: input.entryId,
        blobSha256: blob,
        thumbSha256: thumb,
        // Named by what it is, whoever prepared it (files.ts does the same).
        filename: fileNameForType(file.filename, file.contentType),
        contentType: file.contentType,
        size: file.size ?? file.data.byteLength,
        droppedReason: null,
        createdAt: now.toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  for (const file of input.dropped ?? [])
    await trx
      .insertInto('incidentAttachments')
      .values({
        incidentId: input.incidentId,
        entryId: input.entryId,
        blobSha256: null,
        thumbSha256: null,
        filename: safeFileName(file.filename),
        contentType: 'application/octet-stream',
        size: file.size,
        droppedReason: file.reason,
        createdAt: now.toISOString(),
      })
      .execute();
  return ids;
}

/** A file of an incident that arrives whole (`npm run data -- import`), as its export describes it. */
export interface ImportedAttachment {
  incidentId: number;
  entryId: number | null;
  filename: string;
  contentType: string;
  size: number;
  createdAt: string;
  /** The kept bytes, already checked against their SHA-256; null for a file that was not kept. */
  data: Uint8Array | null;
  thumb: Uint8Array | null;
  droppedReason: string | null;
}

/**
 * Stores an imported file with its blobs, in the import's transaction (incidents/imported.ts): this
 * module stays the one writer of `incident_attachments`. A kept file is named by what it is (an export of
 * an older version may name it by what it was sent as, issue 38 F4); one not kept keeps a safe name and
 * its reason ('type' when an older file gives none).
 */
export async function storeImportedAttachment(
  trx: Transaction<Database>,
  file: ImportedAttachment,
): Promise<void> {
  const at = new Date(file.createdAt);
  await trx
    .insertInto('incidentAttachments')
    .values({
      incidentId: file.incidentId,
      entryId: file.entryId,
      blobSha256: file.data ? await putBlob(trx, file.data, at) : null,
      thumbSha256: file.thumb ? await putBlob(trx, file.thumb, at) : null,
      filename: file.data ? fileNameForType(file.filename, file.contentType) : safeFileName(file.filename),
      contentType: file.contentType,
      size: file.size,
      droppedReason: file.data ? null : (file.droppedReason ?? 'type'),
      createdAt: file.createdAt,
    })
    .execute();
}

/** A file to send: its name, type and bytes. */
export interface AttachmentContent {
  filename: string;
  contentType: string;
  data: Uint8Array;
}

async function content(
  db: Db,
  id: number,
  thumb: boolean,
  incidentId?: number,
  visitor = false,
): Promise<AttachmentContent | null> {
  let query = db
    .selectFrom('incidentAttachments')
    .innerJoin(
      'blobs',
      'blobs.sha256',
      thumb ? 'incidentAttachments.thumbSha256' : 'incidentAttachments.blobSha256',
    )
    .select(['incidentAttachments.filename', 'incidentAttachments.contentType', 'blobs.data'])
    .where('incidentAttachments.id', '=', id);
  if (incidentId !== undefined) query = query.where('incidentAttachments.incidentId', '=', incidentId);
  // The visitor never sees the files of an internal note, nor of an unverified answer not accepted.
  if (visitor)
    query = query.where((eb) =>
      eb.or([
        eb('incidentAttachments.entryId', 'is', null),
        eb(
          'incidentAttachments.entryId',
          'in',
          eb
            .selectFrom('incidentEntries')
            .select('incidentEntries.id')
            .where('incidentEntries.kind', 'in', ['reply', 'answer'])
            .where(shownToCustomer),
        ),
      ]),
    );
  const row = await query.executeTakeFirst();
  if (!row) return null;
  return {
    filename: row.filename,
    contentType: thumb ? 'image/webp' : row.contentType,
    data: row.data instanceof Uint8Array ? row.data : new Uint8Array(row.data as ArrayBuffer),
  };
}

/** For staff: any stored attachment (or its thumbnail); null when there is none. */
export function attachmentForStaff(db: Db, id: number, thumb = false): Promise<AttachmentContent | null> {
  return content(db, id, thumb);
}

/**
 * For the customer of incident `incidentId` (the caller checked their follow-up token): an attachment
 * of that incident only, never one of an internal note or of an entry not shown to them; null otherwise.
 */
export function attachmentForIncidentCustomer(
  db: Db,
  id: number,
  incidentId: number,
  thumb = false,
): Promise<AttachmentContent | null> {
  return content(db, id, thumb, incidentId, true);
}

/** Shown in the browser (images and PDF); everything else is downloaded. */
export function servedInline(contentType: string): boolean {
  return IMAGE_TYPES.has(contentType) || contentType === 'application/pdf';
}

/** The headers every attachment is served with (issue 21): never sniffed, never run, never kept. */
export function attachmentHeaders(
  file: Pick<AttachmentContent, 'filename' | 'contentType'>,
  data: Uint8Array,
): Record<string, string> {
  const ascii = file.filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const disposition = servedInline(file.contentType) ? 'inline' : 'attachment';
  return {
    'Content-Type': file.contentType,
    'Content-Length': String(data.byteLength),
    'Content-Disposition': `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "sandbox; default-src 'none'",
    'Cache-Control': 'private, no-store',
  };
}

/** The files of a timeline entry as a mail's attachments: references to blobs, read when the mail is sent. */
export async function mailAttachmentsOfEntry(trx: Writer, entryId: number): Promise<MailAttachment[]> {
  const rows = await trx
    .selectFrom('incidentAttachments')
    .select(['filename', 'contentType', 'blobSha256'])
    .where('entryId', '=', entryId)
    .where('blobSha256', 'is not', null)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    filename: row.filename,
    contentType: row.contentType,
    content: '',
    blob: row.blobSha256!,
  }));
}

/** How many bytes `ids`' blobs hold (the daily public total counts what was stored). */
export const totalSize = (files: readonly PreparedFile[]) =>
  files.reduce((sum, file) => sum + (file.size ?? file.data.byteLength), 0);
