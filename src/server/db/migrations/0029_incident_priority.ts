import { sql, type Kysely } from 'kysely';
import { idColumn, timestampType } from './helpers.ts';

/**
 * 'Prioridad' (issue 22): `incidents.prioridad` holds the current one ('Baja', 'Normal', 'Alta',
 * 'Urgente'; every existing and new incident is 'Normal'), and each change is one row of
 * `incident_priority_changes` (from, to, who, when) for the timeline, as `incident_assignments` (0014)
 * does for assignments.
 *
 * The list filters by priority alone or with the others, newest first or by last activity. 'Urgente'
 * and 'Alta' are meant to be rare: without an index of their own, the list walks `(fecha, id)` or
 * `(last_activity_at, id)` until 20 of them turn up, which at 100,000 incidents is most of the table
 * (decision 0007). With `(prioridad, fecha desc, id desc)` and `(prioridad, last_activity_at desc, id
 * desc)` it is an index walk that stops at the page, as for the state.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('incidents')
    .addColumn('prioridad', 'text', (c) =>
      c
        .notNull()
        .defaultTo('Normal')
        .check(sql`prioridad in ('Baja', 'Normal', 'Alta', 'Urgente')`),
    )
    .execute();
  await db.schema
    .createIndex('incidents_prioridad_fecha_idx')
    .on('incidents')
    .columns(['prioridad', 'fecha desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('incidents_prioridad_activity_idx')
    .on('incidents')
    .columns(['prioridad', 'last_activity_at desc', 'id desc'])
    .execute();
  await idColumn(db, db.schema.createTable('incident_priority_changes'))
    .addColumn('incident_id', 'integer', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('desde', 'text', (c) => c.notNull())
    .addColumn('hasta', 'text', (c) => c.notNull())
    .addColumn('changed_by_id', 'text', (c) => c.notNull())
    .addColumn('changed_by_email', 'text', (c) => c.notNull())
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('incident_priority_changes_incident_idx')
    .on('incident_priority_changes')
    .columns(['incident_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('incident_priority_changes').ifExists().execute();
  await db.schema.dropIndex('incidents_prioridad_activity_idx').ifExists().execute();
  await db.schema.dropIndex('incidents_prioridad_fecha_idx').ifExists().execute();
  await db.schema.alterTable('incidents').dropColumn('prioridad').execute();
}
