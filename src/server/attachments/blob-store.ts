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
import type { Database } from '../db/schema.ts';
import type { PreparedFile } from './files.ts';
import { putBlob } from './index.ts';
import { RequestWorker } from '../request-worker.ts';

type Db = Kysely<Database>;

// CommonJS, evaluated in the worker: one connection, one prepared upsert, one message at a time.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const { createHash } = require('node:crypto');
const db = new DatabaseSync(workerData.path, { timeout: 5000, enableForeignKeyConstraints: true });
db.exec('PRAGMA synchronous = FULL');
db.exec('PRAGMA busy_timeout = 5000');
const upsert = db.prepare(
  'insert into blobs (sha256, size, data, created_at) values (?, ?, ?, ?) ' +
  'on conflict (sha256) do update set created_at = excluded.created_at',
);
parentPort.on('message', ({ id, items, createdAt }) => {
  try {
    db.exec('BEGIN IMMEDIATE');
    const keys = items.map((data) => {
      const key = createHash('sha256').update(data).digest('hex');
      upsert.run(key, data.byteLength, data, createdAt);
      return key;
    });
    db.exec('COMMIT');
    parentPort.postMessage({ id, keys });
  } catch (error) {
    try { db.exec('ROLLBACK'); } catch {}
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

/** A worker with nothing to write for this long ends (its connection and memory given back). */
const IDLE_MS = 15_000;

/** One worker per SQLite file this process writes files to. */
const workers = new Map<string, RequestWorker>();

function workerFor(path: string): RequestWorker {
  let worker = workers.get(path);
  if (!worker) {
    const made = new RequestWorker({
      source: WORKER_SOURCE,
      workerData: { path },
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
 * Stores the files' bytes and thumbnails (those not stored yet) and returns the files with their keys
 * (`blob`, `thumbBlob`), for {@link storeAttachments} to name in its transaction. Call it outside any
 * transaction: on SQLite it holds the connection while the worker writes.
 */
export async function storeBlobs(db: Db, files: readonly PreparedFile[], now: Date = new Date()): Promise<PreparedFile[]> {
  const missing = files.filter((file) => file.blob === undefined);
  if (!missing.length) return [...files];
  const items: Uint8Array[] = [];
  for (const file of missing) {
    items.push(file.data);
    if (file.thumb) items.push(file.thumb);
  }
  const path = sqliteFileOf(db);
  let keys: string[];
  if (path) {
    const writer = workerFor(path);
    // Copied to the worker (structured clone): the caller keeps its bytes.
    const reply = await db.connection().execute(() => writer.request({ items, createdAt: now.toISOString() }));
    keys = reply.keys as string[];
  } else {
    keys = [];
    for (const item of items) keys.push(await putBlob(db, item, now));
  }
  const stored = new Map<PreparedFile, PreparedFile>();
  let index = 0;
  for (const file of missing) {
    const blob = keys[index++]!;
    const thumbBlob = file.thumb ? keys[index++]! : null;
    stored.set(file, { ...file, blob, thumbBlob });
  }
  return files.map((file) => stored.get(file) ?? file);
}
