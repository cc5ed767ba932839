import type { Kysely } from 'kysely';

/**
 * Follow-up tokens: each mail to a visitor carries a random token that opens its incident's follow-up
 * page. Only a SHA-256 of it is stored, so the table opens nothing to whoever reads it; an incident has
 * one row per mail that carried a token.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('incident_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('incident_id', 'integer', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('incident_tokens_incident_idx')
    .on('incident_tokens')
    .column('incident_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('incident_tokens').ifExists().execute();
}
