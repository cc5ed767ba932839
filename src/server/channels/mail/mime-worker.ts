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
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { postgresTargetOf, sqliteFileOf, type Db, type PostgresTarget } from '../../db/index.ts';
import { SQLITE_BLOB_WRITER_SOURCE, type BlobWriter } from '../../attachments/index.ts';
import { RequestWorker } from '../../request-worker.ts';
import { ORIGINAL_PART_BYTES, writeOriginal } from './original.ts';
import type { Email } from 'postal-mime';

const YOUNG_GENERATION_MB = 4;
/** MIME parts nested deeper than this make a mail unreadable (postal-mime's own limit is 256). */
export const MAX_MIME_DEPTH = 64;
/** HTML a mail's text is made from, at most (characters); the rest stays in its original. */
export const HTML_MAX_CHARS = 1024 * 1024;
/** A mail's readable text, at most (characters): far past what an entry keeps (5,000). */
export const READABLE_MAX_CHARS = 100_000;
/**
 * How an HTML-only mail becomes text (html-to-text): links without their URLs, images dropped, quoted
 * blocks kept as `>` lines; elements deeper than 200 levels or past 20,000 children of one element
 * are left out (what a real mail never reaches; 5,000 nested `<div>` overflowed the stack).
 */
export const HTML_TEXT_OPTIONS = {
  wordwrap: false,
  limits: { maxDepth: 200, maxChildNodes: 20_000, ellipsis: '…' },
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'head', format: 'skip' },
  ],
} as const;
export const PARSE_TIMEOUT_MS = 60_000;
/** Longest a write of the original or of the files may take before the worker is ended. */
const WRITE_TIMEOUT_MS = 60_000;
/** A worker with nothing to do for this long ends (what it kept, and its connections, with it). */
const IDLE_MS = 30_000;

// CommonJS, evaluated in the worker; postal-mime's path comes resolved from here, so that it is found
// wherever the server's bundle lives. One request at a time, by `op`:
// - parse: the MIME tree (attachments moved back), the SHA-256 of the bytes, and the bytes moved back;
// - open, chunk… or imap, end (or abort): a mail streamed in (imap: downloaded here from the mailbox),
//   read as it comes; at its end the MIME tree and the SHA-256, its gzip's spool file kept under the
//   stream's key;
// - original: the kept gzip, given a database (target), written in parts into inbound_original_parts as
//   the original of inboundId (only when it has none with onlyIfMissing), else moved back; its file closed;
// - release: the kept gzip's file closed;
// - blobs: items written as blobs (blob-store.ts's writer) and dropped: only their keys come back.
// A function, not a constant: it reads SQLITE_BLOB_WRITER_SOURCE when a worker starts, whatever order
// the import graph evaluated the modules in.
const workerSource = () => `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash, randomBytes } = require('node:crypto');
const { createGzip } = require('node:zlib');
const fs = require('node:fs');
const nodePath = require('node:path');
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
// postal-mime keeps the lines of a part it does not decode (7bit, 8bit, binary) as they are given: views
// of a streamed chunk, which is let go once read (see 'chunk' below). Its decoder here keeps copies of
// them (checked on a probe first; without it, every line is copied).
let linesCopied = false;
try {
  const path = require('node:path');
  const PassThroughDecoder = require(path.join(path.dirname(workerData.module), 'pass-through-decoder.js'));
  const probe = new PassThroughDecoder();
  if (Array.isArray(probe.chunks) && typeof probe.update === 'function' && typeof probe.finalize === 'function') {
    PassThroughDecoder.prototype.update = function (line) {
      if (this.eol) this.chunks.push(this.eol);
      this.chunks.push(line.slice());
      this.eol = line.eol || '\\n';
    };
    linesCopied = true;
  }
} catch {}
// Quoted-printable: a hard line break is a CRLF of the content (RFC 2045, 6.7), not an LF (a PDF sent
// quoted-printable came out 208 bytes short, its startxref pointing nowhere); the last line's break is
// the boundary's. Its decoder here writes CRLF for each break but the last (checked on a probe first).
try {
  const path = require('node:path');
  const QPDecoder = require(path.join(path.dirname(workerData.module), 'qp-decoder.js'));
  const probe = new QPDecoder();
  const decodeLine = QPDecoder.prototype.update;
  if (typeof decodeLine === 'function' && typeof probe.writeByte === 'function' && typeof probe.bufferPos === 'number') {
    QPDecoder.prototype.update = function (line) {
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
} catch {}
// uuencode (Content-Transfer-Encoding: x-uuencode, uuencode, x-uue), which postal-mime passes through as
// text: decoded here (no RFC, but fixed since 4.0BSD: a length character, then 4 characters for 3 bytes,
// each character 32 plus 6 bits, a grave accent for 0; 'begin' and 'end' lines around). The two npm
// decoders are unmaintained for a decade (one calls the removed Buffer constructor), and the format is
// these 30 lines.
class UUDecoder {
  constructor() {
    this.chunks = [];
    this.done = false;
  }
  update(line) {
    if (this.done) return;
    const text = String.fromCharCode(...line.subarray(0, Math.min(line.length, 200)));
    if (/^begin\\s/.test(text)) return;
    if (/^end\\s*$/.test(text)) {
      this.done = true;
      return;
    }
    const length = (line[0] - 32) & 63;
    if (!line.length || !length) return;
    const out = new Uint8Array(length);
    const at = (index) => (index < line.length ? (line[index] - 32) & 63 : 0);
    for (let group = 0, written = 0; written < length; group++) {
      const [a, b, c, d] = [1, 2, 3, 4].map((offset) => at(1 + group * 4 + offset - 1));
      const bytes = [(a << 2) | (b >> 4), ((b & 15) << 4) | (c >> 2), ((c & 3) << 6) | d];
      for (const byte of bytes) if (written < length) out[written++] = byte & 255;
    }
    this.chunks.push(out);
  }
  finalize() {
    const whole = joined(this.chunks, this.chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    this.chunks = [];
    return Promise.resolve(whole.buffer);
  }
}
try {
  const path = require('node:path');
  const MimeNode = require(path.join(path.dirname(workerData.module), 'mime-node.js'));
  const setup = MimeNode.prototype.setupContentDecoder;
  if (typeof setup === 'function')
    MimeNode.prototype.setupContentDecoder = function (transferEncoding) {
      if (/^\\s*(x-)?(uuencode|uue)\\s*$/i.test(transferEncoding || '')) this.contentDecoder = new UUDecoder();
      else setup.call(this, transferEncoding);
    };
} catch {}
// A text part labelled with a charset that cannot be right (issue 41): 8-bit bytes under us-ascii, or a
// name no decoder knows. Valid UTF-8 is read as UTF-8 ('Envoyé', not 'EnvoyÃ©'); other bytes under
// us-ascii as windows-1252, under an unknown name by postal-mime's aliases (windows-1252 last). A label
// that can be right is kept as it is.
try {
  const path = require('node:path');
  const MimeNode = require(path.join(path.dirname(workerData.module), 'mime-node.js'));
  const textOf = MimeNode.prototype.getTextContent;
  const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
  const ASCII_LABELS = new Set(['us-ascii', 'ascii', 'ansi_x3.4-1968', 'iso646-us', 'us', '646']);
  const knownLabel = (label) => {
    try {
      new TextDecoder(label);
      return true;
    } catch {
      return false;
    }
  };
  const hasHighBytes = (bytes) => {
    for (let index = 0; index < bytes.length; index++) if (bytes[index] > 0x7f) return true;
    return false;
  };
  const validUtf8 = (bytes) => {
    try {
      strictUtf8.decode(bytes);
      return true;
    } catch {
      return false;
    }
  };
  if (typeof textOf === 'function')
    MimeNode.prototype.getTextContent = function () {
      const params = this.contentType && this.contentType.parsed && this.contentType.parsed.params;
      const label = params && typeof params.charset === 'string' ? params.charset.trim().toLowerCase() : '';
      if (!label || !this.content) return textOf.call(this);
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
} catch {}
// A writer per database: on a SQLite file, a connection of its own (blob-store.ts's); on PostgreSQL, a
// client of its own (one connection), dropped if it fails. Each writes blobs in one transaction and an
// original into its row.
const writers = new Map();
const asBuffer = (view) => Buffer.from(view.buffer, view.byteOffset, view.byteLength);
// A mail's gzip is spooled to a file as it is made, not kept in memory (issue 21's memory target): a
// file in the system's temporary folder (workerData.spool), removed from the folder as soon as it is
// open, so that only this open file keeps it. Whatever ends it — written, dropped, this worker ended,
// the process killed — nothing is left on disk: the system frees it when the file is closed (a worker's
// files close when it ends, a process's when it dies). Where the system cannot remove an open file,
// it is removed when closed.
const openSpool = () => {
  const path = nodePath.join(workerData.spool, 'vertice-correo-' + process.pid + '-' + randomBytes(8).toString('hex') + '.gz');
  const fd = fs.openSync(path, 'wx+', 0o600);
  let left = path;
  try {
    fs.unlinkSync(path);
    left = null;
  } catch {}
  return { fd, left, size: 0, closed: false };
};
const spoolWrite = (spool, data) => {
  let offset = 0;
  while (offset < data.length) offset += fs.writeSync(spool.fd, data, offset, data.length - offset, spool.size + offset);
  spool.size += data.length;
};
const closeSpool = (spool) => {
  if (!spool || spool.closed) return;
  spool.closed = true;
  try { fs.closeSync(spool.fd); } catch {}
  if (spool.left) try { fs.unlinkSync(spool.left); } catch {}
};
// The spooled gzip's parts of at most PART_BYTES, in order, each read into the same buffer (the
// database copies what it binds, and each part is written before the next is read).
function* spoolParts(spool) {
  const buffer = Buffer.allocUnsafeSlow(Math.min(PART_BYTES, Math.max(1, spool.size)));
  for (let offset = 0; offset < spool.size; offset += PART_BYTES) {
    const length = Math.min(PART_BYTES, spool.size - offset);
    let read = 0;
    while (read < length) {
      const got = fs.readSync(spool.fd, buffer, read, length - read, offset + read);
      if (got === 0) throw new Error('el original del correo quedó incompleto en el disco');
      read += got;
    }
    yield buffer.subarray(0, length);
  }
}
const partCount = (spool) => Math.ceil(spool.size / PART_BYTES);
// The whole spooled gzip in memory (only for SQLite in memory, written by the server's thread).
const spoolWhole = (spool) => {
  const whole = new Uint8Array(spool.size);
  let offset = 0;
  for (const part of spoolParts(spool)) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
};
// An original in parts (migration 0034): the parts it had replaced, each written with a value of at most
// PART_BYTES (read from the spooled gzip: only the database's copy of that part is made), the count set
// last, in one transaction; with onlyIfMissing, only into a row without a complete original.
const PART_BYTES = ${ORIGINAL_PART_BYTES};
const sqliteWriter = (path) => {
  const writer = openBlobWriter(path);
  return {
    writeBlobs: async (items, createdAt) => writer.writeBlobs(items, createdAt),
    writeOriginal: async (spool, inboundId, onlyIfMissing) => {
      const db = writer.db;
      db.exec('begin immediate');
      try {
        const row = db.prepare('select original_parts from inbound_messages where id = ?').get(inboundId);
        if (row && !(onlyIfMissing && row.original_parts !== null)) {
          db.prepare('delete from inbound_original_parts where inbound_id = ?').run(inboundId);
          const insert = db.prepare('insert into inbound_original_parts (inbound_id, part, data) values (?, ?, ?)');
          let part = 0;
          for (const data of spoolParts(spool)) insert.run(inboundId, part++, data);
          db.prepare('update inbound_messages set original_parts = ? where id = ?').run(partCount(spool), inboundId);
        }
        db.exec('commit');
      } catch (error) {
        try { db.exec('rollback'); } catch {}
        throw error;
      }
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
    async writeOriginal(spool, inboundId, onlyIfMissing) {
      await client.query('begin');
      try {
        // The row locked: a redelivery filling it in at the same time waits, then finds it complete.
        const { rows } = await client.query('select original_parts from inbound_messages where id = $1 for update', [inboundId]);
        const row = rows[0];
        if (row && !(onlyIfMissing && row.original_parts !== null)) {
          await client.query('delete from inbound_original_parts where inbound_id = $1', [inboundId]);
          let part = 0;
          for (const data of spoolParts(spool)) {
            await client.query('insert into inbound_original_parts (inbound_id, part, data) values ($1, $2, $3)', [inboundId, part++, data]);
          }
          await client.query('update inbound_messages set original_parts = $1 where id = $2', [partCount(spool), inboundId]);
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
// A mail streamed in (open, chunk…, end): each chunk is hashed, gzipped and split into lines for
// postal-mime as it comes, so the whole mail is never held, nor its gzip (written to the stream's spool
// file as it is made). postal-mime reads a whole buffer; its parse loop
// is replayed here on the lines (processLine, then the same closing steps), after a probe that its
// methods are there: else the chunks are kept and joined for PostalMime.parse.
const PARSER_STEPS = ['processLine', 'hasReportParts', 'collectNode', 'renderTextContent', 'buildMessage', 'encodeAttachments'];
const linesByHand = PARSER_STEPS.every((name) => typeof PostalMime.prototype[name] === 'function');
const PARSE_OPTIONS = {
  forceRfc822Attachments: true,
  attachmentEncoding: 'arraybuffer',
  maxNestingDepth: ${MAX_MIME_DEPTH},
};
// A mail that cannot be read (a parse that failed: too deep, headers too large, …) is not an error of
// the stream: it is hashed and compressed to its end all the same, its reading stopped, and ends as
// 'unreadable' with its reason in Spanish and what its own headers say (read from the first
// HEAD_BYTES alone), so that its channel stores it as refused, with its original, and goes on.
const HEAD_BYTES = 64 * 1024;
const unreadableReason = (error) => {
  const text = String((error && error.message) || error);
  if (/nesting depth/i.test(text)) return 'más de ${MAX_MIME_DEPTH} niveles de partes anidadas';
  if (/header size/i.test(text)) return 'cabeceras demasiado grandes';
  if (/call stack/i.test(text)) return 'estructura demasiado profunda';
  return text.slice(0, 200);
};
// The header block at the start of the bytes (up to the first empty line, else its complete lines).
const headerBlock = (bytes) => {
  for (let index = 0; index + 1 < bytes.length; index++) {
    if (bytes[index] !== 0x0a) continue;
    if (bytes[index + 1] === 0x0a) return bytes.subarray(0, index + 1);
    if (bytes[index + 1] === 0x0d && bytes[index + 2] === 0x0a) return bytes.subarray(0, index + 1);
  }
  const last = bytes.lastIndexOf(0x0a);
  return last === -1 ? new Uint8Array() : bytes.subarray(0, last + 1);
};
const headersOnly = async (bytes) => {
  const block = headerBlock(bytes);
  const whole = new Uint8Array(block.length + 2);
  whole.set(block);
  whole.set([0x0d, 0x0a], block.length);
  try {
    const email = await PostalMime.parse(whole.buffer, PARSE_OPTIONS);
    return { ...email, text: undefined, html: undefined, attachments: [] };
  } catch {
    return { headers: [], attachments: [] };
  }
};
// The readable text of a mail, computed here rather than on the server's thread (issue 38, F2: a 20 MB
// HTML mail converted there stalled every page for seconds): its plain text, else its HTML as text
// (html-to-text, with limits on the HTML it takes, its depth and its children: a <div> nested 5,000
// deep overflowed the stack), at most READABLE_MAX characters. The rest stays in the original.
const { convert: convertHtml } = require(workerData.htmlToText);
const HTML_TEXT_OPTIONS = ${JSON.stringify(HTML_TEXT_OPTIONS)};
const HTML_MAX = ${HTML_MAX_CHARS};
const READABLE_MAX = ${READABLE_MAX_CHARS};
const readableOf = (email) => {
  if (email.text && email.text.trim()) return email.text.slice(0, READABLE_MAX);
  if (!email.html) return '';
  try {
    return convertHtml(email.html.slice(0, HTML_MAX), HTML_TEXT_OPTIONS).slice(0, READABLE_MAX);
  } catch {
    return '';
  }
};
// What goes back for a mail read: the MIME tree without its bodies (their text is 'readable'), and
// the attachments' buffers to move.
const replyOf = (email, unreadable) => {
  const buffers = [];
  for (const part of email.attachments) if (part.content instanceof ArrayBuffer) buffers.push(part.content);
  const readable = unreadable ? '' : readableOf(email);
  return [{ email: { ...email, text: undefined, html: undefined }, readable, unreadable }, buffers];
};
const streams = new Map();
// A line as postal-mime's readLine gives it: without its trailing CR and LF bytes.
// It carries the end it had (\`eol\`: those bytes as a string), for the pass-through decoder.
const trimLine = (line) => {
  let end = line.length;
  while (end > 0 && (line[end - 1] === 0x0d || line[end - 1] === 0x0a)) end--;
  const trimmed = line.subarray(0, end);
  if (end < line.length) {
    let eol = '';
    for (let index = end; index < line.length; index++) eol += line[index] === 0x0d ? '\\r' : '\\n';
    trimmed.eol = eol;
  }
  return trimmed;
};
const joined = (parts, length) => {
  const whole = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
};
// Lines of a chunk to the parser; the last complete line is held back until it is known whether it is
// the mail's last (postal-mime's isFinal), a line cut by a chunk's end kept until its rest comes.
const feedLines = async (state, view) => {
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
    let line = linesCopied ? view.subarray(position, newline + 1) : view.slice(position, newline + 1);
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
const closeLines = async (state) => {
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
const parseWhole = async (raw) => {
  if (!linesByHand) return PostalMime.parse(raw, PARSE_OPTIONS);
  const parser = new PostalMime(PARSE_OPTIONS);
  parser.started = true;
  const state = { parser, pending: null, partial: [], partialLength: 0, kept: [], keptLength: 0 };
  await feedLines(state, new Uint8Array(raw));
  return closeLines(state);
};
// A chunk of a streamed mail hashed, gzipped and read into lines; resolves once all three are done
// with it (so that it can be let go), rejects if one failed.
const readChunk = async (state, view) => {
  if (state.spoolError) throw state.spoolError;
  state.hash.update(view);
  const compressed = new Promise((resolve, reject) => state.gzip.write(view, (error) => (error ? reject(error) : resolve())));
  if (state.headLength < HEAD_BYTES) {
    const head = view.slice(0, HEAD_BYTES - state.headLength);
    state.head.push(head);
    state.headLength += head.length;
  }
  state.work = state.work.then(() =>
    state.unreadable
      ? undefined
      : feedLines(state, view).catch((error) => {
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
const dropStream = (key, state) => {
  streams.delete(key);
  state.gzip.destroy();
  closeSpool(state.spool);
  state.settle();
};
// The gzip's output goes to the stream's spool file as it comes (each piece then let go); a failed
// write (a full disk) fails the mail.
const GZIP_CHUNK_BYTES = 64 * 1024;
const ops = {
  // Answered once the stream has ended (read, failed or dropped): a caller waits on it meanwhile.
  open({ stream: key }) {
    let settle;
    const settled = new Promise((resolve) => (settle = resolve));
    // A spool that cannot be made (the temporary folder not writable) fails the mail at its first chunk.
    let spool = null;
    let spoolError = null;
    try {
      spool = openSpool();
    } catch (error) {
      spoolError = error;
    }
    const gzip = createGzip({ chunkSize: GZIP_CHUNK_BYTES });
    const state = {
      hash: createHash('sha256'), gzip, spool, spoolError, parser: null, settle,
      work: Promise.resolve(), pending: null, partial: [], partialLength: 0, kept: [], keptLength: 0,
      head: [], headLength: 0, unreadable: null,
    };
    gzip.on('data', (data) => {
      if (state.spoolError || !spool || spool.closed) return;
      try {
        spoolWrite(spool, data);
      } catch (error) {
        state.spoolError = error;
      }
    });
    gzip.on('error', () => {});
    state.parser = linesByHand ? new PostalMime(PARSE_OPTIONS) : null;
    if (state.parser) state.parser.started = true;
    streams.set(key, state);
    return settled.then(() => [{}, []]);
  },
  // Answered once the chunk is hashed, gzipped and parsed (the caller's window of chunks in flight).
  async chunk({ stream: key, chunk, length }) {
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
  async imap({ stream: key, connection, uid, maxBytes }) {
    const state = streams.get(key);
    if (!state) throw new Error('el correo ya no se está leyendo');
    const { ImapFlow } = require(workerData.imapflow);
    const { mailbox, ...options } = connection;
    const client = new ImapFlow({ ...options, logger: false });
    // A connection lost mid-download fails the download (through its stream), not this worker.
    client.on('error', () => {});
    await client.connect();
    try {
      const lock = await client.getMailboxLock(mailbox, { readOnly: true });
      try {
        const { content } = await client.download(String(uid), undefined, { uid: true, chunkSize: IMAP_CHUNK_BYTES, maxBytes });
        if (!content) return [{ found: false, size: 0 }, []];
        let size = 0;
        for await (const chunk of content) {
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
  async end({ stream: key }) {
    const state = streams.get(key);
    if (!state) throw new Error('el correo ya no se está leyendo');
    try {
      await state.work;
      let unreadable = state.unreadable;
      let email = null;
      if (!unreadable)
        try {
          email = await closeLines(state);
        } catch (error) {
          unreadable = unreadableReason(error);
        }
      if (unreadable) email = await headersOnly(joined(state.head, state.headLength));
      state.head = [];
      await new Promise((resolve, reject) => {
        state.gzip.once('error', reject);
        state.gzip.once('end', resolve);
        state.gzip.end();
      });
      if (state.spoolError) throw state.spoolError;
      const sha256 = state.hash.digest('hex');
      streams.delete(key);
      state.settle();
      staged.set(key, state.spool);
      const [reply, buffers] = replyOf(email, unreadable);
      return [{ ...reply, sha256, staged: key }, buffers];
    } catch (error) {
      if (streams.get(key) === state) dropStream(key, state);
      throw error;
    }
  },
  abort({ stream: key }) {
    const state = streams.get(key);
    if (state) dropStream(key, state);
    return [{}, []];
  },
  async parse({ raw }) {
    let email;
    let unreadable = null;
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
  async original({ staged: key, target, inboundId, onlyIfMissing }) {
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
  release({ staged: key }) {
    const spool = staged.get(key);
    staged.delete(key);
    closeSpool(spool);
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

let modulePaths:
  { module: string; pg: string; imapflow: string; htmlToText: string; spool: string } | undefined;
let current: RequestWorker | undefined;

function worker(): RequestWorker {
  if (current) return current;
  const resolve = createRequire(import.meta.url).resolve;
  modulePaths ??= {
    module: resolve('postal-mime'),
    pg: resolve('pg'),
    imapflow: resolve('imapflow'),
    htmlToText: resolve('html-to-text'),
    spool: tmpdir(),
  };
  const made = new RequestWorker({
    source: workerSource(),
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
  return (
    view.buffer instanceof ArrayBuffer &&
    view.byteOffset === 0 &&
    view.byteLength === view.buffer.byteLength &&
    view.byteLength > 8192
  );
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
  /** The mail's text: its plain text, else its HTML as text (both capped: see {@link HTML_MAX_CHARS}). */
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
