/**
 * Export and import of the site's records (incidents with their history, clients, contact messages).
 *
 * Import also accepts the original site's document exports (spec §3): incidents and clients shaped
 * as documents, as an array or as a map of document id → document, under `incidencias`/`clientes`
 * (or our own `incidents`/`clients`/`contactMessages`). Timestamps may be ISO strings, epoch
 * milliseconds or timestamp objects (`{seconds, nanoseconds}` / `{_seconds, _nanoseconds}`).
 * An import is idempotent (a record already present is skipped) and atomic (one transaction).
 */
import type { Transaction } from 'kysely';
import { CLIENT_FIELDS, isProjectState, type ClientRecord } from '../../domain/forms/client.ts';
import { INCIDENT_NUMBER_PATTERN, INITIAL_STATE, isIncidentState, type HistoryEntry, type IncidentRecord } from '../../domain/incidents.ts';
import { firstResolvedAt } from '../../domain/dashboard.ts';
import { toCsv } from '../csv.ts';
import type { Db } from '../db/index.ts';
import { clientRow, contactMessageRow, incidentRow } from '../db/rows.ts';
import type { ContactMessage, Database } from '../db/schema.ts';
import { historyText, loadHistories } from '../incidents/history.ts';

export type ExportedIncident = Omit<IncidentRecord, 'id'>;
export type ExportedClient = Omit<ClientRecord, 'id' | 'version' | 'archivedAt'>;
export type ExportedContactMessage = Pick<ContactMessage, 'name' | 'email' | 'message' | 'createdAt'>;

export interface ExportData {
  exportedAt: string;
  incidents: ExportedIncident[];
  clients: ExportedClient[];
  contactMessages: ExportedContactMessage[];
}

/** Reads every record, history included, in a stable order. */
export async function exportData(db: Db): Promise<ExportData> {
  const incidents = await db.selectFrom('incidents').selectAll().orderBy('fecha').orderBy('id').execute();
  const byIncident = await loadHistories(db);
  const clients = await db.selectFrom('clients').selectAll().orderBy('fechaRegistro').orderBy('id').execute();
  const messages = await db.selectFrom('contactMessages').selectAll().orderBy('createdAt').orderBy('id').execute();
  return {
    exportedAt: new Date().toISOString(),
    incidents: incidents.map((row) => ({
      numeroIncidencia: row.numeroIncidencia,
      problema: row.problema,
      nombre: row.nombre,
      telefono: row.telefono,
      email: row.email,
      rnc: row.rnc,
      estado: row.estado,
      fecha: row.fecha,
      historial: byIncident.get(row.id) ?? [],
    })),
    clients: clients.map((row) => ({
      razonSocial: row.razonSocial,
      nombreRepresentante: row.nombreRepresentante,
      telefono: row.telefono,
      email: row.email,
      rnc: row.rnc,
      tipoProyecto: row.tipoProyecto,
      estadoProyecto: row.estadoProyecto,
      fechaRegistro: row.fechaRegistro,
      correoBienvenidaEnviado: Boolean(row.correoBienvenidaEnviado),
    })),
    contactMessages: messages.map((row) => ({ name: row.name, email: row.email, message: row.message, createdAt: row.createdAt })),
  };
}

/** The form's fields, then what the site adds. */
const CLIENT_COLUMNS: Array<keyof ExportedClient> = [...CLIENT_FIELDS.map((field) => field.name), 'estadoProyecto', 'fechaRegistro', 'correoBienvenidaEnviado'];

/** The three CSV files of an export. */
export function exportCsv(data: ExportData): Record<'incidents' | 'clients' | 'contact_messages', string> {
  return {
    incidents: toCsv(
      ['numeroIncidencia', 'fecha', 'estado', 'nombre', 'telefono', 'email', 'rnc', 'problema', 'historial'],
      data.incidents.map((i) => [
        i.numeroIncidencia,
        i.fecha,
        i.estado,
        i.nombre,
        i.telefono,
        i.email,
        i.rnc,
        i.problema,
        historyText(i.historial),
      ]),
    ),
    clients: toCsv(
      CLIENT_COLUMNS,
      data.clients.map((c) => CLIENT_COLUMNS.map((column) => c[column])),
    ),
    contact_messages: toCsv(
      ['createdAt', 'name', 'email', 'message'],
      data.contactMessages.map((m) => [m.createdAt, m.name, m.email, m.message]),
    ),
  };
}

/** Any of the accepted timestamp shapes → ISO 8601 UTC, or null when it is not a valid time. */
export function toIsoTime(value: unknown): string | null {
  let millis: number | null = null;
  if (typeof value === 'number' && Number.isFinite(value)) millis = value;
  else if (typeof value === 'string' && value.trim() !== '') {
    millis = /^\d+$/.test(value.trim()) ? Number(value) : Date.parse(value);
  } else if (value instanceof Date) millis = value.getTime();
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const seconds = record.seconds ?? record._seconds;
    const nanos = record.nanoseconds ?? record._nanoseconds ?? 0;
    if (typeof seconds === 'number' && typeof nanos === 'number') millis = seconds * 1000 + Math.floor(nanos / 1e6);
  }
  if (millis === null || !Number.isFinite(millis)) return null;
  const date = new Date(millis);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

const text = (value: unknown, max = 5000) => (typeof value === 'string' ? value.slice(0, max) : value == null ? '' : String(value).slice(0, max));

type Kind = 'incidents' | 'clients' | 'contactMessages';
export type ImportSummary = Record<Kind, { imported: number; skipped: number; invalid: number }>;

export interface ImportOptions {
  /** Called after each record; throwing aborts the import (nothing is kept). */
  onProgress?: (done: number, total: number) => void;
}

function asList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') return Object.values(value as Record<string, unknown>);
  return [];
}

/** Splits a parsed JSON file into the three kinds of records it holds. */
export function collectRecords(input: unknown): Record<Kind, unknown[]> {
  const records: Record<Kind, unknown[]> = { incidents: [], clients: [], contactMessages: [] };
  const classify = (item: unknown) => {
    if (!item || typeof item !== 'object') return;
    const record = item as Record<string, unknown>;
    if ('numeroIncidencia' in record) records.incidents.push(record);
    else if ('razonSocial' in record) records.clients.push(record);
    else if ('message' in record && 'email' in record) records.contactMessages.push(record);
  };
  if (Array.isArray(input)) {
    input.forEach(classify);
    return records;
  }
  if (input && typeof input === 'object') {
    const root = input as Record<string, unknown>;
    records.incidents.push(...asList(root.incidencias ?? root.incidents));
    records.clients.push(...asList(root.clientes ?? root.clients));
    records.contactMessages.push(...asList(root.contactMessages ?? root.contact_messages ?? root.mensajes));
  }
  return records;
}

async function importIncident(trx: Transaction<Database>, raw: unknown): Promise<'imported' | 'skipped' | 'invalid'> {
  const record = raw as Record<string, unknown>;
  const numero = text(record.numeroIncidencia, 40).trim();
  const fecha = toIsoTime(record.fecha);
  const estado = isIncidentState(record.estado) ? record.estado : null;
  if (!INCIDENT_NUMBER_PATTERN.test(numero) || !fecha || !estado) return 'invalid';
  const exists = await trx.selectFrom('incidents').select('id').where('numeroIncidencia', '=', numero).executeTakeFirst();
  if (exists) return 'skipped';
  const historial = asList(record.historial)
    .map((entry): HistoryEntry | null => {
      const item = (entry ?? {}) as Record<string, unknown>;
      const when = toIsoTime(item.fecha);
      return when && isIncidentState(item.estado) ? { estado: item.estado, fecha: when, actor: typeof item.actor === 'string' ? item.actor : null } : null;
    })
    .filter((entry) => entry !== null);
  if (historial.length === 0) historial.push({ estado: INITIAL_STATE, fecha, actor: null });
  const { id } = await trx
    .insertInto('incidents')
    .values(
      incidentRow({
        numeroIncidencia: numero,
        problema: text(record.problema),
        nombre: text(record.nombre, 200),
        telefono: text(record.telefono, 200),
        email: text(record.email, 200),
        rnc: text(record.rnc, 200),
        estado,
        fecha,
        lastActivityAt: historial.reduce((latest, entry) => (entry.fecha > latest ? entry.fecha : latest), fecha),
        resolvedAt: firstResolvedAt(historial),
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('incidentEvents')
    .values(historial.map((entry) => ({ incidentId: id, ...entry })))
    .execute();
  return 'imported';
}

async function importClient(trx: Transaction<Database>, raw: unknown): Promise<'imported' | 'skipped' | 'invalid'> {
  const record = raw as Record<string, unknown>;
  const razonSocial = text(record.razonSocial, 200).trim();
  const email = text(record.email, 200).trim();
  const rnc = text(record.rnc, 200).trim();
  const fechaRegistro = toIsoTime(record.fechaRegistro) ?? null;
  if (!razonSocial || !fechaRegistro) return 'invalid';
  const row = clientRow({
    razonSocial,
    nombreRepresentante: text(record.nombreRepresentante, 200),
    telefono: text(record.telefono, 200),
    email,
    rnc,
    tipoProyecto: text(record.tipoProyecto, 200),
    estadoProyecto: projectState(text(record.estadoProyecto, 200)),
    fechaRegistro,
    correoBienvenidaEnviado: record.correoBienvenidaEnviado === true,
  });
  // Clients have no natural unique key; the same company, e-mail, RNC and registration time is the same record.
  const exists = await trx
    .selectFrom('clients')
    .select('id')
    .where('razonSocialNorm', '=', row.razonSocialNorm)
    .where('emailNorm', '=', row.emailNorm)
    .where('rncNorm', '=', row.rncNorm)
    .where('fechaRegistro', '=', fechaRegistro)
    .executeTakeFirst();
  if (exists) return 'skipped';
  const { id } = await trx.insertInto('clients').values(row).returning('id').executeTakeFirstOrThrow();
  await trx.insertInto('clientEvents').values({ clientId: id, kind: 'created', actorId: null, actorEmail: null, detail: null, createdAt: fechaRegistro }).execute();
  return 'imported';
}

/** A project state as stored: one of the four, any other value (or none) as 'pendiente'. */
function projectState(value: string) {
  const folded = value.trim().toLowerCase();
  return isProjectState(folded) ? folded : 'pendiente';
}

async function importContactMessage(trx: Transaction<Database>, raw: unknown): Promise<'imported' | 'skipped' | 'invalid'> {
  const record = raw as Record<string, unknown>;
  const createdAt = toIsoTime(record.createdAt ?? record.fecha);
  const email = text(record.email, 200).trim();
  const message = text(record.message);
  if (!createdAt || !email || !message) return 'invalid';
  const exists = await trx
    .selectFrom('contactMessages')
    .select('id')
    .where('email', '=', email)
    .where('createdAt', '=', createdAt)
    .where('message', '=', message)
    .executeTakeFirst();
  if (exists) return 'skipped';
  await trx
    .insertInto('contactMessages')
    .values(contactMessageRow({ name: text(record.name, 200), email, message, createdAt }))
    .execute();
  return 'imported';
}

/** Imports every record of a parsed file in one transaction and reports what happened to each kind. */
export async function importData(db: Db, input: unknown, options: ImportOptions = {}): Promise<ImportSummary> {
  const records = collectRecords(input);
  const summary: ImportSummary = {
    incidents: { imported: 0, skipped: 0, invalid: 0 },
    clients: { imported: 0, skipped: 0, invalid: 0 },
    contactMessages: { imported: 0, skipped: 0, invalid: 0 },
  };
  const total = records.incidents.length + records.clients.length + records.contactMessages.length;
  const importers = { incidents: importIncident, clients: importClient, contactMessages: importContactMessage };
  let done = 0;
  await db.transaction().execute(async (trx) => {
    for (const kind of ['incidents', 'clients', 'contactMessages'] as const) {
      for (const record of records[kind]) {
        const outcome = await importers[kind](trx, record);
        summary[kind][outcome] += 1;
        done += 1;
        options.onProgress?.(done, total);
      }
    }
  });
  return summary;
}
