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
import { Worker } from 'node:worker_threads';
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

interface Pending {
  resolve: (result: { email: Email; raw: Uint8Array }) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

let modulePath: string | undefined;
let current: MimeWorker | undefined;

class MimeWorker {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #next = 0;
  #idle: NodeJS.Timeout | undefined;

  constructor() {
    modulePath ??= createRequire(import.meta.url).resolve('postal-mime');
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { module: modulePath },
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    this.#worker.on('message', (reply: { id: number; email?: Email; raw?: ArrayBuffer; error?: string }) => {
      const pending = this.#pending.get(reply.id);
      if (!pending) return;
      this.#pending.delete(reply.id);
      clearTimeout(pending.timer);
      if (reply.email && reply.raw) pending.resolve({ email: reply.email, raw: new Uint8Array(reply.raw) });
      else pending.reject(new Error(`No se pudo leer el correo: ${reply.error ?? 'error desconocido'}`));
      if (!this.#pending.size) this.#restIdle();
    });
    this.#worker.on('error', (error) => this.#end(error));
    this.#worker.on('exit', (code) => this.#end(new Error(`El lector de correo terminó (${code})`)));
    // Referenced only while a parse waits on it (parse, #restIdle). After the listeners: adding a
    // 'message' listener refs the worker again.
    this.#worker.unref();
  }

  #end(error: Error): void {
    if (current === this) current = undefined;
    clearTimeout(this.#idle);
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.#pending.clear();
  }

  #restIdle(): void {
    // Nothing waits on it: it no longer keeps the process alive.
    this.#worker.unref();
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      if (this.#pending.size) return;
      if (current === this) current = undefined;
      void this.#worker.terminate();
    }, IDLE_MS);
    this.#idle.unref();
  }

  parse(raw: Uint8Array, move: boolean): Promise<{ email: Email; raw: Uint8Array }> {
    clearTimeout(this.#idle);
    // A caller waits on it: the process lives until the answer comes.
    this.#worker.ref();
    const id = (this.#next += 1);
    // Moved to the worker and back when the caller gives its bytes up and the view is its buffer's only
    // one; copied otherwise (a slice of a larger buffer, Node's pool of small Buffers).
    const own = move && raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength && raw.buffer instanceof ArrayBuffer && raw.byteLength > 8192;
    // (`new Uint8Array(view)` copies; a Buffer's `slice` would not.)
    const buffer = own ? (raw.buffer as ArrayBuffer) : new Uint8Array(raw).buffer;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#end(new Error('El correo tardó demasiado en leerse'));
        void this.#worker.terminate();
      }, PARSE_TIMEOUT_MS);
      this.#pending.set(id, { resolve, reject, timer });
      this.#worker.postMessage({ id, raw: buffer }, [buffer]);
    });
  }
}

/**
 * The mail's MIME tree (postal-mime's `Email`, attachments as ArrayBuffers) and its bytes. With `move`,
 * the caller gives `raw` up (it may come back detached, empty) and uses the bytes returned; without, they
 * are copied.
 */
export function parseMime(raw: Uint8Array, move = false): Promise<{ email: Email; raw: Uint8Array }> {
  current ??= new MimeWorker();
  return current.parse(raw, move);
}
