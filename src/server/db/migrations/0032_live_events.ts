import type { Kysely } from 'kysely';
import { idColumn, timestampType } from './helpers.ts';

/**
 * Live updates of the staff area (issue 22, docs/decisions/0018): `live_events` is the window of recent
 * events the event stream (`/api/staff/eventos`) sends, one row per change, written in the transaction
 * of the change (src/server/live/). A browser that reconnects with `Last-Event-ID` is sent every row
 * after it; the oldest rows are pruned as new ones come (the window is a few thousand events).
 *
 * `kind`: 'incident.created', 'incident.changed', 'message.created', 'message.changed'. `data`: JSON
 * with what the browsers need to decide what to refresh and whom to notify (numbers, ids, the kind of
 * change, who made it), never a text typed by a customer.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db, db.schema.createTable('live_events'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('live_events').ifExists().execute();
}
