import { sql, type Kysely } from 'kysely';

/**
 * An incident whose staff notice waits for the next digest (a flood of incidents: see
 * src/server/incidents/notices.ts). A partial index keeps finding those few rows cheap at any size.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('incidents')
    .addColumn('staff_notice_pending', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`create index incidents_notice_pending_idx on incidents (id) where staff_notice_pending = true`.execute(
    db,
  );
  // How many mails of a kind were queued in the last hour (the staff inbox's hourly budget).
  await db.schema
    .createIndex('mail_outbox_kind_created_idx')
    .on('mail_outbox')
    .columns(['kind', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists incidents_notice_pending_idx`.execute(db);
  await db.schema.dropIndex('mail_outbox_kind_created_idx').ifExists().execute();
  await db.schema.alterTable('incidents').dropColumn('staff_notice_pending').execute();
}
