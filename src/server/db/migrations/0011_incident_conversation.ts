import { sql, type Kysely } from 'kysely';
import { idColumn, timestampType } from './helpers.ts';

/**
 * Each incident as a conversation (issue 11): `incident_entries` holds the timeline entries written
 * after the problem, other than state changes (those stay in `incident_events`): replies to the
 * visitor ('reply'), the visitor's answers ('answer') and internal notes ('note'). The author is a
 * staff account (Better Auth's user id and its e-mail at the time), null for the visitor's answers.
 * Rows are read per incident in order, hence the index on (incident_id, created_at, id).
 *
 * `incidents.assigned_to` is the staff account (Better Auth's user id) the incident is assigned to,
 * null when nobody is; indexed with the list's order for the 'Asignadas a mí' filter.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db, db.schema.createTable('incident_entries'))
    .addColumn('incident_id', 'integer', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('reply', 'answer', 'note')`))
    .addColumn('author_id', 'text')
    .addColumn('author_email', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('incident_entries_incident_idx')
    .on('incident_entries')
    .columns(['incident_id', 'created_at', 'id'])
    .execute();
  await db.schema.alterTable('incidents').addColumn('assigned_to', 'text').execute();
  await db.schema
    .createIndex('incidents_assigned_idx')
    .on('incidents')
    .columns(['assigned_to', 'fecha', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('incidents_assigned_idx').ifExists().execute();
  await db.schema.alterTable('incidents').dropColumn('assigned_to').execute();
  await db.schema.dropTable('incident_entries').ifExists().execute();
}
