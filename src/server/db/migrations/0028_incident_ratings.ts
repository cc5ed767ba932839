import { sql, type Kysely } from 'kysely';

/**
 * The customer's rating (issue 22, "The customer's rating"): each 'Resuelto' notice carries a random
 * token (stored only as its SHA-256, like the follow-up tokens of 0007) that rates that resolution
 * once, 1 to 5 with an optional comment, for 30 days. One row per token; `resolved_at` names the
 * resolution (tokens of one resolution share it, so a second notice of the same resolution cannot
 * rate it twice); `valor`, `comentario` and `rated_at` stay null until the customer rates. Times are
 * ISO 8601 text on both engines, as in `incident_tokens`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('incident_ratings')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('incident_id', 'integer', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('resolved_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('valor', 'integer', (c) => c.check(sql`valor between 1 and 5`))
    .addColumn('comentario', 'text')
    .addColumn('rated_at', 'text')
    .execute();
  await db.schema
    .createIndex('incident_ratings_incident_idx')
    .on('incident_ratings')
    .columns(['incident_id', 'resolved_at'])
    .execute();
  await db.schema
    .createIndex('incident_ratings_rated_idx')
    .on('incident_ratings')
    .column('rated_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('incident_ratings').ifExists().execute();
}
