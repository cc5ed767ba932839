/**
 * A mail's MIME tree parsed off the server's thread (issue 21, "Speed"): postal-mime in a worker thread of
 * its own, kept while mail comes in and ended after a quiet while.
 * - A 25 MB mail took the server's thread for about a second, every page waiting behind it; here it
 *   takes the worker's.
 * - Decoding base64 churns through tens of megabytes of short-lived strings. On the server's thread that
 *   grows V8's young generation to its largest for good (about 60 MB of resident memory the first time);
 *   the worker's young generation is kept small ({@link YOUNG_GENERATION_MB}), and an ended worker gives
 *   all of its memory back.
 * - A parse that does not end within {@link PARSE_TIMEOUT_MS} ends the worker: the mail is refused to
 *   its channel (which hands it over again later), and the next one gets a new worker.
 * The bytes go to the worker and come back with the parsed mail without being copied when they own
 * their whole buffer.
 */
import { createRequire } from 'node:module';
import { RequestWorker } from '../request-worker.ts';
import type { Email } from 'postal-mime';

const YOUNG_GENERATION_MB = 4;
export const PARSE_TIMEOUT_MS = 60_000;
/** A worker with nothing to parse for this long ends. */
const IDLE_MS = 30_000;

// CommonJS, evaluated in the worker; postal-mime's path comes resolved from here, so that it is found
// wherever the server's bundle lives.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const loaded = require(workerData.module);
const PostalMime = loaded.default || loaded;
parentPort.on('message', async ({ id, raw }) => {
  try {
    const email = await PostalMime.parse(raw, { forceRfc822Attachments: true, attachmentEncoding: 'arraybuffer' });
    const buffers = [raw];
    for (const part of email.attachments) if (part.content instanceof ArrayBuffer) buffers.push(part.content);
    parentPort.postMessage({ id, email, raw }, buffers);
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

let modulePath: string | undefined;
let current: RequestWorker | undefined;

function worker(): RequestWorker {
  if (current) return current;
  modulePath ??= createRequire(import.meta.url).resolve('postal-mime');
  const made = new RequestWorker({
    source: WORKER_SOURCE,
    workerData: { module: modulePath },
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
 * The mail's MIME tree (postal-mime's `Email`, attachments as ArrayBuffers) and its bytes. With `move`,
 * the caller gives `raw` up (it may come back detached, empty) and uses the bytes returned; without, they
 * are copied.
 */
export async function parseMime(given: Uint8Array, move = false): Promise<{ email: Email; raw: Uint8Array }> {
  // Moved to the worker and back when the caller gives its bytes up and the view is its buffer's only
  // one; copied otherwise (a slice of a larger buffer, Node's pool of small Buffers). (`new
  // Uint8Array(view)` copies; a Buffer's `slice` would not.)
  const own =
    move && given.byteOffset === 0 && given.byteLength === given.buffer.byteLength && given.buffer instanceof ArrayBuffer && given.byteLength > 8192;
  const buffer = own ? (given.buffer as ArrayBuffer) : new Uint8Array(given).buffer;
  const reply = await worker().request({ raw: buffer }, [buffer], { ms: PARSE_TIMEOUT_MS, message: 'El correo tardó demasiado en leerse' });
  return { email: reply.email as Email, raw: new Uint8Array(reply.raw as ArrayBuffer) };
}
