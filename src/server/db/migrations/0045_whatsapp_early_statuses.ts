import type { Kysely } from 'kysely';
import { idColumn, timestampType } from './helpers.ts';

/**
 * Meta's status webhooks that came before the wamid they name was ours to know (issue 37): Meta can post
 * a message's 'sent' (even 'delivered') before it answers the send, so before the delivery worker has
 * written the wamid into `customer_notices.external_id`. Such a status waits here and is applied as soon
 * as the wamid is written (src/server/channels/whatsapp/statuses.ts); one never claimed (a status of a
 * file we sent, whose wamid no notice keeps) is dropped after a day.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db, db.schema.createTable('whatsapp_early_statuses'))
    .addColumn('wamid', 'text', (c) => c.notNull())
    .addColumn('delivery_status', 'text', (c) => c.notNull())
    .addColumn('delivery_error', 'text')
    .addColumn('status_at', timestampType(db), (c) => c.notNull())
    .addColumn('received_at', timestampType(db), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('whatsapp_early_statuses_wamid_idx')
    .on('whatsapp_early_statuses')
    .column('wamid')
    .execute();
  await db.schema
    .createIndex('whatsapp_early_statuses_received_idx')
    .on('whatsapp_early_statuses')
    .column('received_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('whatsapp_early_statuses').execute();
}
