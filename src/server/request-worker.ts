/**
 * A worker thread that answers requests, one message each way, for the server's heavy jobs off its own
 * thread (the blob writer, src/server/attachments/blob-store.ts; the MIME reader,
 * src/server/channels/mail/mime-worker.ts), its code a module of src/server ({@link workerModule}):
 * - a request is `{ id, ...message }`; the worker answers `{ id, ...result }`, or `{ id, error }`;
 * - referenced only while a caller waits on it, so it never keeps a process alive on its own (a script
 *   that used it ends), and keeps it alive while an answer is due;
 * - ended after {@link RequestWorkerOptions.idleMs} with nothing to do (its memory given back), and by a
 *   request that outlasts its `timeoutMs`; every request waiting then fails, and `onEnd` tells the owner
 *   to make a new one next time.
 */
import { existsSync } from 'node:fs';
import { Worker, type ResourceLimits, type Transferable } from 'node:worker_threads';

/**
 * The file of a worker thread's module, `path` from src/server/ (a TypeScript module, type-checked and
 * linted like the rest, that Node 24 runs as it is: its types stripped, hence `erasableSyntaxOnly`).
 *
 * Its source file, from both places this code runs: from source (the tests; `npm start`'s own
 * src/server/ modules, scripts/start.ts), this file sits in src/server/; from the Astro build
 * (dist/server/chunks/…, the routes' and actions' copy), the worker's file is not beside the chunk:
 * Vite leaves `new URL(…, import.meta.url)` alone in a server build (its worker plugin is the
 * browser's), so the folders above are searched for src/server/`path`. The source, not a second
 * build of it: the server already runs from src/ (scripts/start.ts imports it), so there is nothing
 * to forget to build, nothing stale, and the build's copy runs the very file the tests ran
 * (docs/decisions/0014, amendment of issue 40).
 */
export function workerModule(path: string): URL {
  const here = new URL('./', import.meta.url);
  const beside = new URL(path, here);
  if (existsSync(beside)) return beside;
  for (let folder = here; ;) {
    const found = new URL(`src/server/${path}`, folder);
    if (existsSync(found)) return found;
    const parent = new URL('../', folder);
    if (parent.href === folder.href) throw new Error(`No se encontró src/server/${path}`);
    folder = parent;
  }
}

export interface RequestWorkerOptions {
  /** The worker thread's module ({@link workerModule}). */
  module: URL;
  workerData?: unknown;
  resourceLimits?: ResourceLimits;
  idleMs: number;
  /** The Spanish message of a failed request, from the worker's error text. */
  failure: (error: string) => string;
  /** The message when the worker ends with requests waiting, from its exit code. */
  exited: (code: number) => string;
  /** Called once the worker has ended (idle, failed, timed out); a request to it then fails at once. */
  onEnd: () => void;
}

interface Pending {
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
}

/**
 * The rejection of a request that outlasted its time-out (the worker is ended for it): that request's
 * own work is what did not end (a mail that takes too long to read), unlike the other requests waiting,
 * which fail with a plain error, as at any end of the worker.
 */
export class RequestTimeoutError extends Error {
  override name = 'RequestTimeoutError';
}

export class RequestWorker {
  readonly #worker: Worker;
  readonly #options: RequestWorkerOptions;
  readonly #pending = new Map<number, Pending>();
  #next = 0;
  #idle: NodeJS.Timeout | undefined;
  #ended = false;

  constructor(options: RequestWorkerOptions) {
    this.#options = options;
    this.#worker = new Worker(options.module, {
      workerData: options.workerData,
      resourceLimits: options.resourceLimits,
    });
    this.#worker.on(
      'message',
      ({ id, error, ...result }: { id: number; error?: string } & Record<string, unknown>) => {
        const pending = this.#pending.get(id);
        if (!pending) return;
        this.#pending.delete(id);
        clearTimeout(pending.timer);
        if (error === undefined) pending.resolve(result);
        else pending.reject(new Error(options.failure(error)));
        if (!this.#pending.size) this.#rest();
      },
    );
    this.#worker.on('error', (error) => this.#end(error));
    this.#worker.on('exit', (code) => this.#end(new Error(options.exited(code))));
    // After the listeners: adding a 'message' listener refs the worker again.
    this.#worker.unref();
  }

  #end(error: Error): void {
    clearTimeout(this.#idle);
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.#pending.clear();
    if (!this.#ended) {
      this.#ended = true;
      this.#options.onEnd();
    }
  }

  /** Nothing waits on it: it no longer keeps the process alive, and ends if nothing comes. */
  #rest(): void {
    this.#worker.unref();
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      if (this.#pending.size) return;
      this.#end(new Error(this.#options.exited(0)));
      void this.#worker.terminate();
    }, this.#options.idleMs);
    this.#idle.unref();
  }

  /** Sends a request; its answer without the id. `transfer`: buffers moved to the worker, not copied. */
  request(
    message: Record<string, unknown>,
    transfer: readonly Transferable[] = [],
    timeout?: { ms: number; message: string },
  ): Promise<Record<string, unknown>> {
    // An ended worker would never answer (a caller holding on to it past its end).
    if (this.#ended) return Promise.reject(new Error(this.#options.exited(0)));
    clearTimeout(this.#idle);
    // A caller waits on it: the process lives until the answer comes.
    this.#worker.ref();
    const id = (this.#next += 1);
    return new Promise((resolve, reject) => {
      const timer = timeout
        ? setTimeout(() => {
            this.#pending.delete(id);
            reject(new RequestTimeoutError(timeout.message));
            this.#end(new Error(timeout.message));
            void this.#worker.terminate();
          }, timeout.ms)
        : undefined;
      this.#pending.set(id, { resolve, reject, timer });
      this.#worker.postMessage({ ...message, id }, transfer as Transferable[]);
    });
  }
}
