/**
 * A script's use of the server's worker threads (tests/integration/worker-threads.test.ts): a file's bytes
 * stored through the blob writer (blob-store.ts) and a mail parsed by the MIME reader (mime-worker.ts),
 * then nothing: the process must end by itself, as `npm run data` or `npm run admin` do.
 *
 *   node tests/support/worker-exit-child.ts SQLITE_FILE
 */
import { storeBlobs } from '../../src/server/attachments/blob-store.ts';
import { migrateToLatest, openDatabase } from '../../src/server/db/index.ts';
import { parseMime } from '../../src/server/channels/mail/mime-worker.ts';

const [file] = process.argv.slice(2);
if (!file) throw new Error('uso: worker-exit-child.ts SQLITE_FILE');
const { db } = openDatabase(file);
await migrateToLatest(db);
const [stored] = await storeBlobs(db, [
  { filename: 'a.txt', contentType: 'text/plain', data: new Uint8Array(20_000).fill(97), thumb: null },
]);
const { email } = await parseMime(
  Buffer.from('From: ana@cliente.example\r\nSubject: Factura\r\n\r\nNo imprime.\r\n'),
);
await db.destroy();
process.stdout.write(`${stored!.blob} ${email.subject}\n`);
