/**
 * The export of the site's records (`npm run data -- export`, the file import.ts reads back):
 * incidents with their history, conversation (replies, internal notes, the visitor's answers),
 * assignments, follow-up tokens and the mails we sent about them (Message-IDs, reply tokens' hashes);
 * the messages that came in (mail: outcome, original while kept); clients with their timeline and meetings; contact messages with
 * their handled state; the team's saved replies ('Respuestas guardadas', issue 22); the articles of
 * 'Contenido' with their old addresses, and the one-time content imports done (issue 23); and a CSV
 * summary of each kind.
 *
 * Staff accounts (Better Auth's tables) are not moved: a column that holds a staff account's id is
 * exported as that account's e-mail (import.ts maps it back to the target's account).
 */
import { CLIENT_FIELDS, type ClientEventKind, type ClientRecord } from '../../domain/forms/client.ts';
import type { ExportedClock } from '../../domain/incident-clock.ts';
import type { IncidentOrigin, IncidentPriority, IncidentRecord } from '../../domain/incidents.ts';
import type { ClockTarget } from '../../domain/response-times.ts';
import { clockColumnsOf } from '../incidents/index.ts';
import { createHash } from 'node:crypto';
import { articleFields, toArticle, toRevision } from '../content/index.ts';
import { voteCounts } from '../content/index.ts';
import { toCsv } from '../csv.ts';
import type { Db } from '../db/index.ts';
import type { ClientMeeting, ContactMessage, InboundOutcome, IncidentEntryKind } from '../db/index.ts';
import { historyText, loadHistories } from '../incidents/index.ts';
import { toView as meetingView } from '../meetings/index.ts';
import { originalGzip } from '../channels/index.ts';
import { isChannelId, type ChannelId } from '../../domain/channels.ts';

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

/**
 * A message that came in (`inbound_messages`), by its de-duplication key (so the same mail delivered
 * after a move is still a duplicate), with what became of it, the incident it joined or opened by
 * number, who dealt with it when it was refused, and its original (gzip, base64) while it is kept.
 */
export interface ExportedInboundMessage {
  channel: string;
  dedupKey: string;
  messageId: string | null;
  sender: string;
  subject: string;
  outcome: InboundOutcome;
  reason: string | null;
  numeroIncidencia: string | null;
  receivedAt: string;
  reviewedAt: string | null;
  reviewedByEmail: string | null;
  rawGzipBase64: string | null;
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

/** A saved reply ('Respuestas guardadas'); who created and last edited it by e-mail. */
export interface ExportedSavedReply {
  title: string;
  body: string;
  createdAt: string;
  createdByEmail: string | null;
  updatedAt: string;
  updatedByEmail: string | null;
}

/** The fields of an article, or of one of its revisions, as exported. */
export interface ExportedArticleFields {
  kind: string;
  slug: string;
  title: string;
  excerpt: string;
  body: string;
  coverImage: string | null;
  coverAlt: string;
  author: string;
  tags: string[];
  seoTitle: string;
  seoDescription: string;
  state: string;
  publishAt: string | null;
}

/** An article of 'Contenido' (issue 23), with the old addresses that redirect to it; staff by e-mail. */
export interface ExportedArticle extends ExportedArticleFields {
  createdAt: string;
  createdByEmail: string | null;
  updatedAt: string;
  updatedByEmail: string | null;
  oldSlugs: Array<{ kind: string; slug: string; createdAt: string }>;
  /** A help article's '¿Te resultó útil?' counts (migration 0035); absent when never voted on. */
  votes?: { helpful: number; notHelpful: number };
  /** Its revisions ('Historial', migration 0037), oldest first; files exported before them have none. */
  revisions?: ExportedArticleRevision[];
}

/** An image of an article's text: its id here (the texts name it), size, who and when; each file by width and format, its bytes in `blobs`. */
export interface ExportedArticleImage {
  id: number;
  /** The random key its addresses carry (src/domain/article-images.ts). */
  key: string;
  width: number;
  height: number;
  createdAt: string;
  createdByEmail: string | null;
  files: Array<{ width: number; format: string; sha256: string }>;
}

/** A revision of an article: the fields one save left, its version, state, time and who (by e-mail). */
export interface ExportedArticleRevision extends ExportedArticleFields {
  version: number;
  createdAt: string;
  createdByEmail: string | null;
}

/** An announcement of 'Anuncios' (issue 23): its key is what visitors' browsers remember it by. */
export interface ExportedAnnouncement {
  key: string;
  title: string;
  message: string;
  link: string;
  startsOn: string;
  endsOn: string | null;
  createdAt: string;
  createdByEmail: string | null;
  updatedAt: string;
  updatedByEmail: string | null;
}

/** A logo of 'Logos de clientes' (issue 23), in the wall's order; an uploaded image's bytes in base64. */
export interface ExportedClientLogo {
  name: string;
  imageRef: string | null;
  imageType: string;
  imageBase64: string | null;
  link: string | null;
  position: number;
  visible: boolean;
  createdAt: string;
  createdByEmail: string | null;
  updatedAt: string;
  updatedByEmail: string | null;
}

export interface ExportData {
  exportedAt: string;
  /** The bytes of every exported file, base64, by SHA-256 (issue 21); absent when there are none. */
  blobs?: Record<string, string>;
  incidents: ExportedIncident[];
  clients: ExportedClient[];
  contactMessages: ExportedContactMessage[];
  /** Files exported before issue 21's panel have none. */
  inboundMessages?: ExportedInboundMessage[];
  /** Files exported before issue 22's saved replies have none. */
  savedReplies?: ExportedSavedReply[];
  /** Files exported before issue 23's articles have none. */
  articles?: ExportedArticle[];
  /** Images uploaded into articles' texts (migration 0037), their files' bytes in `blobs`; files exported before them have none. */
  articleImages?: ExportedArticleImage[];
  /** Files exported before issue 23's announcements and logos have none. */
  announcements?: ExportedAnnouncement[];
  clientLogos?: ExportedClientLogo[];
  /** The one-time imports done (`content_imports`), so the target never imports the Markdown articles again. */
  contentImports?: string[];
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
  const blobs: Record<string, string> = {};
  for (const row of await db
    .selectFrom('blobs')
    .select(['sha256', 'data'])
    .where((eb) =>
      eb.or([
        eb('sha256', 'in', eb.selectFrom('incidentAttachments').select('blobSha256').where('blobSha256', 'is not', null)),
        eb('sha256', 'in', eb.selectFrom('incidentAttachments').select('thumbSha256').where('thumbSha256', 'is not', null)),
      ]),
    )
    .orderBy('sha256')
    .execute())
    blobs[row.sha256] = Buffer.from(row.data).toString('base64');
  const imageFiles = Map.groupBy(
    await db.selectFrom('articleImageFiles').selectAll().orderBy('imageId').orderBy('width').orderBy('format').execute(),
    (row) => row.imageId,
  );
  const articleImages = (await db.selectFrom('articleImages').selectAll().orderBy('id').execute()).map((image) => ({
    id: Number(image.id),
    key: image.key,
    width: image.width,
    height: image.height,
    createdAt: image.createdAt,
    createdByEmail: image.createdBy,
    files: (imageFiles.get(image.id) ?? []).map((file) => {
      const sha256 = createHash('sha256').update(file.data).digest('hex');
      blobs[sha256] = Buffer.from(file.data).toString('base64');
      return { width: file.width, format: file.format, sha256 };
    }),
  }));
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
  const mails = Map.groupBy(
    await db.selectFrom('incidentMails').selectAll().orderBy('createdAt').orderBy('id').execute(),
    (row) => row.incidentId,
  );
  const inbound = await db
    .selectFrom('inboundMessages')
    .leftJoin('incidents', 'incidents.id', 'inboundMessages.incidentId')
    .selectAll('inboundMessages')
    .select('incidents.numeroIncidencia')
    .orderBy('inboundMessages.receivedAt')
    .orderBy('inboundMessages.id')
    .execute();
  // Each original's parts joined into one gzip, as exports have always carried it (import.ts splits it again).
  const originals = new Map<number, string>();
  for (const row of inbound) {
    if (row.originalParts === null) continue;
    const gzip = await originalGzip(db, row.id);
    if (gzip) originals.set(row.id, gzip.toString('base64'));
  }
  const clockAlerts = Map.groupBy(
    await db.selectFrom('incidentClockAlerts').selectAll().orderBy('createdAt').orderBy('target').execute(),
    (row) => row.incidentId,
  );
  const savedReplies = await db.selectFrom('savedReplies').selectAll().orderBy('createdAt').orderBy('id').execute();
  const articles = await db.selectFrom('articles').selectAll().orderBy('createdAt').orderBy('id').execute();
  const oldSlugs = Map.groupBy(await db.selectFrom('articleSlugs').selectAll().orderBy('createdAt').orderBy('id').execute(), (row) => row.articleId);
  const votes = await voteCounts(db);
  const revisions = Map.groupBy(
    await db.selectFrom('articleRevisions').selectAll().orderBy('articleId').orderBy('id').execute(),
    (row) => row.articleId,
  );
  const announcements = await db.selectFrom('announcements').selectAll().orderBy('createdAt').orderBy('id').execute();
  const clientLogos = await db.selectFrom('clientLogos').selectAll().orderBy('position').orderBy('id').execute();
  const contentImports = (await db.selectFrom('contentImports').select('name').orderBy('name').execute()).map((row) => row.name);
  const inboundKeys = new Map(inbound.map((row) => [row.id, row.dedupKey]));
  const staff = new Map(
    (await db.withoutPlugins().selectFrom('user').select(['id', 'email']).execute()).map((user) => [user.id, user.email]),
  );
  /** The e-mail stored beside a staff id, else the account's current one. */
  const staffEmail = (id: string | null, stored: string | null) => stored ?? (id ? (staff.get(id) ?? null) : null);
  return {
    exportedAt: new Date().toISOString(),
    ...(Object.keys(blobs).length ? { blobs } : {}),
    incidents: incidents.map((row) => {
      const changes = assignments.get(row.id) ?? [];
      const incidentEntries = entries.get(row.id) ?? [];
      const files = attachments.get(row.id) ?? [];
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
              priorityChanges: priorityChanges.get(row.id)!.map(
                (change): ExportedIncidentPriorityChange => ({
                  desde: change.desde,
                  hasta: change.hasta,
                  changedByEmail: change.changedByEmail,
                  createdAt: change.createdAt,
                }),
              ),
            }
          : {}),
        entries: incidentEntries.map((entry) => ({
          kind: entry.kind,
          authorEmail: staffEmail(entry.authorId, entry.authorEmail),
          body: entry.body,
          createdAt: entry.createdAt,
          ...(isChannelId(entry.via) ? { via: entry.via } : {}),
          ...(entry.unverified ? { unverified: true as const } : {}),
          ...(entry.acceptedAt
            ? { acceptedAt: entry.acceptedAt, acceptedBy: entry.acceptedBy ?? '' }
            : {}),
          ...(entry.inboundMessageId && inboundKeys.has(entry.inboundMessageId)
            ? { inboundKey: inboundKeys.get(entry.inboundMessageId)! }
            : {}),
        })),
        assignments: changes.map((change) => ({
          assigneeEmail: staffEmail(change.assigneeId, change.assigneeEmail),
          assignedByEmail: change.assignedByEmail,
          createdAt: change.createdAt,
        })),
        tokens: (tokens.get(row.id) ?? []).map((token) => ({ tokenHash: token.tokenHash, createdAt: token.createdAt })),
        ...(ratings.has(row.id)
          ? {
              ratings: ratings.get(row.id)!.map(
                (rating): ExportedIncidentRating => ({
                  tokenHash: rating.tokenHash,
                  resolvedAt: rating.resolvedAt,
                  createdAt: rating.createdAt,
                  valor: rating.valor === null ? null : Number(rating.valor),
                  comentario: rating.comentario,
                  ratedAt: rating.ratedAt,
                }),
              ),
            }
          : {}),
        ...(files.length
          ? {
              attachments: files.map(
                (file): ExportedAttachment => ({
                  entry: file.entryId === null ? null : incidentEntries.findIndex((entry) => entry.id === file.entryId),
                  filename: file.filename,
                  contentType: file.contentType,
                  size: Number(file.size),
                  createdAt: file.createdAt,
                  ...(file.blobSha256 ? { blob: file.blobSha256 } : {}),
                  ...(file.thumbSha256 ? { thumb: file.thumbSha256 } : {}),
                  ...(file.droppedReason ? { dropped: file.droppedReason } : {}),
                }),
              ),
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
    inboundMessages: inbound.map((row) => ({
      channel: row.channel,
      dedupKey: row.dedupKey,
      messageId: row.messageId,
      sender: row.sender,
      subject: row.subject,
      outcome: row.outcome,
      reason: row.reason,
      numeroIncidencia: row.numeroIncidencia ?? null,
      receivedAt: row.receivedAt,
      reviewedAt: row.reviewedAt ?? null,
      reviewedByEmail: row.reviewedBy ?? null,
      rawGzipBase64: originals.get(row.id) ?? null,
    })),
    savedReplies: savedReplies.map((row) => ({
      title: row.title,
      body: row.body,
      createdAt: row.createdAt,
      createdByEmail: row.createdBy,
      updatedAt: row.updatedAt,
      updatedByEmail: row.updatedBy,
    })),
    articles: articles.map((row) => {
      const article = toArticle(row);
      return {
        ...articleFields(article),
        createdAt: article.createdAt,
        createdByEmail: article.createdBy,
        updatedAt: article.updatedAt,
        updatedByEmail: article.updatedBy,
        oldSlugs: (oldSlugs.get(row.id) ?? []).map((old) => ({ kind: old.kind, slug: old.slug, createdAt: old.createdAt })),
        ...(votes.has(article.id) ? { votes: votes.get(article.id) } : {}),
        revisions: (revisions.get(row.id) ?? []).map((revision) => ({
          version: Number(revision.version),
          ...articleFields(toRevision(revision)),
          createdAt: revision.createdAt,
          createdByEmail: revision.createdBy,
        })),
      };
    }),
    ...(articleImages.length ? { articleImages } : {}),
    announcements: announcements.map((row) => ({
      key: row.key,
      title: row.title,
      message: row.message,
      link: row.link,
      startsOn: row.startsOn,
      endsOn: row.endsOn,
      createdAt: String(row.createdAt),
      createdByEmail: row.createdBy,
      updatedAt: String(row.updatedAt),
      updatedByEmail: row.updatedBy,
    })),
    clientLogos: clientLogos.map((row) => ({
      name: row.name,
      imageRef: row.imageRef,
      imageType: row.imageType,
      imageBase64: row.imageData ? Buffer.from(row.imageData).toString('base64') : null,
      link: row.link,
      position: Number(row.position),
      visible: Boolean(Number(row.visible)),
      createdAt: String(row.createdAt),
      createdByEmail: row.createdBy,
      updatedAt: String(row.updatedAt),
      updatedByEmail: row.updatedBy,
    })),
    contentImports,
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
