import type { Kysely } from 'kysely';

/**
 * The client CSV import's confirmations already used (issue 24, finding 6): each preview signs its file
 * with a fresh nonce, and the confirmation records it in the same transaction as the import, so the
 * same signed confirmation posted again within its hour imports nothing. A nonce is kept while its
 * preview could still be confirmed (an hour), then deleted by the next import.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('client_import_nonces')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('used_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('client_import_nonces_used_at_idx')
    .on('client_import_nonces')
    .column('used_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('client_import_nonces').ifExists().execute();
}
