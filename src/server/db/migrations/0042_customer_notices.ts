import { sql, type Kysely } from 'kysely';
import { idColumn, timestampType } from './helpers.ts';

/**
 * The channels wing (issue 37, part 1). An incident knows the channel it came from and the customer's
 * address on it (`incidents.channel`, `channel_address`): every incident so far reaches its customer
 * by mail, at its e-mail. `customer_notices` is the desk's channel-neutral record of what it told a
 * customer (a confirmation, a state change, a staff reply), written in the change's own transaction
 * and handed to the incident's channel: the mail channel queues its mail in that same transaction
 * (`handed`), a channel that speaks to an outside service leaves it `pending` for the delivery worker,
 * which retries with back-off (`attempts`, `next_attempt_at`, `locked_until`) until `sent` or `failed`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('incidents')
    .addColumn('channel', 'text', (c) => c.notNull().defaultTo('correo'))
    .execute();
  await db.schema.alterTable('incidents').addColumn('channel_address', 'text').execute();
  await db
    .updateTable('incidents')
    .set({ channel_address: sql`nullif(trim(email), '')` })
    .execute();

  await idColumn(db, db.schema.createTable('customer_notices'))
    .addColumn('incident_id', 'integer', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', timestampType(db), (c) => c.notNull())
    .addColumn('locked_until', timestampType(db))
    .addColumn('last_error', 'text')
    .addColumn('external_id', 'text')
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .addColumn('done_at', timestampType(db))
    .execute();
  await db.schema
    .createIndex('customer_notices_due_idx')
    .on('customer_notices')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('customer_notices_incident_idx')
    .on('customer_notices')
    .columns(['incident_id', 'id'])
    .execute();
  await db.schema
    .createIndex('customer_notices_external_idx')
    .on('customer_notices')
    .column('external_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('customer_notices').execute();
  await db.schema.alterTable('incidents').dropColumn('channel_address').execute();
  await db.schema.alterTable('incidents').dropColumn('channel').execute();
}
