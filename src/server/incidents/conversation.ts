/**
 * Each incident as a conversation (issue 11): the one writer of `incident_entries` (staff replies,
 * internal notes and the customer's answers from the follow-up page) and the readers of the timeline, for the staff
 * incident page (everything) and the customer's follow-up page (states and replies, never notes).
 *
 * A reply is stored and its mail to the customer queued in one transaction, with a fresh follow-up
 * token (follow-up.ts); with no usable e-mail, or past the visitor-mail cap, the reply is still stored
 * (and shown on the follow-up page) and the caller is told why no mail went out.
 */
import type { Transaction } from 'kysely';
import { SENDER_UNCERTAIN } from '../../domain/inbound.ts';
import {
  entryTextProblem,
  ANSWERED_BY_CUSTOMER,
  REOPENED_BY_CUSTOMER,
  WAITING_STATE,
  type IncidentOrigin,
  type IncidentPriority,
  type IncidentRecord,
  type TimelineEntry,
} from '../../domain/incidents.ts';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import { staffDisplayName } from '../auth/index.ts';
import { attachmentsByEntry, storeAttachments } from '../attachments/index.ts';
import type { PreparedFile, RefusedFile } from '../attachments/index.ts';
import type { Db } from '../db/index.ts';
import type { Database, IncidentEntry, IncidentEntryKind } from '../db/index.ts';
import { enqueueMail } from '../mail/index.ts';
import { incidentAnswerMail } from '../mail/index.ts';
import { noticeCustomer, replyDeliveries } from './customer-notices.ts';
import type { MailBrand } from '../mail/index.ts';
import { reserveHit } from '../limits/index.ts';
import { incidentRatings } from './rating.ts';
import { touchIncident } from './activity.ts';
import { currentAssignee, loadAssignments } from './assignment.ts';
import { loadPriorityChanges } from './priority.ts';
import { incidentIdByToken, lastResolvedAt, takesAnswers } from './follow-up.ts';
import { withHistory } from './history.ts';
import { IncidentNotFoundError } from './errors.ts';
import { holdNotice } from './notices.ts';
import { isChannelId, type ChannelId } from '../../domain/channels.ts';

/** The staff member writing: Better Auth's user id and e-mail. */
export interface EntryAuthor {
  id: string;
  email: string;
  /** 'Nombre' in Configuración, for the mails that name them ('' or absent: the e-mail). */
  name?: string;
}

/** The text cannot be stored (empty or too long); `message` is the Spanish reason. */
export class EntryTextError extends Error {
  override name = 'EntryTextError';
}

/** The follow-up link's incident was resolved too long ago to take answers (follow-up.ts); nothing stored. */
export class FollowUpClosedError extends Error {
  override name = 'FollowUpClosedError';
}

/** Notices of the customer's answers per incident per hour; past them the answers wait for the staff digest. */
export const ANSWER_NOTICES_PER_HOUR = 10;
const HOUR_MS = 60 * 60 * 1000;

/** What became of a reply's mail: queued, no usable address, or the day's visitor-mail cap reached. */
export type ReplyMailOutcome = 'queued' | 'no-email' | 'daily-cap';

/** The incident with this number (as typed in the URL), with its history and assignee; null when there is none. */
export async function incidentByNumber(
  db: Db,
  numeroIncidencia: string,
): Promise<
  | (IncidentRecord & {
      assignedTo: string | null;
      origen: IncidentOrigin;
      prioridad: IncidentPriority;
      /** The channel the customer is reached on, and their address on it (a WhatsApp number's wa_id). */
      channel: string;
      channelAddress: string | null;
    })
  | null
> {
  const row = await db
    .selectFrom('incidents')
    .selectAll()
    .where('numeroIncidencia', '=', numeroIncidencia.trim().toUpperCase())
    .executeTakeFirst();
  if (!row) return null;
  const [record] = await withHistory(db, [row]);
  return record
    ? {
        ...record,
        assignedTo: row.assignedTo ?? null,
        origen: row.origen,
        prioridad: row.prioridad,
        channel: row.channel,
        channelAddress: row.channelAddress ?? null,
      }
    : null;
}

/** The entries of these kinds of one incident, oldest first (created at, then id). */
export async function loadEntries(
  db: Db,
  incidentId: number,
  kinds: readonly IncidentEntryKind[] = ['reply', 'answer', 'note'],
): Promise<IncidentEntry[]> {
  return db
    .selectFrom('incidentEntries')
    .selectAll()
    .where('incidentId', '=', incidentId)
    .where('kind', 'in', [...kinds])
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
}

/**
 * The staff timeline, oldest first: the problem as written, the state changes (the creation entry is
 * the problem itself), assignments, replies, answers and notes. Entries at the same instant keep
 * that order.
 */
export async function staffTimeline(db: Db, incident: IncidentRecord): Promise<TimelineEntry[]> {
  const [entries, assignments, priorities, bounces, files, openingMail, ratings, deliveries] =
    await Promise.all([
      loadEntries(db, incident.id),
      loadAssignments(db, incident.id),
      loadPriorityChanges(db, incident.id),
      // What reports said of its mails to the customer (issue 41): bounced, delayed, read, reported as spam.
      db
        .selectFrom('incidentMails')
        .select(['bouncedAt', 'delayedAt', 'readAt', 'complainedAt'])
        .where('incidentId', '=', incident.id)
        .where((eb) =>
          eb.or([
            eb('bouncedAt', 'is not', null),
            eb('delayedAt', 'is not', null),
            eb('readAt', 'is not', null),
            eb('complainedAt', 'is not', null),
          ]),
        )
        .execute(),
      attachmentsByEntry(db, incident.id),
      // The mail that opened it (rule 4, or 'Crear incidencia' on a refused one): 'por correo', 'Ver original'.
      db
        .selectFrom('inboundMessages')
        .select(['id', 'reason', 'channel'])
        .where('incidentId', '=', incident.id)
        .where('outcome', '=', 'new-incident')
        .orderBy('id')
        .executeTakeFirst(),
      incidentRatings(db, incident.id),
      // What became of each reply a channel sends itself (WhatsApp): 'Enviando…', 'Enviado', 'Leído'… (issue 37).
      replyDeliveries(db, incident.id),
    ]);
  const timeline: Array<TimelineEntry & { rank: number }> = [
    {
      kind: 'problem',
      fecha: incident.fecha,
      texto: incident.problema,
      autor: incident.nombre,
      ...(files.problem.length ? { adjuntos: files.problem } : {}),
      ...(openingMail && isChannelId(openingMail.channel)
        ? { via: openingMail.channel, original: Number(openingMail.id) }
        : {}),
      ...(openingMail?.reason === SENDER_UNCERTAIN ? { remitenteIncierto: true } : {}),
      rank: 0,
    },
    ...incident.historial
      // The first entry (no actor, the initial state at the incident's date) is the opening itself.
      .filter((entry, index) => !(index === 0 && entry.actor === null))
      .map((entry) => ({
        kind: 'state' as const,
        fecha: entry.fecha,
        estado: entry.estado,
        autor: entry.actor,
        rank: 1,
      })),
    ...assignments.map((assignment) => ({
      kind: 'assignment' as const,
      fecha: assignment.createdAt,
      autor: assignment.assignedByEmail,
      asignado: assignment.assigneeEmail,
      rank: 1,
    })),
    ...priorities.map((change) => ({
      kind: 'priority' as const,
      fecha: change.createdAt,
      autor: change.changedByEmail,
      desde: change.desde,
      hasta: change.hasta,
      rank: 1,
    })),
    ...entries.map((entry) => ({
      kind: entry.kind,
      fecha: entry.createdAt,
      texto: entry.body,
      autor: entry.authorEmail,
      ...(isChannelId(entry.via) ? { via: entry.via } : {}),
      ...(entry.unverified ? { sinVerificar: true } : {}),
      ...(entry.unverified && entry.kind === 'answer'
        ? entry.acceptedAt
          ? { aceptada: { autor: entry.acceptedBy ?? '', fecha: isoOf(entry.acceptedAt) } }
          : { porAceptar: entry.id }
        : {}),
      ...(entry.inboundMessageId ? { original: entry.inboundMessageId } : {}),
      ...(files.byEntry.has(entry.id) ? { adjuntos: files.byEntry.get(entry.id) } : {}),
      ...(entry.kind === 'reply' && deliveries.has(entry.id) ? { entrega: deliveries.get(entry.id) } : {}),
      rank: 2,
    })),
    ...entries
      .filter((entry) => entry.acceptedAt)
      .map((entry) => ({
        kind: 'accepted' as const,
        fecha: isoOf(entry.acceptedAt!),
        autor: entry.acceptedBy ?? '',
        respuesta: entry.createdAt,
        rank: 2,
      })),
    ...bounces.flatMap((mail) =>
      (
        [
          ['bounce', mail.bouncedAt],
          ['delay', mail.delayedAt],
          ['read', mail.readAt],
          ['complaint', mail.complainedAt],
        ] as const
      )
        .filter(([, at]) => at !== null)
        .map(([kind, at]) => ({ kind, fecha: isoOf(at!), autor: null, rank: 2 })),
    ),
    ...ratings.map((rating) => ({
      kind: 'rating' as const,
      fecha: rating.ratedAt,
      autor: null,
      valor: rating.valor,
      texto: rating.comentario,
      rank: 2,
    })),
  ];
  // A stable sort by instant: ISO strings of one format compare as dates.
  timeline.sort((a, b) => (a.fecha < b.fecha ? -1 : a.fecha > b.fecha ? 1 : a.rank - b.rank));
  return timeline.map(({ rank: _rank, ...entry }) => entry as TimelineEntry);
}

/** A stored time as ISO 8601 (PostgreSQL's driver may hand back a Date). */
function isoOf(value: string | Date): string {
  return value instanceof Date ? value.toISOString() : value;
}

function checkText(body: string): void {
  const problem = entryTextProblem(body);
  if (problem) throw new EntryTextError(problem);
}

/**
 * The one insert into `incident_entries`: the entry, and the incident's activity columns kept in the
 * same transaction (activity.ts). `author` is null for the customer's answers.
 */
async function appendEntry(
  trx: Transaction<Database>,
  incidentId: number,
  kind: IncidentEntryKind,
  author: EntryAuthor | null,
  body: string,
  now: Date,
  origin?: { via: string | null; unverified: boolean; inboundMessageId: number | null },
): Promise<IncidentEntry> {
  const entry = await trx
    .insertInto('incidentEntries')
    .values({
      incidentId,
      kind,
      authorId: author?.id ?? null,
      authorEmail: author?.email ?? null,
      body,
      createdAt: now.toISOString(),
      // Only when it came from elsewhere than the site's own forms, so that those write the rows they did.
      ...(origin?.via ? { via: origin.via } : {}),
      ...(origin?.unverified ? { unverified: true } : {}),
      ...(origin?.inboundMessageId ? { inboundMessageId: origin.inboundMessageId } : {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // A mail that proves nothing about its sender sets no 'Respuesta del cliente' mark: the last activity only.
  await touchIncident(
    trx,
    incidentId,
    origin?.unverified ? 'note' : kind,
    now,
    author ? { id: author.id, name: staffDisplayName(author) } : null,
  );
  return entry;
}

/** Stores an internal note: never mailed, never shown to the customer. */
export async function addNote(
  db: Db,
  input: {
    incidentId: number;
    author: EntryAuthor;
    body: string;
    audit?: AuditActor;
    files?: readonly PreparedFile[];
  },
  now: Date = new Date(),
): Promise<IncidentEntry> {
  checkText(input.body);
  return db.transaction().execute(async (trx) => {
    const incident = await trx
      .selectFrom('incidents')
      .select(['id', 'numeroIncidencia'])
      .where('id', '=', input.incidentId)
      .executeTakeFirst();
    if (!incident) throw new IncidentNotFoundError(`No existe la incidencia ${input.incidentId}`);
    const entry = await appendEntry(trx, incident.id, 'note', input.author, input.body, now);
    if (input.files?.length)
      await storeAttachments(trx, { incidentId: incident.id, entryId: entry.id, files: input.files }, now);
    if (input.audit)
      await recordEvent(
        trx,
        { ...input.audit, action: 'incident.note', subject: incident.numeroIncidencia },
        now,
      );
    return entry;
  });
}

/**
 * Stores a reply to the customer and, in the same transaction, queues its mail (subject 'Respuesta a tu
 * incidencia {numero}', the text and the follow-up link with a fresh token) when the incident's e-mail
 * looks like an address and the day's visitor-mail cap allows it.
 */
export async function replyToCustomer(
  db: Db,
  input: {
    incidentId: number;
    author: EntryAuthor;
    body: string;
    brand: MailBrand;
    customerMailDailyCap?: number;
    audit?: AuditActor;
    /** Files of the reply: stored with it and sent to the customer as the mail's attachments. */
    files?: readonly PreparedFile[];
  },
  now: Date = new Date(),
): Promise<{ entry: IncidentEntry; mail: ReplyMailOutcome }> {
  checkText(input.body);
  const result = await db.transaction().execute(async (trx) => {
    // The whole row: its channel is handed it for the reply's notice.
    const incident = await trx
      .selectFrom('incidents')
      .selectAll()
      .where('id', '=', input.incidentId)
      .executeTakeFirst();
    if (!incident) throw new IncidentNotFoundError(`No existe la incidencia ${input.incidentId}`);
    const entry = await appendEntry(trx, incident.id, 'reply', input.author, input.body, now);
    if (input.files?.length)
      await storeAttachments(trx, { incidentId: incident.id, entryId: entry.id, files: input.files }, now);
    // Sent by the incident's channel with its files (src/server/channels/delivery.ts), within the day's cap.
    const outcome = await noticeCustomer(
      trx,
      incident,
      { kind: 'reply', entryId: entry.id, body: input.body, authorName: input.author.name ?? '' },
      { brand: input.brand, customerMailDailyCap: input.customerMailDailyCap, now },
    );
    const mail: ReplyMailOutcome =
      outcome === 'queued' ? 'queued' : outcome === 'no-address' ? 'no-email' : 'daily-cap';
    if (input.audit)
      await recordEvent(
        trx,
        { ...input.audit, action: 'incident.reply', subject: incident.numeroIncidencia },
        now,
      );
    return { entry, mail };
  });
  return result;
}

/** What {@link acceptUnverifiedAnswer} did: accepted now, or already accepted (nothing changed). */
export type AcceptOutcome = 'accepted' | 'already';

/** No unverified customer answer with that id in that incident. */
export class AnswerNotFoundError extends Error {
  override name = 'AnswerNotFoundError';
}

/**
 * 'Aceptar como del cliente' (issue 38, F3): a staff member takes an answer stored 'Remitente sin
 * verificar' (rule 3 of src/server/channels) as the customer's own, so that it and its files show on the
 * follow-up page from now on. Recorded on the entry (who, when: the timeline's 'Aceptada como del
 * cliente'), in the audit log and as the incident's activity (the live pages update); it changes no
 * state. Once only: a second click, or a colleague's, is 'already'. {@link AnswerNotFoundError} for an
 * entry that is not an unverified answer of the incident.
 */
export async function acceptUnverifiedAnswer(
  db: Db,
  input: { incidentId: number; entryId: number; actor: EntryAuthor; audit?: AuditActor },
  now: Date = new Date(),
): Promise<AcceptOutcome> {
  return db.transaction().execute(async (trx) => {
    const entry = await trx
      .selectFrom('incidentEntries')
      .innerJoin('incidents', 'incidents.id', 'incidentEntries.incidentId')
      .select(['incidentEntries.id', 'incidentEntries.unverified', 'incidents.numeroIncidencia'])
      .where('incidentEntries.id', '=', input.entryId)
      .where('incidentEntries.incidentId', '=', input.incidentId)
      .where('incidentEntries.kind', '=', 'answer')
      .executeTakeFirst();
    if (!entry || !entry.unverified)
      throw new AnswerNotFoundError(`No hay respuesta ${input.entryId} por aceptar`);
    // Claimed in one statement: two clicks at once accept it once.
    const claimed = await trx
      .updateTable('incidentEntries')
      .set({ acceptedAt: now.toISOString(), acceptedBy: input.actor.email })
      .where('id', '=', entry.id)
      .where('acceptedAt', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return 'already';
    await touchIncident(trx, input.incidentId, 'note', now, {
      id: input.actor.id,
      name: staffDisplayName(input.actor),
    });
    if (input.audit)
      await recordEvent(
        trx,
        { ...input.audit, action: 'incident.answer-accepted', subject: entry.numeroIncidencia },
        now,
      );
    return 'accepted';
  });
}

/**
 * Where the customer's answer notice went: the assignee; the staff inbox when nobody (or an account no
 * longer on ADMIN_EMAILS) is assigned; or nowhere yet, past {@link ANSWER_NOTICES_PER_HOUR} for the
 * incident: the next staff digest lists the incident (notices.ts); 'nobody' for an unverified mail on
 * an unassigned incident ({@link recordCustomerAnswer}).
 */
export type AnswerNotice = 'assignee' | 'staff-inbox' | 'digest' | 'nobody';

/**
 * Stores the customer's answer, sent from the follow-up page opened with `token`, and in the same
 * transaction: sets a 'Resuelto' incident back to 'En Proceso' (history actor "reabierta por el
 * cliente"), marks the incident as waiting for staff, and queues the notice with the answer to the
 * assignee, or to the staff inbox when nobody is assigned or the assignee is no longer staff. Past
 * {@link ANSWER_NOTICES_PER_HOUR} answers of the incident in an hour the answer is stored and the
 * incident held for the staff digest instead of a mail. Null when the token opens no incident;
 * {@link FollowUpClosedError} when the incident was resolved too long ago (follow-up.ts).
 */
export async function answerFromCustomer(
  db: Db,
  input: {
    token: string;
    body: string;
    brand: MailBrand;
    staffInbox: string;
    /** `ADMIN_EMAILS` (default: the server's): an assignee not on it is not mailed. */
    staffEmails?: readonly string[];
    files?: readonly PreparedFile[];
  },
  now: Date = new Date(),
): Promise<CustomerAnswer | null> {
  checkText(input.body);
  const result = await db.transaction().execute(async (trx) => {
    const incidentId = await incidentIdByToken(trx, input.token);
    if (incidentId === null) return null;
    return recordCustomerAnswer(trx, incidentId, input, now);
  });
  return result;
}

/** What {@link recordCustomerAnswer} did. */
export interface CustomerAnswer {
  entry: IncidentEntry;
  numeroIncidencia: string;
  reopened: boolean;
  notified: AnswerNotice;
}

/**
 * The customer's answer, by whatever channel it came (the follow-up page, a mail: src/server/channels),
 * in the caller's transaction: see {@link answerFromCustomer}. With `unverified` (a mail matched only by
 * the number in its subject and its From header, which anyone can write) it joins the timeline marked
 * 'Remitente sin verificar', changes no state nor the 'Respuesta del cliente' mark, and only the
 * assignee is told ('nobody' when there is none). {@link FollowUpClosedError} when the incident was
 * resolved too long ago. The mail workers wake at the caller's commit.
 */
export async function recordCustomerAnswer(
  trx: Transaction<Database>,
  incidentId: number,
  input: {
    body: string;
    brand: MailBrand;
    staffInbox: string;
    staffEmails?: readonly string[];
    /** The channel it came by ('por correo' in the timeline); absent: the follow-up page. */
    via?: ChannelId;
    unverified?: boolean;
    /** The stored message it came from ('Ver original'). */
    inboundMessageId?: number;
    /** Its files, kept with the answer; `droppedFiles`: a mail's files that were not (the timeline names them). */
    files?: readonly PreparedFile[];
    droppedFiles?: readonly RefusedFile[];
  },
  now: Date,
): Promise<CustomerAnswer> {
  checkText(input.body);
  const incident = await trx
    .selectFrom('incidents')
    .select(['id', 'numeroIncidencia', 'nombre', 'estado', 'assignedTo'])
    .where('id', '=', incidentId)
    .executeTakeFirstOrThrow();
  if (!takesAnswers(incident.estado, await lastResolvedAt(trx, incident.id), now))
    throw new FollowUpClosedError(
      `La incidencia ${incident.numeroIncidencia} se resolvió hace demasiado tiempo`,
    );
  const unverified = input.unverified === true;
  const reopened = incident.estado === 'Resuelto' && !unverified;
  // The answer the desk waited for (issue 22): back to 'En Proceso', and the clock runs again.
  const resumed = incident.estado === WAITING_STATE && !unverified;
  if (reopened || resumed) {
    await trx.updateTable('incidents').set({ estado: 'En Proceso' }).where('id', '=', incident.id).execute();
    await trx
      .insertInto('incidentEvents')
      .values({
        incidentId: incident.id,
        estado: 'En Proceso',
        fecha: now.toISOString(),
        actor: reopened ? REOPENED_BY_CUSTOMER : ANSWERED_BY_CUSTOMER,
      })
      .execute();
    await touchIncident(trx, incident.id, 'state', now);
  }
  const entry = await appendEntry(trx, incident.id, 'answer', null, input.body, now, {
    via: input.via ?? null,
    unverified,
    inboundMessageId: input.inboundMessageId ?? null,
  });
  if (input.files?.length || input.droppedFiles?.length)
    await storeAttachments(
      trx,
      {
        incidentId: incident.id,
        entryId: entry.id,
        files: input.files ?? [],
        dropped: input.droppedFiles ?? [],
      },
      now,
    );
  // Reserved in this transaction: an answer that is not stored uses no notice.
  const notices = await reserveHit(trx, `answer-notices:${incident.id}`, HOUR_MS, now.getTime());
  if (notices > ANSWER_NOTICES_PER_HOUR) {
    await holdNotice(trx, incident.id);
    return { entry, numeroIncidencia: incident.numeroIncidencia, reopened, notified: 'digest' };
  }
  // An account removed from ADMIN_EMAILS no longer reads the customers' words: the inbox does.
  const assignee = await currentAssignee(trx, incident.assignedTo, input.staffEmails);
  if (unverified && !assignee)
    return { entry, numeroIncidencia: incident.numeroIncidencia, reopened, notified: 'nobody' };
  const to = assignee?.email ?? input.staffInbox;
  const via = input.via ? { channel: input.via, unverified } : undefined;
  await enqueueMail(
    trx,
    {
      kind: 'incident.answer',
      ...incidentAnswerMail(
        input.brand,
        to,
        incident,
        input.body,
        resumed ? 'esperando' : reopened,
        via,
        (input.files ?? []).map((file) => file.filename),
      ),
    },
    now,
  );
  return {
    entry,
    numeroIncidencia: incident.numeroIncidencia,
    reopened,
    notified: assignee ? 'assignee' : 'staff-inbox',
  };
}
