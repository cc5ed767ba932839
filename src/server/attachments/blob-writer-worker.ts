/**
 * The blob store's worker thread (blob-store.ts): one connection to the SQLite file, one prepared
 * upsert, one message at a time. A module of its own, loaded by {@link RequestWorker} from its file
 * (src/server/request-worker.ts says how it is found from the source and from the build).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openBlobWriter } from '../sqlite-blob-writer.ts';

export interface BlobWriterWorkerData {
  /** The SQLite file. */
  path: string;
}

if (!parentPort) throw new Error('blob-writer-worker.ts runs as a worker thread');
const port = parentPort;
const writer = openBlobWriter((workerData as BlobWriterWorkerData).path);
port.on('message', ({ id, items, createdAt }: { id: number; items: Uint8Array[]; createdAt: string }) => {
  try {
    port.postMessage({ id, keys: writer.writeBlobs(items, createdAt) });
  } catch (error) {
    port.postMessage({ id, error: String((error as Error | null)?.message || error) });
  }
});
