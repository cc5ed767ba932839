/**
 * A connection of its own to the SQLite file that upserts blobs, for the worker threads that write
 * files' bytes off the server's thread (docs/decisions/0015): the blob store's
 * (src/server/attachments/blob-writer-worker.ts) and the mail reader's
 * (src/server/channels/mail/mime-parse-worker.ts), which writes a mail's files where it parsed them.
 * A file of src/server itself, importing only Node's modules: each worker loads it without the module
 * (attachments, sharp, the database layer) that its caller lives in.
 */
import { createHash } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';

export interface SqliteBlobWriter {
  /** The connection (the mail reader writes an original through it too). */
  db: DatabaseSync;
  /** Upserts each item under its SHA-256 in one immediate transaction; the keys, in order. */
  writeBlobs(items: Uint8Array[], createdAt: string): string[];
}

export function openBlobWriter(path: string): SqliteBlobWriter {
  const db = new DatabaseSync(path, { timeout: 5000, enableForeignKeyConstraints: true });
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA busy_timeout = 5000');
  const upsert = db.prepare(
    'insert into blobs (sha256, size, data, created_at) values (?, ?, ?, ?) ' +
      'on conflict (sha256) do update set created_at = excluded.created_at',
  );
  const writeBlobs = (items: Uint8Array[], createdAt: string): string[] => {
    db.exec('BEGIN IMMEDIATE');
    try {
      const keys = items.map((data) => {
        const key = createHash('sha256').update(data).digest('hex');
        upsert.run(key, data.byteLength, data, createdAt);
        return key;
      });
      db.exec('COMMIT');
      return keys;
    } catch (error) {
      try {
        db.exec('ROLLBACK');
      } catch {
        // The transaction may not have begun; the first error is the one to report.
      }
      throw error;
    }
  };
  return { db, writeBlobs };
}
