import type { Kysely } from 'kysely';
import { timestampType } from './helpers.ts';

/**
 * '¿Te resultó útil?' at the end of each help article (issue 23): one row per article that has been
 * voted on, with its 'Sí' and 'No' counts. No cookie and no visitor is recorded, only the counts
 * (src/server/content/votes.ts); an article's row goes with it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('article_votes')
    .addColumn('article_id', 'integer', (c) => c.primaryKey().references('articles.id').onDelete('cascade'))
    .addColumn('helpful', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('not_helpful', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', timestampType(db), (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('article_votes').ifExists().execute();
}
