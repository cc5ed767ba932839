/**
 * A customer's WhatsApp files (image, document, audio, video, sticker), fetched after their message
 * is stored (issue 37). The webhook must answer Meta fast (p95 < 100 ms at 1,000 messages a minute),
 * and a download from Meta may take seconds: so the webhook stores the message and queues each of its
 * media ids in `whatsapp_media` (migration 0043) before it answers 200, and this job fetches them
 * right after (`GET /{media-id}`, then its URL with the bearer, within the URL's five minutes: each
 * attempt asks for a fresh one). Nothing is lost: a file Meta cannot hand over now (Meta down,
 * throttled) is tried again with back-off, and a crash leaves the row pending for the next run (the
 * next POST, or the server's start); two processes take a row each, by a lease on `next_attempt_at`.
 *
 * A fetched file passes the same checks as a mail's attachments (src/server/attachments
 * `prepareFiles`: type sniffed, size, images re-encoded) and is attached to the message's own entry
 * (the answer it became, or the problem of the incident it opened). A file refused by those checks,
 * or that could not be fetched at all (too large, gone, refused by Meta, still failing after
 * {@link MAX_MEDIA_ATTEMPTS} attempts), is listed on that entry as not kept, with why: said in the
 * timeline, never dropped silently; the last such error shows on the channel's panel too.
 */
import { MAX_FILE_BYTES } from '../../../domain/attachments.ts';
import { prepareFiles, storeAttachments, storeBlobs, type RefusedFile } from '../../attachments/index.ts';
import type { Db } from '../../db/index.ts';
import { touchIncident } from '../../incidents/index.ts';
import { createGraphClient, GraphError } from './graph.ts';
import { noteError } from './panel.ts';
import { whatsappSettings, type WhatsAppConfig, type WhatsAppSettings } from './settings.ts';
import type { WhatsAppExtra } from './channel.ts';

/** Attempts at one file before it is given up (and said so in the timeline). */
export const MAX_MEDIA_ATTEMPTS = 6;
/** How long a run holds a row it took (another process leaves it alone meanwhile). */
const LEASE_MS = 2 * 60 * 1000;
/** Waits after each failed attempt: 10 s, 1 min, 5 min, 15 min, 1 h. */
const BACKOFF_MS = [10_000, 60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000];
/** Rows one run takes at a time. */
const BATCH = 20;

type Media = NonNullable<WhatsAppExtra['media']>;

/** Queues the message's file (once per message and media id: a redelivery queues nothing more). */
export async function queueMedia(db: Db, inboundId: number, media: Media, now: Date): Promise<void> {
  await db
    .insertInto('whatsappMedia')
    .values({
      inboundId,
      mediaId: media.id,
      mimeType: media.mimeType,
      filename: media.filename,
      nextAttemptAt: now.toISOString(),
      lastError: null,
      createdAt: now.toISOString(),
    })
    .onConflict((oc) => oc.columns(['inboundId', 'mediaId']).doNothing())
    .execute();
}

type Row = { id: number; inboundId: number; mediaId: string; filename: string; attempts: number };

/** Takes the row for this run (false: another run has it, or it is done). */
async function claim(db: Db, row: Row, now: Date): Promise<boolean> {
  const taken = await db
    .updateTable('whatsappMedia')
    .set({ attempts: row.attempts + 1, nextAttemptAt: new Date(now.getTime() + LEASE_MS).toISOString() })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .where('attempts', '=', row.attempts)
    .where('nextAttemptAt', '<=', now.toISOString())
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

/** The file's row is settled: attached, or listed as not kept, on its message's entry. */
async function settle(
  db: Db,
  row: Row,
  outcome: { prepared: Awaited<ReturnType<typeof storeBlobs>>; refused: RefusedFile[]; error: string | null },
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const message = await trx
      .selectFrom('inboundMessages')
      .select('incidentId')
      .where('id', '=', row.inboundId)
      .executeTakeFirst();
    const incidentId = message?.incidentId ?? null;
    if (incidentId !== null) {
      const entry = await trx
        .selectFrom('incidentEntries')
        .select('id')
        .where('inboundMessageId', '=', row.inboundId)
        .orderBy('id')
        .executeTakeFirst();
      await storeAttachments(
        trx,
        { incidentId, entryId: entry?.id ?? null, files: outcome.prepared, dropped: outcome.refused },
        now,
      );
      await touchIncident(trx, incidentId, 'note', now);
    }
    await trx
      .updateTable('whatsappMedia')
      .set({
        status: outcome.prepared.length > 0 ? 'done' : 'failed',
        lastError: outcome.error,
      })
      .where('id', '=', row.id)
      .execute();
  });
}

const unfetched = (row: Row, reason: RefusedFile['reason'], message: string): RefusedFile => ({
  filename: row.filename,
  reason,
  message,
  size: 0,
});

/** One file: fetched and attached, tried again later, or said to be lost. */
async function fetchOne(db: Db, settings: WhatsAppSettings, row: Row, now: Date): Promise<void> {
  const graph = createGraphClient(settings);
  let bytes: Uint8Array;
  try {
    ({ bytes } = await graph.fetchMedia(row.mediaId, { maxBytes: MAX_FILE_BYTES }));
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const attempts = row.attempts + 1;
    await noteError(db, `No se pudo traer un archivo de WhatsApp: ${text}`, new Date());
    const retry = !(error instanceof GraphError) || error.retryable;
    if (retry && attempts < MAX_MEDIA_ATTEMPTS) {
      const wait = BACKOFF_MS[Math.min(attempts - 1, BACKOFF_MS.length - 1)]!;
      await db
        .updateTable('whatsappMedia')
        .set({ nextAttemptAt: new Date(Date.now() + wait).toISOString(), lastError: text.slice(0, 500) })
        .where('id', '=', row.id)
        .execute();
      return;
    }
    const tooLarge = error instanceof GraphError && error.kind === 'too-large';
    await settle(
      db,
      row,
      {
        prepared: [],
        refused: [unfetched(row, tooLarge ? 'too-large' : 'unfetched', text)],
        error: text.slice(0, 500),
      },
      now,
    );
    return;
  }
  const checked = await prepareFiles([{ filename: row.filename, data: bytes }]);
  const prepared = await storeBlobs(db, checked.prepared, now);
  if (checked.refused.length > 0)
    await noteError(db, `Un archivo de WhatsApp no pasó las comprobaciones: ${row.filename}`, now);
  await settle(
    db,
    row,
    {
      prepared,
      refused: checked.refused,
      error: checked.refused[0]?.message?.slice(0, 500) ?? null,
    },
    now,
  );
}

let running: Promise<void> | null = null;
let again = false;
let timer: NodeJS.Timeout | null = null;

async function run(db: Db, settings: WhatsAppSettings): Promise<void> {
  for (;;) {
    const now = new Date();
    const due = await db
      .selectFrom('whatsappMedia')
      .select(['id', 'inboundId', 'mediaId', 'filename', 'attempts'])
      .where('status', '=', 'pending')
      .where('nextAttemptAt', '<=', now.toISOString())
      .orderBy('id')
      .limit(BATCH)
      .execute();
    let took = 0;
    for (const row of due) {
      if (!(await claim(db, row, now))) continue;
      took += 1;
      try {
        await fetchOne(db, settings, row, now);
      } catch (error) {
        // The database failed while settling it: the lease runs out and a later run takes it again.
        await noteError(db, `No se pudo guardar un archivo de WhatsApp: ${String(error)}`, new Date());
      }
    }
    if (took === 0 && !again) break;
    again = false;
  }
  // A file waiting for its next attempt: a run then (never keeping the process alive for it).
  const next = await db
    .selectFrom('whatsappMedia')
    .select('nextAttemptAt')
    .where('status', '=', 'pending')
    .orderBy('nextAttemptAt')
    .limit(1)
    .executeTakeFirst();
  if (next) {
    const wait = Math.max(1000, new Date(next.nextAttemptAt).getTime() - Date.now());
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void drainWhatsAppMedia(db, settings), Math.min(wait, 60 * 60_000));
    timer.unref();
  }
}

/**
 * Fetches every file that is due, one run at a time in this process (a call during a run makes it
 * look again before it ends); resolves when the run ends. Never rejects.
 */
export function drainWhatsAppMedia(db: Db, settings: WhatsAppSettings): Promise<void> {
  if (running) {
    again = true;
    return running;
  }
  running = run(db, settings)
    .catch(() => {})
    .finally(() => {
      running = null;
    });
  return running;
}

/** Resolves when the current run (if any) has ended: for tests and a clean stop. */
export function whatsappMediaSettled(): Promise<void> {
  return running ?? Promise.resolve();
}

/** At the server's start: files left to fetch are fetched (nothing when the channel is off). */
export function startWhatsAppMedia(db: Db, config: WhatsAppConfig): void {
  const settings = whatsappSettings(config);
  if (settings) void drainWhatsAppMedia(db, settings);
}
