import type { Kysely } from 'kysely';

/**
 * Per-client counters of the public forms, kept in the database so that a limit holds across every
 * server process. One row per (key, fixed window); old windows are deleted as new ones are written.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.notNull())
    // Window number (slot): floor(epoch ms / window length).
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('rate_limits_pk', ['key', 'slot'])
    .execute();
  await db.schema.createIndex('rate_limits_slot_idx').on('rate_limits').column('slot').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limits').ifExists().execute();
}
