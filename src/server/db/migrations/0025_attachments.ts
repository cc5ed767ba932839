import type { Kysely } from 'kysely';
import { isPostgres } from '../engine.ts';
import { idColumn, timestampType } from './helpers.ts';

/**
 * Files attached to incidents (issue 21, "Attachments"; docs/decisions/0015):
 *
 * - `blobs`: the bytes of every stored file, keyed by their SHA-256 (hex): the same file sent twice
 *   (or a thumbnail that happens to equal another) is stored once. In the database on both engines, so
 *   that a backup (`VACUUM INTO`, `pg_dump`) and a second server process see them with the rest.
 * - `incident_attachments`: a file of an incident, of one timeline entry (`entry_id`) or of the problem
 *   itself (`entry_id` null): its name as sent (made safe), its sniffed content type and size, the
 *   blob of the file (for an image: re-encoded, metadata removed, orientation applied) and of its
 *   thumbnail. A file of a mail that was dropped (refused type, too large) has no blob and says why
 *   (`dropped_reason`), so the timeline names it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .createTable('blobs')
    .addColumn('sha256', 'text', (c) => c.primaryKey())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('data', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .execute();

  await idColumn(db, db.schema.createTable('incident_attachments'))
    .addColumn('incident_id', 'integer', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('entry_id', 'integer', (c) => c.references('incident_entries.id').onDelete('cascade'))
    .addColumn('blob_sha256', 'text', (c) => c.references('blobs.sha256'))
    .addColumn('thumb_sha256', 'text', (c) => c.references('blobs.sha256'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('dropped_reason', 'text')
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('incident_attachments_incident_idx')
    .on('incident_attachments')
    .columns(['incident_id', 'id'])
    .execute();
  // The files of an entry (a reply's mail), and whether a blob is still named (the purge of unused blobs).
  await db.schema
    .createIndex('incident_attachments_entry_idx')
    .on('incident_attachments')
    .column('entry_id')
    .execute();
  await db.schema
    .createIndex('incident_attachments_blob_idx')
    .on('incident_attachments')
    .column('blob_sha256')
    .execute();
  await db.schema
    .createIndex('incident_attachments_thumb_idx')
    .on('incident_attachments')
    .column('thumb_sha256')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('incident_attachments').ifExists().execute();
  await db.schema.dropTable('blobs').ifExists().execute();
}
