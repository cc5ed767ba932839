import { type Kysely } from 'kysely';
import { timestampType } from './helpers.ts';

/**
 * Reports about our mails that are not bounces (issue 41, item 3): a delivery delayed
 * (`incident_mails.delayed_at`, the first such report), read by the customer (`read_at`, the first read
 * receipt) and reported as spam by the customer (`complained_at`); each shown in the staff timeline.
 * `mail_complaints` holds the addresses whose owner reported one of our mails as spam: automatic mail
 * (confirmations, state notices) to them is no longer queued. The address is lower case; the incident
 * and the report it came from are kept for the staff, and set null if those are deleted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['delayed_at', 'read_at', 'complained_at'])
    await db.schema.alterTable('incident_mails').addColumn(column, timestampType(db)).execute();
  await db.schema
    .createTable('mail_complaints')
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('incident_id', 'integer', (c) => c.references('incidents.id').onDelete('set null'))
    .addColumn('inbound_message_id', 'integer', (c) =>
      c.references('inbound_messages.id').onDelete('set null'),
    )
    .addColumn('complained_at', timestampType(db), (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_complaints').execute();
  for (const column of ['complained_at', 'read_at', 'delayed_at'])
    await db.schema.alterTable('incident_mails').dropColumn(column).execute();
}
