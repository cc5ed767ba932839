import { type Kysely } from 'kysely';
import { timestampType } from './helpers.ts';

/**
 * A customer's answer matched only by the number in its subject (`unverified`, 'Remitente sin
 * verificar') is kept from the customer's follow-up page, with its files, until a staff member accepts
 * it ('Aceptar como del cliente', issue 38, F3): when, and who (the account's e-mail, as the other
 * timeline actors are kept). Null on every other entry, and on an unverified one not accepted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('incident_entries').addColumn('accepted_at', timestampType(db)).execute();
  await db.schema.alterTable('incident_entries').addColumn('accepted_by', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('incident_entries').dropColumn('accepted_by').execute();
  await db.schema.alterTable('incident_entries').dropColumn('accepted_at').execute();
}
