/**
 * HEIC/HEIF photos decoded without HEVC in sharp (the prebuilt libvips has none): libheif compiled to
 * WebAssembly (`heic-decode`, over `libheif-js`), in a worker thread of its own for each photo
 * (docs/decisions/0015):
 * - the WebAssembly memory only grows (a 48-megapixel photo takes about 200 MB of it): a worker that
 *   exits gives it back, where the server's own thread would keep it for good;
 * - one photo at a time in this process, and at most {@link HEIC_TIMEOUT_MS} each, so that a burst of
 *   uploads takes one core and a bounded amount of memory;
 * - the caller refuses a photo over the pixel limit from its header (sharp reads a HEIC's header
 *   without decoding it) before it gets here; the worker checks the size again before decoding.
 * libheif applies the container's rotation and mirroring (`irot`, `imir`) as it decodes; the EXIF
 * orientation inside a HEIC is not applied on top (the HEIF rule: an iPhone writes both, the same turn).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export const HEIC_TIMEOUT_MS = 30_000;

/** The decoded primary image: RGBA, 8 bits a channel. */
export interface DecodedHeic {
  width: number;
  height: number;
  data: Uint8Array;
}

export class HeicTooLargeError extends Error {
  override name = 'HeicTooLargeError';
}

// CommonJS, evaluated in the worker; the module's path comes resolved from here, so that it is found
// wherever the server's bundle lives.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const decode = require(workerData.module);
(async () => {
  const images = await decode.all({ buffer: workerData.data });
  try {
    const primary = images[0];
    if (primary.width * primary.height > workerData.maxPixels) return parentPort.postMessage({ tooLarge: true });
    const { width, height, data } = await primary.decode();
    parentPort.postMessage({ width, height, data }, [data.buffer]);
  } finally {
    images.dispose();
  }
})().catch((error) => parentPort.postMessage({ error: String((error && error.message) || error) }));
`;

let modulePath: string | undefined;
let queue: Promise<unknown> = Promise.resolve();

function decodeInWorker(data: Uint8Array, maxPixels: number): Promise<DecodedHeic> {
  modulePath ??= createRequire(import.meta.url).resolve('heic-decode');
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { module: modulePath, data, maxPixels },
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error('HEIC decoding took too long'));
    }, HEIC_TIMEOUT_MS);
    const settle = (action: () => void) => {
      clearTimeout(timer);
      action();
      void worker.terminate();
    };
    worker.once(
      'message',
      (message: {
        tooLarge?: boolean;
        error?: string;
        width: number;
        height: number;
        data: Uint8ClampedArray;
      }) =>
        settle(() => {
          if (message.tooLarge) reject(new HeicTooLargeError());
          else if (message.error) reject(new Error(message.error));
          else
            resolve({
              width: message.width,
              height: message.height,
              data: new Uint8Array(message.data.buffer, message.data.byteOffset, message.data.byteLength),
            });
        }),
    );
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', (code) => settle(() => reject(new Error(`HEIC worker exited (${code})`))));
  });
}

/** The HEIC's primary image decoded, one photo at a time in this process. */
export function decodeHeic(data: Uint8Array, maxPixels: number): Promise<DecodedHeic> {
  const next = queue.then(() => decodeInWorker(data, maxPixels));
  queue = next.catch(() => undefined);
  return next;
}
