/**
 * What a channel is (issue 37): the one shape the mail channel (channels/mail/) and the WhatsApp
 * channel (channels/whatsapp/) each fill, so that the desk and the one intake path (intake.ts) never
 * name a channel. A channel reads its own messages into an {@link InboundMessage} and hands them to
 * `ingestMessage`; the intake asks it, in order (as Zammad runs its ordered `channel/filter/*`):
 *
 * 1. `screen`: what its own rules say must never act (a mail's bounce or a report on our mail, our own
 *    addresses, automatic mail; a WhatsApp reaction), before anything is matched;
 * 2. `match`: the incident the message answers by the channel's own keys (a mail's reply address,
 *    thread or subject; a WhatsApp number's open incident or the message it quotes);
 * 3. `newIncident`: what an incident it opens records of the customer (name, e-mail or phone, its address
 *    on the channel).
 *
 * The other way, the desk records a {@link CustomerNotice} (delivery.ts) and the incident's channel
 * `deliver`s it: in the desk's own transaction when the channel has an outbox of its own (mail), else
 * later, from the delivery worker (WhatsApp, which calls Meta's API). `receipt` tells the sender's side
 * staff saw its messages (a WhatsApp message marked read, through the delivery worker); `start` runs a
 * poller (the mailbox reader).
 */
import type { Transaction } from 'kysely';
import type { ChannelId } from '../../domain/channels.ts';
import type { IncidentState } from '../../domain/incidents.ts';
import type { IncomingFile } from '../attachments/index.ts';
import type { Db } from '../db/index.ts';
import type { Database, Incident, InboundOutcome } from '../db/index.ts';
import type { MailBrand } from '../mail/index.ts';
import type { StagedOriginal } from './mail/mime-worker.ts';
import type { MailReport } from './mail/reports.ts';

/** What a channel hands over: one message, read. */
export interface InboundMessage {
  /** Its channel's id (src/domain/channels.ts `CHANNEL_IDS`; an unknown one is read as mail). */
  channel: string;
  /** Unique per message: a mail's `message-id:<id>`, else `sha256:<hex>`; a WhatsApp `wamid:<id>`. */
  dedupKey: string;
  /** The channel's own id of the message (a mail's Message-ID, without brackets; a wamid), if any. */
  messageId: string | null;
  /**
   * Who sent it (a mail address in lower case; a WhatsApp number); null when it names nobody.
   * `uncertain`: not the first mailbox of From (its first had no address): a later one, or Reply-To's
   * ('Remitente incierto').
   */
  sender: { address: string; name: string; uncertain?: boolean } | null;
  /** Where it was sent (lower case): the incident's reply address is looked for here. */
  recipients: string[];
  /** Ids of the messages it answers (a mail's In-Reply-To and References; the message a WhatsApp reply quotes). */
  threadKeys: string[];
  /** A mail's subject; empty for a channel without one. */
  subject: string;
  /** Only the new text (quoted history and signatures removed). */
  text: string;
  /** Its files (attachments and inline images), as read; sniffed and cleaned by the intake (src/server/attachments). */
  files: IncomingFile[];
  /** Files the channel could not bring (a WhatsApp media past its life): said in the timeline. */
  lostFiles?: Array<{ filename: string; reason: string }>;
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
   * whatever else it says, its original kept, so that the channel goes on.
   */
  unreadable?: string | null;
  /** When it was sent, by the channel's clock (a WhatsApp message's timestamp); absent: when received. */
  sentAt?: Date | null;
  /** Channel-specific facts its own rules read (a WhatsApp reaction, a rating reply). */
  extra?: Record<string, unknown>;
}

/** What the intake and the channels need from the settings (intake.ts `inboundSettings`). */
export interface InboundSettings {
  /** The mail brand, with `inboundAddress` and `staffInbox` (src/server/mail/index.ts `mailBrand`). */
  brand: MailBrand;
  staffInbox: string;
  /** Our own addresses: a message from one never acts (MAIL_FROM, INBOUND_ADDRESS, STAFF_INBOX). */
  ownAddresses: readonly string[];
  /** `ADMIN_EMAILS` (default: the server's). */
  staffEmails?: readonly string[];
  customerMailDailyCap?: number;
}

/** What became of a message: the intake's decision, stored with it. */
export interface Decision {
  outcome: InboundOutcome;
  /** Why it was ignored or refused (`auto-submitted`, `own-address`, `spam`, `rate-limit`…). */
  reason?: string;
  incidentId?: number;
  numeroIncidencia?: string;
  /** Something was queued for the mail worker or the delivery worker: wake them after the commit. */
  wake?: boolean;
}

/** An incident a message answers: `unverified` when only a weak key matched ('Remitente sin verificar'). */
export interface ChannelMatch {
  incidentId: number;
  unverified: boolean;
}

/** What an incident a channel's message opens records of its customer. */
export interface NewIncidentFields {
  problema: string;
  nombre: string;
  telefono: string;
  email: string;
  /** The customer's address on the channel (the e-mail; a WhatsApp number's wa_id). */
  channelAddress: string;
  /** The customer's message the confirmation answers (a mail's Message-ID), if any. */
  inReplyTo?: string | null;
}

/**
 * What the desk tells a customer, whatever the channel: the confirmation of a new incident, a state
 * change (a 'Resuelto' one asks for the rating), a staff reply.
 */
export type CustomerNotice =
  | { kind: 'confirmation'; inReplyTo?: string | null }
  | { kind: 'state'; estado: IncidentState; fecha: string; wasResolved: boolean }
  | { kind: 'reply'; entryId: number; body: string; authorName: string }
  /** A channel's receipt: the customer's message `messageId` (stored as `inboundId`) was seen by staff. */
  | { kind: 'receipt'; messageId: string; inboundId: number };

/**
 * What became of a notice: `queued` (taken: mailed or waiting for the delivery worker), or why the
 * channel sends nothing: no address to send to, the address reported us as spam, a cap reached.
 */
export type NoticeOutcome = 'queued' | 'no-address' | 'complained' | 'address-cap' | 'daily-cap';

/** What a channel's `receipt` reads of the incident a staff member opened. */
export interface SeenIncident {
  id: number;
  channel: string;
  channelAddress: string | null;
}

/** What a channel's `deliver` is given: the incident as stored, and the desk's settings. */
export interface DeliveryContext {
  trx: Transaction<Database>;
  incident: Incident;
  brand: MailBrand;
  customerMailDailyCap?: number;
  now: Date;
}

/** What a channel's `send` is given by the delivery worker. */
export interface SendContext {
  db: Db;
  notice: CustomerNotice;
  noticeId: number;
  /** The incident as stored now. */
  incident: Incident;
  now: Date;
  /** What `deliver` prepared in the desk's transaction (its links' tokens), kept until the notice is sent. */
  prepared: Record<string, string>;
  /**
   * The parts an earlier attempt already sent (a reply's text before its files), by the channel's own
   * keys: a retry sends only the rest.
   */
  progress: Record<string, string>;
  /** Records parts as sent before the next goes, so that an attempt cut short does not send them again. */
  record(parts: Record<string, string>): Promise<void>;
}

/** What a send did: the channel's id of its main message (a wamid), and how it went (`outcome`). */
export interface SendResult {
  externalId: string | null;
  sentAs?: string;
}

/** A send that failed; `retryable: false` when trying again cannot help. */
export class NoticeSendError extends Error {
  override name = 'NoticeSendError';
  readonly retryable: boolean;
  constructor(message: string, retryable: boolean) {
    super(message);
    this.retryable = retryable;
  }
}

export interface Channel {
  id: ChannelId;
  /** Rule 2: a decision when the channel's own rules say the message must not act, else null. */
  screen(
    trx: Transaction<Database>,
    message: InboundMessage,
    inboundId: number,
    settings: InboundSettings,
    now: Date,
  ): Promise<Decision | null>;
  /** Rule 3: the incident the message answers by the channel's keys, or null. */
  match(
    trx: Transaction<Database>,
    message: InboundMessage,
    settings: InboundSettings,
    now: Date,
  ): Promise<ChannelMatch | null>;
  /** Rule 4: what an incident the message opens records (its sender is known). */
  newIncident(message: InboundMessage, sender: NonNullable<InboundMessage['sender']>): NewIncidentFields;
  /**
   * Hands a notice to the channel in the desk's transaction. `queued` with `deferred` leaves it for the
   * delivery worker, which calls {@link Channel.send} after the commit with what `prepared` holds (the
   * links' tokens issued in this transaction; kept with the notice until it is sent, then dropped).
   */
  deliver(
    notice: CustomerNotice,
    context: DeliveryContext,
  ): Promise<{ outcome: NoticeOutcome; deferred?: boolean; prepared?: Record<string, string> }>;
  /**
   * The delivery worker's send of a deferred notice, outside any transaction (delivery-worker.ts): what
   * it sent. Throws on failure; an error with `retryable: false` (a {@link NoticeSendError}, a Graph
   * API refusal) fails the notice for good, any other is tried again with back-off.
   */
  send?(context: SendContext): Promise<SendResult>;
  /** The staff's words for a failed attempt ('No se pudo entregar: …'); default: the error's message. */
  describeError?(error: unknown): string;
  /**
   * A staff member opened the incident: tells the customer's side their messages were seen (a WhatsApp
   * message marked read), if the channel has such a thing. Records what to send (a `receipt` notice
   * for the delivery worker) and returns whether it recorded one; never calls an outside service itself.
   */
  receipt?(db: Db, incident: SeenIncident, now: Date): Promise<boolean>;
}
