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
import { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import { sqliteFileOf } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import type { PreparedFile } from './files.ts';
import { putBlob } from './index.ts';

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

interface Reply {
  id: number;
  keys?: string[];
  error?: string;
}

/** A worker with nothing to write for this long ends (its connection and memory given back). */
const IDLE_MS = 15_000;

class BlobWorker {
  readonly #worker: Worker;
  readonly #path: string;
  #idle: NodeJS.Timeout | undefined;
  readonly #pending = new Map<number, { resolve: (keys: string[]) => void; reject: (error: Error) => void }>();
  #next = 0;

  constructor(path: string) {
    this.#path = path;
    this.#worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path } });
    this.#worker.on('message', (reply: Reply) => {
      const pending = this.#pending.get(reply.id);
      if (!pending) return;
      this.#pending.delete(reply.id);
      if (!this.#pending.size) this.#restIdle();
      if (reply.keys) pending.resolve(reply.keys);
      else pending.reject(new Error(`No se pudo guardar un archivo: ${reply.error ?? 'error desconocido'}`));
    });
    const fail = (error: Error) => {
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
      if (workers.get(path) === this) workers.delete(path);
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', (code) => fail(new Error(`El proceso de archivos terminó (${code})`)));
    // Referenced only while a write waits on it (write, #restIdle). After the listeners: adding a
    // 'message' listener refs the worker again.
    this.#worker.unref();
  }

  #restIdle(): void {
    // Nothing waits on it: it no longer keeps the process alive.
    this.#worker.unref();
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      if (this.#pending.size) return;
      if (workers.get(this.#path) === this) workers.delete(this.#path);
      void this.#worker.terminate();
    }, IDLE_MS);
    this.#idle.unref();
  }

  write(items: Uint8Array[], createdAt: string): Promise<string[]> {
    clearTimeout(this.#idle);
    // A caller waits on it: the process lives until the answer comes.
    this.#worker.ref();
    const id = (this.#next += 1);
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      // Copied to the worker (structured clone): the caller keeps its bytes.
      this.#worker.postMessage({ id, items, createdAt });
    });
  }
}

/** One worker per SQLite file this process writes files to. */
const workers = new Map<string, BlobWorker>();

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
    let worker = workers.get(path);
    if (!worker) workers.set(path, (worker = new BlobWorker(path)));
    const writer = worker;
    keys = await db.connection().execute(() => writer.write(items, now.toISOString()));
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
