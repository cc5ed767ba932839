/**
 * Files' bytes stored before the transaction that names them (issue 21, "Speed"; docs/decisions/0015).
 *
 * Writing a 10 MB blob into SQLite costs 40–70 ms of copying pages into the WAL and syncing it, and
 * `node:sqlite` does it on the calling thread: on the server's own thread, twenty uploads at once left a
 * static page at a few requests a second. So on a SQLite file the bytes (and their SHA-256) go to a
 * worker thread with a connection of its own, before the transaction that stores the attachment rows:
 * - while the worker writes, this process's connection is held (Kysely's single-connection mutex, through
 *   `db.connection()`), so the two never compete for SQLite's write lock and this thread never waits in
 *   SQLite's busy handler; its queries wait asynchronously, and the event loop keeps serving;
 * - a blob is keyed by its content and written with an upsert, so a write repeated, or left behind by a
 *   crash before its transaction, is harmless: `purgeUnusedBlobs` (kept.ts) deletes blobs nothing names
 *   two days after their last use, and the upsert moves that time on for a blob used again;
 * - the worker's connection syncs every commit like ours (`synchronous = FULL`, 0002).
 * On PostgreSQL (the `pg` driver writes asynchronously) and on an in-memory database the bytes are
 * written through the connection itself, still before the transaction.
 */
import type { Kysely } from 'kysely';
import { sqliteFileOf } from '../db/index.ts';
import type { Database } from '../db/index.ts';
import type { PreparedFile } from './files.ts';
import { putBlob } from './attachments.ts';
import { RequestWorker, workerModule } from '../request-worker.ts';
import type { BlobWriterWorkerData } from './blob-writer-worker.ts';

type Db = Kysely<Database>;

/** A worker with nothing to write for this long ends (its connection and memory given back). */
const IDLE_MS = 15_000;

/** One worker per SQLite file this process writes files to. */
const workers = new Map<string, RequestWorker>();

function workerFor(path: string): RequestWorker {
  let worker = workers.get(path);
  if (!worker) {
    const made = new RequestWorker({
      // One connection, one prepared upsert, one message at a time (src/server/sqlite-blob-writer.ts).
      module: workerModule('attachments/blob-writer-worker.ts'),
      workerData: { path } satisfies BlobWriterWorkerData,
      idleMs: IDLE_MS,
      failure: (error) => `No se pudo guardar un archivo: ${error}`,
      exited: (code) => `El proceso de archivos terminó (${code})`,
      onEnd: () => {
        if (workers.get(path) === made) workers.delete(path);
      },
    });
    workers.set(path, (worker = made));
  }
  return worker;
}

/**
 * Writes blobs off this thread, or answers null when it cannot for this database (then this thread
 * writes them): the keys. One that does not hand `items` back took them without a copy and let them go
 * (the caller's views are left empty). On SQLite it holds `db`'s connection while its worker writes.
 */
export type BlobWriter = (
  db: Db,
  items: Uint8Array[],
  createdAt: string,
) => Promise<{ keys: string[]; items?: Uint8Array[] } | null>;

/** This module's writer, on a SQLite file only: the items are copied to its worker, the caller keeps its own. */
const copyingWriter: BlobWriter = async (db, items, createdAt) => {
  const path = sqliteFileOf(db);
  if (!path) return null;
  const writer = workerFor(path);
  const reply = await db.connection().execute(() => writer.request({ items, createdAt }));
  return { keys: reply.keys as string[], items };
};

/**
 * Stores the files' bytes and thumbnails (those not stored yet) and returns the files with their keys
 * (`blob`, `thumbBlob`), for {@link storeAttachments} to name in its transaction. Call it outside any
 * transaction: on SQLite it holds the connection while the worker writes. `writer`: another worker to
 * write them (the mail reader's, src/server/channels/mail/mime-worker.ts, on both engines); when it keeps the
 * bytes, the files returned carry only their sizes (`size`), their `data` and `thumb` empty.
 */
export async function storeBlobs(
  db: Db,
  files: readonly PreparedFile[],
  now: Date = new Date(),
  writer: BlobWriter = copyingWriter,
): Promise<PreparedFile[]> {
  const missing = files.filter((file) => file.blob === undefined);
  if (!missing.length) return [...files];
  const items: Uint8Array[] = [];
  for (const file of missing) {
    items.push(file.data);
    if (file.thumb) items.push(file.thumb);
  }
  // Before a writer may take the bytes away.
  const sizes = missing.map((file) => file.size ?? file.data.byteLength);
  let written = await writer(db, items, now.toISOString());
  if (!written) {
    const keys: string[] = [];
    for (const item of items) keys.push(await putBlob(db, item, now));
    written = { keys, items };
  }
  const { keys, items: back } = written;
  const stored = new Map<PreparedFile, PreparedFile>();
  let index = 0;
  for (const [position, file] of missing.entries()) {
    const data = back?.[index] ?? new Uint8Array();
    const blob = keys[index++]!;
    const thumb = file.thumb ? (back?.[index] ?? new Uint8Array()) : null;
    const thumbBlob = file.thumb ? keys[index++]! : null;
    stored.set(file, { ...file, data, thumb, blob, thumbBlob, size: sizes[position]! });
  }
  return files.map((file) => stored.get(file) ?? file);
}
