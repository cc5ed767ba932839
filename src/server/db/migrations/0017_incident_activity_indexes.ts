import type { Kysely } from 'kysely';

/**
 * The sort by 'Última actividad' combined with the list's exact filters (issue 11). Migration 0013's
 * `(last_activity_at desc, id desc)` serves it alone; with a filter, SQLite (which has no statistics:
 * the site never runs ANALYZE) takes the filter's own index and sorts every match in a temporary
 * B-tree (20,000 rows for one staff member's incidents at 100,000), and PostgreSQL walks the activity
 * index hoping to meet matches early, which reads the whole table for a rare state or an assignee with
 * few incidents. With these, every combination is an index walk that stops at the page:
 *
 * - 'Asignadas a mí' / 'Sin asignar' (`assigned_to = ?` / `is null`) by last activity;
 * - a state by last activity.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('incidents_assigned_activity_idx')
    .on('incidents')
    .columns(['assigned_to', 'last_activity_at desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('incidents_estado_activity_idx')
    .on('incidents')
    .columns(['estado', 'last_activity_at desc', 'id desc'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('incidents_estado_activity_idx').ifExists().execute();
  await db.schema.dropIndex('incidents_assigned_activity_idx').ifExists().execute();
}
