/**
 * The database as TypeScript sees it. Property names are the spec's names in camelCase; Kysely's
 * `CamelCasePlugin` maps them to the snake_case columns of the migrations. Times are ISO 8601 UTC
 * strings in both engines (PostgreSQL `timestamptz` values are parsed back to ISO strings).
 */
import type { Generated, Insertable, Selectable } from 'kysely';
import type { ClientEventKind, ClientRecord, ProjectState } from '../../domain/forms/client.ts';
import type { ChannelId } from '../../domain/channels.ts';
import type {
  HistoryEntry,
  IncidentOrigin,
  IncidentPriority,
  IncidentRecord,
} from '../../domain/incidents.ts';

/** The columns of the domain's incident record (src/domain/incidents.ts), plus the search columns. */
export interface IncidentsTable extends Omit<IncidentRecord, 'id' | 'historial'> {
  id: Generated<number>;
  /**
   * `normalizeForSearch` copies of `nombre` and `rnc` for the staff filters. Required, so that an insert
   * that forgets them does not compile: `incidentRow` (./rows.ts) derives them for every insert.
   */
  nombreNorm: string;
  rncNorm: string;
  /** The staff notice waits for the next digest (src/server/incidents/notices.ts); 0/1 on SQLite. */
  staffNoticePending: Generated<boolean | number>;
  /** The staff account (Better Auth's user id) it is assigned to; null when nobody is (migration 0011). */
  assignedTo: Generated<string | null>;
  /**
   * When anything last happened to it (creation, state, assignment, reply, note, answer): ISO 8601 UTC,
   * 'Última actividad'. Required at insert (`incidentRow` defaults it to `fecha`); kept by
   * src/server/incidents/activity.ts (migration 0013).
   */
  lastActivityAt: string;
  /** The visitor answered and no staff reply followed yet ('Respuesta del cliente'); 0/1 on SQLite. */
  customerWaiting: Generated<boolean | number>;
  /**
   * When it first reached 'Resuelto' (ISO 8601 UTC), kept when reopened; null while never resolved.
   * Set by the state change that resolves it, and by `incidentRow` from an imported history (migration 0019).
   */
  resolvedAt: Generated<string | null>;
  /** Where it came from: 'Formulario' (the support form) or a channel's origin, 'Correo' or 'WhatsApp' (src/domain/channels.ts), migration 0024. */
  origen: Generated<IncidentOrigin>;
  /** 'Prioridad' (issue 22): 'Normal' unless the staff set another (migration 0029). */
  prioridad: Generated<IncidentPriority>;
  /** The business-hours clock (issue 22, migration 0031, src/domain/incident-clock.ts); booleans 0/1 on SQLite. */
  clockStarted: Generated<boolean | number>;
  clockSince: Generated<string | null>;
  firstReplyAt: Generated<string | null>;
  firstReplyUsedS: Generated<number>;
  resolutionUsedS: Generated<number>;
  firstReplyDueAt: Generated<string | null>;
  resolutionDueAt: Generated<string | null>;
  /** 'Vence': the nearer due time while the clock runs. */
  dueAt: Generated<string | null>;
  firstReplyMet: Generated<boolean | number | null>;
  resolutionMet: Generated<boolean | number | null>;
  clockResolvedAt: Generated<string | null>;
  /** The channel the desk reaches its customer on (src/domain/channels.ts), migration 0042: 'correo' unless a channel's message opened it. */
  channel: Generated<ChannelId>;
  /** The customer's address on that channel (the e-mail, a WhatsApp number's wa_id), migration 0042. */
  channelAddress: Generated<string | null>;
}

/** What a customer notice is about (src/server/channels/channel.ts `CustomerNotice`). */
export type CustomerNoticeKind = 'confirmation' | 'state' | 'reply' | 'receipt';
/**
 * `handed`: its channel took it in the desk's own transaction (the mail channel queued its mail);
 * `skipped`: its channel sends nothing (no address, a complaint, a cap: `outcome` says which);
 * `pending` → `sent` | `failed`: the delivery worker's, for a channel that speaks to an outside service.
 */
export type CustomerNoticeStatus = 'handed' | 'skipped' | 'pending' | 'sent' | 'failed';

/** What the desk told a customer, channel-neutral (migration 0042, src/server/channels/delivery.ts). */
export interface CustomerNoticesTable {
  id: Generated<number>;
  incidentId: number;
  channel: ChannelId;
  kind: CustomerNoticeKind;
  /** JSON of the notice (src/server/channels/channel.ts `CustomerNotice`). */
  payload: string;
  status: CustomerNoticeStatus;
  /** What its channel did or said: 'queued', 'no-address', 'daily-cap', an error's words… */
  outcome: string | null;
  attempts: Generated<number>;
  nextAttemptAt: string;
  lockedUntil: string | null;
  lastError: string | null;
  /** The channel's own id of what it sent (a WhatsApp message's wamid); null for mail (incident_mails has it). */
  externalId: string | null;
  createdAt: string;
  doneAt: string | null;
  /** What Meta's status webhooks last said of it (migration 0043), never moving back: 'sent' < 'failed' < 'delivered' < 'read'. */
  deliveryStatus: WhatsAppDeliveryStatus | null;
  /** Of a 'failed' one: 'No se pudo entregar: …' (channels/whatsapp/payload.ts `statusText`). */
  deliveryError: string | null;
  /** Meta's time of that status. */
  statusAt: string | null;
}

export type WhatsAppDeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';

/** A customer's WhatsApp file still to fetch from Meta, or fetched, or given up on (migration 0043). */
export interface WhatsappMediaTable {
  id: Generated<number>;
  inboundId: number;
  mediaId: string;
  mimeType: string;
  filename: string;
  status: Generated<'pending' | 'done' | 'failed'>;
  attempts: Generated<number>;
  nextAttemptAt: string;
  lastError: string | null;
  createdAt: string;
}

/** A Meta status whose wamid no notice had yet when it came (migration 0045): applied once one has it. */
export interface WhatsappEarlyStatusesTable {
  id: Generated<number>;
  wamid: string;
  deliveryStatus: WhatsAppDeliveryStatus;
  deliveryError: string | null;
  statusAt: string;
  receivedAt: string;
}

/** A sender staff blocked on a channel (migration 0044): its messages are stored refused and act on nothing. */
export interface BlockedSendersTable {
  id: Generated<number>;
  channel: string;
  /** As the channel stores a sender: a mail address in lower case, a WhatsApp number's digits. */
  address: string;
  blockedBy: string;
  blockedAt: string;
}

/** Settings of the desk kept in the database (migration 0031): a JSON value per key. */
export interface DeskSettingsTable {
  key: string;
  value: string;
  updatedAt: string;
  updatedBy: string | null;
}

/** The overdue mail of an incident's target, sent once (migration 0031, src/server/incidents/clock.ts). */
export interface IncidentClockAlertsTable {
  incidentId: number;
  target: string;
  dueAt: string;
  createdAt: string;
}

/** What a timeline entry other than a state change is (src/domain/incidents.ts). */
export type IncidentEntryKind = 'reply' | 'answer' | 'note';

/** Replies, the visitor's answers and internal notes (src/server/incidents/conversation.ts). */
export interface IncidentEntriesTable {
  id: Generated<number>;
  incidentId: number;
  kind: IncidentEntryKind;
  /** The staff author's account id and e-mail; null for the visitor's answers. */
  authorId: string | null;
  authorEmail: string | null;
  body: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  /** The channel a customer's answer came by ('correo', src/domain/channels.ts), null (the follow-up page) — migration 0024. */
  via: Generated<string | null>;
  /** Matched only by the number in the subject and the From header: 'Remitente sin verificar'; 0/1 on SQLite. */
  unverified: Generated<boolean | number>;
  /** The stored message it came from ('Ver original'). */
  inboundMessageId: Generated<number | null>;
  /**
   * An unverified answer a staff member accepted as the customer's ('Aceptar como del cliente',
   * migration 0040): when, and the account's e-mail; null otherwise. Only then is it on the follow-up page.
   */
  acceptedAt: Generated<string | null>;
  acceptedBy: Generated<string | null>;
}

/** Every mail we sent a customer about an incident (migration 0024, src/server/channels/mail/threading.ts). */
export interface IncidentMailsTable {
  id: Generated<number>;
  incidentId: number;
  /** Without angle brackets. */
  messageId: string;
  /** The outbox kind: `incident.confirmation`, `incident.state`, `incident.reply`. */
  kind: string;
  /** SHA-256 (hex) of the token of its Reply-To address `local+TOKEN@domain`; null without INBOUND_ADDRESS. */
  replyTokenHash: string | null;
  /** When a delivery report said it bounced ('rebotado'); null otherwise. */
  bouncedAt: Generated<string | null>;
  /** When a first report said its delivery is delayed (migration 0041); null otherwise. */
  delayedAt: Generated<string | null>;
  /** When a first read receipt of it came ('Leído por el cliente', migration 0041); null otherwise. */
  readAt: Generated<string | null>;
  /** When its recipient reported it as spam (migration 0041); null otherwise. */
  complainedAt: Generated<string | null>;
  createdAt: string;
}

/**
 * An address whose owner reported one of our mails as spam (migration 0041): automatic mail to it
 * (confirmations, state notices) is not queued. `address` in lower case.
 */
export interface MailComplaintsTable {
  address: string;
  incidentId: number | null;
  inboundMessageId: number | null;
  complainedAt: string;
}

/**
 * What became of an inbound message (src/server/channels/intake.ts); `report`: a report on one of our
 * mails that is no bounce (a delay, a read receipt, a spam complaint: `reason` says which).
 */
export type InboundOutcome =
  'answer' | 'unverified' | 'new-incident' | 'bounce' | 'report' | 'ignored' | 'rejected';

/** Every message that came in, stored once by `dedupKey` (migration 0024). */
export interface InboundMessagesTable {
  id: Generated<number>;
  /** The channel it came by (src/domain/channels.ts): 'correo' (IMAP or the webhook), 'whatsapp'. */
  channel: string;
  /** `message-id:<id>` or `sha256:<hex of the raw bytes>`; unique. */
  dedupKey: string;
  messageId: string | null;
  /** The sender's address, lower case. */
  sender: string;
  subject: Generated<string>;
  outcome: InboundOutcome;
  /** Why it was ignored or rejected (a code, e.g. `auto-submitted`, `own-address`, `rate-limit`). */
  reason: string | null;
  incidentId: number | null;
  /**
   * How many parts its original (the raw message, gzip) has in `inbound_original_parts`, set once all
   * are written (migration 0034); null when there is none: a channel without one, purged, or unfinished.
   */
  originalParts: number | null;
  receivedAt: string;
  /** A refused message a staff member dealt with ('Crear incidencia' or 'Descartar'), and who (e-mail); migration 0026. */
  reviewedAt: string | null;
  reviewedBy: string | null;
}

/** An inbound message's original (gzip) in parts of at most 1 MiB, numbered from 0 (migration 0034). */
export interface InboundOriginalPartsTable {
  inboundId: number;
  part: number;
  data: Uint8Array;
}

/** The last round of each mailbox reader (`imap`), for 'Correo entrante' (migration 0026). */
export interface InboundPollsTable {
  channel: string;
  lastRoundAt: string;
  lastOkAt: string | null;
  /** The last round's error, or null when it went well. */
  lastError: string | null;
  lastErrorAt: string | null;
  /** Whether the server offered IDLE (the poller wakes as soon as a mail arrives). */
  idle: Generated<boolean | number>;
}

/** How many incidents each state has, kept by triggers on `incidents` (migration 0020); read by the staff home. */
export interface IncidentStateCountsTable {
  estado: string;
  total: number;
}

/** Each change of `incidents.assigned_to`, for the timeline (migration 0014); assignee null: 'Sin asignar'. */
export interface IncidentAssignmentsTable {
  id: Generated<number>;
  incidentId: number;
  assigneeId: string | null;
  assigneeEmail: string | null;
  assignedById: string;
  assignedByEmail: string;
  /** ISO 8601 UTC. */
  createdAt: string;
}

/** Each change of `incidents.prioridad`, for the timeline (migration 0029): 'Prioridad: Normal → Alta'. */
export interface IncidentPriorityChangesTable {
  id: Generated<number>;
  incidentId: number;
  desde: IncidentPriority;
  hasta: IncidentPriority;
  changedById: string;
  changedByEmail: string;
  /** ISO 8601 UTC. */
  createdAt: string;
}

/** One history entry per row (its `actor` is null for the creation entry). */
export interface IncidentEventsTable extends HistoryEntry {
  id: Generated<number>;
  incidentId: number;
}

/** The columns of the domain's client record (src/domain/forms/client.ts), plus the search columns. */
export interface ClientsTable extends Omit<
  ClientRecord,
  'id' | 'estadoProyecto' | 'correoBienvenidaEnviado' | 'version' | 'archivedAt'
> {
  id: Generated<number>;
  /** 'pendiente' unless given; one of PROJECT_STATES (a CHECK on PostgreSQL, triggers on SQLite). */
  estadoProyecto: Generated<ProjectState>;
  /** Optimistic concurrency of the 'Editar' form: 1 at creation, + 1 on each edit. */
  version: Generated<number>;
  /** When it was archived (ISO 8601 UTC); null while active. */
  archivedAt: Generated<string | null>;
  /** false unless given; SQLite hands it back as 0/1 (the clients module converts). */
  correoBienvenidaEnviado: Generated<boolean>;
  /** `normalizeForSearch` copies for the client search; derived by `clientRow` (./rows.ts). */
  razonSocialNorm: string;
  emailNorm: string;
  rncNorm: string;
}

/** A client's timeline (migration 0012): inserted, never updated. */
export interface ClientEventsTable {
  id: Generated<number>;
  clientId: number;
  kind: ClientEventKind;
  actorId: string | null;
  actorEmail: string | null;
  /** A note's text; for 'edited' and 'state', JSON `{ field?, from, to }`. */
  detail: string | null;
  /** ISO 8601 UTC. */
  createdAt: string;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  name: string;
  email: string;
  message: string;
  createdAt: string;
  /** 'Marcar como atendido' (migration 0015): when (ISO 8601 UTC) and by whom; null while pending. */
  handledAt: Generated<string | null>;
  handledById: Generated<string | null>;
  handledByEmail: Generated<string | null>;
  /** `normalizeForSearch` copies for the inbox search; derived by `contactMessageRow` (./rows.ts). */
  nameNorm: string;
  emailNorm: string;
  messageNorm: string;
}

export type MailStatus = 'pending' | 'sent' | 'failed';

export interface MailOutboxTable {
  id: Generated<number>;
  /** What caused the mail, e.g. `incident.created`; for logs and tests. */
  kind: string;
  toAddress: string;
  replyTo: string | null;
  subject: string;
  textBody: string;
  htmlBody: string;
  status: Generated<MailStatus>;
  attempts: Generated<number>;
  nextAttemptAt: string;
  lockedUntil: string | null;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  /** JSON `MailAttachment[]` (src/server/mail/types.ts), migration 0016; null on older rows and mails without files. */
  attachments: Generated<string | null>;
  /** Its `Message-ID` (without brackets) when the site chose one (migration 0024); null: the transport's. */
  messageId: Generated<string | null>;
  /** JSON `Record<string, string>` of extra headers (In-Reply-To, References, Auto-Submitted), migration 0024. */
  headers: Generated<string | null>;
}

/** A meeting sent to a client ('Reunión', migration 0016); cancelling sets `cancelledAt`, nothing is deleted. */
export interface ClientMeetingsTable {
  id: Generated<number>;
  clientId: number;
  /** The staff organiser: Better Auth's user id, e-mail and name (the invitation's ORGANIZER). */
  organizerId: string;
  organizerEmail: string;
  organizerName: string;
  /** ISO 8601 UTC; `endsAt` = start + duration. */
  startsAt: string;
  endsAt: string;
  /** 1 to 480. */
  durationMinutes: number;
  /** A place, or an https:// video-call link. */
  place: string;
  note: Generated<string>;
  /** The iCalendar UID and SEQUENCE the invitation and its cancellation share. */
  uid: string;
  sequence: Generated<number>;
  createdAt: string;
  cancelledAt: Generated<string | null>;
  /** E-mail of the staff member who cancelled it. */
  cancelledBy: Generated<string | null>;
}

export interface PageViewsTable {
  /** Calendar day in Santo Domingo, `yyyy-mm-dd` (see src/server/analytics). */
  day: string;
  path: string;
  count: number;
}

/** Follow-up tokens of the visitors' mails, hashed (src/server/incidents/follow-up.ts). */
export interface IncidentTokensTable {
  tokenHash: string;
  incidentId: number;
  createdAt: string;
}

/** The customer's rating of a resolution (migration 0028): one row per token, rated at most once. */
export interface IncidentRatingsTable {
  tokenHash: string;
  incidentId: number;
  /** The resolution it rates (ISO): when the incident reached 'Resuelto'; shared by that resolution's tokens. */
  resolvedAt: string;
  createdAt: string;
  valor: number | null;
  comentario: string | null;
  ratedAt: string | null;
}

/** Every limiter's window counters (src/server/limits/counters.ts): one row per key, its current window. */
export interface LimitCountersTable {
  key: string;
  /** Epoch milliseconds (`bigint`; PostgreSQL hands it back as a string). */
  windowStart: number | string;
  count: number;
}

/** The staff area's audit log (src/server/audit): inserted, never updated; purged by age. */
export interface AuditEventsTable {
  id: Generated<number>;
  /** ISO 8601 UTC. */
  at: string;
  /** Better Auth's user id, when the actor has an account. */
  actorId: string | null;
  /** Who acted, or the e-mail a failed sign-in named. */
  actorEmail: string | null;
  /** One of the codes of src/domain/audit.ts. */
  action: string;
  /** What it was done to: an incident number, a client id… */
  subject: string | null;
  detail: string | null;
  /** The client network (an IPv4 address, or an IPv6 /64). */
  network: string;
}

/*
 * Better Auth's tables (migration 0003). Their table and column names are camelCase in the database
 * itself, so code reaches them through `db.withoutPlugins()` (the CamelCasePlugin would turn
 * `rateLimit` into `rate_limit`). Dates are `date` text on SQLite and `timestamptz` on PostgreSQL.
 */
type AuthTime = Date | string;

export interface UserTable {
  id: string;
  name: string;
  email: string;
  /** 0/1 on SQLite. */
  emailVerified: boolean | number;
  image: string | null;
  createdAt: AuthTime;
  updatedAt: AuthTime;
  /** Set on an account whose password was generated; 0/1 on SQLite (migration 0009). */
  mustChangePassword: boolean | number;
  /** Two-step verification (migration 0010); 0/1 on SQLite, null on rows from before it. */
  twoFactorEnabled: boolean | number | null;
}

export interface SessionTable {
  id: string;
  expiresAt: AuthTime;
  token: string;
  createdAt: AuthTime;
  updatedAt: AuthTime;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
}

export interface AccountTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: AuthTime | null;
  refreshTokenExpiresAt: AuthTime | null;
  scope: string | null;
  password: string | null;
  createdAt: AuthTime;
  updatedAt: AuthTime;
}

export interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: AuthTime;
  createdAt: AuthTime;
  updatedAt: AuthTime;
}

/** Better Auth's two-factor plugin (migration 0010): one row per account that started enrolling. */
export interface TwoFactorTable {
  id: string;
  /** The TOTP secret, encrypted with the auth secret. */
  secret: string;
  /** The unused recovery codes, encrypted. */
  backupCodes: string;
  userId: string;
  /** False until the first code confirms the enrolment; 0/1 on SQLite. */
  verified: boolean | number | null;
  failedVerificationCount: number | null;
  lockedUntil: AuthTime | null;
}

/**
 * Per account, the last TOTP time step (Unix time / 30 s) whose code was accepted: a code at or before
 * it is refused (migration 0021, src/server/auth/two-step.ts).
 */
export interface TotpLastStepsTable {
  userId: string;
  step: number;
}

/** Better Auth's sign-in limiter, and our per-account failure counts (src/server/auth/login.ts). */
export interface AuthRateLimitTable {
  id: string;
  key: string;
  count: number;
  /** Epoch milliseconds (`bigint`). */
  lastRequest: number;
}

/** The client CSV import's used confirmations (migration 0023): one row per nonce, for an hour. */
export interface ClientImportNoncesTable {
  nonce: string;
  /** Epoch milliseconds (`bigint`; PostgreSQL hands it back as a string). */
  usedAt: number | string;
}

/** Stored files by their SHA-256 (migration 0025, src/server/attachments). */
export interface BlobsTable {
  sha256: string;
  size: number;
  data: Uint8Array;
  createdAt: string;
}

/** A file of an incident: of an entry, or of the problem (entry null); a dropped mail file has no blob. */
export interface IncidentAttachmentsTable {
  id: Generated<number>;
  incidentId: number;
  entryId: number | null;
  blobSha256: string | null;
  thumbSha256: string | null;
  filename: string;
  contentType: string;
  size: number;
  droppedReason: string | null;
  createdAt: string;
}

/** 'Respuestas guardadas' (migration 0027, src/server/replies): shared by the team; staff by e-mail. */
export interface SavedRepliesTable {
  id: Generated<number>;
  title: string;
  body: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  createdBy: string | null;
  updatedAt: string;
  updatedBy: string | null;
}

/** The staff area's recent events (migration 0032, src/server/live/): the event stream's window. */
export interface LiveEventsTable {
  id: Generated<number>;
  /** The event's number for the browsers, in commit order (set at commit on PostgreSQL); null until then. */
  seq: number | string | null;
  kind: string;
  /** JSON. */
  data: string;
  createdAt: string;
}

/** Articles of the blog and the help centre (migration 0033, src/server/content/). */
export interface ArticlesTable {
  id: Generated<number>;
  /** 'blog' | 'ayuda' (src/domain/articles.ts). */
  kind: string;
  slug: string;
  title: string;
  excerpt: string;
  /** Markdown. */
  body: string;
  /** `asset:blog/<file>` (an illustration the build processed); null without a cover. */
  coverImage: string | null;
  coverAlt: Generated<string>;
  author: Generated<string>;
  /** JSON array of strings. */
  tags: Generated<string>;
  seoTitle: Generated<string>;
  seoDescription: Generated<string>;
  /** 'borrador' | 'programado' | 'publicado'. */
  state: string;
  /** ISO 8601 UTC: the publication time (the scheduled one while 'programado'); null for a draft never published. */
  publishAt: string | null;
  version: Generated<number>;
  createdAt: string;
  createdBy: string | null;
  updatedAt: string;
  updatedBy: string | null;
}

/** Slugs an article had while public: each answers a 301 to its current address (migration 0033). */
export interface ArticleSlugsTable {
  id: Generated<number>;
  articleId: number;
  kind: string;
  slug: string;
  createdAt: string;
}

/** Every save of an article, with the fields as saved (migration 0037): 'Historial' and 'Restaurar'. */
export interface ArticleRevisionsTable {
  id: Generated<number>;
  articleId: number;
  /** The article's version after this save. */
  version: number;
  kind: string;
  slug: string;
  title: string;
  excerpt: string;
  body: string;
  coverImage: string | null;
  coverAlt: Generated<string>;
  author: Generated<string>;
  tags: Generated<string>;
  seoTitle: Generated<string>;
  seoDescription: Generated<string>;
  state: string;
  publishAt: string | null;
  createdAt: string;
  /** The staff member's e-mail; null for the one-time import. */
  createdBy: string | null;
}

/** Private preview links of an article (migration 0037): the token's SHA-256, valid until `expiresAt`. */
export interface ArticlePreviewLinksTable {
  id: Generated<number>;
  articleId: number;
  tokenHash: string;
  createdAt: string;
  createdBy: string | null;
  expiresAt: string;
}

/** An image uploaded into an article's text (migration 0037): its largest width and height. */
export interface ArticleImagesTable {
  id: Generated<number>;
  /** 16 random hex digits, in every address of the image (src/domain/article-images.ts). */
  key: string;
  width: number;
  height: number;
  createdAt: string;
  createdBy: string | null;
}

/** One file of an article image: a width and a format ('avif' | 'webp'), re-encoded by sharp. */
export interface ArticleImageFilesTable {
  imageId: number;
  width: number;
  format: string;
  data: Uint8Array;
}

/** One-time imports done (migration 0033): the Markdown articles on first start. */
export interface ContentImportsTable {
  name: string;
  importedAt: string;
  items: number;
}

/** '¿Te resultó útil?' counts of a help article (migration 0035). */
export interface ArticleVotesTable {
  articleId: number;
  helpful: Generated<number>;
  notHelpful: Generated<number>;
  updatedAt: string;
}

/** What's-new announcements of the site's toast (migration 0036, src/server/content/announcements.ts). */
export interface AnnouncementsTable {
  id: Generated<number>;
  /** The toast remembers a seen one under `whatsnew-{key}`. */
  key: string;
  title: string;
  message: string;
  link: string;
  /** YYYY-MM-DD, Santo Domingo. */
  startsOn: string;
  /** YYYY-MM-DD, Santo Domingo, included; null: no end. */
  endsOn: string | null;
  version: Generated<number>;
  createdAt: string;
  createdBy: string | null;
  updatedAt: string;
  updatedBy: string | null;
}

/** The client logo wall (migration 0036, src/server/content/client-logos.ts). */
export interface ClientLogosTable {
  id: Generated<number>;
  name: string;
  /** `asset:clients/<file>` (an image the build processed); null when `imageData` holds it. */
  imageRef: string | null;
  imageData: Uint8Array | null;
  /** 'image/svg+xml' | 'image/webp'. */
  imageType: string;
  imageWidth: number;
  imageHeight: number;
  imageHash: string;
  link: string | null;
  position: number;
  visible: Generated<boolean | number>;
  version: Generated<number>;
  createdAt: string;
  createdBy: string | null;
  updatedAt: string;
  updatedBy: string | null;
}

export interface Database {
  incidents: IncidentsTable;
  incidentEvents: IncidentEventsTable;
  incidentEntries: IncidentEntriesTable;
  clients: ClientsTable;
  clientEvents: ClientEventsTable;
  clientMeetings: ClientMeetingsTable;
  contactMessages: ContactMessagesTable;
  mailOutbox: MailOutboxTable;
  pageViews: PageViewsTable;
  limitCounters: LimitCountersTable;
  incidentTokens: IncidentTokensTable;
  incidentRatings: IncidentRatingsTable;
  auditEvents: AuditEventsTable;
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
  rateLimit: AuthRateLimitTable;
  twoFactor: TwoFactorTable;
  totpLastSteps: TotpLastStepsTable;
  incidentAssignments: IncidentAssignmentsTable;
  incidentPriorityChanges: IncidentPriorityChangesTable;
  incidentStateCounts: IncidentStateCountsTable;
  clientImportNonces: ClientImportNoncesTable;
  incidentMails: IncidentMailsTable;
  mailComplaints: MailComplaintsTable;
  customerNotices: CustomerNoticesTable;
  inboundMessages: InboundMessagesTable;
  inboundOriginalParts: InboundOriginalPartsTable;
  blobs: BlobsTable;
  incidentAttachments: IncidentAttachmentsTable;
  inboundPolls: InboundPollsTable;
  whatsappMedia: WhatsappMediaTable;
  blockedSenders: BlockedSendersTable;
  whatsappEarlyStatuses: WhatsappEarlyStatusesTable;
  savedReplies: SavedRepliesTable;
  deskSettings: DeskSettingsTable;
  incidentClockAlerts: IncidentClockAlertsTable;
  liveEvents: LiveEventsTable;
  articles: ArticlesTable;
  articleSlugs: ArticleSlugsTable;
  contentImports: ContentImportsTable;
  articleVotes: ArticleVotesTable;
  articleRevisions: ArticleRevisionsTable;
  articlePreviewLinks: ArticlePreviewLinksTable;
  articleImages: ArticleImagesTable;
  articleImageFiles: ArticleImageFilesTable;
  announcements: AnnouncementsTable;
  clientLogos: ClientLogosTable;
}

export type Incident = Selectable<IncidentsTable>;
export type CustomerNoticeRow = Selectable<CustomerNoticesTable>;
export type NewIncident = Insertable<IncidentsTable>;
export type IncidentEvent = Selectable<IncidentEventsTable>;
export type IncidentEntry = Selectable<IncidentEntriesTable>;
export type IncidentAssignment = Selectable<IncidentAssignmentsTable>;
export type IncidentPriorityChange = Selectable<IncidentPriorityChangesTable>;
export type Client = Selectable<ClientsTable>;
export type NewClient = Insertable<ClientsTable>;
export type ClientEvent = Selectable<ClientEventsTable>;
export type ContactMessage = Selectable<ContactMessagesTable>;
export type NewContactMessage = Insertable<ContactMessagesTable>;
export type OutboxMail = Selectable<MailOutboxTable>;
export type AuditEvent = Selectable<AuditEventsTable>;
export type ClientMeeting = Selectable<ClientMeetingsTable>;
export type IncidentMail = Selectable<IncidentMailsTable>;
export type InboundMessage = Selectable<InboundMessagesTable>;
export type IncidentAttachment = Selectable<IncidentAttachmentsTable>;
export type SavedReply = Selectable<SavedRepliesTable>;
export type ArticleRow = Selectable<ArticlesTable>;
export type ArticleRevisionRow = Selectable<ArticleRevisionsTable>;
