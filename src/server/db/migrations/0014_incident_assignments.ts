import type { Kysely } from 'kysely';
import { idColumn, timestampType } from './helpers.ts';

/**
 * Assignments in the incident's timeline (issue 11): `incidents.assigned_to` (migration 0011) holds who
 * has it now; each change is also one row here, so the timeline shows who assigned whom and when.
 * The accounts are Better Auth's user ids with their e-mails at the time (an account may be removed
 * later; the timeline keeps reading). `assignee_*` null: 'Sin asignar'. Read per incident in order.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db, db.schema.createTable('incident_assignments'))
    .addColumn('incident_id', 'integer', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('assignee_id', 'text')
    .addColumn('assignee_email', 'text')
    .addColumn('assigned_by_id', 'text', (c) => c.notNull())
    .addColumn('assigned_by_email', 'text', (c) => c.notNull())
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('incident_assignments_incident_idx')
    .on('incident_assignments')
    .columns(['incident_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('incident_assignments').ifExists().execute();
}
