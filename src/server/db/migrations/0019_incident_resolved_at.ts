import { sql, type Kysely } from 'kysely';
import { timestampType } from './helpers.ts';

/**
 * The staff home's charts (issue 12, src/server/dashboard) count incidents by the first time they
 * reached 'Resuelto' and measure the time to it. Found from the history, that is a look-up per
 * resolution into `incident_events` (is there an earlier one?) plus one into `incidents` (when was it
 * opened?): at 100,000 incidents, ~8,000 of each per page view, and PostgreSQL chose to hash every
 * resolution ever made instead. So the first resolution is a column, `resolved_at` (ISO 8601 UTC; null
 * while never resolved), set once by the state change that first resolves it (a reopened incident
 * keeps it), and indexed with `fecha`: each chart query then reads one index range and nothing else.
 *
 * Existing rows are filled from their history.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('incidents').addColumn('resolved_at', timestampType(db)).execute();
  await sql`update incidents set resolved_at = (
      select min(e.fecha) from incident_events e where e.incident_id = incidents.id and e.estado = 'Resuelto')`.execute(
    db,
  );
  await db.schema
    .createIndex('incidents_resolved_at_idx')
    .on('incidents')
    .columns(['resolved_at', 'fecha'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('incidents_resolved_at_idx').ifExists().execute();
  await db.schema.alterTable('incidents').dropColumn('resolved_at').execute();
}
