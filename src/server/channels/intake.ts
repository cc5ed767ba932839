/**
 * The one path every inbound message takes, whatever channel brought it (the support mailbox by IMAP
 * or the webhook today; WhatsApp next): a channel reads its message into a {@link ChannelMessage} and
 * calls {@link ingestMessage}. Here, in one transaction:
 *
 * 1. the message is stored once, by its de-duplication key (`inbound_messages.dedup_key`, unique): the
 *    same message delivered again (a re-fetch after a crash between storing and acknowledging, the
 *    webhook retried) stores and does nothing (`duplicate`); a crash before the commit stores nothing,
 *    so the channel hands it over again;
 * 2. what must never act is set aside: a report on a mail of ours marks it (a permanent failure
 *    'rebotado'; a delay, a read receipt, a spam complaint each a line of the staff timeline; a
 *    complaint also stops automatic mail to the address and tells staff); our own
 *    addresses, mailer-daemon and postmaster, automatic mail and the mailbox's spam flag change nothing;
 * 3. it is matched to an incident (issue 21's rules, in order): the token of the incident's reply
 *    address; a thread key naming one of the incident's mails; the incident number in the subject with
 *    the sender equal to the incident's e-mail ('Remitente sin verificar', at most
 *    {@link SUBJECT_MATCHES_PER_SENDER_PER_DAY} per sender a UTC day; kept from the follow-up page until
 *    staff accept it);
 * 4. a match is the customer's answer, exactly as from the follow-up page ('por correo'); no match opens
 *    an incident of origin 'Correo', at most {@link NEW_INCIDENTS_PER_SENDER_PER_HOUR} per sender an hour.
 */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { sql, type Transaction } from 'kysely';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import {
  NEW_INCIDENTS_PER_SENDER_PER_HOUR,
  SUBJECT_MATCHES_PER_SENDER_PER_DAY,
  SENDER_UNCERTAIN,
} from '../../domain/inbound.ts';
import { ENTRY_MAX_LENGTH } from '../../domain/incidents.ts';
import { LONG_TEXT_MAX, SHORT_TEXT_MAX } from '../../domain/forms/common.ts';
import type { Db } from '../db/index.ts';
import type { Database, InboundOutcome } from '../db/schema.ts';
import { touchIncident } from '../incidents/activity.ts';
import { FollowUpClosedError, recordCustomerAnswer } from '../incidents/conversation.ts';
import { insertNewIncident } from '../incidents/index.ts';
import { hashReplyToken, normalizeMessageId, replyTokenOf } from './mail/threading.ts';
import { reserveAlignedHit, reserveHit } from '../limits/counters.ts';
import { enqueueMail, wakeMailWorkers } from '../mail/outbox.ts';
import { incidentComplaintMail } from '../mail/incident-mails.ts';
import { isCurrentStaff } from '../incidents/assignment.ts';
import { recordComplaint } from './mail/complaints.ts';
import type { MailBrand } from '../mail/templates.ts';
import { getConfig, type Config } from '../config.ts';
import { storeBlobs } from '../attachments/blob-store.ts';
import {
  prepareFiles,
  type IncomingFile,
  type PreparedFile,
  type RefusedFile,
} from '../attachments/files.ts';
import { mailBrand } from '../mail/index.ts';
import { mailBlobWriter, type StagedOriginal } from './mail/mime-worker.ts';
import type { MailReport } from './mail/reports.ts';
import { ORIGINAL_RETENTION_DAYS, writeOriginal } from './mail/original.ts';

const gzipAsync = promisify(gzip);

/** New incidents one sender may open by mail in an hour (src/domain/inbound.ts, which the panel reads too). */
export { NEW_INCIDENTS_PER_SENDER_PER_HOUR, SUBJECT_MATCHES_PER_SENDER_PER_DAY };
const HOUR_MS = 60 * 60 * 1000;

/** The number of an incident in a subject (`Re: Incidencia INC-20250301-1234: Resuelto`). */
const NUMBER_IN_SUBJECT = /\bINC-\d{8}-\d{4}\b/i;

/** What a channel hands over: one message, read. */
export interface ChannelMessage {
  /** 'correo' (src/server/channels/mail/read.ts); the next channel names itself. */
  channel: string;
  /** Unique per message: `message-id:<id>`, else `sha256:<hex of the raw bytes>`. */
  dedupKey: string;
  /** The channel's own id of the message (a mail's Message-ID, without brackets), if any. */
  messageId: string | null;
  /**
   * Who sent it (address in lower case); null when it names nobody. `uncertain`: not the first mailbox
   * of From (its first had no address): a later one, or Reply-To's ('Remitente incierto').
   */
  sender: { address: string; name: string; uncertain?: boolean } | null;
  /** Where it was sent (lower case): the incident's reply address is looked for here. */
  recipients: string[];
  /** Ids of the messages it answers (a mail's In-Reply-To and References). */
  threadKeys: string[];
  subject: string;
  /** Only the new text (quoted history and signatures removed). */
  text: string;
  /** Its files (attachments and inline images), as read; sniffed and cleaned here (src/server/attachments). */
  files: IncomingFile[];
  /** The whole message as received, kept gzip-compressed for 'Ver original'; null when the channel has none. */
  raw: Uint8Array | null;
  /**
   * The whole message as received, kept by the mail reader's worker instead of `raw`
   * (src/server/channels/mail/mime-worker.ts): stored compressed once the message's row is committed.
   */
  original?: StagedOriginal | null;
  /** The channel already knows it must not act on it (an automatic mail, spam): why, and where it goes. */
  refusal?: { outcome: 'ignored' | 'rejected'; reason: string } | null;
  /** A report on messages (a bounce, a delay, a read receipt, a spam complaint); null when it is none. */
  report?: MailReport | null;
  /**
   * The channel could not read it (a mail too deeply nested, say): why, in Spanish. It is refused
   * whatever else it says ({@link UNREADABLE_REASON}), its original kept, so that the channel goes on.
   */
  unreadable?: string | null;
}

/** The reason of a refused message its channel could not read: `unreadable: <why>` (src/domain/inbound.ts). */
export const UNREADABLE_REASON = 'unreadable';

export interface InboundSettings {
  /** The mail brand, with `inboundAddress` and `staffInbox` (src/server/mail/index.ts `mailBrand`). */
  brand: MailBrand;
  staffInbox: string;
  /** Our own addresses: a message from one never acts (MAIL_FROM, INBOUND_ADDRESS, STAFF_INBOX). */
  ownAddresses: readonly string[];
  /** `ADMIN_EMAILS` (default: the server's). */
  staffEmails?: readonly string[];
  visitorMailDailyCap?: number;
}

export interface IngestResult {
  /** What became of it; `duplicate`: it was stored before, nothing done now. */
  outcome: InboundOutcome | 'duplicate';
  /** Why it was ignored or refused (`auto-submitted`, `own-address`, `spam`, `rate-limit`…). */
  reason?: string;
  /** Of a duplicate: what became of it when it was first stored. */
  firstOutcome?: InboundOutcome;
  inboundId?: number;
  incidentId?: number;
  numeroIncidencia?: string;
}

/** Placeholder of an answer whose mail brought no new text (only quoted history, or only files). */
export const NO_NEW_TEXT = '(El correo no trae texto nuevo: ver el original.)';

function capped(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function isMailerDaemon(address: string): boolean {
  const local = address.split('@')[0]!.split('+')[0]!;
  return local === 'mailer-daemon' || local === 'postmaster';
}

function isOwnAddress(address: string, settings: InboundSettings): boolean {
  const own = settings.ownAddresses.map((item) => item.trim().toLowerCase());
  if (own.includes(address)) return true;
  const inbound = settings.brand.inboundAddress?.toLowerCase();
  if (!inbound) return false;
  const [local, domain] = inbound.split('@');
  return new RegExp(`^${escapeRegExp(local!)}\\+[^@]*@${escapeRegExp(domain!)}$`).test(address);
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Rules 1 and 2: the incident whose reply address or Message-ID the message names, or null. */
async function matchedByUs(
  trx: Transaction<Database>,
  message: ChannelMessage,
  settings: InboundSettings,
): Promise<number | null> {
  const tokens = message.recipients
    .map((address) => replyTokenOf(address, settings.brand.inboundAddress))
    .filter((token): token is string => token !== null);
  if (tokens.length) {
    const row = await trx
      .selectFrom('incidentMails')
      .select('incidentId')
      .where('replyTokenHash', 'in', tokens.map(hashReplyToken))
      .executeTakeFirst();
    if (row) return row.incidentId;
  }
  // Our Message-IDs are lower case (hex at a lower-case domain); a client may have changed the case.
  const keys = [...new Set(message.threadKeys.map((key) => normalizeMessageId(key).toLowerCase()))].slice(
    0,
    100,
  );
  if (keys.length) {
    const row = await trx
      .selectFrom('incidentMails')
      .select('incidentId')
      .where('messageId', 'in', keys)
      .orderBy('createdAt', 'desc')
      .executeTakeFirst();
    if (row) return row.incidentId;
  }
  return null;
}

/**
 * Rule 3: the incident numbered in the subject whose e-mail is the sender's, or null; null too past
 * {@link SUBJECT_MATCHES_PER_SENDER_PER_DAY} such matches of the sender in the UTC day (a forger guessing
 * numbers: the mail then opens an incident of its own, under that rule's limit). Only a match counts.
 */
async function matchedBySubject(
  trx: Transaction<Database>,
  message: ChannelMessage,
  now: Date,
): Promise<number | null> {
  const number = NUMBER_IN_SUBJECT.exec(message.subject)?.[0]?.toUpperCase();
  if (!number || !message.sender) return null;
  const incident = await trx
    .selectFrom('incidents')
    .select(['id', 'email'])
    .where('numeroIncidencia', '=', number)
    .executeTakeFirst();
  if (!incident || incident.email.trim().toLowerCase() !== message.sender.address) return null;
  const { hits } = await reserveAlignedHit(
    trx,
    `inbound-subject:${message.sender.address}`,
    DAY_MS,
    now.getTime(),
  );
  return hits > SUBJECT_MATCHES_PER_SENDER_PER_DAY ? null : incident.id;
}

type Decision = Omit<IngestResult, 'inboundId'> & { outcome: InboundOutcome; wake?: boolean };

async function decide(
  trx: Transaction<Database>,
  message: ChannelMessage,
  inboundId: number,
  settings: InboundSettings,
  now: Date,
  files: { prepared: PreparedFile[]; refused: RefusedFile[] },
): Promise<Decision> {
  if (message.unreadable)
    return { outcome: 'rejected', reason: capped(`${UNREADABLE_REASON}: ${message.unreadable}`, 300) };
  // A report names a mail of ours: it may come from mailer-daemon or a mailbox provider, and is automatic.
  if (message.report) return actOnReport(trx, message.report, inboundId, settings, now);
  const sender = message.sender;
  // The incident's own reply address (or a Message-ID of ours) identifies an answer by itself: a mail
  // whose sender cannot be read still joins it (issue 41); without a sender, nothing else can act.
  const byUs = sender ? undefined : await matchedByUs(trx, message, settings);
  if (byUs === null) return { outcome: 'rejected', reason: 'no-sender' };
  if (sender && isMailerDaemon(sender.address)) return { outcome: 'ignored', reason: 'mailer-daemon' };
  if (sender && isOwnAddress(sender.address, settings)) return { outcome: 'ignored', reason: 'own-address' };
  if (message.refusal) return { outcome: message.refusal.outcome, reason: message.refusal.reason };

  const body = capped(message.text.trim() || NO_NEW_TEXT, ENTRY_MAX_LENGTH);
  const answer = (incidentId: number, unverified: boolean) =>
    recordCustomerAnswer(
      trx,
      incidentId,
      {
        body,
        brand: settings.brand,
        staffInbox: settings.staffInbox,
        staffEmails: settings.staffEmails,
        via: 'correo',
        unverified,
        inboundMessageId: inboundId,
        files: files.prepared,
        droppedFiles: files.refused,
      },
      now,
    );
  const matched = byUs ?? (await matchedByUs(trx, message, settings));
  const bySubject = matched === null && sender ? await matchedBySubject(trx, message, now) : null;
  const incidentId = matched ?? bySubject;
  if (incidentId !== null) {
    try {
      const stored = await answer(incidentId, matched === null);
      return {
        outcome: matched === null ? 'unverified' : 'answer',
        incidentId,
        numeroIncidencia: stored.numeroIncidencia,
        wake: stored.notified === 'assignee' || stored.notified === 'staff-inbox',
      };
    } catch (error) {
      // Resolved too long ago to take answers (as on the follow-up page): the mail opens a new incident.
      if (!(error instanceof FollowUpClosedError)) throw error;
    }
  }

  if (!sender) return { outcome: 'rejected', reason: 'no-sender' };
  const opened = await reserveHit(trx, `inbound-new:${sender.address}`, HOUR_MS, now.getTime());
  if (opened > NEW_INCIDENTS_PER_SENDER_PER_HOUR) return { outcome: 'rejected', reason: 'rate-limit' };
  const created = await openIncident(trx, message, sender, settings, now, files);
  return {
    outcome: 'new-incident',
    // A sender taken from past the first mailbox of From (issue 41): 'Remitente incierto' on the incident.
    reason: sender.uncertain ? SENDER_UNCERTAIN : undefined,
    incidentId: created.id,
    numeroIncidencia: created.numeroIncidencia,
    wake: true,
  };
}

/** The column of `incident_mails` each report that is no bounce sets, once, and its `reason`. */
const REPORT_MARKS = {
  delay: { column: 'delayedAt', reason: 'delayed' },
  read: { column: 'readAt', reason: 'read' },
  complaint: { column: 'complainedAt', reason: 'complaint' },
} as const;

/**
 * A report on one of our mails (reports.ts): a bounce marks it 'rebotado' (outcome `bounce`); a delay,
 * a read receipt or a spam complaint marks it so for the staff timeline (outcome `report`, the kind as
 * `reason`), once; a complaint also stops automatic mail to the incident's address (complaints.ts) and
 * tells the assignee, or the staff inbox. A report naming no mail of ours, or saying nothing to act on
 * (a delivery that succeeded, a receipt of a mail deleted unread, a report that it is not spam), is
 * recorded and ignored.
 */
async function actOnReport(
  trx: Transaction<Database>,
  report: MailReport,
  inboundId: number,
  settings: InboundSettings,
  now: Date,
): Promise<Decision> {
  const ids = report.ids.map((id) => normalizeMessageId(id).toLowerCase()).slice(0, 100);
  const mail = ids.length
    ? await trx
        .selectFrom('incidentMails')
        .select(['id', 'incidentId', 'bouncedAt', 'delayedAt', 'readAt', 'complainedAt'])
        .where('messageId', 'in', ids)
        .executeTakeFirst()
    : undefined;
  if (!mail) return { outcome: 'ignored', reason: 'report-unknown' };
  if (report.kind === 'other')
    return { outcome: 'ignored', reason: 'report-other', incidentId: mail.incidentId };
  const mark =
    report.kind === 'bounce' ? ({ column: 'bouncedAt', reason: null } as const) : REPORT_MARKS[report.kind];
  const outcome = report.kind === 'bounce' ? 'bounce' : 'report';
  const decision: Decision = {
    outcome,
    incidentId: mail.incidentId,
    ...(mark.reason ? { reason: mark.reason } : {}),
  };
  // Delivered again, or a second report of the same kind (a delay reported every few hours): once.
  if (mail[mark.column]) return decision;
  await trx
    .updateTable('incidentMails')
    .set({ [mark.column]: now.toISOString() })
    .where('id', '=', mail.id)
    .execute();
  await touchIncident(trx, mail.incidentId, 'note', now);
  if (report.kind !== 'complaint') return decision;

  const incident = await trx
    .selectFrom('incidents')
    .select(['numeroIncidencia', 'nombre', 'email', 'assignedTo'])
    .where('id', '=', mail.incidentId)
    .executeTakeFirstOrThrow();
  await recordComplaint(
    trx,
    { address: incident.email, incidentId: mail.incidentId, inboundMessageId: inboundId },
    now,
  );
  const account = incident.assignedTo
    ? await trx
        .withoutPlugins()
        .selectFrom('user')
        .select('email')
        .where('id', '=', incident.assignedTo)
        .executeTakeFirst()
    : undefined;
  const staffEmails = settings.staffEmails ?? getConfig().ADMIN_EMAILS;
  const to = account && isCurrentStaff(account.email, staffEmails) ? account.email : settings.staffInbox;
  await enqueueMail(
    trx,
    {
      kind: 'incident.complaint',
      ...incidentComplaintMail(settings.brand, to, incident, incident.email.trim().toLowerCase()),
    },
    now,
  );
  return { ...decision, wake: true };
}

type PreparedFiles = { prepared: PreparedFile[]; refused: RefusedFile[] };

/** Rule 4: the message opens an incident of origin 'Correo' (confirmation threaded under it, staff told). */
function openIncident(
  trx: Transaction<Database>,
  message: ChannelMessage,
  sender: { address: string; name: string },
  settings: InboundSettings,
  now: Date,
  files: PreparedFiles,
) {
  return insertNewIncident(
    trx,
    {
      problema: capped(
        [message.subject, message.text.trim()].filter(Boolean).join('\n\n') || NO_NEW_TEXT,
        LONG_TEXT_MAX,
      ),
      nombre: capped(sender.name, SHORT_TEXT_MAX),
      telefono: '',
      email: capped(sender.address, SHORT_TEXT_MAX),
      rnc: '',
    },
    {
      brand: settings.brand,
      staffInbox: settings.staffInbox,
      visitorMailDailyCap: settings.visitorMailDailyCap,
      now,
      origen: 'Correo',
      inReplyTo: message.messageId,
      files: files.prepared,
      droppedFiles: files.refused,
    },
  );
}

/** What {@link admitRefused} did: opened an incident, or found the message gone or already dealt with. */
export type AdmitResult =
  | { status: 'opened'; incidentId: number; numeroIncidencia: string }
  | { status: 'gone' }
  | { status: 'no-sender' };

const storedFiles = async (
  db: Db,
  files: PreparedFiles,
  now: Date,
  viaMailReader = false,
): Promise<PreparedFiles> => ({
  ...files,
  prepared: await storeBlobs(db, files.prepared, now, viaMailReader ? mailBlobWriter : undefined),
});

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * 'Crear incidencia' on a refused message ('Rechazados' in Configuración): a staff member decided it is
 * a customer's, so it opens an incident exactly as rule 4 would (same writer, same confirmation and
 * staff notice), past the per-sender limit and whatever refused it. `message` is the stored message read
 * again by its channel (src/server/channels/refused.ts). In one transaction: the row is claimed (still
 * refused and not dealt with, else `gone`: two clicks open one incident), the incident opened, the row
 * marked `new-incident` and reviewed, and the audit event written.
 */
export async function admitRefused(
  db: Db,
  inboundId: number,
  message: ChannelMessage,
  settings: InboundSettings,
  actor: AuditActor,
  now: Date = new Date(),
): Promise<AdmitResult> {
  const sender = message.sender;
  if (!sender) return { status: 'no-sender' };
  // Its files are checked and cleaned as rule 4 would (before the transaction, as there).
  const files: PreparedFiles = message.files.length
    ? await storedFiles(db, await prepareFiles(message.files), now)
    : { prepared: [], refused: [] };
  const result = await db.transaction().execute(async (trx): Promise<AdmitResult> => {
    const claimed = await trx
      .updateTable('inboundMessages')
      .set({ reviewedAt: now.toISOString(), reviewedBy: actor.actorEmail })
      .where('id', '=', inboundId)
      .where('outcome', '=', 'rejected')
      .where('reviewedAt', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return { status: 'gone' };
    const created = await openIncident(trx, message, sender, settings, now, files);
    await trx
      .updateTable('inboundMessages')
      .set({ outcome: 'new-incident', incidentId: created.id })
      .where('id', '=', inboundId)
      .execute();
    await recordEvent(
      trx,
      {
        ...actor,
        action: 'incident.from-refused',
        subject: created.numeroIncidencia,
        detail: `${sender.address} · ${message.subject}`,
      },
      now,
    );
    return { status: 'opened', incidentId: created.id, numeroIncidencia: created.numeroIncidencia };
  });
  if (result.status === 'opened') wakeMailWorkers();
  return result;
}

/**
 * Stores the message once and acts on it (see the module's comment), in one transaction. Throws when
 * the database fails: nothing is stored then, and the channel must hand the message over again.
 *
 * A message whose original the mail reader's worker keeps (`original`) is stored without it, and the
 * worker writes it into the committed row before this returns, so before the channel acknowledges the
 * message. A crash (or a failure) in between leaves the row without its original (or with its parts
 * unfinished: their count is set last, see original.ts); the channel hands the message over again, it is a duplicate then, and its original is written into the row that lacks it
 * (within {@link ORIGINAL_RETENTION_DAYS} days of its arrival: an original purged since stays purged).
 */
export async function ingestMessage(
  db: Db,
  message: ChannelMessage,
  settings: InboundSettings,
  now: Date = new Date(),
): Promise<IngestResult> {
  const original = message.original ?? null;
  try {
    const result = await storeAndAct(db, message, settings, now);
    if (original && result.inboundId !== undefined) {
      if (result.outcome !== 'duplicate') await original.store(db, result.inboundId);
      else if (result.originalMissing) await original.store(db, result.inboundId, true);
    }
    const { wake, originalMissing: _missing, ...outcome } = result;
    if (wake) wakeMailWorkers();
    return outcome;
  } finally {
    original?.release();
  }
}

async function storeAndAct(
  db: Db,
  message: ChannelMessage,
  settings: InboundSettings,
  now: Date,
): Promise<IngestResult & { wake?: boolean; originalMissing?: boolean }> {
  const rawGzip = message.raw && !message.original ? new Uint8Array(await gzipAsync(message.raw)) : null;
  // Sniffed and images re-encoded before the transaction: sharp's work holds no database lock. A
  // message that will not act (a duplicate, automatic mail) does this for nothing, which is rare.
  // Their bytes stored then too, off this thread on SQLite (blob-store.ts; by the mail reader's worker
  // for a message it read); a message that ends up acting on nothing leaves them to the purge of unused
  // blobs.
  const files = message.files.length
    ? await storedFiles(db, await prepareFiles(message.files), now, Boolean(message.original))
    : { prepared: [], refused: [] };
  return db
    .transaction()
    .execute(async (trx): Promise<IngestResult & { wake?: boolean; originalMissing?: boolean }> => {
      const stored = await trx
        .insertInto('inboundMessages')
        .values({
          channel: message.channel,
          dedupKey: message.dedupKey,
          messageId: message.messageId,
          sender: message.sender?.address ?? '',
          subject: capped(message.subject, 500),
          outcome: 'ignored',
          reason: null,
          incidentId: null,
          receivedAt: now.toISOString(),
        })
        .onConflict((oc) => oc.column('dedupKey').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!stored) {
        // What became of it the first time decides, e.g., the mailbox folder it goes to now.
        const first = await trx
          .selectFrom('inboundMessages')
          .select([
            'id',
            'outcome',
            'receivedAt',
            sql<number | boolean>`original_parts is null`.as('noOriginal'),
          ])
          .where('dedupKey', '=', message.dedupKey)
          .executeTakeFirst();
        if (!first) return { outcome: 'duplicate' };
        const recent = Date.parse(first.receivedAt) > now.getTime() - ORIGINAL_RETENTION_DAYS * DAY_MS;
        return {
          outcome: 'duplicate',
          firstOutcome: first.outcome,
          inboundId: first.id,
          originalMissing: Boolean(first.noOriginal) && recent,
        };
      }
      // A message read whole (not staged in the reader's worker) has its original written with its row.
      if (rawGzip) await writeOriginal(trx, stored.id, rawGzip);
      const decision = await decide(trx, message, stored.id, settings, now, files);
      await trx
        .updateTable('inboundMessages')
        .set({
          outcome: decision.outcome,
          reason: decision.reason ?? null,
          incidentId: decision.incidentId ?? null,
        })
        .where('id', '=', stored.id)
        .execute();
      return { ...decision, inboundId: stored.id };
    });
}

/** The address part of `Name <address>` (MAIL_FROM), lower case. */
function addressOf(value: string): string {
  return (/<([^>]+)>/.exec(value)?.[1] ?? value).trim().toLowerCase();
}

/** What the inbound path needs from the settings. */
export function inboundSettings(config: Config = getConfig()): InboundSettings {
  return {
    brand: mailBrand(config),
    staffInbox: config.STAFF_INBOX,
    ownAddresses: [addressOf(config.MAIL_FROM), config.INBOUND_ADDRESS, config.STAFF_INBOX]
      .filter((address): address is string => Boolean(address))
      .map((address) => address.toLowerCase()),
    staffEmails: config.ADMIN_EMAILS,
    visitorMailDailyCap: config.VISITOR_MAIL_DAILY_CAP,
  };
}
