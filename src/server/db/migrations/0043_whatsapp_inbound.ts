import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../engine.ts';
import { idColumn, timestampType } from './helpers.ts';

/**
 * WhatsApp inbound (issue 37, part 2). What Meta's status webhooks say of a notice we sent
 * (`customer_notices.delivery_status` 'sent' | 'delivered' | 'read' | 'failed', its Spanish error text
 * when it failed, and Meta's time of that status), found by the notice's `external_id` (the wamid).
 * `whatsapp_media` is the queue of a customer's files still to fetch from Meta: the webhook stores the
 * message and its media ids and answers at once; a job fetches each file after, attaches it to the
 * message's entry, or says in the timeline that it could not (status 'done' or 'failed'). An index
 * finds a number's incidents of a channel. `incidents.origen` takes 'WhatsApp' too (its CHECK from
 * migration 0024 named only 'Formulario' and 'Correo'): PostgreSQL replaces the constraint; SQLite,
 * which cannot alter one, moves the column aside, adds it again with the new CHECK, copies it and
 * drops the old one (no trigger or view names the column; its index is made again).
 */
async function origins(db: Kysely<any>, list: readonly string[]): Promise<void> {
  const allowed = sql.raw(list.map((origin) => `'${origin}'`).join(', '));
  if (isPostgres(db)) {
    await sql`alter table incidents drop constraint if exists incidents_origen_check`.execute(db);
    await sql`alter table incidents add constraint incidents_origen_check check (origen in (${allowed}))`.execute(
      db,
    );
    return;
  }
  await db.schema.dropIndex('incidents_origen_idx').execute();
  await sql`alter table incidents rename column origen to origen_before_0043`.execute(db);
  await db.schema
    .alterTable('incidents')
    .addColumn('origen', 'text', (c) =>
      c
        .notNull()
        .defaultTo('Formulario')
        .check(sql`origen in (${allowed})`),
    )
    .execute();
  await sql`update incidents set origen = origen_before_0043`.execute(db);
  await sql`alter table incidents drop column origen_before_0043`.execute(db);
  await db.schema
    .createIndex('incidents_origen_idx')
    .on('incidents')
    .columns(['origen', 'fecha desc', 'id desc'])
    .execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await origins(db, ['Formulario', 'Correo', 'WhatsApp']);
  await db.schema.alterTable('customer_notices').addColumn('delivery_status', 'text').execute();
  await db.schema.alterTable('customer_notices').addColumn('delivery_error', 'text').execute();
  await db.schema.alterTable('customer_notices').addColumn('status_at', timestampType(db)).execute();

  await idColumn(db, db.schema.createTable('whatsapp_media'))
    .addColumn('inbound_id', 'integer', (c) =>
      c.notNull().references('inbound_messages.id').onDelete('cascade'),
    )
    .addColumn('media_id', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', timestampType(db), (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('whatsapp_media_message_idx')
    .on('whatsapp_media')
    .columns(['inbound_id', 'media_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('whatsapp_media_due_idx')
    .on('whatsapp_media')
    .columns(['status', 'next_attempt_at'])
    .execute();
  // A number's open incident of the channel (channels/whatsapp/channel.ts `match`).
  await db.schema
    .createIndex('incidents_channel_address_idx')
    .on('incidents')
    .columns(['channel', 'channel_address'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('incidents_channel_address_idx').execute();
  await origins(db, ['Formulario', 'Correo']);
  await db.schema.dropTable('whatsapp_media').execute();
  await db.schema.alterTable('customer_notices').dropColumn('status_at').execute();
  await db.schema.alterTable('customer_notices').dropColumn('delivery_error').execute();
  await db.schema.alterTable('customer_notices').dropColumn('delivery_status').execute();
}
