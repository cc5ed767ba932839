/**
 * The incidents of `npm run data` (issue 40: each area moves its own rows): each incident with its
 * state history, conversation (replies, internal notes, the customer's answers), assignments,
 * priority changes, follow-up and rating tokens (their hashes), business-hours clock, files (their
 * bytes in the file's `blobs`) and the mails we sent about it (Message-IDs, reply tokens' hashes).
 * Staff by e-mail. Read back by the rules the site keeps and stored by imported.ts' writer.
 */
import { RATING_COMMENT_MAX } from '../../domain/forms/rating.ts';
import { incidentFormSchema } from '../../domain/forms/incident.ts';
import { clockFromExport, type ExportedClock } from '../../domain/incident-clock.ts';
import {
  DEFAULT_PRIORITY,
  INCIDENT_NUMBER_PATTERN,
  isIncidentOrigin,
  isIncidentPriority,
  isIncidentState,
  type HistoryEntry,
  type IncidentOrigin,
  type IncidentPriority,
  type IncidentRecord,
} from '../../domain/incidents.ts';
import type { ClockTarget } from '../../domain/response-times.ts';
import { FORM_ORIGIN, isChannelId, type ChannelId } from '../../domain/channels.ts';
import {
  asList,
  blobBytes,
  email,
  nested,
  RecordRefused,
  SHA256_PATTERN,
  STAFF_EMAIL,
  text,
  toIsoTime,
  type Blobs,
  type Outcome,
  type StaffEmails,
  type StaffIds,
} from '../data-records.ts';
import type { Transaction } from 'kysely';
import type { Database, Db, IncidentEntryKind } from '../db/index.ts';
import { clockColumnsOf } from './clock.ts';
import { loadHistories } from './history.ts';
import { insertImportedIncident } from './imported.ts';

/** A reply, internal note or visitor answer; `authorEmail` is the staff author's, null for an answer. */
export interface ExportedIncidentEntry {
  kind: IncidentEntryKind;
  authorEmail: string | null;
  body: string;
  createdAt: string;
  /** The channel a customer's answer came by ('correo', issue 21); absent otherwise. */
  via?: ChannelId;
  /** Matched by the subject alone: 'Remitente sin verificar'; absent otherwise. */
  unverified?: true;
  /** An unverified answer accepted as the customer's ('Aceptar como del cliente'): when, and by whom. */
  acceptedAt?: string;
  acceptedBy?: string;
  /** The de-duplication key of the message it came from ('Ver original'), among `inboundMessages`. */
  inboundKey?: string;
}

/**
 * A mail we sent the customer about the incident (`incident_mails`): its Message-ID and the hash of its
 * reply address's token, so that a reply to a mail sent before a move still finds its incident.
 */
export interface ExportedIncidentMail {
  messageId: string;
  kind: string;
  replyTokenHash: string | null;
  bouncedAt: string | null;
  delayedAt: string | null;
  readAt: string | null;
  complainedAt: string | null;
  createdAt: string;
}

/** One change of assignee; `assigneeEmail` null: 'Sin asignar'. */
export interface ExportedIncidentAssignment {
  assigneeEmail: string | null;
  assignedByEmail: string;
  createdAt: string;
}

/** One change of priority (issue 22): 'Prioridad: Normal → Alta', by whom, when. */
export interface ExportedIncidentPriorityChange {
  desde: IncidentPriority;
  hasta: IncidentPriority;
  changedByEmail: string;
  createdAt: string;
}

/** A follow-up link's token, as stored: its SHA-256 (the token itself is only in the visitor's mail). */
export interface ExportedIncidentToken {
  tokenHash: string;
  createdAt: string;
}

/**
 * A rating link of a resolution (issue 22), as stored: its token's SHA-256, the resolution it rates and,
 * once used, the rating (1–5), the comment and when.
 */
export interface ExportedIncidentRating {
  tokenHash: string;
  resolvedAt: string;
  createdAt: string;
  valor: number | null;
  comentario: string | null;
  ratedAt: string | null;
}

/**
 * A file of an incident (issue 21): of the problem (`entry` null) or of the entry at that position of
 * `entries`; its bytes (and its thumbnail's) are in the file's `blobs`, by SHA-256, each once. A mail's
 * dropped file has no blob and says why (`dropped`).
 */
export interface ExportedAttachment {
  entry: number | null;
  filename: string;
  contentType: string;
  size: number;
  createdAt: string;
  blob?: string;
  thumb?: string;
  dropped?: string;
}

export type ExportedIncident = Omit<IncidentRecord, 'id'> & {
  /** The assignee's e-mail (staff accounts are not exported); null when unassigned. */
  assignedToEmail: string | null;
  lastActivityAt: string;
  customerWaiting: boolean;
  /** The incident's origin (src/domain/channels.ts, issue 21); files exported before it have none: 'Formulario'. */
  origen: IncidentOrigin;
  /** 'Prioridad' (issue 22); files exported before it have none: 'Normal'. */
  prioridad: IncidentPriority;
  /** The channel it reaches its customer on, and their address there (issue 37); older files: mail, the e-mail. */
  channel?: ChannelId;
  channelAddress?: string | null;
  /** Its business-hours clock (issue 22, migration 0031); absent in older files: the clock starts anew. */
  reloj?: ExportedClock;
  /** Its priority changes; absent when none, and in files exported before issue 22's priorities. */
  priorityChanges?: ExportedIncidentPriorityChange[];
  entries: ExportedIncidentEntry[];
  assignments: ExportedIncidentAssignment[];
  tokens: ExportedIncidentToken[];
  /** The rating links and ratings (issue 22); absent when none, and in files exported before them. */
  ratings?: ExportedIncidentRating[];
  /** Files (issue 21); absent when none, and in files exported before them. */
  attachments?: ExportedAttachment[];
  /** Files exported before issue 21's panel have none. */
  mails?: ExportedIncidentMail[];
};

/**
 * Every incident, by date, with everything nested in it. `inboundKeys`: the de-duplication key of each
 * inbound message by its id here (an entry names the message it came from by it).
 */
export async function exportIncidents(
  db: Db,
  staff: StaffEmails,
  inboundKeys: ReadonlyMap<number, string>,
): Promise<ExportedIncident[]> {
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
  const priorityChanges = Map.groupBy(
    await db.selectFrom('incidentPriorityChanges').selectAll().orderBy('createdAt').orderBy('id').execute(),
    (row) => row.incidentId,
  );
  const tokens = Map.groupBy(
    await db.selectFrom('incidentTokens').selectAll().orderBy('createdAt').orderBy('tokenHash').execute(),
    (row) => row.incidentId,
  );
  const ratings = Map.groupBy(
    await db.selectFrom('incidentRatings').selectAll().orderBy('createdAt').orderBy('tokenHash').execute(),
    (row) => row.incidentId,
  );
  const attachments = Map.groupBy(
    await db.selectFrom('incidentAttachments').selectAll().orderBy('id').execute(),
    (row) => row.incidentId,
  );
  const mails = Map.groupBy(
    await db.selectFrom('incidentMails').selectAll().orderBy('createdAt').orderBy('id').execute(),
    (row) => row.incidentId,
  );
  const clockAlerts = Map.groupBy(
    await db.selectFrom('incidentClockAlerts').selectAll().orderBy('createdAt').orderBy('target').execute(),
    (row) => row.incidentId,
  );
  return incidents.map((row): ExportedIncident => {
    const changes = assignments.get(row.id) ?? [];
    const incidentEntries = entries.get(row.id) ?? [];
    const files = attachments.get(row.id) ?? [];
    // An account removed since keeps the e-mail its last assignment recorded.
    const assignedTo = row.assignedTo ?? null;
    const assignee = assignedTo
      ? (staff.byId.get(assignedTo) ??
        changes.findLast((change) => change.assigneeId === assignedTo)?.assigneeEmail ??
        null)
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
      origen: row.origen,
      prioridad: row.prioridad,
      channel: row.channel,
      channelAddress: row.channelAddress,
      reloj: {
        ...clockColumnsOf(row),
        alerts: (clockAlerts.get(row.id) ?? []).map((alert) => ({
          target: alert.target as ClockTarget,
          dueAt: alert.dueAt,
          createdAt: alert.createdAt,
        })),
      },
      ...(priorityChanges.has(row.id)
        ? {
            priorityChanges: priorityChanges.get(row.id)!.map((change): ExportedIncidentPriorityChange => ({
              desde: change.desde,
              hasta: change.hasta,
              changedByEmail: change.changedByEmail,
              createdAt: change.createdAt,
            })),
          }
        : {}),
      entries: incidentEntries.map((entry) => ({
        kind: entry.kind,
        authorEmail: staff.emailOf(entry.authorId, entry.authorEmail),
        body: entry.body,
        createdAt: entry.createdAt,
        ...(isChannelId(entry.via) ? { via: entry.via } : {}),
        ...(entry.unverified ? { unverified: true as const } : {}),
        ...(entry.acceptedAt ? { acceptedAt: entry.acceptedAt, acceptedBy: entry.acceptedBy ?? '' } : {}),
        ...(entry.inboundMessageId && inboundKeys.has(entry.inboundMessageId)
          ? { inboundKey: inboundKeys.get(entry.inboundMessageId)! }
          : {}),
      })),
      assignments: changes.map((change) => ({
        assigneeEmail: staff.emailOf(change.assigneeId, change.assigneeEmail),
        assignedByEmail: change.assignedByEmail,
        createdAt: change.createdAt,
      })),
      tokens: (tokens.get(row.id) ?? []).map((token) => ({
        tokenHash: token.tokenHash,
        createdAt: token.createdAt,
      })),
      ...(ratings.has(row.id)
        ? {
            ratings: ratings.get(row.id)!.map((rating): ExportedIncidentRating => ({
              tokenHash: rating.tokenHash,
              resolvedAt: rating.resolvedAt,
              createdAt: rating.createdAt,
              valor: rating.valor === null ? null : Number(rating.valor),
              comentario: rating.comentario,
              ratedAt: rating.ratedAt,
            })),
          }
        : {}),
      ...(files.length
        ? {
            attachments: files.map((file): ExportedAttachment => ({
              entry:
                file.entryId === null
                  ? null
                  : incidentEntries.findIndex((entry) => entry.id === file.entryId),
              filename: file.filename,
              contentType: file.contentType,
              size: Number(file.size),
              createdAt: file.createdAt,
              ...(file.blobSha256 ? { blob: file.blobSha256 } : {}),
              ...(file.thumbSha256 ? { thumb: file.thumbSha256 } : {}),
              ...(file.droppedReason ? { dropped: file.droppedReason } : {}),
            })),
          }
        : {}),
      mails: (mails.get(row.id) ?? []).map((mail) => ({
        messageId: mail.messageId,
        kind: mail.kind,
        replyTokenHash: mail.replyTokenHash,
        bouncedAt: mail.bouncedAt ?? null,
        delayedAt: mail.delayedAt ?? null,
        readAt: mail.readAt ?? null,
        complainedAt: mail.complainedAt ?? null,
        createdAt: mail.createdAt,
      })),
    };
  });
}

const ENTRY_KINDS: readonly IncidentEntryKind[] = ['reply', 'answer', 'note'];
/** A Message-ID as incident_mails stores it (no brackets, no spaces). */
const MESSAGE_ID_PATTERN = /^[^\s<>]{1,500}$/;

/** What an incident's import needs from the rest of the file. */
export interface IncidentImportContext {
  staff: StaffIds;
  /** The file's `blobs`: the files' bytes by SHA-256. */
  blobs: Blobs;
  /** The id here of an inbound message of the file, by its de-duplication key (imported before). */
  inboundId: (dedupKey: string) => number | undefined;
}

/** One incident of the file (ours, or the original site's `incidencias`), in the caller's transaction. */
export async function importIncident(
  trx: Transaction<Database>,
  record: Record<string, unknown>,
  { staff, blobs, inboundId }: IncidentImportContext,
): Promise<Outcome> {
  const numero = text(record.numeroIncidencia, 40).trim();
  const fecha = toIsoTime(record.fecha);
  if (!INCIDENT_NUMBER_PATTERN.test(numero))
    throw new RecordRefused('el número no tiene la forma INC-AAAAMMDD-NNNN.');
  if (!fecha) throw new RecordRefused('la fecha falta o no es una fecha.');
  if (!isIncidentState(record.estado))
    throw new RecordRefused(`el estado «${text(record.estado, 40)}» no existe.`);
  const historial = asList(record.historial)
    .map((entry): HistoryEntry | null => {
      const item = (entry ?? {}) as Record<string, unknown>;
      const when = toIsoTime(item.fecha);
      return when && isIncidentState(item.estado)
        ? { estado: item.estado, fecha: when, actor: typeof item.actor === 'string' ? item.actor : null }
        : null;
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
    const authorEmail =
      kind === 'answer'
        ? null
        : email(item.authorEmail, STAFF_EMAIL, 'el correo del autor de una entrada', true);
    const inboundMessageId = typeof item.inboundKey === 'string' ? inboundId(item.inboundKey) : undefined;
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
      ...(inboundMessageId !== undefined ? { inboundMessageId } : {}),
    };
  }
  const mails = nested(record.mails, (item) => {
    const createdAt = toIsoTime(item.createdAt);
    const messageId = typeof item.messageId === 'string' ? item.messageId.trim() : '';
    if (!createdAt || !MESSAGE_ID_PATTERN.test(messageId)) return null;
    return {
      messageId,
      kind: text(item.kind, 60),
      replyTokenHash:
        typeof item.replyTokenHash === 'string' && SHA256_PATTERN.test(item.replyTokenHash)
          ? item.replyTokenHash
          : null,
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
    return {
      assigneeId: staff(assigneeEmail),
      assigneeEmail,
      assignedById: staff(assignedByEmail) ?? '',
      assignedByEmail,
      createdAt,
    };
  });
  // Priorities (issue 22): an older file has none; a change naming an unknown one is left out.
  const priorityChanges = nested(record.priorityChanges, (item) => {
    const createdAt = toIsoTime(item.createdAt);
    if (!createdAt || !isIncidentPriority(item.desde) || !isIncidentPriority(item.hasta)) return null;
    const changedByEmail =
      email(item.changedByEmail, STAFF_EMAIL, 'el correo de quien cambió la prioridad', true) ?? '';
    return {
      desde: item.desde,
      hasta: item.hasta,
      changedById: staff(changedByEmail) ?? '',
      changedByEmail,
      createdAt,
    };
  });
  if (record.prioridad !== undefined && record.prioridad !== null && !isIncidentPriority(record.prioridad))
    throw new RecordRefused(`la prioridad «${text(record.prioridad, 40)}» no existe.`);
  const tokens = nested(record.tokens, (item) => {
    const createdAt = toIsoTime(item.createdAt);
    return createdAt && typeof item.tokenHash === 'string' && SHA256_PATTERN.test(item.tokenHash)
      ? { tokenHash: item.tokenHash, createdAt }
      : null;
  });
  // A rating outside 1–5, or half of one (a value without its time), is a link not yet used.
  const ratings = nested(record.ratings, (item) => {
    const createdAt = toIsoTime(item.createdAt);
    const resolvedAt = toIsoTime(item.resolvedAt);
    if (
      !createdAt ||
      !resolvedAt ||
      typeof item.tokenHash !== 'string' ||
      !SHA256_PATTERN.test(item.tokenHash)
    )
      return null;
    const ratedAt = toIsoTime(item.ratedAt);
    const valor =
      typeof item.valor === 'number' && Number.isInteger(item.valor) && item.valor >= 1 && item.valor <= 5
        ? item.valor
        : null;
    const used = ratedAt !== null && valor !== null;
    const comentario =
      used && typeof item.comentario === 'string' ? item.comentario.slice(0, RATING_COMMENT_MAX) : null;
    return {
      tokenHash: item.tokenHash,
      resolvedAt,
      createdAt,
      valor: used ? valor : null,
      comentario: comentario || null,
      ratedAt: used ? ratedAt : null,
    };
  });
  const stored = await insertImportedIncident(trx, {
    numeroIncidencia: numero,
    problema: text(record.problema),
    nombre: text(record.nombre, 200),
    telefono: text(record.telefono, 200),
    email: email(record.email, incidentFormSchema.shape.email, 'el correo'),
    rnc: text(record.rnc, 200),
    estado: record.estado,
    fecha,
    historial,
    // An assignee without an account in this database: imported unassigned (src/server/data/import.ts).
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
