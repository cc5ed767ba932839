import type { Kysely } from 'kysely';
import { idColumn, timestampType } from './helpers.ts';

/**
 * The staff area's audit log (src/server/audit): one row per sign-in, failed sign-in, sign-out, state
 * change, client added, welcome mail… Rows are inserted, never updated; only the retention purge
 * (`AUDIT_RETENTION_DAYS`) deletes them, oldest first, hence the index on `at`. The actor is nullable:
 * a failed sign-in names an e-mail that may have no account.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db, db.schema.createTable('audit_events'))
    .addColumn('at', timestampType(db), (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_email', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('detail', 'text')
    .addColumn('network', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_events_at_idx').on('audit_events').column('at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_events').ifExists().execute();
}
