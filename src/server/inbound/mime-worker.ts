/**
 * A mail read off the server's thread (issue 21, "Speed" and "Memory"): one worker thread of its own,
 * kept while mail comes in and ended after a quiet while, which parses the MIME tree (postal-mime), and,
 * for a mail being received, keeps its bytes, hashes, compresses and stores them itself:
 * - A 25 MB mail took the server's thread for about a second, every page waiting behind it; here it
 *   takes the worker's.
 * - Decoding base64 churns through tens of megabytes of short-lived strings. On the server's thread that
 *   grows V8's young generation to its largest for good (about 60 MB of resident memory the first time);
 *   the worker's young generation is kept small ({@link YOUNG_GENERATION_MB}), and an ended worker gives
 *   all of its memory back.
 * - A parse that does not end within {@link PARSE_TIMEOUT_MS} ends the worker: the mail is refused to
 *   its channel (which hands it over again later), and the next one gets a new worker.
 * - The bytes a channel fetched are moved to the worker, not copied, and with {@link readMime}'s `stage`
 *   stay there ({@link StagedOriginal}); it writes the mail's files ({@link mailBlobWriter}), moved to
 *   it without a copy and let go once written; then gzips the original (and lets the bytes as received
 *   go) and writes it into its row once the row is committed: through a connection of its own, to the
 *   SQLite file or the PostgreSQL database. So the mail's bytes, its files and its compressed original are never all held at once,
 *   and the server's thread never holds the original a second time, compressed or not
 *   (docs/decisions/0014, session 11).
 */
import { createRequire } from 'node:module';
import { postgresTargetOf, sqliteFileOf, type Db, type PostgresTarget } from '../db/index.ts';
import { SQLITE_BLOB_WRITER_SOURCE, type BlobWriter } from '../attachments/blob-store.ts';
import { RequestWorker } from '../request-worker.ts';
import type { Email } from 'postal-mime';

const YOUNG_GENERATION_MB = 4;
export const PARSE_TIMEOUT_MS = 60_000;
/** Longest a write of the original or of the files may take before the worker is ended. */
const WRITE_TIMEOUT_MS = 60_000;
/** A worker with nothing to do for this long ends (what it kept, and its connections, with it). */
const IDLE_MS = 30_000;

// CommonJS, evaluated in the worker; postal-mime's path comes resolved from here, so that it is found
// wherever the server's bundle lives. One request at a time, by `op`:
// - parse: the MIME tree (attachments moved back), the SHA-256 of the bytes, and the bytes either moved
//   back or, with `stage`, kept under the request's id;
// - compress: the kept bytes gzipped (the bytes as received let go);
// - original: the kept original, gzipped if not yet, given a database (`target`), written into
//   `inbound_messages.raw_gzip` of `inboundId` (only when it has none with `onlyIfMissing`), else moved
//   back; dropped;
// - release: the kept original dropped;
// - blobs: items written as blobs (blob-store.ts's writer) and dropped: only their keys come back.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { gzipSync } = require('node:zlib');
${SQLITE_BLOB_WRITER_SOURCE}
const loaded = require(workerData.module);
const PostalMime = loaded.default || loaded;
// Gives a buffer's memory back now rather than at the next collection (it is detached).
const free = (buffer) => {
  if (buffer instanceof ArrayBuffer && !buffer.detached) buffer.transfer(0);
};
// postal-mime gathers a base64 part's decoded chunks into a Blob and reads that into an ArrayBuffer: two
// more copies of each file at once. Its decoder here joins the chunks into the ArrayBuffer directly and
// frees each once copied (checked on a probe first: left as it is if postal-mime's decoder has changed shape).
try {
  const path = require('node:path');
  const Base64Decoder = require(path.join(path.dirname(workerData.module), 'base64-decoder.js'));
  const probe = new Base64Decoder();
  if (Array.isArray(probe.chunks) && typeof probe.flushRemainder === 'function' && typeof probe.finalize === 'function') {
    Base64Decoder.prototype.finalize = function () {
      this.flushRemainder();
      let length = 0;
      for (const chunk of this.chunks) length += chunk.byteLength;
      const joined = new Uint8Array(length);
      let offset = 0;
      for (const chunk of this.chunks) {
        joined.set(new Uint8Array(chunk), offset);
        offset += chunk.byteLength;
        free(chunk);
      }
      this.chunks = [];
      return Promise.resolve(joined.buffer);
    };
  }
} catch {}
// A writer per database: on a SQLite file, a connection of its own (blob-store.ts's); on PostgreSQL, a
// client of its own (one connection), dropped if it fails. Each writes blobs in one transaction and an
// original into its row.
const writers = new Map();
const asBuffer = (view) => Buffer.from(view.buffer, view.byteOffset, view.byteLength);
const originalSql = (onlyIfMissing, first, second) =>
  'update inbound_messages set raw_gzip = ' + first + ' where id = ' + second + (onlyIfMissing ? ' and raw_gzip is null' : '');
const sqliteWriter = (path) => {
  const writer = openBlobWriter(path);
  return {
    writeBlobs: async (items, createdAt) => writer.writeBlobs(items, createdAt),
    writeOriginal: async (gzip, inboundId, onlyIfMissing) => {
      writer.db.prepare(originalSql(onlyIfMissing, '?', '?')).run(gzip, inboundId);
    },
    close: async () => writer.db.close(),
  };
};
const postgresWriter = async ({ url, schema }, forget) => {
  const { Client } = require(workerData.pg);
  const client = new Client({
    connectionString: url,
    connectionTimeoutMillis: 5000,
    options: schema ? '-c search_path=' + schema : undefined,
  });
  client.on('error', forget);
  client.on('end', forget);
  await client.connect();
  return {
    async writeBlobs(items, createdAt) {
      await client.query('begin');
      try {
        const keys = [];
        for (const data of items) {
          const key = createHash('sha256').update(data).digest('hex');
          await client.query(
            'insert into blobs (sha256, size, data, created_at) values ($1, $2, $3, $4) ' +
              'on conflict (sha256) do update set created_at = excluded.created_at',
            [key, data.byteLength, asBuffer(data), createdAt],
          );
          keys.push(key);
        }
        await client.query('commit');
        return keys;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      }
    },
    async writeOriginal(gzip, inboundId, onlyIfMissing) {
      await client.query(originalSql(onlyIfMissing, '$1', '$2'), [asBuffer(gzip), inboundId]);
    },
    close: () => client.end(),
  };
};
// A writer unused for WRITER_IDLE_MS is closed: a worker that outlives many databases (the tests' ones)
// does not keep a connection to each.
const WRITER_IDLE_MS = 5000;
const writerFor = (target) => {
  const key = JSON.stringify(target);
  let entry = writers.get(key);
  if (!entry) {
    const forget = () => {
      if (writers.get(key) !== entry) return;
      writers.delete(key);
      clearTimeout(entry.timer);
    };
    entry = {
      writer: target.sqlite ? Promise.resolve(sqliteWriter(target.sqlite)) : postgresWriter(target.postgres, forget),
      timer: undefined,
    };
    entry.writer.catch(forget);
    writers.set(key, entry);
  }
  clearTimeout(entry.timer);
  const current = entry;
  current.timer = setTimeout(() => {
    if (writers.get(key) !== current) return;
    writers.delete(key);
    current.writer.then((writer) => writer.close()).catch(() => {});
  }, WRITER_IDLE_MS);
  current.timer.unref();
  return current.writer;
};
const staged = new Map();
const owned = (views) => [...new Set(views.map((view) => view.buffer))];
// One output buffer large enough for any input (deflate's worst case adds about 0.03 %): no
// concatenation of chunks, no second copy; its pages past the end are never touched. Never from Node's
// pool of small Buffers (it may be moved). The bytes as received are let go at once.
const compress = (key) => {
  const kept = staged.get(key);
  if (!(kept instanceof ArrayBuffer)) return kept;
  const input = new Uint8Array(kept);
  const gzip = gzipSync(input, { chunkSize: Math.max(65536, input.byteLength + (input.byteLength >> 10) + 1024) });
  free(kept);
  staged.set(key, gzip);
  return gzip;
};
const ops = {
  async parse({ raw, stage }, id) {
    const email = await PostalMime.parse(raw, { forceRfc822Attachments: true, attachmentEncoding: 'arraybuffer' });
    const sha256 = createHash('sha256').update(new Uint8Array(raw)).digest('hex');
    const buffers = [];
    for (const part of email.attachments) if (part.content instanceof ArrayBuffer) buffers.push(part.content);
    if (!stage) return [{ email, sha256, raw }, [raw, ...buffers]];
    staged.set(id, raw);
    return [{ email, sha256, staged: id }, buffers];
  },
  compress({ staged: key }) {
    compress(key);
    return [{}, []];
  },
  async original({ staged: key, target, inboundId, onlyIfMissing }) {
    const gzip = compress(key);
    staged.delete(key);
    if (!gzip) throw new Error('el original ya no está en el lector');
    if (!target) return [{ gzip }, [gzip.buffer]];
    await (await writerFor(target)).writeOriginal(gzip, inboundId, onlyIfMissing);
    free(gzip.buffer);
    return [{}, []];
  },
  release({ staged: key }) {
    const kept = staged.get(key);
    staged.delete(key);
    if (kept) free(kept instanceof ArrayBuffer ? kept : kept.buffer);
    return [{}, []];
  },
  async blobs({ target, items, createdAt }) {
    const keys = await (await writerFor(target)).writeBlobs(items, createdAt);
    // The caller keeps only their sizes: what was moved here is let go at once.
    for (const buffer of owned(items)) free(buffer);
    return [{ keys }, []];
  },
};
parentPort.on('message', async ({ id, op, ...message }) => {
  try {
    const [result, transfer] = await ops[op](message, id);
    parentPort.postMessage({ id, ...result }, transfer);
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

let modulePaths: { module: string; pg: string } | undefined;
let current: RequestWorker | undefined;

function worker(): RequestWorker {
  if (current) return current;
  const resolve = createRequire(import.meta.url).resolve;
  modulePaths ??= { module: resolve('postal-mime'), pg: resolve('pg') };
  const made = new RequestWorker({
    source: WORKER_SOURCE,
    workerData: modulePaths,
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    idleMs: IDLE_MS,
    failure: (error) => `No se pudo leer el correo: ${error}`,
    exited: (code) => `El lector de correo terminó (${code})`,
    onEnd: () => {
      if (current === made) current = undefined;
    },
  });
  return (current = made);
}

/**
 * Whether the view is the only one on its buffer, so that the buffer can be moved to another thread
 * without taking anything else with it (not a slice of a larger buffer, nor Node's pool of small
 * Buffers, nor shared memory).
 */
function ownsBuffer(view: Uint8Array): view is Uint8Array<ArrayBuffer> {
  return view.buffer instanceof ArrayBuffer && view.byteOffset === 0 && view.byteLength === view.buffer.byteLength && view.byteLength > 8192;
}

/** The database the worker writes to with a connection of its own; null for SQLite in memory. */
type WriteTarget = { sqlite: string } | { postgres: PostgresTarget };
function writeTargetOf(db: Db): WriteTarget | null {
  const path = sqliteFileOf(db);
  if (path) return { sqlite: path };
  const postgres = postgresTargetOf(db);
  return postgres ? { postgres } : null;
}

/**
 * A received mail's bytes, kept by the reader's worker from the parse on, to be stored once the mail's
 * row is committed ({@link store}) or dropped ({@link release}). After a crash between the two, the
 * channel hands the mail over again: it is a duplicate then, and {@link store} with `onlyIfMissing`
 * fills in the original its row lacks.
 */
export class StagedOriginal {
  readonly #worker: RequestWorker;
  readonly #key: number;
  #done = false;

  constructor(owner: RequestWorker, key: number) {
    this.#worker = owner;
    this.#key = key;
  }

  /**
   * Gzipped and written into `inbound_messages.raw_gzip` of the row `inboundId` by the worker through
   * its own connection (on a SQLite file, this process's connection held meanwhile, as blob-store.ts
   * does); through `db` for SQLite in memory. `onlyIfMissing`: only into a row that has none.
   */
  async store(db: Db, inboundId: number, onlyIfMissing = false): Promise<void> {
    if (this.#done) throw new Error('El original ya se guardó o se soltó');
    this.#done = true;
    const target = writeTargetOf(db);
    const request = { op: 'original', staged: this.#key, target, inboundId, onlyIfMissing };
    const timeout = { ms: WRITE_TIMEOUT_MS, message: 'El original del correo tardó demasiado en guardarse' };
    if (target && 'sqlite' in target) {
      await db.connection().execute(() => this.#worker.request(request, [], timeout));
      return;
    }
    const reply = await this.#worker.request(request, [], timeout);
    if (target) return;
    let update = db.updateTable('inboundMessages').set({ rawGzip: reply.gzip as Uint8Array }).where('id', '=', inboundId);
    if (onlyIfMissing) update = update.where('rawGzip', 'is', null);
    await update.execute();
  }

  /**
   * Gzips the bytes now (the bytes as received let go): called once the mail's files are written, so
   * that the two are not held at once. {@link store} gzips them if this was not called.
   */
  async compress(): Promise<void> {
    if (this.#done) return;
    await this.#worker.request({ op: 'compress', staged: this.#key }, [], {
      ms: WRITE_TIMEOUT_MS,
      message: 'El original del correo tardó demasiado en comprimirse',
    });
  }

  /** Drops the bytes unless stored (harmless twice). */
  release(): void {
    if (this.#done) return;
    this.#done = true;
    this.#worker.request({ op: 'release', staged: this.#key }).catch(() => {});
  }
}

export interface ReadMime {
  email: Email;
  /** Hex SHA-256 of the mail's bytes. */
  sha256: string;
  /** The bytes, unless staged. */
  raw: Uint8Array | null;
  /** With `stage`: the bytes, kept by the worker. */
  original: StagedOriginal | null;
}

/**
 * The mail's MIME tree (postal-mime's `Email`, attachments as ArrayBuffers) and the SHA-256 of its
 * bytes. With `move`, the caller gives `given` up (it may come back detached, empty). With `stage`, the
 * bytes stay in the worker ({@link StagedOriginal}); without, they come back (moved, or copied when not
 * given up).
 */
export async function readMime(given: Uint8Array, options: { move?: boolean; stage?: boolean } = {}): Promise<ReadMime> {
  // Moved to the worker (and back) when the caller gives its bytes up and the view is its buffer's only
  // one; copied otherwise. (`new Uint8Array(view)` copies; a Buffer's `slice` would not.)
  const buffer = options.move && ownsBuffer(given) ? given.buffer : new Uint8Array(given).buffer;
  const owner = worker();
  const reply = await owner.request({ op: 'parse', raw: buffer, stage: options.stage ?? false }, [buffer], {
    ms: PARSE_TIMEOUT_MS,
    message: 'El correo tardó demasiado en leerse',
  });
  return {
    email: reply.email as Email,
    sha256: reply.sha256 as string,
    raw: reply.raw ? new Uint8Array(reply.raw as ArrayBuffer) : null,
    original: typeof reply.staged === 'number' ? new StagedOriginal(owner, reply.staged) : null,
  };
}

/** The mail's MIME tree and its bytes (see {@link readMime}; never staged). */
export async function parseMime(given: Uint8Array, move = false): Promise<{ email: Email; raw: Uint8Array }> {
  const { email, raw } = await readMime(given, { move });
  return { email, raw: raw! };
}

/**
 * Writes a mail's files as blobs in the reader's worker (blob-store.ts's `storeBlobs`), through its own
 * connection, on both engines (null for SQLite in memory: `storeBlobs` writes them itself): no second
 * worker started for them, and each file whose buffer is its own is moved there rather than copied, and
 * let go once written: the caller's views of them are left empty (detached), and only the keys come
 * back (`storeBlobs` keeps each file's size).
 */
export const mailBlobWriter: BlobWriter = async (db, items, createdAt) => {
  const target = writeTargetOf(db);
  if (!target) return null;
  const transfer = [...new Set(items.filter(ownsBuffer).map((item) => item.buffer))];
  const owner = worker();
  const write = () =>
    owner.request({ op: 'blobs', target, items, createdAt }, transfer, {
      ms: WRITE_TIMEOUT_MS,
      message: 'Los archivos del correo tardaron demasiado en guardarse',
    });
  const reply = 'sqlite' in target ? await db.connection().execute(write) : await write();
  return { keys: reply.keys as string[] };
};
