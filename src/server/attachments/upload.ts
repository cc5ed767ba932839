/**
 * A form posted with files (`multipart/form-data`), read as it streams in with busboy, never whole:
 * - the text fields are kept as they come (every form puts its file input last, so they come first);
 * - before the first byte of the first file is kept, `beforeFirstFile` runs with the fields read so far
 *   (the public forms' honeypot, signed start time and per-network limit, the daily upload total): if
 *   it refuses, no file is kept and the rest of the body is read and dropped;
 * - a file over {@link MAX_FILE_BYTES} keeps nothing past the limit and is handed over `tooLarge`; past
 *   {@link MAX_FILES} files or {@link MAX_SUBMISSION_BYTES} together, nothing more is kept and the
 *   submission is marked (`problem`). The choke point (src/server/http/security.ts) bounds the body.
 * Nothing here knows Astro: src/actions/uploads.ts hands the result to the actions.
 */
import { Readable } from 'node:stream';
import busboy from 'busboy';
import { FILES_FIELD, MAX_FILE_BYTES, MAX_FILES, MAX_SUBMISSION_BYTES } from '../../domain/attachments.ts';
import type { IncomingFile } from './files.ts';
import type { UploadPace } from './pace.ts';

/** Text fields of a form with files: a handful, each short (a problem text is at most a few KB). */
const MAX_FIELDS = 40;
const MAX_FIELD_BYTES = 64 * 1024;

export interface UploadForm {
  fields: URLSearchParams;
  files: IncomingFile[];
  /** The submission broke a limit: more than 5 files, more than 20 MB together, a malformed body. */
  problem: 'too-many' | 'total-too-large' | 'malformed' | null;
  /** What `beforeFirstFile` threw: no file was kept. */
  refusal: unknown;
}

export function isMultipart(contentType: string | null | undefined): boolean {
  return /^multipart\/form-data\s*;/i.test(contentType ?? '');
}

/** Reads the form; see the module's comment. Resolves once the whole body has been read (or dropped). */
export function readUploadForm(
  request: Request,
  beforeFirstFile: (fields: URLSearchParams) => Promise<void>,
  pace?: UploadPace,
): Promise<UploadForm> {
  const result: UploadForm = { fields: new URLSearchParams(), files: [], problem: null, refusal: undefined };
  const contentType = request.headers.get('content-type') ?? '';
  return new Promise<UploadForm>((resolve) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        defParamCharset: 'utf8',
        limits: {
          files: MAX_FILES,
          fileSize: MAX_FILE_BYTES,
          fields: MAX_FIELDS,
          fieldSize: MAX_FIELD_BYTES,
        },
      });
    } catch {
      result.problem = 'malformed';
      resolve(result);
      return;
    }
    let total = 0;
    /** Set once the check has run: its outcome, shared by every file. */
    let checked: Promise<boolean> | null = null;
    /** Every file's reading, so the answer waits for the last. */
    const reading: Array<Promise<void>> = [];
    const keeping = () => result.refusal === undefined && result.problem === null;

    parser.on('field', (name, value) => {
      result.fields.append(name, value);
    });
    parser.on('file', (name, stream, info) => {
      // An empty file input still sends a part, with no name and no bytes.
      const filename = info.filename;
      if (name !== FILES_FIELD || !filename) {
        stream.resume();
        return;
      }
      stream.pause();
      checked ??= beforeFirstFile(result.fields).then(
        () => true,
        (error: unknown) => {
          result.refusal = error;
          return false;
        },
      );
      reading.push(
        checked.then(
          (allowed) =>
            new Promise<void>((done) => {
              const chunks: Buffer[] = [];
              let size = 0;
              let dropped = !allowed || !keeping();
              stream.on('data', (chunk: Buffer) => {
                size += chunk.length;
                if (dropped) return;
                total += chunk.length;
                if (total > MAX_SUBMISSION_BYTES) {
                  result.problem = 'total-too-large';
                  result.files = [];
                  dropped = true;
                  chunks.length = 0;
                  return;
                }
                chunks.push(chunk);
              });
              stream.on('end', () => {
                // Over 10 MB (busboy stopped at the limit): nothing of it is kept, and what was counted is given back.
                if ((stream as unknown as { truncated?: boolean }).truncated) {
                  if (!dropped) total -= chunks.reduce((sum, chunk) => sum + chunk.length, 0);
                  if (keeping())
                    result.files.push({
                      filename,
                      data: new Uint8Array(),
                      tooLarge: true,
                      size: MAX_FILE_BYTES + 1,
                    });
                } else if (!dropped && keeping()) {
                  result.files.push({ filename, data: Buffer.concat(chunks), size });
                }
                chunks.length = 0;
                done();
              });
              stream.resume();
            }),
        ),
      );
    });
    parser.on('filesLimit', () => {
      result.problem ??= 'too-many';
      result.files = [];
    });
    parser.on('error', () => {
      result.problem = 'malformed';
      result.files = [];
      resolve(result);
    });
    parser.on('close', () => {
      void Promise.all(reading).then(() => resolve(result));
    });
    if (!request.body) {
      parser.end();
      return;
    }
    const body = Readable.fromWeb(request.body as import('node:stream/web').ReadableStream<Uint8Array>);
    body.on('error', () => {
      result.problem = 'malformed';
      result.files = [];
      resolve(result);
    });
    if (pace) body.pipe(pace.stream()).pipe(parser);
    else body.pipe(parser);
  });
}
