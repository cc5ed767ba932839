/**
 * A mail read off the server's thread (issue 21, "Speed" and "Memory"): one worker thread of its own,
 * kept while mail comes in and ended after a quiet while, which parses the MIME tree (postal-mime), and,
 * for a mail being received, keeps its bytes, hashes, compresses and stores them itself:
 * - A 25 MB mail took the server's thread for about a second, every page waiting behind it; here it
 *   takes the worker's.
 * - Decoding base64 churns through tens of megabytes of short-lived strings. On the server's thread that
 *   grows V8's young generation to its largest for good (about 60 MB of resident memory the first time);
 *   the worker's young generation is kept small (`YOUNG_GENERATION_MB`), and an ended worker gives
 *   all of its memory back.
 * - A parse that does not end within {@link PARSE_TIMEOUT_MS} ends the worker: the mail is refused to
 *   its channel (which hands it over again later), and the next one gets a new worker.
 * - A mail being received comes as a stream ({@link MailStream}): the webhook hands its body's chunks
 *   over as they arrive, each moved to the worker; a mail from the mailbox is downloaded by the worker
 *   itself ({@link MailStream.download}). The worker hashes, gzips and parses the chunks as they come;
 *   neither thread holds the whole mail, nor its gzip, which goes to a spool file as it is made (an
 *   unlinked file in the temporary folder: nothing is left whatever ends it). The worker keeps that
 *   file ({@link StagedOriginal}), writes the mail's files ({@link mailBlobWriter}), moved to it without
 *   a copy and let go once written, and writes the gzip from the file in parts of at most 1 MiB
 *   (original.ts) once the mail's row is committed: through a connection of its own, to the SQLite
 *   file or the PostgreSQL database (docs/decisions/0014, sessions 11 and 12).
 */
import { tmpdir } from 'node:os';
import { postgresTargetOf, sqliteFileOf, type Db, type PostgresTarget } from '../../db/index.ts';
import type { BlobWriter } from '../../attachments/index.ts';
import { RequestWorker, workerModule } from '../../request-worker.ts';
import { writeOriginal } from './original.ts';
import type { Email } from 'postal-mime';
import type { MimeWorkerData } from './mime-parse-worker.ts';

const YOUNG_GENERATION_MB = 4;
export const PARSE_TIMEOUT_MS = 60_000;
/** Longest a write of the original or of the files may take before the worker is ended. */
const WRITE_TIMEOUT_MS = 60_000;
/** A worker with nothing to do for this long ends (what it kept, and its connections, with it). */
const IDLE_MS = 30_000;

// The worker's code is its own module, mime-parse-worker.ts (its requests listed there), read by the
// compiler and the linter like this one; found from the source and from the build by workerModule
// (src/server/request-worker.ts).
let current: RequestWorker | undefined;

function worker(): RequestWorker {
  if (current) return current;
  const made = new RequestWorker({
    module: workerModule('channels/mail/mime-parse-worker.ts'),
    workerData: { spool: tmpdir() } satisfies MimeWorkerData,
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
  return (
    view.buffer instanceof ArrayBuffer &&
    view.byteOffset === 0 &&
    view.byteLength === view.buffer.byteLength &&
    view.byteLength > 8192
  );
}

/** The database the worker writes to with a connection of its own; null for SQLite in memory. */
export type WriteTarget = { sqlite: string } | { postgres: PostgresTarget };
function writeTargetOf(db: Db): WriteTarget | null {
  const path = sqliteFileOf(db);
  if (path) return { sqlite: path };
  const postgres = postgresTargetOf(db);
  return postgres ? { postgres } : null;
}

/**
 * A received mail's gzip, kept by the reader's worker from the parse on (in its spool file), to be stored once the mail's
 * row is committed ({@link store}) or dropped ({@link release}). After a crash between the two, the
 * channel hands the mail over again: it is a duplicate then, and {@link store} with `onlyIfMissing`
 * fills in the original its row lacks.
 */
export class StagedOriginal {
  readonly #worker: RequestWorker;
  readonly #key: string;
  #done = false;

  constructor(owner: RequestWorker, key: string) {
    this.#worker = owner;
    this.#key = key;
  }

  /**
   * Written as the original of the row `inboundId`, in parts of at most 1 MiB (`inbound_original_parts`,
   * the count `original_parts` set last: see original.ts), by the worker through its own connection (on
   * a SQLite file, this process's connection held meanwhile, as blob-store.ts does); through `db` for
   * SQLite in memory. `onlyIfMissing`: only into a row that has no complete one.
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
    await writeOriginal(db, inboundId, reply.gzip as Uint8Array, onlyIfMissing);
  }

  /** Drops the gzip unless stored (harmless twice). */
  release(): void {
    if (this.#done) return;
    this.#done = true;
    this.#worker.request({ op: 'release', staged: this.#key }).catch(() => {});
  }
}

export interface ReadMime {
  /** Postal-mime's tree, without its bodies (`text`, `html`): their text is {@link readable}. */
  email: Email;
  /** The mail's text: its plain text, else its HTML as text (both capped in mime-parse-worker.ts). */
  readable: string;
  /** Why the mail could not be read (in Spanish), its `email` then only its own headers; else null. */
  unreadable: string | null;
  /** Hex SHA-256 of the mail's bytes. */
  sha256: string;
  /** The bytes ({@link readMime}); null for a streamed mail. */
  raw: Uint8Array | null;
  /** A streamed mail's gzip, kept by the worker ({@link MailStream}). */
  original: StagedOriginal | null;
}

/**
 * The mail's MIME tree (postal-mime's `Email`, attachments as ArrayBuffers), the SHA-256 of its bytes,
 * and the bytes back (moved, or copied when not given up). With `move`, the caller gives `given` up (it
 * may come back detached, empty). A mail being received is streamed instead ({@link MailStream}).
 */
export async function readMime(given: Uint8Array, options: { move?: boolean } = {}): Promise<ReadMime> {
  // Moved to the worker (and back) when the caller gives its bytes up and the view is its buffer's only
  // one; copied otherwise. (`new Uint8Array(view)` copies; a Buffer's `slice` would not.)
  const buffer = options.move && ownsBuffer(given) ? given.buffer : new Uint8Array(given).buffer;
  const owner = worker();
  const reply = await owner.request({ op: 'parse', raw: buffer }, [buffer], {
    ms: PARSE_TIMEOUT_MS,
    message: 'El correo tardó demasiado en leerse',
  });
  return {
    email: reply.email as Email,
    readable: reply.readable as string,
    unreadable: (reply.unreadable as string | null) ?? null,
    sha256: reply.sha256 as string,
    raw: new Uint8Array(reply.raw as ArrayBuffer),
    original: null,
  };
}

/** Where and as whom the reader's worker downloads a mail from the mailbox (imap.ts's `imapTarget`). */
export interface MailboxConnection {
  host: string;
  port: number;
  secure: boolean;
  auth: { user: string; pass: string };
  mailbox: string;
}

/**
 * Longest a download from the mailbox may take in the reader's worker before the worker is ended (a
 * backstop: imapflow's own socket timeout ends a connection that stalls).
 */
const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

/** Bytes copied into one chunk before it is moved to the worker. */
const STREAM_CHUNK_BYTES = 256 * 1024;
/** Bytes sent to the worker and not yet read there, past which {@link MailStream.push} waits. */
const STREAM_WINDOW_BYTES = 2 * 1024 * 1024;
let streamCount = 0;

/**
 * A mail handed to the reader's worker as it arrives (IMAP's download, the webhook's body), so that the
 * server's thread never holds it whole: each chunk the channel gives up is moved (not copied) to the
 * worker, smaller or shared ones copied into chunks of {@link STREAM_CHUNK_BYTES} that are moved; the
 * worker hashes, gzips and parses them as they come, lets each go once read, and keeps only the gzip,
 * in a spool file ({@link StagedOriginal}). At most {@link STREAM_WINDOW_BYTES} are on their way at once:
 * {@link push} waits past that. Or the worker downloads the mail from the mailbox itself ({@link download}). Ended by {@link finish} (the mail read) or {@link abort} (a
 * channel that failed or refused it): one of the two must be called.
 */
export class MailStream {
  readonly #worker: RequestWorker;
  readonly #key: string;
  readonly #inFlight: Array<{ size: number; done: Promise<unknown> }> = [];
  #chunk: Uint8Array<ArrayBuffer> | null = null;
  #filled = 0;
  #waiting = 0;
  #failure: unknown = null;
  #closed = false;
  /** Bytes pushed so far. */
  size = 0;

  readonly #chunkBytes: number;

  /**
   * `chunkBytes`: the size of the chunks moved to the worker (smaller only in tests).
   */
  constructor(chunkBytes = STREAM_CHUNK_BYTES) {
    this.#chunkBytes = chunkBytes;
    this.#worker = worker();
    this.#key = `s${(streamCount += 1)}`;
    // Answered once the stream ends; it keeps the worker (and the process) while the mail comes in.
    this.#worker.request({ op: 'open', stream: this.#key }).catch(() => {});
  }

  /**
   * Hands over the next bytes. With `give`, the caller gives its chunk up: when the chunk is its
   * buffer's only view, that buffer is moved to the worker as it is (the caller's chunk is left empty)
   * and let go there once read, instead of being copied and left to the server's thread's collector.
   * Otherwise the bytes are copied (the caller keeps them). Rejects when the reading failed.
   */
  async push(bytes: Uint8Array, give = false): Promise<void> {
    if (this.#closed) throw new Error('El correo ya se terminó de leer');
    this.size += bytes.byteLength;
    if (give && ownsBuffer(bytes)) {
      this.#send();
      this.#chunk = bytes;
      this.#filled = bytes.byteLength;
      this.#send();
      return this.#wait();
    }
    let offset = 0;
    while (offset < bytes.byteLength) {
      this.#chunk ??= new Uint8Array(this.#chunkBytes);
      const length = Math.min(bytes.byteLength - offset, this.#chunk.byteLength - this.#filled);
      this.#chunk.set(bytes.subarray(offset, offset + length), this.#filled);
      this.#filled += length;
      offset += length;
      if (this.#filled === this.#chunk.byteLength) this.#send();
    }
    return this.#wait();
  }

  /**
   * Fills the stream from the mailbox instead of {@link push}: the reader's worker downloads the mail
   * `uid` itself (imapflow, a connection of its own, the mailbox opened read-only, at most `maxBytes`),
   * reading it as it comes, so that neither the mail nor the socket's reads it is assembled from pass
   * through the server's thread. False when the mail is not there (the stream is dropped then, as on a
   * failure).
   */
  async download(connection: MailboxConnection, uid: number, maxBytes: number): Promise<boolean> {
    if (this.#closed || this.size) throw new Error('El correo ya se está leyendo');
    try {
      const reply = await this.#worker.request(
        { op: 'imap', stream: this.#key, connection, uid, maxBytes },
        [],
        {
          ms: DOWNLOAD_TIMEOUT_MS,
          message: 'El correo tardó demasiado en descargarse',
        },
      );
      this.size = reply.size as number;
      if (!reply.found) this.abort();
      return reply.found as boolean;
    } catch (error) {
      this.abort();
      throw error;
    }
  }

  async #wait(): Promise<void> {
    while (this.#waiting > STREAM_WINDOW_BYTES) await this.#inFlight[0]!.done;
    if (this.#failure) throw this.#failure;
  }

  #send(): void {
    if (!this.#chunk || !this.#filled) return;
    const chunk = this.#chunk.buffer;
    const size = this.#filled;
    this.#chunk = null;
    this.#filled = 0;
    this.#waiting += size;
    const entry = {
      size,
      done: this.#worker
        .request({ op: 'chunk', stream: this.#key, chunk, length: size }, [chunk], {
          ms: PARSE_TIMEOUT_MS,
          message: 'El correo tardó demasiado en leerse',
        })
        .catch((error: unknown) => {
          this.#failure ??= error;
        })
        .finally(() => {
          this.#waiting -= size;
          this.#inFlight.splice(this.#inFlight.indexOf(entry), 1);
        }),
    };
    this.#inFlight.push(entry);
  }

  /** The mail read: its MIME tree, the SHA-256 of its bytes, and its original staged in the worker. */
  async finish(): Promise<ReadMime> {
    if (this.#closed) throw new Error('El correo ya se terminó de leer');
    this.#send();
    await Promise.all(this.#inFlight.map((entry) => entry.done));
    if (this.#failure) {
      this.abort();
      throw this.#failure;
    }
    this.#closed = true;
    const reply = await this.#worker.request({ op: 'end', stream: this.#key }, [], {
      ms: PARSE_TIMEOUT_MS,
      message: 'El correo tardó demasiado en leerse',
    });
    return {
      email: reply.email as Email,
      readable: reply.readable as string,
      unreadable: (reply.unreadable as string | null) ?? null,
      sha256: reply.sha256 as string,
      raw: null,
      original: new StagedOriginal(this.#worker, reply.staged as string),
    };
  }

  /** Drops what was read (harmless once finished or twice). */
  abort(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#chunk = null;
    this.#worker.request({ op: 'abort', stream: this.#key }).catch(() => {});
  }
}

/** The mail's MIME tree and its bytes (see {@link readMime}). */
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
