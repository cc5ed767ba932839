/**
 * Clients and incidents that belong together: an incident matches a client when its RNC or its e-mail,
 * normalised, is the client's. Both lookups compare the expressions indexed by migration 0018 (its
 * constants are used verbatim, or the database would not use those indexes).
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { IncidentState } from '../../domain/incidents.ts';
import type { Db } from '../db/index.ts';
import { EMAIL_KEY_SQL, RNC_KEY_SQL } from '../db/index.ts';
import { normalizeForSearch } from '../text.ts';

/** The RNC as matched: the search copy (`rnc_norm`) without dashes, spaces and dots. */
export function rncKey(rnc: string): string {
  return normalizeForSearch(rnc).replace(/[-\s.]/g, '');
}

/** The e-mail as matched: trimmed, lower-case. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/** `rncKey` of the row, in SQL (the indexed expression). */
export const rncKeySql: RawBuilder<string> = sql.raw<string>(RNC_KEY_SQL);
const emailKeySql: RawBuilder<string> = sql.raw<string>(EMAIL_KEY_SQL);

/** Rows whose RNC key or e-mail key is one of these (an empty key never matches); null when both are empty. */
function keysMatch(rnc: string, email: string): RawBuilder<SqlBool> | null {
  const parts: Array<RawBuilder<SqlBool>> = [];
  if (rnc) parts.push(sql<SqlBool>`${rncKeySql} = ${rnc}`);
  if (email) parts.push(sql<SqlBool>`${emailKeySql} = ${email}`);
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0]! : sql<SqlBool>`(${parts[0]!} or ${parts[1]!})`;
}

/** One of the client's incidents, as the client page lists it. */
export interface ClientIncident {
  numeroIncidencia: string;
  estado: IncidentState;
  /** ISO 8601 UTC. */
  fecha: string;
  nombre: string;
  /** What matched: the RNC, the e-mail or both. */
  matchedBy: 'rnc' | 'email' | 'ambos';
}

export const CLIENT_INCIDENTS_LIMIT = 200;

/** The query of {@link clientIncidents}; null when the client has neither key. Exported for the plan test. */
export function clientIncidentsQuery(
  db: Db,
  client: { rnc: string; email: string },
  limit = CLIENT_INCIDENTS_LIMIT,
) {
  const match = keysMatch(rncKey(client.rnc), emailKey(client.email));
  if (!match) return null;
  return db
    .selectFrom('incidents')
    .select(['numeroIncidencia', 'estado', 'fecha', 'nombre', 'rncNorm', 'email'])
    .where(match)
    .orderBy('fecha', 'desc')
    .orderBy('id', 'desc')
    .limit(limit);
}

/** 'Incidencias del cliente': the incidents matching the client's RNC or e-mail, newest first. */
export async function clientIncidents(
  db: Db,
  client: { rnc: string; email: string },
  limit = CLIENT_INCIDENTS_LIMIT,
): Promise<ClientIncident[]> {
  const rnc = rncKey(client.rnc);
  const email = emailKey(client.email);
  const query = clientIncidentsQuery(db, client, limit);
  if (!query) return [];
  const rows = await query.execute();
  return rows.map((row) => {
    const byRnc = rnc !== '' && rncKey(row.rncNorm) === rnc;
    const byEmail = email !== '' && emailKey(row.email) === email;
    return {
      numeroIncidencia: row.numeroIncidencia,
      estado: row.estado,
      fecha: row.fecha,
      nombre: row.nombre,
      matchedBy: byRnc && byEmail ? 'ambos' : byRnc ? 'rnc' : 'email',
    };
  });
}

/** A client an incident belongs to. */
export interface IncidentClient {
  id: number;
  razonSocial: string;
  archived: boolean;
}

/** The query of {@link incidentClients}; null when the incident has neither key. Exported for the plan test. */
export function incidentClientsQuery(db: Db, incident: { rnc: string; email: string }, limit = 5) {
  const match = keysMatch(rncKey(incident.rnc), emailKey(incident.email));
  if (!match) return null;
  return db
    .selectFrom('clients')
    .select(['id', 'razonSocial', 'archivedAt'])
    .where(match)
    .orderBy(sql`case when archived_at is null then 0 else 1 end`)
    .orderBy('fechaRegistro', 'desc')
    .orderBy('id', 'desc')
    .limit(limit);
}

/** The clients matching an incident's RNC or e-mail (active ones first, then newest), at most `limit`. */
export async function incidentClients(
  db: Db,
  incident: { rnc: string; email: string },
  limit = 5,
): Promise<IncidentClient[]> {
  const query = incidentClientsQuery(db, incident, limit);
  if (!query) return [];
  const rows = await query.execute();
  return rows.map((row) => ({ id: row.id, razonSocial: row.razonSocial, archived: row.archivedAt !== null }));
}
