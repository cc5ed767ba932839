import type { Kysely } from 'kysely';
import { timestampType } from './helpers.ts';

/**
 * 'Correo entrante' in Configuración (issue 21, docs/decisions/0014):
 *
 * - `inbound_messages.reviewed_at` / `.reviewed_by` (the staff member's e-mail): a refused message
 *   ('Rechazados') a staff member dealt with, by 'Crear incidencia' (its outcome becomes
 *   `new-incident`) or 'Descartar' (it stays `rejected`). The list shows the refused ones not reviewed.
 * - `inbound_polls`: one row per reader of a mailbox (`imap`): when its last round ended, the last one
 *   that went well and the last error (text, no password: imapflow's and the database's messages),
 *   written by whichever process polled (on PostgreSQL, the one holding the lock).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('inbound_messages').addColumn('reviewed_at', timestampType(db)).execute();
  await db.schema.alterTable('inbound_messages').addColumn('reviewed_by', 'text').execute();
  await db.schema
    .createIndex('inbound_messages_outcome_idx')
    .on('inbound_messages')
    .columns(['outcome', 'received_at'])
    .execute();
  await db.schema
    .createTable('inbound_polls')
    .addColumn('channel', 'text', (c) => c.primaryKey())
    .addColumn('last_round_at', timestampType(db), (c) => c.notNull())
    .addColumn('last_ok_at', timestampType(db))
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', timestampType(db))
    .addColumn('idle', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('inbound_polls').ifExists().execute();
  await db.schema.dropIndex('inbound_messages_outcome_idx').ifExists().execute();
  await db.schema.alterTable('inbound_messages').dropColumn('reviewed_by').execute();
  await db.schema.alterTable('inbound_messages').dropColumn('reviewed_at').execute();
}
