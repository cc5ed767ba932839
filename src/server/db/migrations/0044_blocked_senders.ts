import type { Kysely } from 'kysely';
import { idColumn, timestampType } from './helpers.ts';

/**
 * Blocked senders (issue 37: "the same screening as mail applies: … a blocked number"): a staff member
 * blocks a customer's address on a channel (a WhatsApp number, a mail address) from the incident page;
 * every later message from it is stored refused ('Número bloqueado', 'Dirección bloqueada') and acts on
 * nothing. One row per channel and address; unblocking deletes it (the audit log keeps both changes).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db, db.schema.createTable('blocked_senders'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('blocked_by', 'text', (c) => c.notNull())
    .addColumn('blocked_at', timestampType(db), (c) => c.notNull())
    .addUniqueConstraint('blocked_senders_channel_address_key', ['channel', 'address'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('blocked_senders').execute();
}
