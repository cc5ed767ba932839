import { sql, type Kysely } from 'kysely';
import { timestampType } from './helpers.ts';

/**
 * `normalizeForSearch` of src/server/text.ts as it was when this migration was written, frozen here
 * (issue 40): a later change there must not change what running it does.
 */
const normalizeForSearch = (value: string): string =>
  value
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The contact inbox (issue 11, `/admin/mensajes`):
 *
 * - `handled_at`, `handled_by_id`, `handled_by_email`: 'Marcar como atendido' (who and when); null while
 *   the message is pending ('Marcar como pendiente' clears them again).
 * - `name_norm`, `email_norm`, `message_norm`: `normalizeForSearch` copies for the inbox search, derived
 *   by `contactMessageRow` (src/server/db/rows.ts) on every insert; the existing rows are filled here.
 * - Two partial indexes in list order, one per filter, so that a page of 'Pendientes' or 'Atendidos'
 *   is an index walk that stops at the page, and the sidebar's count of pending messages reads only
 *   the pending entries (never the table).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema.alterTable('contact_messages').addColumn('handled_at', ts).execute();
  await db.schema.alterTable('contact_messages').addColumn('handled_by_id', 'text').execute();
  await db.schema.alterTable('contact_messages').addColumn('handled_by_email', 'text').execute();
  for (const column of ['name_norm', 'email_norm', 'message_norm'])
    await db.schema
      .alterTable('contact_messages')
      .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
      .execute();

  // Accents are removed by Unicode decomposition, which neither engine's SQL does the same way.
  for (let after = 0; ;) {
    const rows = await db
      .selectFrom('contact_messages')
      .select(['id', 'name', 'email', 'message'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(500)
      .execute();
    for (const row of rows)
      await db
        .updateTable('contact_messages')
        .set({
          name_norm: normalizeForSearch(row.name),
          email_norm: normalizeForSearch(row.email),
          message_norm: normalizeForSearch(row.message),
        })
        .where('id', '=', row.id)
        .execute();
    if (rows.length < 500) break;
    after = rows.at(-1)!.id;
  }

  await db.schema
    .createIndex('contact_messages_pending_idx')
    .on('contact_messages')
    .columns(['created_at desc', 'id desc'])
    .where(sql.ref('handled_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('contact_messages_handled_idx')
    .on('contact_messages')
    .columns(['created_at desc', 'id desc'])
    .where(sql.ref('handled_at'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('contact_messages_handled_idx').ifExists().execute();
  await db.schema.dropIndex('contact_messages_pending_idx').ifExists().execute();
  for (const column of [
    'message_norm',
    'email_norm',
    'name_norm',
    'handled_by_email',
    'handled_by_id',
    'handled_at',
  ])
    await db.schema.alterTable('contact_messages').dropColumn(column).execute();
}
