/**
 * Incident histories: read once per batch of incidents, grouped per incident, and written as one line
 * of text for the CSV files (the staff export and `npm run data -- export`).
 */
import type { HistoryEntry, IncidentRecord } from '../../domain/incidents.ts';
import type { Db } from '../db/index.ts';
import type { Incident } from '../db/index.ts';

/** Each incident's history in order (fecha, then id); every incident when `ids` is omitted. */
export async function loadHistories(db: Db, ids?: readonly number[]): Promise<Map<number, HistoryEntry[]>> {
  const byIncident = new Map<number, HistoryEntry[]>();
  if (ids && !ids.length) return byIncident;
  let query = db.selectFrom('incidentEvents').select(['incidentId', 'estado', 'fecha', 'actor']);
  if (ids) query = query.where('incidentId', 'in', ids);
  for (const event of await query.orderBy('fecha').orderBy('id').execute()) {
    const list = byIncident.get(event.incidentId) ?? [];
    list.push({ estado: event.estado, fecha: event.fecha, actor: event.actor });
    byIncident.set(event.incidentId, list);
  }
  return byIncident;
}

/**
 * The stored row as the record the rest of the site sees: without its search columns and its channel
 * (src/server/channels reads those), with a history.
 */
function toIncidentRecord(
  { nombreNorm: _n, rncNorm: _r, channel: _c, channelAddress: _a, ...incident }: Incident,
  historial: HistoryEntry[],
): IncidentRecord {
  return { ...incident, historial };
}

/** These rows as records, each with its history. */
export async function withHistory(db: Db, incidents: Incident[]): Promise<IncidentRecord[]> {
  const histories = await loadHistories(
    db,
    incidents.map((incident) => incident.id),
  );
  return incidents.map((incident) => toIncidentRecord(incident, histories.get(incident.id) ?? []));
}

/** A history as one CSV cell: `date state (who) | …`, dates written by `formatDate`. */
export function historyText(
  historial: readonly HistoryEntry[],
  formatDate: (iso: string) => string = (iso) => iso,
): string {
  return historial
    .map((entry) => `${formatDate(entry.fecha)} ${entry.estado}${entry.actor ? ` (${entry.actor})` : ''}`)
    .join(' | ');
}
