import type { Kysely } from 'kysely';
import { idColumn, timestampType } from './helpers.ts';

/**
 * 'Respuestas guardadas' (issue 22): texts the team shares, inserted into 'Responder al cliente' with
 * their variables filled (src/server/replies). A title names one (unique, as typed); who created and
 * last edited it is kept by e-mail, like the other records' staff authors.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db, db.schema.createTable('saved_replies'))
    .addColumn('title', 'text', (c) => c.notNull().unique())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('updated_at', timestampType(db), (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('saved_replies').ifExists().execute();
}
