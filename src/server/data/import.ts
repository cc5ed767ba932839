/**
 * The import of a JSON file of records (`npm run data -- import`): our exports (export.ts, any
 * version), and the original site's document exports (spec §3). This module reads the file; each
 * record is stored by the writer of the module that owns it (incidents/imported.ts, clients,
 * meetings, contact), which derives what the site derives as it goes.
 *
 * Accepted shapes: incidents and clients shaped as documents, as an array or as a map of document id →
 * document, under `incidencias`/`clientes` (or our own `incidents`/`clients`/`contactMessages`); every
 * field added since the first version is optional. Timestamps may be ISO strings, epoch milliseconds or
 * timestamp objects (`{seconds, nanoseconds}` / `{_seconds, _nanoseconds}`). An import is idempotent
 * (a record already present is skipped, with everything nested in it) and atomic (one transaction).
 *
 * A record that cannot be stored as the site would have stored it is refused, with its reason
 * (`onRefused`), and the others imported: a missing or malformed number, date or state, and any
 * e-mail that fails the rule of the form that creates such a record (a client's, the contact form's;
 * staff members' e-mails the client form's rule): a field holding `a@x, b@y` would otherwise later
 * send the welcome mail and invitations to both.
 *
 * Staff accounts are not moved: each staff e-mail is mapped to the target database's account with
 * that e-mail; with none, the e-mail is kept with no id (`''` where the column cannot be null: the
 * assigner of an assignment, a meeting's organiser), and an incident assigned to such an account is
 * imported unassigned, its assignments still listed in its timeline.
 */
import { RATING_COMMENT_MAX } from '../../domain/forms/rating.ts';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { sql, type Transaction } from 'kysely';
import * as z from 'zod/mini';
import { contactFormSchema } from '../../domain/forms/contact.ts';
import { CLIENT_EVENT_KINDS, clientInputSchema, isProjectState } from '../../domain/forms/client.ts';
import { incidentFormSchema } from '../../domain/forms/incident.ts';
import { MEETING_MAX_MINUTES, MEETING_NOTE_MAX, MEETING_PLACE_MAX } from '../../domain/forms/meeting.ts';
import {
  DEFAULT_PRIORITY,
  INCIDENT_NUMBER_PATTERN,
  isIncidentOrigin,
  isIncidentPriority,
  isIncidentState,
  type HistoryEntry,
} from '../../domain/incidents.ts';
import { insertImportedClient } from '../clients/index.ts';
import { insertImportedMessage } from '../contact/index.ts';
import type { Db } from '../db/index.ts';
import type { Database, InboundOutcome, IncidentEntryKind } from '../db/index.ts';
import { insertImportedIncident } from '../incidents/index.ts';
import { insertImportedMeetings } from '../meetings/index.ts';
import { writeOriginal } from '../channels/index.ts';
import { normalSavedReply, SAVED_REPLY_BODY_MAX, SAVED_REPLY_TITLE_MAX, savedReplyProblems } from '../../domain/saved-replies.ts';
import { clockFromExport } from '../../domain/incident-clock.ts';
import { articleFieldsRow, recordRevision } from '../content/index.ts';
import { ANNOUNCEMENT_LIMITS, checkAnnouncementForm, checkLogoForm, LOGO_LIMITS } from '../../domain/site-content.ts';
import { prepareLogoImage } from '../content/index.ts';
import { CLIENT_ASSETS_DIR, declaredSvgSize } from '../content/index.ts';
import { ARTICLE_LIMITS, ARTICLE_MESSAGES, checkArticleForm, isArticleKind, isArticleState, isSlug } from '../../domain/articles.ts';
import { ARTICLE_IMAGE_KEY } from '../../domain/article-images.ts';
import { newArticleImageKey } from '../content/index.ts';
import { FORM_ORIGIN, isChannelId, MAIL_CHANNEL } from '../../domain/channels.ts';

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

type Kind = 'incidents' | 'clients' | 'contactMessages' | 'inboundMessages' | 'savedReplies' | 'articles' | 'announcements' | 'clientLogos';
export type ImportSummary = Record<Kind, { imported: number; skipped: number; invalid: number }>;

/** A record left out (counted as invalid): which one, and why, in Spanish. */
export interface ImportRefusal {
  kind: Kind;
  /** What names the record: an incident's number, a client's company, a message's e-mail and time. */
  record: string;
  reason: string;
}

export interface ImportOptions {
  /** Called after each record; throwing aborts the import (nothing is kept). */
  onProgress?: (done: number, total: number) => void;
  /** Called for each record refused, with its reason. */
  onRefused?: (refusal: ImportRefusal) => void;
}

function asList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') return Object.values(value as Record<string, unknown>);
  return [];
}

/** Splits a parsed JSON file into the three kinds of records it holds. */
export function collectRecords(input: unknown): Record<Kind, unknown[]> {
  const records: Record<Kind, unknown[]> = { incidents: [], clients: [], contactMessages: [], inboundMessages: [], savedReplies: [], articles: [], announcements: [], clientLogos: [] };
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
    records.inboundMessages.push(...asList(root.inboundMessages));
    records.savedReplies.push(...asList(root.savedReplies));
    records.articles.push(...asList(root.articles));
    records.announcements.push(...asList(root.announcements));
    records.clientLogos.push(...asList(root.clientLogos));
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

/** A record the site would not have stored: the reason, in Spanish. */
class Refused extends Error {
  override name = 'Refused';
}

/** A text field that may be absent or null: the text (cut to `max`), or null. */
const optionalText = (value: unknown, max = 200) => (typeof value === 'string' && value.trim() !== '' ? value.slice(0, max) : null);

/**
 * An e-mail as the form that creates such a record would take it (its field schema in src/domain),
 * or a refusal naming the field and the form's own message. `optional`: absent or empty is null.
 */
function email(value: unknown, field: z.ZodMiniType, label: string): string;
function email(value: unknown, field: z.ZodMiniType, label: string, optional: true): string | null;
function email(value: unknown, field: z.ZodMiniType, label: string, optional = false): string | null {
  if (optional && (value == null || (typeof value === 'string' && value.trim() === ''))) return null;
  const result = z.safeParse(field, typeof value === 'string' ? value : value == null ? '' : String(value));
  if (!result.success) throw new Refused(`${label} «${text(value, 80)}»: ${result.error.issues[0]?.message ?? 'no es válido.'}`);
  return String(result.data).trim();
}

/** The form rules an imported e-mail must pass. */
const CLIENT_EMAIL = clientInputSchema.shape.email;
const CONTACT_EMAIL = contactFormSchema.shape.email;
const INCIDENT_EMAIL = incidentFormSchema.shape.email;
/** A staff member's e-mail: the client form's rule (no form of the site takes one). */
const STAFF_EMAIL = CLIENT_EMAIL;

/** Each item of a nested list, read by `read`; unreadable items are left out (as history entries are). */
function nested<T>(value: unknown, read: (item: Record<string, unknown>) => T | null): T[] {
  return asList(value)
    .map((item) => (item && typeof item === 'object' ? read(item as Record<string, unknown>) : null))
    .filter((item) => item !== null);
}

const ENTRY_KINDS: readonly IncidentEntryKind[] = ['reply', 'answer', 'note'];
/** A follow-up token as follow-up.ts stores it: its SHA-256, in hexadecimal. */
const TOKEN_HASH_PATTERN = /^[0-9a-f]{64}$/;

type Outcome = 'imported' | 'skipped';

/** The file's `blobs` (issue 21): base64 by SHA-256. */
type Blobs = ReadonlyMap<string, string>;

function blobsOf(input: unknown): Blobs {
  const blobs = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>).blobs : null;
  if (!blobs || typeof blobs !== 'object') return new Map();
  return new Map(Object.entries(blobs as Record<string, unknown>).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** The bytes of a blob the file names, checked against their SHA-256; null when it names none. */
function blobBytes(blobs: Blobs, key: unknown): Uint8Array | null {
  if (typeof key !== 'string' || !TOKEN_HASH_PATTERN.test(key)) return null;
  const base64 = blobs.get(key);
  if (base64 === undefined) throw new Refused(`falta el contenido del archivo ${key.slice(0, 12)}… en «blobs».`);
  const data = Buffer.from(base64, 'base64');
  if (createHash('sha256').update(data).digest('hex') !== key) throw new Refused(`el archivo ${key.slice(0, 12)}… no coincide con su huella SHA-256.`);
  return new Uint8Array(data);
}

/** What one import learns as it goes: the id here of each inbound message, by its de-duplication key. */
interface ImportContext {
  /** The file's `blobs`: the files' bytes by SHA-256. */
  blobs: Blobs;
  inboundIds: Map<string, number>;
  /** Inbound messages whose incident is named by number: linked once the incidents are in. */
  inboundIncidents: Array<{ id: number; numero: string }>;
  /** The file's article images' ids → their ids here (issue 23), set before the articles. */
  articleImageIds?: Map<number, { id: number; key: string }>;
}

const INBOUND_OUTCOMES: readonly InboundOutcome[] = ['answer', 'unverified', 'new-incident', 'bounce', 'report', 'ignored', 'rejected'];
/** A Message-ID as incident_mails stores it (no brackets, no spaces). */
const MESSAGE_ID_PATTERN = /^[^\s<>]{1,500}$/;

/**
 * A message that came in (issue 21), stored once by its de-duplication key: one already here is
 * skipped (its id still serves the entries that name it). Its incident is linked after the incidents.
 */
async function importInboundMessage(
  trx: Transaction<Database>,
  record: Record<string, unknown>,
  _staff: StaffIds,
  context: ImportContext,
): Promise<Outcome> {
  const dedupKey = text(record.dedupKey, 600).trim();
  const receivedAt = toIsoTime(record.receivedAt);
  const outcome = INBOUND_OUTCOMES.find((known) => known === record.outcome);
  if (!dedupKey) throw new Refused('falta la clave del mensaje (dedupKey).');
  if (!receivedAt) throw new Refused('la fecha de recepción falta o no es una fecha.');
  if (!outcome) throw new Refused(`el resultado «${text(record.outcome, 40)}» no existe.`);
  const reviewedAt = toIsoTime(record.reviewedAt);
  const raw = typeof record.rawGzipBase64 === 'string' && record.rawGzipBase64 ? Buffer.from(record.rawGzipBase64, 'base64') : null;
  const inserted = await trx
    .insertInto('inboundMessages')
    .values({
      channel: text(record.channel, 40) || MAIL_CHANNEL,
      dedupKey,
      messageId: optionalText(record.messageId, 500),
      sender: text(record.sender, 320).trim().toLowerCase(),
      subject: text(record.subject, 500),
      outcome,
      reason: optionalText(record.reason, 100),
      incidentId: null,
      receivedAt,
      reviewedAt,
      reviewedBy: reviewedAt ? email(record.reviewedByEmail, STAFF_EMAIL, 'el correo de quien revisó un correo rechazado', true) : null,
    })
    .onConflict((conflict) => conflict.column('dedupKey').doNothing())
    .returning('id')
    .executeTakeFirst();
  const id =
    inserted?.id ??
    (await trx.selectFrom('inboundMessages').select('id').where('dedupKey', '=', dedupKey).executeTakeFirstOrThrow()).id;
  // The original, one gzip in the export, kept in parts (original.ts).
  if (inserted && raw) await writeOriginal(trx, Number(id), new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength));
  context.inboundIds.set(dedupKey, Number(id));
  const numero = text(record.numeroIncidencia, 40).trim();
  if (inserted && INCIDENT_NUMBER_PATTERN.test(numero)) context.inboundIncidents.push({ id: Number(id), numero });
  return inserted ? 'imported' : 'skipped';
}

async function importIncident(
  trx: Transaction<Database>,
  record: Record<string, unknown>,
  staff: StaffIds,
  context: ImportContext,
): Promise<Outcome> {
  const blobs = context.blobs;
  const numero = text(record.numeroIncidencia, 40).trim();
  const fecha = toIsoTime(record.fecha);
  if (!INCIDENT_NUMBER_PATTERN.test(numero)) throw new Refused('el número no tiene la forma INC-AAAAMMDD-NNNN.');
  if (!fecha) throw new Refused('la fecha falta o no es una fecha.');
  if (!isIncidentState(record.estado)) throw new Refused(`el estado «${text(record.estado, 40)}» no existe.`);
  const historial = asList(record.historial)
    .map((entry): HistoryEntry | null => {
      const item = (entry ?? {}) as Record<string, unknown>;
      const when = toIsoTime(item.fecha);
      return when && isIncidentState(item.estado) ? { estado: item.estado, fecha: when, actor: typeof item.actor === 'string' ? item.actor : null } : null;
    })
    .filter((entry) => entry !== null);
  const entryItems = asList(record.entries).map((item, index) => {
    if (!item || typeof item !== 'object') return null;
    const read = readEntry(item as Record<string, unknown>);
    return read ? { index, read } : null;
  });
  const entries = entryItems.filter((item) => item !== null).map((item) => item.read);
  /** An exported entry's position, as it stands among those read. */
  const positionOf = new Map(
    entryItems.filter((item) => item !== null).map((item, position) => [item.index, position]),
  );
  const attachments = nested(record.attachments, (item) => {
    const createdAt = toIsoTime(item.createdAt);
    if (!createdAt || typeof item.filename !== 'string' || typeof item.contentType !== 'string') return null;
    const entry = item.entry === null || item.entry === undefined ? null : positionOf.get(Number(item.entry));
    if (entry === undefined) return null;
    const data = blobBytes(blobs, item.blob);
    return {
      entry,
      filename: text(item.filename, 200),
      contentType: text(item.contentType, 200),
      size: data ? data.byteLength : Number(item.size) || 0,
      createdAt,
      data,
      thumb: blobBytes(blobs, item.thumb),
      droppedReason: data ? null : text(item.dropped ?? 'type', 40),
    };
  });
  function readEntry(item: Record<string, unknown>) {
    const createdAt = toIsoTime(item.createdAt);
    const kind = ENTRY_KINDS.find((known) => known === item.kind);
    if (!createdAt || !kind || typeof item.body !== 'string') return null;
    const authorEmail = kind === 'answer' ? null : email(item.authorEmail, STAFF_EMAIL, 'el correo del autor de una entrada', true);
    return {
      kind,
      authorId: staff(authorEmail),
      authorEmail,
      body: text(item.body),
      createdAt,
      // How a customer's answer came (issue 21): only an answer can have come by mail.
      ...(kind === 'answer' && isChannelId(item.via) ? { via: item.via } : {}),
      ...(kind === 'answer' && item.unverified === true ? { unverified: true } : {}),
      ...(kind === 'answer' && item.unverified === true && toIsoTime(item.acceptedAt)
        ? { acceptedAt: toIsoTime(item.acceptedAt)!, acceptedBy: text(item.acceptedBy ?? '', 200) }
        : {}),
      // The message it came from ('Ver original'), when the file carries it.
      ...(typeof item.inboundKey === 'string' && context.inboundIds.has(item.inboundKey)
        ? { inboundMessageId: context.inboundIds.get(item.inboundKey)! }
        : {}),
    };
  }
  const mails = nested(record.mails, (item) => {
    const createdAt = toIsoTime(item.createdAt);
    const messageId = typeof item.messageId === 'string' ? item.messageId.trim() : '';
    if (!createdAt || !MESSAGE_ID_PATTERN.test(messageId)) return null;
    return {
      messageId,
      kind: text(item.kind, 60),
      replyTokenHash: typeof item.replyTokenHash === 'string' && TOKEN_HASH_PATTERN.test(item.replyTokenHash) ? item.replyTokenHash : null,
      bouncedAt: toIsoTime(item.bouncedAt),
      delayedAt: toIsoTime(item.delayedAt),
      readAt: toIsoTime(item.readAt),
      complainedAt: toIsoTime(item.complainedAt),
      createdAt,
    };
  });
  const assignments = nested(record.assignments, (item) => {
    const createdAt = toIsoTime(item.createdAt);
    if (!createdAt) return null;
    const assigneeEmail = email(item.assigneeEmail, STAFF_EMAIL, 'el correo de una persona asignada', true);
    const assignedByEmail = email(item.assignedByEmail, STAFF_EMAIL, 'el correo de quien asignó', true) ?? '';
    // assigned_by_id cannot be null: '' names no account.
    return { assigneeId: staff(assigneeEmail), assigneeEmail, assignedById: staff(assignedByEmail) ?? '', assignedByEmail, createdAt };
  });
  // Priorities (issue 22): an older file has none; a change naming an unknown one is left out.
  const priorityChanges = nested(record.priorityChanges, (item) => {
    const createdAt = toIsoTime(item.createdAt);
    if (!createdAt || !isIncidentPriority(item.desde) || !isIncidentPriority(item.hasta)) return null;
    const changedByEmail = email(item.changedByEmail, STAFF_EMAIL, 'el correo de quien cambió la prioridad', true) ?? '';
    return { desde: item.desde, hasta: item.hasta, changedById: staff(changedByEmail) ?? '', changedByEmail, createdAt };
  });
  if (record.prioridad !== undefined && record.prioridad !== null && !isIncidentPriority(record.prioridad))
    throw new Refused(`la prioridad «${text(record.prioridad, 40)}» no existe.`);
  const tokens = nested(record.tokens, (item) => {
    const createdAt = toIsoTime(item.createdAt);
    return createdAt && typeof item.tokenHash === 'string' && TOKEN_HASH_PATTERN.test(item.tokenHash) ? { tokenHash: item.tokenHash, createdAt } : null;
  });
  // A rating outside 1–5, or half of one (a value without its time), is a link not yet used.
  const ratings = nested(record.ratings, (item) => {
    const createdAt = toIsoTime(item.createdAt);
    const resolvedAt = toIsoTime(item.resolvedAt);
    if (!createdAt || !resolvedAt || typeof item.tokenHash !== 'string' || !TOKEN_HASH_PATTERN.test(item.tokenHash)) return null;
    const ratedAt = toIsoTime(item.ratedAt);
    const valor = typeof item.valor === 'number' && Number.isInteger(item.valor) && item.valor >= 1 && item.valor <= 5 ? item.valor : null;
    const used = ratedAt !== null && valor !== null;
    const comentario = used && typeof item.comentario === 'string' ? item.comentario.slice(0, RATING_COMMENT_MAX) : null;
    return { tokenHash: item.tokenHash, resolvedAt, createdAt, valor: used ? valor : null, comentario: comentario || null, ratedAt: used ? ratedAt : null };
  });
  const stored = await insertImportedIncident(trx, {
    numeroIncidencia: numero,
    problema: text(record.problema),
    nombre: text(record.nombre, 200),
    telefono: text(record.telefono, 200),
    email: email(record.email, INCIDENT_EMAIL, 'el correo'),
    rnc: text(record.rnc, 200),
    estado: record.estado,
    fecha,
    historial,
    // An assignee without an account in this database: imported unassigned (see the module's comment).
    assignedTo: staff(email(record.assignedToEmail, STAFF_EMAIL, 'el correo de la persona asignada', true)),
    lastActivityAt: toIsoTime(record.lastActivityAt),
    customerWaiting: typeof record.customerWaiting === 'boolean' ? record.customerWaiting : null,
    origen: isIncidentOrigin(record.origen) ? record.origen : FORM_ORIGIN,
    prioridad: isIncidentPriority(record.prioridad) ? record.prioridad : DEFAULT_PRIORITY,
    ...(isChannelId(record.channel)
      ? { channel: record.channel, channelAddress: text(record.channelAddress, 200) || null }
      : {}),
    reloj: clockFromExport(record.reloj),
    priorityChanges,
    entries,
    assignments,
    tokens,
    ratings,
    attachments,
    mails,
  });
  return stored ? 'imported' : 'skipped';
}

/** A project state as stored: one of the four, any other value (or none) as 'pendiente'. */
function projectState(value: string) {
  const folded = value.trim().toLowerCase();
  return isProjectState(folded) ? folded : 'pendiente';
}

async function importClient(trx: Transaction<Database>, record: Record<string, unknown>, staff: StaffIds): Promise<Outcome> {
  const razonSocial = text(record.razonSocial, 200).trim();
  const fechaRegistro = toIsoTime(record.fechaRegistro);
  if (!razonSocial) throw new Refused('falta la razón social.');
  if (!fechaRegistro) throw new Refused('la fecha de registro falta o no es una fecha.');
  const clientEmail = email(record.email, CLIENT_EMAIL, 'el correo');
  const events = nested(record.events, (item) => {
    const createdAt = toIsoTime(item.createdAt);
    const kind = CLIENT_EVENT_KINDS.find((known) => known === item.kind);
    if (!createdAt || !kind) return null;
    const actorEmail = email(item.actorEmail, STAFF_EMAIL, 'el correo de quien actuó en la ficha', true);
    return { kind, actorId: staff(actorEmail), actorEmail, detail: typeof item.detail === 'string' ? text(item.detail) : null, createdAt };
  });
  const meetings = nested(record.meetings, (item) => {
    const startsAt = toIsoTime(item.startsAt);
    const createdAt = toIsoTime(item.createdAt);
    const durationMinutes = Number(item.durationMinutes);
    const uid = optionalText(item.uid, 300);
    if (!startsAt || !createdAt || !uid || !Number.isInteger(durationMinutes) || durationMinutes < 1 || durationMinutes > MEETING_MAX_MINUTES) return null;
    const organizerEmail = email(item.organizerEmail, STAFF_EMAIL, 'el correo de quien organiza una reunión');
    const sequence = Number(item.sequence);
    const cancelledAt = toIsoTime(item.cancelledAt);
    return {
      // organizer_id cannot be null: '' names no account.
      organizerId: staff(organizerEmail) ?? '',
      organizerEmail,
      organizerName: text(item.organizerName, 200),
      startsAt,
      endsAt: toIsoTime(item.endsAt),
      durationMinutes,
      place: text(item.place, MEETING_PLACE_MAX),
      note: text(item.note, MEETING_NOTE_MAX),
      uid,
      sequence: Number.isInteger(sequence) && sequence >= 0 ? sequence : 0,
      createdAt,
      cancelledAt,
      cancelledBy: cancelledAt ? email(item.cancelledBy, STAFF_EMAIL, 'el correo de quien canceló una reunión', true) : null,
    };
  });
  const id = await insertImportedClient(trx, {
    razonSocial,
    nombreRepresentante: text(record.nombreRepresentante, 200),
    telefono: text(record.telefono, 200),
    email: clientEmail,
    rnc: text(record.rnc, 200).trim(),
    tipoProyecto: text(record.tipoProyecto, 200),
    estadoProyecto: projectState(text(record.estadoProyecto, 200)),
    fechaRegistro,
    correoBienvenidaEnviado: record.correoBienvenidaEnviado === true,
    archivedAt: toIsoTime(record.archivedAt),
    events,
  });
  if (id === null) return 'skipped';
  await insertImportedMeetings(trx, id, meetings);
  return 'imported';
}

async function importContactMessage(trx: Transaction<Database>, record: Record<string, unknown>, staff: StaffIds): Promise<Outcome> {
  const createdAt = toIsoTime(record.createdAt ?? record.fecha);
  const message = text(record.message);
  if (!createdAt) throw new Refused('la fecha falta o no es una fecha.');
  if (!message) throw new Refused('el mensaje está vacío.');
  const address = email(record.email, CONTACT_EMAIL, 'el correo');
  const handledAt = toIsoTime(record.handledAt);
  const handledByEmail = handledAt ? email(record.handledByEmail, STAFF_EMAIL, 'el correo de quien lo atendió', true) : null;
  const stored = await insertImportedMessage(trx, {
    name: text(record.name, 200),
    email: address,
    message,
    createdAt,
    handledAt,
    handledById: staff(handledByEmail),
    handledByEmail,
  });
  return stored ? 'imported' : 'skipped';
}

/**
 * A saved reply (issue 22), by the rules of Configuración (title, text, variables); one whose title is
 * already here (ignoring case) is skipped.
 */
async function importSavedReply(trx: Transaction<Database>, record: Record<string, unknown>): Promise<Outcome> {
  const input = { title: text(record.title, SAVED_REPLY_TITLE_MAX * 4), body: text(record.body, SAVED_REPLY_BODY_MAX * 4) };
  const problems = savedReplyProblems(input);
  const problem = problems.titulo ?? problems.texto;
  if (problem) throw new Refused(problem.charAt(0).toLowerCase() + problem.slice(1));
  const reply = normalSavedReply(input);
  const key = reply.title.toLocaleLowerCase('es');
  const titles = await trx.selectFrom('savedReplies').select('title').execute();
  if (titles.some((row) => row.title.toLocaleLowerCase('es') === key)) return 'skipped';
  const createdAt = toIsoTime(record.createdAt);
  if (!createdAt) throw new Refused('la fecha de creación falta o no es una fecha.');
  const updatedAt = toIsoTime(record.updatedAt) ?? createdAt;
  await trx
    .insertInto('savedReplies')
    .values({
      title: reply.title,
      body: reply.body,
      createdAt,
      createdBy: email(record.createdByEmail, STAFF_EMAIL, 'el correo de quien la creó', true),
      updatedAt,
      updatedBy: email(record.updatedByEmail, STAFF_EMAIL, 'el correo de quien la editó', true),
    })
    .execute();
  return 'imported';
}

/**
 * An article of 'Contenido' (issue 23), by the editor's rules (src/domain/articles.ts), with its state,
 * dates and old addresses; one whose address (kind and slug) is already here is skipped, and an old
 * address another article holds here is left out.
 */
/** An exported article's (or revision's) fields checked by the editor's rules (a draft needs only its title). */
const checkedArticleRecord = (record: Record<string, unknown>) =>
  checkArticleForm(
    {
    tipo: text(record.kind, 20),
    titulo: text(record.title, ARTICLE_LIMITS.title * 4),
    slug: text(record.slug, ARTICLE_LIMITS.slug * 4),
    resumen: text(record.excerpt, ARTICLE_LIMITS.excerpt * 4),
    cuerpo: text(record.body, ARTICLE_LIMITS.body * 2),
    portada: text(record.coverImage, 200),
    portadaAlt: text(record.coverAlt, ARTICLE_LIMITS.coverAlt * 4),
    autor: text(record.author, ARTICLE_LIMITS.author * 4),
    etiquetas: Array.isArray(record.tags) ? record.tags.map((tag) => text(tag, 200)).join(',') : '',
    seoTitulo: text(record.seoTitle, ARTICLE_LIMITS.seoTitle * 4),
    seoDescripcion: text(record.seoDescription, ARTICLE_LIMITS.seoDescription * 4),
    },
    { draft: record.state === 'borrador' },
  );

/**
 * An article's revisions ('Historial', migration 0037), oldest first as exported; one that the editor
 * would refuse, or without its time, is left out (history, not the article). An article exported
 * before revisions existed gets one: itself as imported.
 */
async function importArticleRevisions(
  trx: Transaction<Database>,
  articleId: number,
  revisions: unknown,
  fallback: () => Promise<void>,
): Promise<void> {
  let kept = 0;
  for (const raw of Array.isArray(revisions) ? revisions : []) {
    const revision = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const checked = checkedArticleRecord(revision);
    const createdAt = toIsoTime(revision.createdAt);
    const version = Number(revision.version);
    if (!checked.ok || !createdAt || !isArticleState(revision.state) || !Number.isSafeInteger(version) || version < 1) continue;
    const publishAt = revision.publishAt == null ? null : toIsoTime(revision.publishAt);
    let createdBy: string | null = null;
    try {
      createdBy = email(revision.createdByEmail, STAFF_EMAIL, 'el correo de quien la guardó', true);
    } catch {
      createdBy = null;
    }
    await trx
      .insertInto('articleRevisions')
      .values({
        articleId,
        version,
        ...articleFieldsRow(checked.article),
        state: revision.state,
        publishAt,
        createdAt,
        createdBy,
      })
      .execute();
    kept += 1;
  }
  if (kept === 0) await fallback();
}

/**
 * The images of articles' texts (migration 0037), before the articles, which name them by id: each
 * stored here under a new id (the file's ids → these, for {@link withImagesHere}), or, when the same
 * image is here already (its largest WebP byte for byte), that one's id. An image whose files are
 * missing or altered is left out (the text then names an image that is not here).
 */
async function importArticleImages(
  trx: Transaction<Database>,
  images: unknown,
  blobs: Blobs,
): Promise<Map<number, { id: number; key: string }>> {
  const ids = new Map<number, { id: number; key: string }>();
  for (const raw of Array.isArray(images) ? images : []) {
    const image = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const { id, width, height } = image;
    if (![id, width, height].every((value) => Number.isSafeInteger(value) && (value as number) > 0)) continue;
    let files: Array<{ width: number; format: string; data: Uint8Array }>;
    try {
      files = (Array.isArray(image.files) ? image.files : []).flatMap((file) => {
        const { width: fileWidth, format, sha256 } = (file ?? {}) as Record<string, unknown>;
        if (!Number.isSafeInteger(fileWidth) || (format !== 'avif' && format !== 'webp')) return [];
        const data = blobBytes(blobs, sha256);
        return data ? [{ width: fileWidth as number, format, data }] : [];
      });
    } catch (error) {
      if (error instanceof Refused) continue;
      throw error;
    }
    const largest = files.find((file) => file.width === width && file.format === 'webp');
    if (!largest) continue;
    const same = await trx
      .selectFrom('articleImageFiles')
      .innerJoin('articleImages', 'articleImages.id', 'articleImageFiles.imageId')
      .select(['articleImageFiles.imageId', 'articleImages.key'])
      .where('articleImageFiles.width', '=', width as number)
      .where('articleImageFiles.format', '=', 'webp')
      .where('articleImageFiles.data', '=', Buffer.from(largest.data))
      .executeTakeFirst();
    if (same) {
      ids.set(id as number, { id: Number(same.imageId), key: same.key });
      continue;
    }
    // Its key moves with it, so the addresses shared before the move still open it.
    const key = typeof image.key === 'string' && ARTICLE_IMAGE_KEY.test(image.key) ? image.key : newArticleImageKey();
    const row = await trx
      .insertInto('articleImages')
      .values({
        key,
        width: width as number,
        height: height as number,
        createdAt: toIsoTime(image.createdAt) ?? new Date().toISOString(),
        createdBy: typeof image.createdByEmail === 'string' && STAFF_EMAIL_SHAPE.test(image.createdByEmail) ? image.createdByEmail : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const file of files)
      await trx
        .insertInto('articleImageFiles')
        .values({ imageId: Number(row.id), width: file.width, format: file.format, data: Buffer.from(file.data) })
        .onConflict((oc) => oc.columns(['imageId', 'width', 'format']).doNothing())
        .execute();
    ids.set(id as number, { id: Number(row.id), key });
  }
  return ids;
}

const STAFF_EMAIL_SHAPE = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

/** An exported text with its images' addresses naming their ids (and keys) here. */
function withImagesHere(body: unknown, imageIds: ReadonlyMap<number, { id: number; key: string }>): unknown {
  if (typeof body !== 'string' || imageIds.size === 0) return body;
  return body.replace(
    /(\/blog\/imagenes\/)([1-9]\d{0,9})-[0-9a-f]{16}(-\d{1,5}x\d{1,5}\))/g,
    (whole, prefix: string, id: string, rest: string) => {
      const here = imageIds.get(Number(id));
      return here === undefined ? whole : `${prefix}${here.id}-${here.key}${rest}`;
    },
  );
}

/** An exported cover that names an image of the texts, naming its id here. */
function coverHere(cover: unknown, imageIds: ReadonlyMap<number, { id: number; key: string }>): unknown {
  if (typeof cover !== 'string') return cover;
  const match = /^(\/blog\/imagenes\/)([1-9]\d{0,9})-[0-9a-f]{16}(-\d{1,5}x\d{1,5})$/.exec(cover);
  const here = match ? imageIds.get(Number(match[2])) : undefined;
  return match && here !== undefined ? `${match[1]}${here.id}-${here.key}${match[3]}` : cover;
}

async function importArticle(
  trx: Transaction<Database>,
  exported: Record<string, unknown>,
  _staff: unknown,
  context: ImportContext,
): Promise<Outcome> {
  const images = context.articleImageIds ?? new Map<number, { id: number; key: string }>();
  const record: Record<string, unknown> = {
    ...exported,
    body: withImagesHere(exported.body, images),
    coverImage: coverHere(exported.coverImage, images),
    revisions: Array.isArray(exported.revisions)
      ? exported.revisions.map((revision) =>
          revision && typeof revision === 'object'
            ? {
                ...(revision as Record<string, unknown>),
                body: withImagesHere((revision as Record<string, unknown>).body, images),
                coverImage: coverHere((revision as Record<string, unknown>).coverImage, images),
              }
            : revision,
        )
      : exported.revisions,
  };
  const checked = checkedArticleRecord(record);
  if (!checked.ok) {
    const problem = Object.values(checked.errors)[0] ?? 'el artículo no es válido.';
    throw new Refused(problem.charAt(0).toLowerCase() + problem.slice(1));
  }
  const article = checked.article;
  if (record.slug !== article.slug) throw new Refused(ARTICLE_MESSAGES.slugInvalid.charAt(0).toLowerCase() + ARTICLE_MESSAGES.slugInvalid.slice(1));
  if (!isArticleState(record.state)) throw new Refused('el estado no es Borrador, Programado ni Publicado.');
  const publishAt = record.publishAt == null ? null : toIsoTime(record.publishAt);
  if (record.publishAt != null && !publishAt) throw new Refused('la fecha de publicación no es una fecha.');
  if (record.state !== 'borrador' && !publishAt) throw new Refused('un artículo publicado o programado necesita su fecha de publicación.');
  const taken = await trx.selectFrom('articles').select('id').where('kind', '=', article.kind).where('slug', '=', article.slug).executeTakeFirst();
  if (taken) return 'skipped';
  const createdAt = toIsoTime(record.createdAt);
  if (!createdAt) throw new Refused('la fecha de creación falta o no es una fecha.');
  const updatedAt = toIsoTime(record.updatedAt) ?? createdAt;
  // An old address of another article here gives way to this article's own address.
  await trx.deleteFrom('articleSlugs').where('kind', '=', article.kind).where('slug', '=', article.slug).execute();
  const row = await trx
    .insertInto('articles')
    .values({
      ...articleFieldsRow(article),
      state: record.state,
      publishAt,
      createdAt,
      createdBy: email(record.createdByEmail, STAFF_EMAIL, 'el correo de quien lo creó', true),
      updatedAt,
      updatedBy: email(record.updatedByEmail, STAFF_EMAIL, 'el correo de quien lo editó', true),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await importArticleRevisions(trx, Number(row.id), record.revisions, () =>
    recordRevision(trx, row, row.updatedBy, row.updatedAt),
  );
  for (const old of Array.isArray(record.oldSlugs) ? record.oldSlugs : []) {
    const { kind, slug, createdAt: movedAt } = (old ?? {}) as Record<string, unknown>;
    if (!isArticleKind(kind) || typeof slug !== 'string' || !isSlug(slug)) continue;
    const holder = await trx.selectFrom('articles').select('id').where('kind', '=', kind).where('slug', '=', slug).executeTakeFirst();
    const redirect = await trx.selectFrom('articleSlugs').select('id').where('kind', '=', kind).where('slug', '=', slug).executeTakeFirst();
    if (holder || redirect) continue;
    await trx.insertInto('articleSlugs').values({ articleId: row.id, kind, slug, createdAt: toIsoTime(movedAt) ?? updatedAt }).execute();
  }
  // A help article's '¿Te resultó útil?' counts (whole numbers of at least 0; anything else counts 0).
  const votes = (record.votes ?? {}) as Record<string, unknown>;
  const count = (value: unknown) => (Number.isSafeInteger(value) && (value as number) > 0 ? (value as number) : 0);
  if (article.kind === 'ayuda' && (count(votes.helpful) || count(votes.notHelpful)))
    await trx
      .insertInto('articleVotes')
      .values({ articleId: row.id, helpful: count(votes.helpful), notHelpful: count(votes.notHelpful), updatedAt })
      .execute();
  return 'imported';
}

/**
 * An announcement of 'Anuncios' (issue 23), by the form's rules, with its key (what visitors' browsers
 * remember it by); one whose key is already here is skipped.
 */
async function importAnnouncement(trx: Transaction<Database>, record: Record<string, unknown>): Promise<Outcome> {
  const key = text(record.key, 200);
  if (!/^[a-z0-9-]{1,80}$/.test(key)) throw new Refused('la clave del anuncio no es válida.');
  const checked = checkAnnouncementForm({
    titulo: text(record.title, ANNOUNCEMENT_LIMITS.title * 4),
    mensaje: text(record.message, ANNOUNCEMENT_LIMITS.message * 4),
    enlace: text(record.link, ANNOUNCEMENT_LIMITS.link * 4),
    inicio: text(record.startsOn, 20),
    fin: record.endsOn == null ? '' : text(record.endsOn, 20),
  });
  if (!checked.ok) {
    const problem = Object.values(checked.errors)[0] ?? 'el anuncio no es válido.';
    throw new Refused(problem.charAt(0).toLowerCase() + problem.slice(1));
  }
  if (await trx.selectFrom('announcements').select('id').where('key', '=', key).executeTakeFirst()) return 'skipped';
  const createdAt = toIsoTime(record.createdAt);
  if (!createdAt) throw new Refused('la fecha de creación falta o no es una fecha.');
  await trx
    .insertInto('announcements')
    .values({
      key,
      ...checked.value,
      createdAt,
      createdBy: email(record.createdByEmail, STAFF_EMAIL, 'el correo de quien lo creó', true),
      updatedAt: toIsoTime(record.updatedAt) ?? createdAt,
      updatedBy: email(record.updatedByEmail, STAFF_EMAIL, 'el correo de quien lo editó', true),
    })
    .execute();
  return 'imported';
}

/**
 * A logo of 'Logos de clientes' (issue 23), by the form's rules; an uploaded image goes through the
 * same sanitiser or re-encoder as an upload (an image of the build must be one of src/assets/clients).
 * Added after the logos already here, in the file's order; one with the same name and image is skipped.
 */
async function importClientLogo(trx: Transaction<Database>, record: Record<string, unknown>): Promise<Outcome> {
  const checked = checkLogoForm({ nombre: text(record.name, LOGO_LIMITS.name * 4), enlace: text(record.link, LOGO_LIMITS.link * 4), visible: record.visible === false ? '' : 'si' });
  if (!checked.ok) {
    const problem = Object.values(checked.errors)[0] ?? 'el logo no es válido.';
    throw new Refused(problem.charAt(0).toLowerCase() + problem.slice(1));
  }
  let image: { imageRef: string | null; imageData: Uint8Array | null; imageType: string; imageWidth: number; imageHeight: number; imageHash: string };
  const ref = record.imageRef == null ? null : text(record.imageRef, 200);
  if (ref !== null) {
    const file = /^asset:clients\/([a-z0-9-]+\.svg)$/.exec(ref)?.[1];
    if (!file || !existsSync(`${CLIENT_ASSETS_DIR}${file}`)) throw new Refused('la imagen no es una de src/assets/clients.');
    const bytes = readFileSync(`${CLIENT_ASSETS_DIR}${file}`);
    const size = declaredSvgSize(bytes.toString('utf8'));
    image = { imageRef: ref, imageData: null, imageType: 'image/svg+xml', imageWidth: size.width, imageHeight: size.height, imageHash: createHash('sha256').update(bytes).digest('hex').slice(0, 16) };
  } else {
    const prepared = await prepareLogoImage(Buffer.from(text(record.imageBase64, 4 * 1024 * 1024), 'base64'));
    if (!prepared.ok) throw new Refused(prepared.message.charAt(0).toLowerCase() + prepared.message.slice(1));
    const { data, type, width, height, hash } = prepared.image;
    image = { imageRef: null, imageData: data, imageType: type, imageWidth: width, imageHeight: height, imageHash: hash };
  }
  const same = await trx.selectFrom('clientLogos').select('id').where('name', '=', checked.value.name).where('imageHash', '=', image.imageHash).executeTakeFirst();
  if (same) return 'skipped';
  const createdAt = toIsoTime(record.createdAt);
  if (!createdAt) throw new Refused('la fecha de creación falta o no es una fecha.');
  const last = await trx.selectFrom('clientLogos').select(sql<number | null>`max(position)`.as('position')).executeTakeFirst();
  await trx
    .insertInto('clientLogos')
    .values({
      ...checked.value,
      ...image,
      position: Number(last?.position ?? 0) + 1,
      createdAt,
      createdBy: email(record.createdByEmail, STAFF_EMAIL, 'el correo de quien lo agregó', true),
      updatedAt: toIsoTime(record.updatedAt) ?? createdAt,
      updatedBy: email(record.updatedByEmail, STAFF_EMAIL, 'el correo de quien lo editó', true),
    })
    .execute();
  return 'imported';
}

/** What names a record in a refusal. */
function recordName(kind: Kind, record: Record<string, unknown>): string {
  if (kind === 'incidents') return text(record.numeroIncidencia, 40) || '(sin número)';
  if (kind === 'clients') return text(record.razonSocial, 200) || '(sin razón social)';
  if (kind === 'inboundMessages') return text(record.dedupKey, 200) || '(sin clave)';
  if (kind === 'savedReplies') return text(record.title, 200) || '(sin título)';
  if (kind === 'articles') return `${text(record.kind, 20)}/${text(record.slug, 200)}`;
  if (kind === 'announcements') return text(record.key, 200) || '(sin clave)';
  if (kind === 'clientLogos') return text(record.name, 200) || '(sin nombre)';
  return `${text(record.email, 200) || '(sin correo)'} ${text(record.createdAt ?? record.fecha, 40)}`.trim();
}

/** Imports every record of a parsed file in one transaction and reports what happened to each kind. */
export async function importData(db: Db, input: unknown, options: ImportOptions = {}): Promise<ImportSummary> {
  const records = collectRecords(input);
  const summary: ImportSummary = {
    incidents: { imported: 0, skipped: 0, invalid: 0 },
    clients: { imported: 0, skipped: 0, invalid: 0 },
    contactMessages: { imported: 0, skipped: 0, invalid: 0 },
    inboundMessages: { imported: 0, skipped: 0, invalid: 0 },
    savedReplies: { imported: 0, skipped: 0, invalid: 0 },
    articles: { imported: 0, skipped: 0, invalid: 0 },
    announcements: { imported: 0, skipped: 0, invalid: 0 },
    clientLogos: { imported: 0, skipped: 0, invalid: 0 },
  };
  const total = Object.values(records).reduce((sum, list) => sum + list.length, 0);
  const importers = {
    inboundMessages: importInboundMessage,
    incidents: importIncident,
    clients: importClient,
    contactMessages: importContactMessage,
    savedReplies: importSavedReply,
    articles: importArticle,
    announcements: importAnnouncement,
    clientLogos: importClientLogo,
  };
  const context: ImportContext = { blobs: blobsOf(input), inboundIds: new Map(), inboundIncidents: [] };
  let done = 0;
  await db.transaction().execute(async (trx) => {
    const staff = await staffIds(trx);
    const source = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
    context.articleImageIds = await importArticleImages(trx, source.articleImages, context.blobs);
    // Inbound messages first: the incidents' entries name them.
    for (const kind of ['inboundMessages', 'incidents', 'clients', 'contactMessages', 'savedReplies', 'articles', 'announcements', 'clientLogos'] as const) {
      // The logos in the file's order (their places on the wall).
      const list = kind === 'clientLogos' ? [...records[kind]].sort((a, b) => Number((a as { position?: unknown })?.position ?? 0) - Number((b as { position?: unknown })?.position ?? 0)) : records[kind];
      for (const raw of list) {
        const record = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
        try {
          summary[kind][await importers[kind](trx, record, staff, context)] += 1;
        } catch (error) {
          if (!(error instanceof Refused)) throw error;
          summary[kind].invalid += 1;
          options.onRefused?.({ kind, record: recordName(kind, record), reason: error.message });
        }
        done += 1;
        options.onProgress?.(done, total);
      }
    }
    // The one-time imports the source had done (issue 23): the target never imports the Markdown articles again.
    const root = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
    for (const name of Array.isArray(root.contentImports) ? root.contentImports : []) {
      if (typeof name !== 'string' || !/^[a-z0-9-]{1,60}$/.test(name)) continue;
      await trx.insertInto('contentImports').values({ name, importedAt: new Date().toISOString(), items: 0 }).onConflict((oc) => oc.column('name').doNothing()).execute();
    }
    // Each message imported now joins the incident it names, when that incident is here.
    for (const { id, numero } of context.inboundIncidents) {
      const incident = await trx.selectFrom('incidents').select('id').where('numeroIncidencia', '=', numero).executeTakeFirst();
      if (incident) await trx.updateTable('inboundMessages').set({ incidentId: incident.id }).where('id', '=', id).execute();
    }
  });
  return summary;
}
