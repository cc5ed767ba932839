import { sql, type Kysely } from 'kysely';
import { idColumn, timestampType } from './helpers.ts';

/**
 * The 'Reunión' invitation (issue 12):
 *
 * - `client_meetings`: one row per meeting sent to a client, with the staff organiser, the start (UTC)
 *   and its end (start + duration, kept so that 'Próximas reuniones' is one indexed range), the place
 *   or video-call link, the note, and the iCalendar identity the invitation and its cancellation share
 *   (`uid`, `sequence`: 0 when sent, + 1 when cancelled). Cancelling sets `cancelled_at`; nothing is
 *   deleted. The client's timeline reads its entries from here (sent, cancelled).
 * - `mail_outbox.attachments`: the files of a mail (JSON; null for the mails queued before, which
 *   are sent as they were). A `text/calendar` attachment with a method is sent as the invitation.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db, db.schema.createTable('client_meetings'))
    .addColumn('client_id', 'integer', (c) => c.notNull().references('clients.id'))
    .addColumn('organizer_id', 'text', (c) => c.notNull())
    .addColumn('organizer_email', 'text', (c) => c.notNull())
    .addColumn('organizer_name', 'text', (c) => c.notNull())
    .addColumn('starts_at', timestampType(db), (c) => c.notNull())
    .addColumn('ends_at', timestampType(db), (c) => c.notNull())
    .addColumn('duration_minutes', 'integer', (c) =>
      c.notNull().check(sql`duration_minutes > 0 and duration_minutes <= 480`),
    )
    .addColumn('place', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('uid', 'text', (c) => c.notNull().unique())
    .addColumn('sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .addColumn('cancelled_at', timestampType(db))
    .addColumn('cancelled_by', 'text')
    .execute();
  await db.schema
    .createIndex('client_meetings_client_idx')
    .on('client_meetings')
    .columns(['client_id', 'starts_at'])
    .execute();
  await db.schema
    .createIndex('client_meetings_ends_idx')
    .on('client_meetings')
    .columns(['ends_at'])
    .execute();

  await db.schema.alterTable('mail_outbox').addColumn('attachments', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('attachments').execute();
  await db.schema.dropTable('client_meetings').ifExists().execute();
}
