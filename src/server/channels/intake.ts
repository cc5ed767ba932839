/**
 * The one path every inbound message takes, whatever channel brought it (the support mailbox by IMAP
 * or the webhook, WhatsApp): a channel reads its message into an {@link InboundMessage} (channel.ts)
 * and calls {@link ingestMessage}. Channel-blind: each rule that depends on the channel asks it
 * (`screen`, `match`, `newIncident`; the mail channel's rules are in mail/channel.ts). In one transaction:
 *
 * 1. the message is stored once, by its de-duplication key (`inbound_messages.dedup_key`, unique): the
 *    same message delivered again (a re-fetch after a crash between storing and acknowledging, the
 *    webhook retried) stores and does nothing (`duplicate`); a crash before the commit stores nothing,
 *    so the channel hands it over again;
 * 2. what must never act is set aside: a message its channel could not read is refused, so is one from
 *    a sender staff blocked (blocked.ts); then the channel's `screen` (a mail's reports on our mail, our own addresses, automatic mail, spam);
 * 3. it is matched to an incident by the channel's `match` (a mail's reply address, thread or subject,
 *    'Remitente sin verificar' for the weakest);
 * 4. a match is the customer's answer, exactly as from the follow-up page ('por correo'); no match opens
 *    an incident of the channel's origin ('Correo'), at most {@link NEW_INCIDENTS_PER_SENDER_PER_HOUR}
 *    per sender an hour, whose confirmation goes back by that channel.
 */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { sql, type Transaction } from 'kysely';
import { channelOrigin } from '../../domain/channels.ts';
import {
  NEW_INCIDENTS_PER_SENDER_PER_HOUR,
  SUBJECT_MATCHES_PER_SENDER_PER_DAY,
  SENDER_UNCERTAIN,
} from '../../domain/inbound.ts';
import { ENTRY_MAX_LENGTH } from '../../domain/incidents.ts';
import { LONG_TEXT_MAX, SHORT_TEXT_MAX } from '../../domain/forms/common.ts';
import { storeBlobs } from '../attachments/index.ts';
import { prepareFiles, type PreparedFile, type RefusedFile } from '../attachments/index.ts';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import { getConfig, type Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { Database, InboundOutcome } from '../db/index.ts';
import { FollowUpClosedError, recordCustomerAnswer } from '../incidents/index.ts';
import { insertNewIncident } from '../incidents/index.ts';
import { reserveHit } from '../limits/index.ts';
import { mailBrand } from '../mail/index.ts';
import { blockedReason, isSenderBlocked } from './blocked.ts';
import type { Decision, InboundMessage, InboundSettings } from './channel.ts';
import { mailBlobWriter } from './mail/mime-worker.ts';
import { ORIGINAL_RETENTION_DAYS, writeOriginal } from './mail/original.ts';
import { channelOf } from './registry.ts';

const gzipAsync = promisify(gzip);

/** What a channel hands over: one message, read (channel.ts). */
export type ChannelMessage = InboundMessage;
export type { InboundSettings };

/** The reason of a refused message its channel could not read: `unreadable: <why>` (src/domain/inbound.ts). */
export const UNREADABLE_REASON = 'unreadable';

/** New incidents one sender may open by mail in an hour (src/domain/inbound.ts, which the panel reads too). */
export { NEW_INCIDENTS_PER_SENDER_PER_HOUR, SUBJECT_MATCHES_PER_SENDER_PER_DAY };
const HOUR_MS = 60 * 60 * 1000;

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

type PreparedFiles = { prepared: PreparedFile[]; refused: RefusedFile[] };

/** Rules 1 to 4 (the module's comment), in the message's own transaction. */
async function decide(
  trx: Transaction<Database>,
  message: InboundMessage,
  inboundId: number,
  settings: InboundSettings,
  now: Date,
  files: PreparedFiles,
): Promise<Decision> {
  if (message.unreadable)
    return { outcome: 'rejected', reason: capped(`${UNREADABLE_REASON}: ${message.unreadable}`, 300) };
  const channel = channelOf(message.channel);
  // A sender staff blocked (blocked.ts): kept, refused, acting on nothing, before any rule of the channel.
  if (message.sender && (await isSenderBlocked(trx, channel.id, message.sender.address)))
    return { outcome: 'rejected', reason: blockedReason(channel.id) };
  const screened = await channel.screen(trx, message, inboundId, settings, now);
  if (screened) return screened;
  const sender = message.sender;

  const body = capped(message.text.trim() || NO_NEW_TEXT, ENTRY_MAX_LENGTH);
  const match = await channel.match(trx, message, settings, now);
  if (match) {
    try {
      const stored = await recordCustomerAnswer(
        trx,
        match.incidentId,
        {
          body,
          brand: settings.brand,
          staffInbox: settings.staffInbox,
          staffEmails: settings.staffEmails,
          via: channel.id,
          unverified: match.unverified,
          inboundMessageId: inboundId,
          files: files.prepared,
          droppedFiles: files.refused,
        },
        now,
      );
      return {
        outcome: match.unverified ? 'unverified' : 'answer',
        incidentId: match.incidentId,
        numeroIncidencia: stored.numeroIncidencia,
      };
    } catch (error) {
      // Resolved too long ago to take answers (as on the follow-up page): the message opens a new incident.
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
  };
}

/** Rule 4: the message opens an incident of its channel's origin (confirmation on that channel, staff told). */
function openIncident(
  trx: Transaction<Database>,
  message: InboundMessage,
  sender: NonNullable<InboundMessage['sender']>,
  settings: InboundSettings,
  now: Date,
  files: PreparedFiles,
) {
  const channel = channelOf(message.channel);
  const fields = channel.newIncident(message, sender);
  return insertNewIncident(
    trx,
    {
      problema: capped(fields.problema || NO_NEW_TEXT, LONG_TEXT_MAX),
      nombre: capped(fields.nombre, SHORT_TEXT_MAX),
      telefono: capped(fields.telefono, SHORT_TEXT_MAX),
      email: capped(fields.email, SHORT_TEXT_MAX),
      rnc: '',
    },
    {
      brand: settings.brand,
      staffInbox: settings.staffInbox,
      customerMailDailyCap: settings.customerMailDailyCap,
      now,
      origen: channelOrigin(channel.id),
      channel: channel.id,
      channelAddress: fields.channelAddress,
      inReplyTo: fields.inReplyTo ?? null,
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
  message: InboundMessage,
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
  message: InboundMessage,
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
    const { originalMissing: _missing, ...outcome } = result;
    return outcome;
  } finally {
    original?.release();
  }
}

async function storeAndAct(
  db: Db,
  message: InboundMessage,
  settings: InboundSettings,
  now: Date,
): Promise<IngestResult & { originalMissing?: boolean }> {
  const rawGzip = message.raw && !message.original ? new Uint8Array(await gzipAsync(message.raw)) : null;
  // Sniffed and images re-encoded before the transaction: sharp's work holds no database lock. A
  // message that will not act (a duplicate, automatic mail) does this for nothing, which is rare.
  // Their bytes stored then too, off this thread on SQLite (blob-store.ts; by the mail reader's worker
  // for a message it read); a message that ends up acting on nothing leaves them to the purge of unused
  // blobs.
  const files = message.files.length
    ? await storedFiles(db, await prepareFiles(message.files), now, Boolean(message.original))
    : { prepared: [], refused: [] };
  return db.transaction().execute(async (trx): Promise<IngestResult & { originalMissing?: boolean }> => {
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
    customerMailDailyCap: config.VISITOR_MAIL_DAILY_CAP,
  };
}
