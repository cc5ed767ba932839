/**
 * Export and import of the site's records: incidents with their history, conversation (replies,
 * internal notes, the visitor's answers), assignments and follow-up tokens; clients with their timeline
 * and meetings; contact messages with their handled state.
 *
 * Import also accepts the original site's document exports (spec §3) and our exports from before the
 * support desk and the CRM: incidents and clients shaped as documents, as an array or as a map of
 * document id → document, under `incidencias`/`clientes` (or our own `incidents`/`clients`/
 * `contactMessages`); every field added since is optional. Timestamps may be ISO strings, epoch
 * milliseconds or timestamp objects (`{seconds, nanoseconds}` / `{_seconds, _nanoseconds}`).
 * An import is idempotent (a record already present is skipped, with everything nested in it) and
 * atomic (one transaction).
 *
 * Staff accounts (Better Auth's tables) are not moved. A column that holds a staff account's id is
 * exported as that account's e-mail, and imported as the id of the target database's account with
 * that e-mail; when there is none, the e-mail is kept with no id (`''` where the column cannot be
 * null: the assigner of an assignment, a meeting's organiser), and an incident assigned to such an
 * account is imported unassigned, its assignments still listed in its timeline.
 */
import type { Transaction } from 'kysely';
import { CLIENT_EVENT_KINDS, CLIENT_FIELDS, isProjectState, type ClientEventKind, type ClientRecord } from '../../domain/forms/client.ts';
import { MEETING_MAX_MINUTES, MEETING_NOTE_MAX, MEETING_PLACE_MAX } from '../../domain/forms/meeting.ts';
import { INCIDENT_NUMBER_PATTERN, INITIAL_STATE, isIncidentState, type HistoryEntry, type IncidentRecord } from '../../domain/incidents.ts';
import { firstResolvedAt } from '../../domain/dashboard.ts';
import { toCsv } from '../csv.ts';
import type { Db } from '../db/index.ts';
import { clientRow, contactMessageRow, incidentRow } from '../db/rows.ts';
import type { ClientMeeting, ContactMessage, Database, IncidentEntryKind } from '../db/schema.ts';
import { historyText, loadHistories } from '../incidents/history.ts';
import { toView as meetingView } from '../meetings/index.ts';

/** A reply, internal note or visitor answer; `authorEmail` is the staff author's, null for an answer. */
export interface ExportedIncidentEntry {
  kind: IncidentEntryKind;
  authorEmail: string | null;
  body: string;
  createdAt: string;
}

/** One change of assignee; `assigneeEmail` null: 'Sin asignar'. */
export interface ExportedIncidentAssignment {
  assigneeEmail: string | null;
  assignedByEmail: string;
  createdAt: string;
}

/** A follow-up link's token, as stored: its SHA-256 (the token itself is only in the visitor's mail). */
export interface ExportedIncidentToken {
  tokenHash: string;
  createdAt: string;
}

export type ExportedIncident = Omit<IncidentRecord, 'id'> & {
  /** The assignee's e-mail (staff accounts are not exported); null when unassigned. */
  assignedToEmail: string | null;
  lastActivityAt: string;
  customerWaiting: boolean;
  entries: ExportedIncidentEntry[];
  assignments: ExportedIncidentAssignment[];
  tokens: ExportedIncidentToken[];
};

/** One entry of a client's timeline; `detail` as stored (a note's text, or JSON `{ field?, from, to }`). */
export interface ExportedClientEvent {
  kind: ClientEventKind;
  actorEmail: string | null;
  detail: string | null;
  createdAt: string;
}

/** A meeting sent to a client, its organiser by e-mail; the UID and SEQUENCE its invitations share. */
export type ExportedClientMeeting = Pick<
  ClientMeeting,
  | 'organizerEmail'
  | 'organizerName'
  | 'startsAt'
  | 'endsAt'
  | 'durationMinutes'
  | 'place'
  | 'note'
  | 'uid'
  | 'sequence'
  | 'createdAt'
  | 'cancelledAt'
  | 'cancelledBy'
>;

/** `version` is not carried: the import derives it from the timeline's edits, as 'Editar' counts them. */
export type ExportedClient = Omit<ClientRecord, 'id' | 'version'> & {
  events: ExportedClientEvent[];
  meetings: ExportedClientMeeting[];
};

/** `handledAt`/`handledByEmail`: 'Marcar como atendido' (null while pending). */
export type ExportedContactMessage = Pick<
  ContactMessage,
  'name' | 'email' | 'message' | 'createdAt' | 'handledAt' | 'handledByEmail'
>;

export interface ExportData {
  exportedAt: string;
  incidents: ExportedIncident[];
  clients: ExportedClient[];
  contactMessages: ExportedContactMessage[];
}

/** Reads every record, with everything nested in it, in a stable order. */
export async function exportData(db: Db): Promise<ExportData> {
  const incidents = await db.selectFrom('incidents').selectAll().orderBy('fecha').orderBy('id').execute();
  const byIncident = await loadHistories(db);
  const entries = Map.groupBy(
    await db.selectFrom('incidentEntries').selectAll().orderBy('createdAt').orderBy('id').execute(),
    (row) => row.incidentId,
  );
  const assignments = Map.groupBy(
    await db.selectFrom('incidentAssignments').selectAll().orderBy('createdAt').orderBy('id').execute(),
    (row) => row.incidentId,
  );
  const tokens = Map.groupBy(
    await db.selectFrom('incidentTokens').selectAll().orderBy('createdAt').orderBy('tokenHash').execute(),
    (row) => row.incidentId,
  );
  const clients = await db.selectFrom('clients').selectAll().orderBy('fechaRegistro').orderBy('id').execute();
  const clientEvents = Map.groupBy(
    await db.selectFrom('clientEvents').selectAll().orderBy('createdAt').orderBy('id').execute(),
    (row) => row.clientId,
  );
  const meetings = Map.groupBy(
    await db.selectFrom('clientMeetings').selectAll().orderBy('createdAt').orderBy('id').execute(),
    (row) => row.clientId,
  );
  const messages = await db.selectFrom('contactMessages').selectAll().orderBy('createdAt').orderBy('id').execute();
  const staff = new Map(
    (await db.withoutPlugins().selectFrom('user').select(['id', 'email']).execute()).map((user) => [user.id, user.email]),
  );
  /** The e-mail stored beside a staff id, else the account's current one. */
  const staffEmail = (id: string | null, stored: string | null) => stored ?? (id ? (staff.get(id) ?? null) : null);
  return {
    exportedAt: new Date().toISOString(),
    incidents: incidents.map((row) => {
      const changes = assignments.get(row.id) ?? [];
      // An account removed since keeps the e-mail its last assignment recorded.
      const assignedTo = row.assignedTo ?? null;
      const assignee = assignedTo
        ? (staff.get(assignedTo) ?? changes.findLast((change) => change.assigneeId === assignedTo)?.assigneeEmail ?? null)
        : null;
      return {
        numeroIncidencia: row.numeroIncidencia,
        problema: row.problema,
        nombre: row.nombre,
        telefono: row.telefono,
        email: row.email,
        rnc: row.rnc,
        estado: row.estado,
        fecha: row.fecha,
        historial: byIncident.get(row.id) ?? [],
        assignedToEmail: assignee,
        lastActivityAt: row.lastActivityAt,
        customerWaiting: Boolean(row.customerWaiting),
        entries: (entries.get(row.id) ?? []).map((entry) => ({
          kind: entry.kind,
          authorEmail: staffEmail(entry.authorId, entry.authorEmail),
          body: entry.body,
          createdAt: entry.createdAt,
        })),
        assignments: changes.map((change) => ({
          assigneeEmail: staffEmail(change.assigneeId, change.assigneeEmail),
          assignedByEmail: change.assignedByEmail,
          createdAt: change.createdAt,
        })),
        tokens: (tokens.get(row.id) ?? []).map((token) => ({ tokenHash: token.tokenHash, createdAt: token.createdAt })),
      };
    }),
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
      archivedAt: row.archivedAt ?? null,
      events: (clientEvents.get(row.id) ?? []).map((event) => ({
        kind: event.kind,
        actorEmail: staffEmail(event.actorId, event.actorEmail),
        detail: event.detail,
        createdAt: event.createdAt,
      })),
      meetings: (meetings.get(row.id) ?? []).map((meeting) => {
        const { id: _id, clientId: _clientId, ...exported } = meetingView(meeting);
        return exported;
      }),
    })),
    contactMessages: messages.map((row) => ({
      name: row.name,
      email: row.email,
      message: row.message,
      createdAt: row.createdAt,
      handledAt: row.handledAt ?? null,
      handledByEmail: row.handledAt ? staffEmail(row.handledById ?? null, row.handledByEmail ?? null) : null,
    })),
  };
}

/** The form's fields, then what the site adds. */
const CLIENT_COLUMNS: Array<Exclude<keyof ExportedClient, 'archivedAt' | 'events' | 'meetings'>> = [...CLIENT_FIELDS.map((field) => field.name), 'estadoProyecto', 'fechaRegistro', 'correoBienvenidaEnviado'];

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

/**
 * The target database's staff accounts by e-mail (lower case): staff ids are carried as e-mails and
 * mapped back here, to null when no account has that e-mail.
 */
type StaffIds = (email: string | null) => string | null;

async function staffIds(trx: Transaction<Database>): Promise<StaffIds> {
  const accounts = await trx.withoutPlugins().selectFrom('user').select(['id', 'email']).execute();
  const byEmail = new Map(accounts.map((account) => [account.email.trim().toLowerCase(), account.id]));
  return (email) => (email ? (byEmail.get(email.trim().toLowerCase()) ?? null) : null);
}

/** A text field that may be absent or null: the text (cut to `max`), or null. */
const optionalText = (value: unknown, max = 200) => (typeof value === 'string' && value.trim() !== '' ? value.slice(0, max) : null);

/** Each item of a nested list, read by `read`; unreadable items are left out (as history entries are). */
function nested<T>(value: unknown, read: (item: Record<string, unknown>) => T | null): T[] {
  return asList(value)
    .map((item) => (item && typeof item === 'object' ? read(item as Record<string, unknown>) : null))
    .filter((item) => item !== null);
}

const ENTRY_KINDS: readonly IncidentEntryKind[] = ['reply', 'answer', 'note'];
const TOKEN_HASH_PATTERN = /^[0-9a-f]{64}$/;

type Outcome = 'imported' | 'skipped' | 'invalid';

async function importIncident(trx: Transaction<Database>, raw: unknown, staff: StaffIds): Promise<Outcome> {
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
  const entries = nested(record.entries, (item) => {
    const createdAt = toIsoTime(item.createdAt);
    const kind = ENTRY_KINDS.find((known) => known === item.kind);
    if (!createdAt || !kind || typeof item.body !== 'string') return null;
    const authorEmail = kind === 'answer' ? null : optionalText(item.authorEmail);
    return { kind, authorId: staff(authorEmail), authorEmail, body: text(item.body), createdAt };
  });
  const assignments = nested(record.assignments, (item) => {
    const createdAt = toIsoTime(item.createdAt);
    if (!createdAt) return null;
    const assigneeEmail = optionalText(item.assigneeEmail);
    const assignedByEmail = text(item.assignedByEmail, 200);
    // assigned_by_id cannot be null: '' names no account.
    return { assigneeId: staff(assigneeEmail), assigneeEmail, assignedById: staff(assignedByEmail) ?? '', assignedByEmail, createdAt };
  });
  const tokens = nested(record.tokens, (item) => {
    const createdAt = toIsoTime(item.createdAt);
    return createdAt && typeof item.tokenHash === 'string' && TOKEN_HASH_PATTERN.test(item.tokenHash) ? { tokenHash: item.tokenHash, createdAt } : null;
  });
  // 'Última actividad' is never older than the newest thing in the timeline (older exports carry none).
  const activity = [fecha, ...historial.map((entry) => entry.fecha), ...entries.map((entry) => entry.createdAt), ...assignments.map((change) => change.createdAt)];
  const exportedActivity = toIsoTime(record.lastActivityAt);
  if (exportedActivity) activity.push(exportedActivity);
  // As touchIncident keeps it: the visitor answered and no staff reply followed.
  const lastExchange = entries.filter((entry) => entry.kind !== 'note').at(-1);
  const customerWaiting = typeof record.customerWaiting === 'boolean' ? record.customerWaiting : lastExchange?.kind === 'answer';
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
        lastActivityAt: activity.reduce((latest, when) => (when > latest ? when : latest)),
        resolvedAt: firstResolvedAt(historial),
        // An assignee without an account in this database: imported unassigned (see the module's comment).
        assignedTo: staff(optionalText(record.assignedToEmail)),
        customerWaiting,
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('incidentEvents')
    .values(historial.map((entry) => ({ incidentId: id, ...entry })))
    .execute();
  if (entries.length) await trx.insertInto('incidentEntries').values(entries.map((entry) => ({ incidentId: id, ...entry }))).execute();
  if (assignments.length) await trx.insertInto('incidentAssignments').values(assignments.map((change) => ({ incidentId: id, ...change }))).execute();
  // A hash is unique: one already stored belongs to a link that already opens an incident here.
  if (tokens.length)
    await trx
      .insertInto('incidentTokens')
      .values(tokens.map((token) => ({ incidentId: id, ...token })))
      .onConflict((conflict) => conflict.column('tokenHash').doNothing())
      .execute();
  return 'imported';
}

async function importClient(trx: Transaction<Database>, raw: unknown, staff: StaffIds): Promise<Outcome> {
  const record = raw as Record<string, unknown>;
  const razonSocial = text(record.razonSocial, 200).trim();
  const email = text(record.email, 200).trim();
  const rnc = text(record.rnc, 200).trim();
  const fechaRegistro = toIsoTime(record.fechaRegistro) ?? null;
  if (!razonSocial || !fechaRegistro) return 'invalid';
  const events = nested(record.events, (item) => {
    const createdAt = toIsoTime(item.createdAt);
    const kind = CLIENT_EVENT_KINDS.find((known) => known === item.kind);
    if (!createdAt || !kind) return null;
    const actorEmail = optionalText(item.actorEmail);
    return { kind, actorId: staff(actorEmail), actorEmail, detail: typeof item.detail === 'string' ? text(item.detail) : null, createdAt };
  });
  // Older exports carry no timeline: the creation entry, dated as registered, as before.
  if (!events.some((event) => event.kind === 'created'))
    events.unshift({ kind: 'created', actorId: null, actorEmail: null, detail: null, createdAt: fechaRegistro });
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
    archivedAt: toIsoTime(record.archivedAt),
    // 1 at creation, + 1 per save of 'Editar', whose changed fields are recorded at one instant.
    version: 1 + new Set(events.filter((event) => event.kind === 'edited').map((event) => event.createdAt)).size,
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
  const meetings = nested(record.meetings, (item) => {
    const startsAt = toIsoTime(item.startsAt);
    const createdAt = toIsoTime(item.createdAt);
    const durationMinutes = Number(item.durationMinutes);
    const uid = optionalText(item.uid, 300);
    if (!startsAt || !createdAt || !uid || !Number.isInteger(durationMinutes) || durationMinutes < 1 || durationMinutes > MEETING_MAX_MINUTES) return null;
    const organizerEmail = text(item.organizerEmail, 200);
    const sequence = Number(item.sequence);
    const cancelledAt = toIsoTime(item.cancelledAt);
    return {
      // organizer_id cannot be null: '' names no account.
      organizerId: staff(organizerEmail) ?? '',
      organizerEmail,
      organizerName: text(item.organizerName, 200),
      startsAt,
      endsAt: toIsoTime(item.endsAt) ?? new Date(Date.parse(startsAt) + durationMinutes * 60_000).toISOString(),
      durationMinutes,
      place: text(item.place, MEETING_PLACE_MAX),
      note: text(item.note, MEETING_NOTE_MAX),
      uid,
      sequence: Number.isInteger(sequence) && sequence >= 0 ? sequence : 0,
      createdAt,
      cancelledAt,
      cancelledBy: cancelledAt ? optionalText(item.cancelledBy) : null,
    };
  });
  const { id } = await trx.insertInto('clients').values(row).returning('id').executeTakeFirstOrThrow();
  await trx
    .insertInto('clientEvents')
    .values(events.map((event) => ({ clientId: id, ...event })))
    .execute();
  // A UID is unique: one already stored is the same meeting (its invitations share it).
  if (meetings.length)
    await trx
      .insertInto('clientMeetings')
      .values(meetings.map((meeting) => ({ clientId: id, ...meeting })))
      .onConflict((conflict) => conflict.column('uid').doNothing())
      .execute();
  return 'imported';
}

/** A project state as stored: one of the four, any other value (or none) as 'pendiente'. */
function projectState(value: string) {
  const folded = value.trim().toLowerCase();
  return isProjectState(folded) ? folded : 'pendiente';
}

async function importContactMessage(trx: Transaction<Database>, raw: unknown, staff: StaffIds): Promise<Outcome> {
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
  const handledAt = toIsoTime(record.handledAt);
  const handledByEmail = handledAt ? optionalText(record.handledByEmail) : null;
  await trx
    .insertInto('contactMessages')
    .values(contactMessageRow({ name: text(record.name, 200), email, message, createdAt, handledAt, handledById: staff(handledByEmail), handledByEmail }))
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
    const staff = await staffIds(trx);
    for (const kind of ['incidents', 'clients', 'contactMessages'] as const) {
      for (const record of records[kind]) {
        const outcome = await importers[kind](trx, record, staff);
        summary[kind][outcome] += 1;
        done += 1;
        options.onProgress?.(done, total);
      }
    }
  });
  return summary;
}
