/**
 * The mail reader's worker thread (mime-worker.ts says why mail is read off the server's thread): the
 * MIME tree parsed by postal-mime, a streamed mail hashed, gzipped to a spool file and parsed as it
 * comes, its original and its files written through a connection of its own. A module of its own,
 * loaded by RequestWorker from its file (src/server/request-worker.ts says how it is found from the
 * source and from the build); it imports only Node's modules, its packages and two small files of
 * src/server, never the database layer or the channels' face.
 *
 * One request at a time, by `op`:
 * - parse: the MIME tree (attachments moved back), the SHA-256 of the bytes, and the bytes moved back;
 * - open, chunk… or imap, end (or abort): a mail streamed in (imap: downloaded here from the mailbox),
 *   read as it comes; at its end the MIME tree and the SHA-256, its gzip's spool file kept under the
 *   stream's key;
 * - original: the kept gzip, given a database (target), written in parts into inbound_original_parts as
 *   the original of inboundId (only when it has none with onlyIfMissing), else moved back; its file closed;
 * - release: the kept gzip's file closed;
 * - blobs: items written as blobs (src/server/sqlite-blob-writer.ts on SQLite) and dropped: only their
 *   keys come back.
 *
 * postal-mime is loaded as CommonJS (`createRequire`) because its decoders and its parser's steps are
 * patched and replayed below, by their files in its dist/cjs folder: each patch checks its target's
 * shape on a probe first and leaves postal-mime as it is when that shape has changed.
 */
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parentPort, workerData, type Transferable } from 'node:worker_threads';
import { createGzip, type Gzip } from 'node:zlib';
import type { Email, PostalMimeOptions } from 'postal-mime';
import type { HtmlToTextOptions } from 'html-to-text';
import type { ImapFlowOptions } from 'imapflow';
import type { PostgresTarget } from '../../db/index.ts';
import { openBlobWriter } from '../../sqlite-blob-writer.ts';
import { ORIGINAL_PART_BYTES } from './original.ts';
import type { MailboxConnection, WriteTarget } from './mime-worker.ts';

/** What the server's thread gives the worker when it starts it (mime-worker.ts). */
export interface MimeWorkerData {
  /** The folder of the spool files (the system's temporary folder). */
  spool: string;
}

/** MIME parts nested deeper than this make a mail unreadable (postal-mime's own limit is 256). */
const MAX_MIME_DEPTH = 64;
/** HTML a mail's text is made from, at most (characters); the rest stays in its original. */
const HTML_MAX_CHARS = 1024 * 1024;
/** A mail's readable text, at most (characters): far past what an entry keeps (5,000). */
const READABLE_MAX_CHARS = 100_000;
/**
 * How an HTML-only mail becomes text (html-to-text): links without their URLs, images dropped, quoted
 * blocks kept as `>` lines; elements deeper than 200 levels or past 20,000 children of one element
 * are left out (what a real mail never reaches; 5,000 nested `<div>` overflowed the stack).
 */
const HTML_TEXT_OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  limits: { maxDepth: 200, maxChildNodes: 20_000, ellipsis: '…' },
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'head', format: 'skip' },
  ],
};

if (!parentPort) throw new Error('mime-parse-worker.ts runs as a worker thread');
const port = parentPort;
const data = workerData as MimeWorkerData;
const require = createRequire(import.meta.url);

/** A line as postal-mime's readLine gives it, with the end it had (`eol`) for the pass-through decoder. */
type Line = Uint8Array & { eol?: string };

/** The parts of postal-mime's parser that the stream replays (its parse loop, then its closing steps). */
interface Parser {
  options: PostalMimeOptions & { forceRfc822Attachments?: boolean };
  started: boolean;
  forceRfc822Attachments: boolean;
  root: unknown;
  processLine(line: Line, isFinal: boolean): Promise<void>;
  hasReportParts(): boolean;
  collectNode(node: unknown, alternative: boolean, related: boolean): Promise<void>;
  renderTextContent(): void;
  buildMessage(): Email;
  encodeAttachments(): void;
}
type PostalMimeClass = {
  new (options: typeof PARSE_OPTIONS): Parser;
  parse(raw: ArrayBuffer, options: typeof PARSE_OPTIONS): Promise<Email>;
  prototype: Record<string, unknown>;
};

const postalMimePath = require.resolve('postal-mime');
const loaded = require(postalMimePath) as PostalMimeClass & { default?: PostalMimeClass };
const PostalMime: PostalMimeClass = loaded.default || loaded;
/** One of postal-mime's own files (its CommonJS build), beside its entry. */
const postalMimeFile = <T>(name: string): T => require(join(postalMimePath, '..', name)) as T;

/** Gives a buffer's memory back now rather than at the next collection (it is detached). */
const free = (buffer: unknown): void => {
  if (buffer instanceof ArrayBuffer && !buffer.detached) buffer.transfer(0);
};

const joined = (parts: Uint8Array[], length: number): Uint8Array<ArrayBuffer> => {
  const whole = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
};

// postal-mime gathers a base64 part's decoded chunks into a Blob and reads that into an ArrayBuffer: two
// more copies of each file at once. Its decoder here joins the chunks into the ArrayBuffer directly and
// frees each once copied (checked on a probe first: left as it is if postal-mime's decoder has changed shape).
interface Base64Decoder {
  chunks: ArrayBuffer[];
  flushRemainder(): void;
  finalize(): Promise<ArrayBuffer>;
}
try {
  const Decoder = postalMimeFile<{ new (): Base64Decoder; prototype: Base64Decoder }>('base64-decoder.js');
  const probe = new Decoder();
  if (
    Array.isArray(probe.chunks) &&
    typeof probe.flushRemainder === 'function' &&
    typeof probe.finalize === 'function'
  ) {
    Decoder.prototype.finalize = function (this: Base64Decoder) {
      this.flushRemainder();
      let length = 0;
      for (const chunk of this.chunks) length += chunk.byteLength;
      const whole = new Uint8Array(length);
      let offset = 0;
      for (const chunk of this.chunks) {
        whole.set(new Uint8Array(chunk), offset);
        offset += chunk.byteLength;
        free(chunk);
      }
      this.chunks = [];
      return Promise.resolve(whole.buffer);
    };
  }
} catch {
  // postal-mime's own decoder stays.
}

// postal-mime keeps the lines of a part it does not decode (7bit, 8bit, binary) as they are given: views
// of a streamed chunk, which is let go once read (see 'chunk' below). Its decoder here keeps copies of
// them (checked on a probe first; without it, every line is copied).
interface PassThroughDecoder {
  chunks: Array<Uint8Array | string>;
  eol?: string;
  update(line: Line): void;
  finalize(): unknown;
}
let linesCopied = false;
try {
  const Decoder = postalMimeFile<{ new (): PassThroughDecoder; prototype: PassThroughDecoder }>(
    'pass-through-decoder.js',
  );
  const probe = new Decoder();
  if (
    Array.isArray(probe.chunks) &&
    typeof probe.update === 'function' &&
    typeof probe.finalize === 'function'
  ) {
    Decoder.prototype.update = function (this: PassThroughDecoder, line: Line) {
      if (this.eol) this.chunks.push(this.eol);
      this.chunks.push(line.slice());
      this.eol = line.eol || '\n';
    };
    linesCopied = true;
  }
} catch {
  // Every line is copied instead (feedLines).
}

// Quoted-printable: a hard line break is a CRLF of the content (RFC 2045, 6.7), not an LF (a PDF sent
// quoted-printable came out 208 bytes short, its startxref pointing nowhere); the last line's break is
// the boundary's. Its decoder here writes CRLF for each break but the last (checked on a probe first).
interface QPDecoder {
  hardBreak?: boolean;
  bufferPos: number;
  writeByte(byte: number): void;
  update(line: Line): void;
}
try {
  const Decoder = postalMimeFile<{ new (): QPDecoder; prototype: QPDecoder }>('qp-decoder.js');
  const probe = new Decoder();
  const decodeLine = Decoder.prototype.update;
  if (
    typeof decodeLine === 'function' &&
    typeof probe.writeByte === 'function' &&
    typeof probe.bufferPos === 'number'
  ) {
    Decoder.prototype.update = function (this: QPDecoder, line: Line) {
      if (this.hardBreak) {
        this.writeByte(0x0d);
        this.writeByte(0x0a);
      }
      decodeLine.call(this, line);
      // postal-mime's own break (an LF after a line not ending in '='), taken back: written before the next.
      this.hardBreak = !(line.length > 0 && line[line.length - 1] === 0x3d);
      if (this.hardBreak) this.bufferPos -= 1;
    };
  }
} catch {
  // postal-mime's own decoder stays.
}

// uuencode (Content-Transfer-Encoding: x-uuencode, uuencode, x-uue), which postal-mime passes through as
// text: decoded here (no RFC, but fixed since 4.0BSD: a length character, then 4 characters for 3 bytes,
// each character 32 plus 6 bits, a grave accent for 0; 'begin' and 'end' lines around). The two npm
// decoders are unmaintained for a decade (one calls the removed Buffer constructor), and the format is
// these 30 lines.
class UUDecoder {
  chunks: Uint8Array[] = [];
  done = false;

  update(line: Uint8Array): void {
    if (this.done) return;
    const text = String.fromCharCode(...line.subarray(0, Math.min(line.length, 200)));
    if (/^begin\s/.test(text)) return;
    if (/^end\s*$/.test(text)) {
      this.done = true;
      return;
    }
    const length = (line[0]! - 32) & 63;
    if (!line.length || !length) return;
    const out = new Uint8Array(length);
    const at = (index: number) => (index < line.length ? (line[index]! - 32) & 63 : 0);
    for (let group = 0, written = 0; written < length; group++) {
      const [a, b, c, d] = [1, 2, 3, 4].map((offset) => at(1 + group * 4 + offset - 1)) as [
        number,
        number,
        number,
        number,
      ];
      const bytes = [(a << 2) | (b >> 4), ((b & 15) << 4) | (c >> 2), ((c & 3) << 6) | d];
      for (const byte of bytes) if (written < length) out[written++] = byte & 255;
    }
    this.chunks.push(out);
  }

  finalize(): Promise<ArrayBuffer> {
    const whole = joined(
      this.chunks,
      this.chunks.reduce((sum, chunk) => sum + chunk.length, 0),
    );
    this.chunks = [];
    return Promise.resolve(whole.buffer);
  }
}

/** The parts of postal-mime's MIME node that the patches below reach. */
interface MimeNode {
  contentDecoder: unknown;
  content?: ArrayBuffer | Uint8Array | null;
  contentType?: { parsed?: { params?: Record<string, unknown> } };
  setupContentDecoder(transferEncoding: string): void;
  getTextContent(): string;
}
try {
  const Node = postalMimeFile<{ prototype: MimeNode }>('mime-node.js');
  const setup = Node.prototype.setupContentDecoder;
  if (typeof setup === 'function')
    Node.prototype.setupContentDecoder = function (this: MimeNode, transferEncoding: string) {
      if (/^\s*(x-)?(uuencode|uue)\s*$/i.test(transferEncoding || '')) this.contentDecoder = new UUDecoder();
      else setup.call(this, transferEncoding);
    };
} catch {
  // uuencoded parts stay text.
}

// A text part labelled with a charset that cannot be right (issue 41): 8-bit bytes under us-ascii, or a
// name no decoder knows. Valid UTF-8 is read as UTF-8 ('Envoyé', not 'EnvoyÃ©'); other bytes under
// us-ascii as windows-1252, under an unknown name by postal-mime's aliases (windows-1252 last). A label
// that can be right is kept as it is.
try {
  const Node = postalMimeFile<{ prototype: MimeNode }>('mime-node.js');
  const textOf = Node.prototype.getTextContent;
  const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
  const ASCII_LABELS = new Set(['us-ascii', 'ascii', 'ansi_x3.4-1968', 'iso646-us', 'us', '646']);
  const knownLabel = (label: string) => {
    try {
      new TextDecoder(label);
      return true;
    } catch {
      return false;
    }
  };
  const hasHighBytes = (bytes: Uint8Array) => {
    for (let index = 0; index < bytes.length; index++) if (bytes[index]! > 0x7f) return true;
    return false;
  };
  const validUtf8 = (bytes: Uint8Array) => {
    try {
      strictUtf8.decode(bytes);
      return true;
    } catch {
      return false;
    }
  };
  if (typeof textOf === 'function')
    Node.prototype.getTextContent = function (this: MimeNode) {
      const params = this.contentType && this.contentType.parsed && this.contentType.parsed.params;
      const label = params && typeof params.charset === 'string' ? params.charset.trim().toLowerCase() : '';
      if (!params || !label || !this.content) return textOf.call(this);
      const bytes = new Uint8Array(this.content);
      const ascii = ASCII_LABELS.has(label);
      if (ascii ? !hasHighBytes(bytes) : knownLabel(label)) return textOf.call(this);
      const guessed = validUtf8(bytes) ? 'utf-8' : ascii ? 'windows-1252' : null;
      if (!guessed) return textOf.call(this);
      const given = params.charset;
      params.charset = guessed;
      try {
        return textOf.call(this);
      } finally {
        params.charset = given;
      }
    };
} catch {
  // postal-mime's own reading of the label stays.
}

// A mail's gzip is spooled to a file as it is made, not kept in memory (issue 21's memory target): a
// file in the system's temporary folder (MimeWorkerData.spool), removed from the folder as soon as it is
// open, so that only this open file keeps it. Whatever ends it — written, dropped, this worker ended,
// the process killed — nothing is left on disk: the system frees it when the file is closed (a worker's
// files close when it ends, a process's when it dies). Where the system cannot remove an open file,
// it is removed when closed.
interface Spool {
  fd: number;
  left: string | null;
  size: number;
  closed: boolean;
}
const openSpool = (): Spool => {
  const path = join(data.spool, `vertice-correo-${process.pid}-${randomBytes(8).toString('hex')}.gz`);
  const fd = openSync(path, 'wx+', 0o600);
  let left: string | null = path;
  try {
    unlinkSync(path);
    left = null;
  } catch {
    // Removed when closed (closeSpool).
  }
  return { fd, left, size: 0, closed: false };
};
const spoolWrite = (spool: Spool, bytes: Uint8Array) => {
  let offset = 0;
  while (offset < bytes.length)
    offset += writeSync(spool.fd, bytes, offset, bytes.length - offset, spool.size + offset);
  spool.size += bytes.length;
};
const closeSpool = (spool: Spool | null | undefined) => {
  if (!spool || spool.closed) return;
  spool.closed = true;
  try {
    closeSync(spool.fd);
  } catch {
    // Already closed with the worker.
  }
  if (spool.left)
    try {
      unlinkSync(spool.left);
    } catch {
      // Gone already.
    }
};
// An original in parts (migration 0034): the parts it had replaced, each written with a value of at most
// PART_BYTES (read from the spooled gzip: only the database's copy of that part is made), the count set
// last, in one transaction; with onlyIfMissing, only into a row without a complete original.
const PART_BYTES = ORIGINAL_PART_BYTES;
// The spooled gzip's parts of at most PART_BYTES, in order, each read into the same buffer (the
// database copies what it binds, and each part is written before the next is read).
function* spoolParts(spool: Spool): Generator<Buffer> {
  const buffer = Buffer.allocUnsafeSlow(Math.min(PART_BYTES, Math.max(1, spool.size)));
  for (let offset = 0; offset < spool.size; offset += PART_BYTES) {
    const length = Math.min(PART_BYTES, spool.size - offset);
    let read = 0;
    while (read < length) {
      const got = readSync(spool.fd, buffer, read, length - read, offset + read);
      if (got === 0) throw new Error('el original del correo quedó incompleto en el disco');
      read += got;
    }
    yield buffer.subarray(0, length);
  }
}
const partCount = (spool: Spool) => Math.ceil(spool.size / PART_BYTES);
// The whole spooled gzip in memory (only for SQLite in memory, written by the server's thread).
const spoolWhole = (spool: Spool): Uint8Array<ArrayBuffer> => {
  const whole = new Uint8Array(spool.size);
  let offset = 0;
  for (const part of spoolParts(spool)) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
};

// A writer per database: on a SQLite file, a connection of its own (src/server/sqlite-blob-writer.ts);
// on PostgreSQL, a client of its own (one connection), dropped if it fails. Each writes blobs in one
// transaction and an original into its row.
interface Writer {
  writeBlobs(items: Uint8Array[], createdAt: string): Promise<string[]>;
  writeOriginal(spool: Spool, inboundId: number, onlyIfMissing: boolean): Promise<void>;
  close(): Promise<void>;
}
const asBuffer = (view: Uint8Array) => Buffer.from(view.buffer, view.byteOffset, view.byteLength);
const sqliteWriter = (path: string): Writer => {
  const writer = openBlobWriter(path);
  return {
    writeBlobs: async (items, createdAt) => writer.writeBlobs(items, createdAt),
    writeOriginal: async (spool, inboundId, onlyIfMissing) => {
      const db = writer.db;
      db.exec('begin immediate');
      try {
        const row = db.prepare('select original_parts from inbound_messages where id = ?').get(inboundId) as
          { original_parts: number | null } | undefined;
        if (row && !(onlyIfMissing && row.original_parts !== null)) {
          db.prepare('delete from inbound_original_parts where inbound_id = ?').run(inboundId);
          const insert = db.prepare(
            'insert into inbound_original_parts (inbound_id, part, data) values (?, ?, ?)',
          );
          let part = 0;
          for (const bytes of spoolParts(spool)) insert.run(inboundId, part++, bytes);
          db.prepare('update inbound_messages set original_parts = ? where id = ?').run(
            partCount(spool),
            inboundId,
          );
        }
        db.exec('commit');
      } catch (error) {
        try {
          db.exec('rollback');
        } catch {
          // The first error is the one to report.
        }
        throw error;
      }
    },
    close: async () => writer.db.close(),
  };
};
const postgresWriter = async ({ url, schema }: PostgresTarget, forget: () => void): Promise<Writer> => {
  const { Client } = require('pg') as typeof import('pg');
  const client = new Client({
    connectionString: url,
    connectionTimeoutMillis: 5000,
    options: schema ? `-c search_path=${schema}` : undefined,
  });
  client.on('error', forget);
  client.on('end', forget);
  await client.connect();
  return {
    async writeBlobs(items, createdAt) {
      await client.query('begin');
      try {
        const keys: string[] = [];
        for (const item of items) {
          const key = createHash('sha256').update(item).digest('hex');
          await client.query(
            'insert into blobs (sha256, size, data, created_at) values ($1, $2, $3, $4) ' +
              'on conflict (sha256) do update set created_at = excluded.created_at',
            [key, item.byteLength, asBuffer(item), createdAt],
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
    async writeOriginal(spool, inboundId, onlyIfMissing) {
      await client.query('begin');
      try {
        // The row locked: a redelivery filling it in at the same time waits, then finds it complete.
        const { rows } = await client.query<{ original_parts: number | null }>(
          'select original_parts from inbound_messages where id = $1 for update',
          [inboundId],
        );
        const row = rows[0];
        if (row && !(onlyIfMissing && row.original_parts !== null)) {
          await client.query('delete from inbound_original_parts where inbound_id = $1', [inboundId]);
          let part = 0;
          for (const bytes of spoolParts(spool)) {
            await client.query(
              'insert into inbound_original_parts (inbound_id, part, data) values ($1, $2, $3)',
              [inboundId, part++, bytes],
            );
          }
          await client.query('update inbound_messages set original_parts = $1 where id = $2', [
            partCount(spool),
            inboundId,
          ]);
        }
        await client.query('commit');
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      }
    },
    close: () => client.end(),
  };
};
// A writer unused for WRITER_IDLE_MS is closed: a worker that outlives many databases (the tests' ones)
// does not keep a connection to each.
const WRITER_IDLE_MS = 5000;
const writers = new Map<string, { writer: Promise<Writer>; timer: NodeJS.Timeout | undefined }>();
const writerFor = (target: WriteTarget): Promise<Writer> => {
  const key = JSON.stringify(target);
  let entry = writers.get(key);
  if (!entry) {
    const forget = () => {
      if (writers.get(key) !== entry) return;
      writers.delete(key);
      clearTimeout(entry!.timer);
    };
    entry = {
      writer:
        'sqlite' in target
          ? Promise.resolve(sqliteWriter(target.sqlite))
          : postgresWriter(target.postgres, forget),
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
const staged = new Map<string, Spool | null>();
const owned = (views: Uint8Array[]) => [...new Set(views.map((view) => view.buffer))];

// A mail streamed in (open, chunk…, end): each chunk is hashed, gzipped and split into lines for
// postal-mime as it comes, so the whole mail is never held, nor its gzip (written to the stream's spool
// file as it is made). postal-mime reads a whole buffer; its parse loop
// is replayed here on the lines (processLine, then the same closing steps), after a probe that its
// methods are there: else the chunks are kept and joined for PostalMime.parse.
const PARSER_STEPS = [
  'processLine',
  'hasReportParts',
  'collectNode',
  'renderTextContent',
  'buildMessage',
  'encodeAttachments',
];
const linesByHand = PARSER_STEPS.every((name) => typeof PostalMime.prototype[name] === 'function');
const PARSE_OPTIONS = {
  forceRfc822Attachments: true,
  attachmentEncoding: 'arraybuffer',
  maxNestingDepth: MAX_MIME_DEPTH,
} as const;
// A mail that cannot be read (a parse that failed: too deep, headers too large, …) is not an error of
// the stream: it is hashed and compressed to its end all the same, its reading stopped, and ends as
// 'unreadable' with its reason in Spanish and what its own headers say (read from the first
// HEAD_BYTES alone), so that its channel stores it as refused, with its original, and goes on.
const HEAD_BYTES = 64 * 1024;
const unreadableReason = (error: unknown): string => {
  const text = String((error as Error | null)?.message || error);
  if (/nesting depth/i.test(text)) return `más de ${MAX_MIME_DEPTH} niveles de partes anidadas`;
  if (/header size/i.test(text)) return 'cabeceras demasiado grandes';
  if (/call stack/i.test(text)) return 'estructura demasiado profunda';
  return text.slice(0, 200);
};
// The header block at the start of the bytes (up to the first empty line, else its complete lines).
const headerBlock = (bytes: Uint8Array): Uint8Array => {
  for (let index = 0; index + 1 < bytes.length; index++) {
    if (bytes[index] !== 0x0a) continue;
    if (bytes[index + 1] === 0x0a) return bytes.subarray(0, index + 1);
    if (bytes[index + 1] === 0x0d && bytes[index + 2] === 0x0a) return bytes.subarray(0, index + 1);
  }
  const last = bytes.lastIndexOf(0x0a);
  return last === -1 ? new Uint8Array() : bytes.subarray(0, last + 1);
};
/** What a mail's bodies are read into: its tree, whose `text` and `html` may be dropped. */
type ReadEmail = Omit<Email, 'text' | 'html' | 'headers' | 'attachments'> & {
  text?: string;
  html?: string;
  headers: Email['headers'];
  attachments: Email['attachments'];
};
const headersOnly = async (bytes: Uint8Array): Promise<ReadEmail> => {
  const block = headerBlock(bytes);
  const whole = new Uint8Array(block.length + 2);
  whole.set(block);
  whole.set([0x0d, 0x0a], block.length);
  try {
    const email = await PostalMime.parse(whole.buffer, PARSE_OPTIONS);
    return { ...email, text: undefined, html: undefined, attachments: [] };
  } catch {
    return { headers: [], attachments: [] } as unknown as ReadEmail;
  }
};
// The readable text of a mail, computed here rather than on the server's thread (issue 38, F2: a 20 MB
// HTML mail converted there stalled every page for seconds): its plain text, else its HTML as text
// (html-to-text, with limits on the HTML it takes, its depth and its children: a <div> nested 5,000
// deep overflowed the stack), at most READABLE_MAX_CHARS characters. The rest stays in the original.
const { convert: convertHtml } = require('html-to-text') as typeof import('html-to-text');
const readableOf = (email: ReadEmail): string => {
  if (email.text && email.text.trim()) return email.text.slice(0, READABLE_MAX_CHARS);
  if (!email.html) return '';
  try {
    return convertHtml(email.html.slice(0, HTML_MAX_CHARS), HTML_TEXT_OPTIONS).slice(0, READABLE_MAX_CHARS);
  } catch {
    return '';
  }
};
type Reply = [Record<string, unknown>, Transferable[]];
// What goes back for a mail read: the MIME tree without its bodies (their text is 'readable'), and
// the attachments' buffers to move.
const replyOf = (email: ReadEmail, unreadable: string | null): Reply => {
  const buffers: ArrayBuffer[] = [];
  for (const part of email.attachments) if (part.content instanceof ArrayBuffer) buffers.push(part.content);
  const readable = unreadable ? '' : readableOf(email);
  return [{ email: { ...email, text: undefined, html: undefined }, readable, unreadable }, buffers];
};

/** A mail being streamed in, by its key. */
interface StreamState {
  hash: Hash;
  gzip: Gzip;
  spool: Spool | null;
  spoolError: unknown;
  parser: Parser | null;
  settle: () => void;
  work: Promise<void>;
  pending: Line | null;
  partial: Uint8Array[];
  partialLength: number;
  kept: Uint8Array[];
  keptLength: number;
  head: Uint8Array[];
  headLength: number;
  unreadable: string | null;
}
/** A whole mail's reading state: the parse loop's lines without the stream's hash, gzip and spool. */
type LineState = Pick<
  StreamState,
  'parser' | 'pending' | 'partial' | 'partialLength' | 'kept' | 'keptLength'
>;
const streams = new Map<string, StreamState>();
// A line as postal-mime's readLine gives it: without its trailing CR and LF bytes.
// It carries the end it had (`eol`: those bytes as a string), for the pass-through decoder.
const trimLine = (line: Uint8Array): Line => {
  let end = line.length;
  while (end > 0 && (line[end - 1] === 0x0d || line[end - 1] === 0x0a)) end--;
  const trimmed: Line = line.subarray(0, end);
  if (end < line.length) {
    let eol = '';
    for (let index = end; index < line.length; index++) eol += line[index] === 0x0d ? '\r' : '\n';
    trimmed.eol = eol;
  }
  return trimmed;
};
// Lines of a chunk to the parser; the last complete line is held back until it is known whether it is
// the mail's last (postal-mime's isFinal), a line cut by a chunk's end kept until its rest comes.
const feedLines = async (state: LineState, view: Uint8Array): Promise<void> => {
  if (!state.parser) {
    state.kept.push(view);
    state.keptLength += view.length;
    return;
  }
  let position = 0;
  while (position < view.length) {
    const newline = view.indexOf(0x0a, position);
    if (newline === -1) {
      state.partial.push(view.slice(position));
      state.partialLength += view.length - position;
      break;
    }
    // A view of the chunk (the parser copies what it keeps), else a copy of its own, so that the chunk
    // can be let go once read.
    let line: Uint8Array = linesCopied
      ? view.subarray(position, newline + 1)
      : view.slice(position, newline + 1);
    if (state.partial.length) {
      state.partial.push(line);
      line = joined(state.partial, state.partialLength + line.length);
      state.partial = [];
      state.partialLength = 0;
    }
    position = newline + 1;
    if (state.pending) await state.parser.processLine(state.pending, false);
    state.pending = trimLine(line);
  }
  // The line held back outlives the chunk (with the end it had).
  if (state.pending && state.pending.buffer === view.buffer) {
    const eol = state.pending.eol;
    state.pending = state.pending.slice();
    if (eol) state.pending.eol = eol;
  }
};
const closeLines = async (state: LineState): Promise<Email> => {
  if (!state.parser) {
    const whole = joined(state.kept, state.keptLength);
    state.kept = [];
    return PostalMime.parse(whole.buffer, PARSE_OPTIONS);
  }
  const parser = state.parser;
  if (state.partial.length) {
    const last = trimLine(joined(state.partial, state.partialLength));
    state.partial = [];
    if (state.pending) await parser.processLine(state.pending, false);
    await parser.processLine(last, true);
  } else if (state.pending) {
    await parser.processLine(state.pending, true);
  }
  state.pending = null;
  parser.forceRfc822Attachments = Boolean(parser.options.forceRfc822Attachments) || parser.hasReportParts();
  await parser.collectNode(parser.root, false, false);
  parser.renderTextContent();
  const message = parser.buildMessage();
  parser.encodeAttachments();
  return message;
};
// A whole mail read as a streamed one is (its lines split here, with their ends), or by postal-mime
// itself where its parse loop cannot be replayed.
const parseWhole = async (raw: ArrayBuffer): Promise<Email> => {
  if (!linesByHand) return PostalMime.parse(raw, PARSE_OPTIONS);
  const parser = new PostalMime(PARSE_OPTIONS);
  parser.started = true;
  const state: LineState = { parser, pending: null, partial: [], partialLength: 0, kept: [], keptLength: 0 };
  await feedLines(state, new Uint8Array(raw));
  return closeLines(state);
};
// A chunk of a streamed mail hashed, gzipped and read into lines; resolves once all three are done
// with it (so that it can be let go), rejects if one failed.
const readChunk = async (state: StreamState, view: Uint8Array): Promise<void> => {
  if (state.spoolError) throw state.spoolError;
  state.hash.update(view);
  const compressed = new Promise<void>((resolve, reject) =>
    state.gzip.write(view, (error) => (error ? reject(error) : resolve())),
  );
  if (state.headLength < HEAD_BYTES) {
    const head = view.slice(0, HEAD_BYTES - state.headLength);
    state.head.push(head);
    state.headLength += head.length;
  }
  state.work = state.work.then(() =>
    state.unreadable
      ? undefined
      : feedLines(state, view).catch((error: unknown) => {
          state.unreadable = unreadableReason(error);
          state.kept = [];
          state.partial = [];
          state.pending = null;
        }),
  );
  // Both settled before the chunk is let go (zlib may still be reading it when the parse failed).
  const [read, written] = await Promise.allSettled([state.work, compressed]);
  if (read.status === 'rejected') throw read.reason;
  if (written.status === 'rejected') throw written.reason;
  if (state.spoolError) throw state.spoolError;
};
// Bytes asked for per FETCH by a download from the mailbox.
const IMAP_CHUNK_BYTES = 64 * 1024;
const dropStream = (key: string, state: StreamState) => {
  streams.delete(key);
  state.gzip.destroy();
  closeSpool(state.spool);
  state.settle();
};
// The gzip's output goes to the stream's spool file as it comes (each piece then let go); a failed
// write (a full disk) fails the mail.
const GZIP_CHUNK_BYTES = 64 * 1024;

/** The requests, by `op`: each answers its result and the buffers moved with it. */
const ops = {
  // Answered once the stream has ended (read, failed or dropped): a caller waits on it meanwhile.
  open({ stream: key }: { stream: string }) {
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    // A spool that cannot be made (the temporary folder not writable) fails the mail at its first chunk.
    let spool: Spool | null = null;
    let spoolError: unknown = null;
    try {
      spool = openSpool();
    } catch (error) {
      spoolError = error;
    }
    const gzip = createGzip({ chunkSize: GZIP_CHUNK_BYTES });
    const state: StreamState = {
      hash: createHash('sha256'),
      gzip,
      spool,
      spoolError,
      parser: null,
      settle,
      work: Promise.resolve(),
      pending: null,
      partial: [],
      partialLength: 0,
      kept: [],
      keptLength: 0,
      head: [],
      headLength: 0,
      unreadable: null,
    };
    gzip.on('data', (bytes: Buffer) => {
      if (state.spoolError || !spool || spool.closed) return;
      try {
        spoolWrite(spool, bytes);
      } catch (error) {
        state.spoolError = error;
      }
    });
    gzip.on('error', () => {});
    state.parser = linesByHand ? new PostalMime(PARSE_OPTIONS) : null;
    if (state.parser) state.parser.started = true;
    streams.set(key, state);
    return settled.then((): Reply => [{}, []]);
  },
  // Answered once the chunk is hashed, gzipped and parsed (the caller's window of chunks in flight).
  async chunk({ stream: key, chunk, length }: { stream: string; chunk: ArrayBuffer; length: number }) {
    const state = streams.get(key);
    if (!state) {
      free(chunk);
      throw new Error('el correo ya no se está leyendo');
    }
    if (state.spoolError) {
      free(chunk);
      throw state.spoolError;
    }
    const view = new Uint8Array(chunk, 0, length);
    try {
      await readChunk(state, view);
    } finally {
      // Read, hashed and compressed (the parser kept copies of what it keeps): let go now rather than at
      // a collection of the old generation, which a chunk reaches while it is read.
      if (!state.kept.includes(view)) free(chunk);
    }
    return [{}, []];
  },
  // A mail downloaded here from the mailbox (IMAP), read as its chunks come: the socket's reads, and
  // imapflow's assembling of each FETCH from them, are this worker's garbage, collected by its small
  // young generation, not the server's thread's. A connection of its own, the mailbox opened read-only
  // (the server's thread keeps its own session, which flags and moves the mail once stored). Answers
  // whether the mail was there, and its size.
  async imap({
    stream: key,
    connection,
    uid,
    maxBytes,
  }: {
    stream: string;
    connection: MailboxConnection;
    uid: number;
    maxBytes: number;
  }) {
    const state = streams.get(key);
    if (!state) throw new Error('el correo ya no se está leyendo');
    const { ImapFlow } = require('imapflow') as typeof import('imapflow');
    const { mailbox, ...options } = connection;
    const client = new ImapFlow({ ...options, logger: false } satisfies ImapFlowOptions);
    // A connection lost mid-download fails the download (through its stream), not this worker.
    client.on('error', () => {});
    await client.connect();
    try {
      const lock = await client.getMailboxLock(mailbox, { readOnly: true });
      try {
        const { content } = await client.download(String(uid), undefined, {
          uid: true,
          chunkSize: IMAP_CHUNK_BYTES,
          maxBytes,
        });
        if (!content) return [{ found: false, size: 0 }, []];
        let size = 0;
        for await (const chunk of content as AsyncIterable<Buffer>) {
          size += chunk.length;
          await readChunk(state, chunk);
        }
        return [{ found: true, size }, []];
      } finally {
        lock.release();
      }
    } finally {
      await client.logout().catch(() => client.close());
    }
  },
  async end({ stream: key }: { stream: string }) {
    const state = streams.get(key);
    if (!state) throw new Error('el correo ya no se está leyendo');
    try {
      await state.work;
      let unreadable = state.unreadable;
      let email: ReadEmail | null = null;
      if (!unreadable)
        try {
          email = await closeLines(state);
        } catch (error) {
          unreadable = unreadableReason(error);
        }
      if (unreadable) email = await headersOnly(joined(state.head, state.headLength));
      state.head = [];
      await new Promise<void>((resolve, reject) => {
        state.gzip.once('error', reject);
        state.gzip.once('end', resolve);
        state.gzip.end();
      });
      if (state.spoolError) throw state.spoolError;
      const sha256 = state.hash.digest('hex');
      streams.delete(key);
      state.settle();
      staged.set(key, state.spool);
      const [reply, buffers] = replyOf(email!, unreadable);
      return [{ ...reply, sha256, staged: key }, buffers];
    } catch (error) {
      if (streams.get(key) === state) dropStream(key, state);
      throw error;
    }
  },
  abort({ stream: key }: { stream: string }) {
    const state = streams.get(key);
    if (state) dropStream(key, state);
    return [{}, []];
  },
  async parse({ raw }: { raw: ArrayBuffer }) {
    let email: ReadEmail;
    let unreadable: string | null = null;
    try {
      email = await parseWhole(raw);
    } catch (error) {
      unreadable = unreadableReason(error);
      email = await headersOnly(new Uint8Array(raw, 0, Math.min(raw.byteLength, HEAD_BYTES)));
    }
    const sha256 = createHash('sha256').update(new Uint8Array(raw)).digest('hex');
    const [reply, buffers] = replyOf(email, unreadable);
    return [{ ...reply, sha256, raw }, [raw, ...buffers]];
  },
  async original({
    staged: key,
    target,
    inboundId,
    onlyIfMissing,
  }: {
    staged: string;
    target: WriteTarget | null;
    inboundId: number;
    onlyIfMissing: boolean;
  }) {
    const spool = staged.get(key);
    staged.delete(key);
    if (!spool) throw new Error('el original ya no está en el lector');
    try {
      if (!target) {
        const gzip = spoolWhole(spool);
        return [{ gzip }, [gzip.buffer]];
      }
      await (await writerFor(target)).writeOriginal(spool, inboundId, onlyIfMissing);
      return [{}, []];
    } finally {
      closeSpool(spool);
    }
  },
  release({ staged: key }: { staged: string }) {
    const spool = staged.get(key);
    staged.delete(key);
    closeSpool(spool);
    return [{}, []];
  },
  async blobs({ target, items, createdAt }: { target: WriteTarget; items: Uint8Array[]; createdAt: string }) {
    const keys = await (await writerFor(target)).writeBlobs(items, createdAt);
    // The caller keeps only their sizes: what was moved here is let go at once.
    for (const buffer of owned(items)) free(buffer);
    return [{ keys }, []];
  },
} satisfies Record<string, (message: never) => Reply | Promise<Reply>>;
/** A request as it comes: its fields are the server's thread's (mime-worker.ts). */
type Op = (message: Record<string, unknown>) => Reply | Promise<Reply>;

port.on('message', async ({ id, op, ...message }: { id: number; op: string } & Record<string, unknown>) => {
  try {
    const [result, transfer] = await (ops as unknown as Record<string, Op>)[op]!(message);
    port.postMessage({ id, ...result }, transfer);
  } catch (error) {
    port.postMessage({ id, error: String((error as Error | null)?.message || error) });
  }
});
