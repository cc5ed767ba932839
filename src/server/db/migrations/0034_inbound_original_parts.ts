import type { Kysely } from 'kysely';
import { isPostgres } from '../engine.ts';

/** Bytes of the gzip in one part (1 MiB); fixed here, as this migration wrote them. */
const PART_BYTES = 1024 * 1024;

/**
 * An inbound mail's original in parts (issue 21's memory target, docs/decisions/0014, session 11, third
 * step): the gzip of the raw message, which was one `inbound_messages.raw_gzip` value (SQLite made two
 * copies of a 19 MB value to write it), is kept in `inbound_original_parts`, in parts of at most 1 MiB
 * numbered from 0, each written with a value of its own size.
 *
 * - `inbound_messages.original_parts`: how many parts its original has, set once they are all written;
 *   null while there is none (never stored, purged, or not finished: a crash between the parts), and
 *   then whatever parts there are count for nothing (they are replaced when it is written again).
 * - The originals already stored are split into parts here, and `raw_gzip` is dropped (down: joined back).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .createTable('inbound_original_parts')
    .addColumn('inbound_id', 'integer', (c) =>
      c.notNull().references('inbound_messages.id').onDelete('cascade'),
    )
    .addColumn('part', 'integer', (c) => c.notNull())
    .addColumn('data', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('inbound_original_parts_pkey', ['inbound_id', 'part'])
    .execute();
  await db.schema.alterTable('inbound_messages').addColumn('original_parts', 'integer').execute();

  // One original at a time, so that a database with many holds only one in memory.
  const ids = await db
    .selectFrom('inbound_messages')
    .select('id')
    .where('raw_gzip', 'is not', null)
    .orderBy('id')
    .execute();
  for (const { id } of ids) {
    // Aliases without an underscore: the application's connection names result columns in camelCase.
    const row = await db
      .selectFrom('inbound_messages')
      .select('raw_gzip as gzip')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row?.gzip) continue;
    const gzip = row.gzip as Uint8Array;
    let part = 0;
    for (let offset = 0; offset < gzip.byteLength; offset += PART_BYTES) {
      await db
        .insertInto('inbound_original_parts')
        .values({ inbound_id: id, part, data: gzip.subarray(offset, offset + PART_BYTES) })
        .execute();
      part += 1;
    }
    await db.updateTable('inbound_messages').set({ original_parts: part }).where('id', '=', id).execute();
  }
  await db.schema.alterTable('inbound_messages').dropColumn('raw_gzip').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .alterTable('inbound_messages')
    .addColumn('raw_gzip', postgres ? 'bytea' : 'blob')
    .execute();
  const rows = await db
    .selectFrom('inbound_messages')
    .select(['id', 'original_parts as count'])
    .where('original_parts', 'is not', null)
    .orderBy('id')
    .execute();
  for (const { id, count } of rows) {
    const parts = await db
      .selectFrom('inbound_original_parts')
      .select('data')
      .where('inbound_id', '=', id)
      .orderBy('part')
      .execute();
    if (parts.length !== Number(count)) continue;
    const gzip = Buffer.concat(parts.map((part) => part.data as Uint8Array));
    await db.updateTable('inbound_messages').set({ raw_gzip: gzip }).where('id', '=', id).execute();
  }
  await db.schema.dropTable('inbound_original_parts').execute();
  await db.schema.alterTable('inbound_messages').dropColumn('original_parts').execute();
}
