import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../engine.ts';

/**
 * The support desk's list (issue 11) sorts and marks incidents by what last happened to them, at any
 * size, so both facts are columns kept by the writers (src/server/incidents/activity.ts) rather than
 * computed per row:
 *
 * - `last_activity_at`: the time of the newest creation, state change, assignment, reply, note or
 *   visitor answer ('Última actividad'); indexed with the id for the sort by last activity.
 * - `customer_waiting`: the visitor answered and no staff reply followed yet ('Respuesta del cliente').
 *
 * Existing rows are filled from their history and entries.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  if (postgres) {
    await db.schema.alterTable('incidents').addColumn('last_activity_at', 'timestamptz').execute();
  } else {
    await db.schema
      .alterTable('incidents')
      .addColumn('last_activity_at', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  }
  await db.schema
    .alterTable('incidents')
    .addColumn('customer_waiting', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  const newestEvent = sql`(select max(e.fecha) from incident_events e where e.incident_id = incidents.id)`;
  const newestEntry = sql`(select max(n.created_at) from incident_entries n where n.incident_id = incidents.id)`;
  // PostgreSQL's greatest() skips nulls; SQLite's max() of several values does not, hence the coalesce.
  const newest = postgres
    ? sql`greatest(fecha, ${newestEvent}, ${newestEntry})`
    : sql`max(fecha, coalesce(${newestEvent}, fecha), coalesce(${newestEntry}, fecha))`;
  await sql`update incidents set last_activity_at = ${newest}`.execute(db);
  await sql`update incidents set customer_waiting = true where exists (
      select 1 from incident_entries a where a.incident_id = incidents.id and a.kind = 'answer'
        and not exists (select 1 from incident_entries r where r.incident_id = a.incident_id and r.kind = 'reply'
          and (r.created_at > a.created_at or (r.created_at = a.created_at and r.id > a.id))))`.execute(db);
  if (postgres) await sql`alter table incidents alter column last_activity_at set not null`.execute(db);

  await db.schema
    .createIndex('incidents_activity_idx')
    .on('incidents')
    .columns(['last_activity_at desc', 'id desc'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('incidents_activity_idx').ifExists().execute();
  await db.schema.alterTable('incidents').dropColumn('customer_waiting').execute();
  await db.schema.alterTable('incidents').dropColumn('last_activity_at').execute();
}
