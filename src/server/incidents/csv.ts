/** The staff CSV of incidents: the filtered list, in the list's order (`/api/staff/incidencias.csv`). */
import { formatStaffDateTime, inSantoDomingoTime } from '../../domain/dates.ts';
import { toCsv } from '../csv.ts';
import type { Db } from '../db/index.ts';
import { historyText, withHistory } from './history.ts';
import type { IncidentFilters } from './query.ts';
import { applyFilters, lookingAt, sortColumn, type IncidentViewer } from './search.ts';

export const CSV_MAX_ROWS = 100_000;

/** The filtered list, in the list's order, as CSV (see csv.ts), dates and history in Santo Domingo time. */
export async function exportIncidentsCsv(
  db: Db,
  filters: IncidentFilters,
  viewer?: IncidentViewer,
): Promise<string> {
  const header = [
    'Número',
    inSantoDomingoTime('Fecha'),
    'Estado',
    'Prioridad',
    'Nombre',
    'Teléfono',
    'Correo',
    'RNC',
    'Problema',
    inSantoDomingoTime('Historial'),
  ];
  const lines: string[][] = [];
  const batch = 1000;
  const looking = await lookingAt(db, filters, viewer);
  for (let offset = 0; offset < CSV_MAX_ROWS; offset += batch) {
    const rows = await applyFilters(db.selectFrom('incidents').selectAll(), filters, looking, false, db)
      .orderBy(sortColumn(filters), 'desc')
      .orderBy('id', 'desc')
      .limit(batch)
      .offset(offset)
      .execute();
    const records = await withHistory(db, rows);
    for (const [index, incident] of records.entries()) {
      lines.push([
        incident.numeroIncidencia,
        formatStaffDateTime(incident.fecha),
        incident.estado,
        rows[index]!.prioridad,
        incident.nombre,
        incident.telefono,
        incident.email,
        incident.rnc,
        incident.problema,
        historyText(incident.historial, formatStaffDateTime),
      ]);
    }
    if (rows.length < batch) break;
  }
  return toCsv(header, lines);
}
