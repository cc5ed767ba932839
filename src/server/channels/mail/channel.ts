/**
 * The mail channel (issue 37): the support mailbox, read by IMAP (imap.ts) or posted to the webhook
 * (webhook.ts), each mail read by the reader's worker (read.ts, mime-worker.ts) and handed to the one
 * intake path (../intake.ts), which asks this channel, in order:
 *
 * - `screen`: a report on a mail of ours marks it (a permanent failure 'rebotado'; a delay, a read
 *   receipt, a spam complaint each a line of the staff timeline; a complaint also stops automatic mail to
 *   the address and tells staff); a mail naming no sender acts only through our reply address; our own
 *   addresses, mailer-daemon and postmaster, automatic mail and the mailbox's spam flag change nothing;
 * - `match` (issue 21's rules, in order): the token of the incident's reply address; a thread key
 *   naming one of the incident's mails; the incident number in the subject with the sender equal to the
 *   incident's e-mail ('Remitente sin verificar', at most {@link SUBJECT_MATCHES_PER_SENDER_PER_DAY} per
 *   sender a UTC day; kept from the follow-up page until staff accept it);
 * - `newIncident`: the subject and the text as the problem, the sender's name and address;
 * - `deliver`: the desk's notices as the customer's mails (notices.ts).
 */
import type { Transaction } from 'kysely';
import { MAIL_CHANNEL } from '../../../domain/channels.ts';
import { SUBJECT_MATCHES_PER_SENDER_PER_DAY } from '../../../domain/inbound.ts';
import type { Database } from '../../db/index.ts';
import { touchIncident } from '../../incidents/index.ts';
import { currentAssignee } from '../../incidents/index.ts';
import { reserveAlignedHit } from '../../limits/index.ts';
import { incidentComplaintMail } from '../../mail/index.ts';
import { enqueueMail } from '../../mail/index.ts';
import type { Channel, ChannelMatch, Decision, InboundMessage, InboundSettings } from '../channel.ts';
import { recordComplaint } from './complaints.ts';
import { deliverMailNotice } from './notices.ts';
import type { MailReport } from './reports.ts';
import { hashReplyToken, normalizeMessageId, replyTokenOf } from './threading.ts';

/** The number of an incident in a subject (`Re: Incidencia INC-20250301-1234: Resuelto`). */
const NUMBER_IN_SUBJECT = /\bINC-\d{8}-\d{4}\b/i;
const DAY_MS = 24 * 60 * 60 * 1000;

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
  message: InboundMessage,
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
  message: InboundMessage,
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
  const to =
    (await currentAssignee(trx, incident.assignedTo, settings.staffEmails))?.email ?? settings.staffInbox;
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

export const mailChannel: Channel = {
  id: MAIL_CHANNEL,

  async screen(trx, message, inboundId, settings, now) {
    // A report names a mail of ours: it may come from mailer-daemon or a mailbox provider, and is automatic.
    if (message.report) return actOnReport(trx, message.report, inboundId, settings, now);
    const sender = message.sender;
    // The incident's own reply address (or a Message-ID of ours) identifies an answer by itself: a mail
    // whose sender cannot be read still joins it (issue 41); without a sender, nothing else can act.
    if (!sender && (await matchedByUs(trx, message, settings)) === null)
      return { outcome: 'rejected', reason: 'no-sender' };
    if (sender && isMailerDaemon(sender.address)) return { outcome: 'ignored', reason: 'mailer-daemon' };
    if (sender && isOwnAddress(sender.address, settings))
      return { outcome: 'ignored', reason: 'own-address' };
    if (message.refusal) return { outcome: message.refusal.outcome, reason: message.refusal.reason };
    return null;
  },

  async match(trx, message, settings, now): Promise<ChannelMatch | null> {
    const matched = await matchedByUs(trx, message, settings);
    if (matched !== null) return { incidentId: matched, unverified: false };
    const bySubject = message.sender ? await matchedBySubject(trx, message, now) : null;
    return bySubject === null ? null : { incidentId: bySubject, unverified: true };
  },

  newIncident(message, sender) {
    return {
      problema: [message.subject, message.text.trim()].filter(Boolean).join('\n\n'),
      nombre: sender.name,
      telefono: '',
      email: sender.address,
      channelAddress: sender.address,
      inReplyTo: message.messageId,
    };
  },

  deliver: deliverMailNotice,
};
