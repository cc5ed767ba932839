import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../engine.ts';
import { idColumn, timestampType } from './helpers.ts';

/**
 * The desk hears customers by e-mail (issue 21, docs/decisions/0014):
 *
 * - `incident_mails`: every mail we send a customer about an incident, by its `Message-ID` (unique,
 *   without angle brackets): the first one is what later mails name in `In-Reply-To`/`References`,
 *   and a reply naming any of them belongs to that incident. Each carries the hash (SHA-256) of the
 *   token of its `Reply-To` address (`local+TOKEN@domain`), unique; `bounced_at` is set when a
 *   delivery report of it arrives ('rebotado').
 * - `inbound_messages`: every mail (or later, message of another channel) that came in, stored once by
 *   its de-duplication key (unique: the `Message-ID`, else the SHA-256 of the raw bytes), with what became
 *   of it and the raw message gzip-compressed for 'Ver original'.
 * - `incident_entries.via` ('correo' for an answer that came by mail), `.unverified` (matched only by
 *   the number in the subject and the sender: 'Remitente sin verificar') and `.inbound_message_id`.
 * - `incidents.origen`: 'Formulario' (every incident before this) or 'Correo'; indexed with the list's order.
 * - `mail_outbox.message_id` and `.headers` (JSON of the threading and RFC 3834 headers).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await idColumn(db, db.schema.createTable('incident_mails'))
    .addColumn('incident_id', 'integer', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('message_id', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('reply_token_hash', 'text', (c) => c.unique())
    .addColumn('bounced_at', timestampType(db))
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('incident_mails_incident_idx')
    .on('incident_mails')
    .columns(['incident_id', 'created_at', 'id'])
    .execute();

  await idColumn(db, db.schema.createTable('inbound_messages'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('dedup_key', 'text', (c) => c.notNull().unique())
    .addColumn('message_id', 'text')
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('incident_id', 'integer', (c) => c.references('incidents.id').onDelete('set null'))
    .addColumn('raw_gzip', postgres ? 'bytea' : 'blob')
    .addColumn('received_at', timestampType(db), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('inbound_messages_received_idx')
    .on('inbound_messages')
    .columns(['received_at', 'id'])
    .execute();

  await db.schema.alterTable('incident_entries').addColumn('via', 'text').execute();
  await db.schema
    .alterTable('incident_entries')
    .addColumn('unverified', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .alterTable('incident_entries')
    .addColumn('inbound_message_id', 'integer', (c) =>
      c.references('inbound_messages.id').onDelete('set null'),
    )
    .execute();

  await db.schema
    .alterTable('incidents')
    .addColumn('origen', 'text', (c) =>
      c
        .notNull()
        .defaultTo('Formulario')
        .check(sql`origen in ('Formulario', 'Correo')`),
    )
    .execute();
  await db.schema
    .createIndex('incidents_origen_idx')
    .on('incidents')
    .columns(['origen', 'fecha desc', 'id desc'])
    .execute();

  await db.schema.alterTable('mail_outbox').addColumn('message_id', 'text').execute();
  await db.schema.alterTable('mail_outbox').addColumn('headers', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('headers').execute();
  await db.schema.alterTable('mail_outbox').dropColumn('message_id').execute();
  await db.schema.dropIndex('incidents_origen_idx').ifExists().execute();
  await db.schema.alterTable('incidents').dropColumn('origen').execute();
  await db.schema.alterTable('incident_entries').dropColumn('inbound_message_id').execute();
  await db.schema.alterTable('incident_entries').dropColumn('unverified').execute();
  await db.schema.alterTable('incident_entries').dropColumn('via').execute();
  await db.schema.dropTable('inbound_messages').ifExists().execute();
  await db.schema.dropTable('incident_mails').ifExists().execute();
}
