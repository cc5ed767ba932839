/**
 * The e-mail channel's reading of a raw RFC 5322 message (IMAP and the webhook both hand it the bytes):
 * postal-mime parses the MIME tree and an HTML-only mail becomes text (html-to-text), both in the reader's
 * worker (mime-worker.ts), which also says when a mail cannot be read; the quoted history ("El …
 * escribió:", "On … wrote:", Outlook's separator and "De: … Enviado: …" block, `>` lines) and signatures
 * are removed (quoted-history.ts, then email-reply-parser). It also says what the desk must not act on
 * (automatic mail, the mailbox's spam flag), and what a report says of which of our mails
 * (reports.ts). Nothing here touches the database: src/server/channels/intake.ts decides.
 */
import EmailReplyParser from 'email-reply-parser';
import type { Email } from 'postal-mime';
import { mailboxesOf, senderOf, withoutComments } from './addresses.ts';
import { normalizeMessageId } from './threading.ts';
import type { Db } from '../../db/index.ts';
import { MAX_FILE_BYTES, MAX_FILES, MAX_SUBMISSION_BYTES } from '../../../domain/attachments.ts';
import type { IncomingFile } from '../../attachments/index.ts';
import { ingestMessage, type ChannelMessage, type IngestResult, type InboundSettings } from '../intake.ts';
import { MailStream, readMime, type ReadMime } from './mime-worker.ts';
import { cutQuotedHistory } from './quoted-history.ts';
import { mailReportOf } from './reports.ts';
import { MAIL_CHANNEL } from '../../../domain/channels.ts';

/** The channel's name in `inbound_messages.channel` (src/domain/channels.ts). */
export { MAIL_CHANNEL };

/** `<id>` tokens of a Message-ID list header (In-Reply-To, References). */
function messageIds(value: string | undefined): string[] {
  return [...(value ?? '').matchAll(/<([^<>\s]+)>/g)].map((match) => match[1]!);
}

/** Why a mail is automatic (RFC 3834 and the common headers of autoresponders and lists), or null. */
export function automaticReason(header: (name: string) => string | undefined): string | null {
  const autoSubmitted = header('auto-submitted');
  if (autoSubmitted !== undefined && autoSubmitted.split(';')[0]!.trim().toLowerCase() !== 'no')
    return 'auto-submitted';
  if (header('x-autoreply') !== undefined) return 'x-autoreply';
  if (header('x-autorespond') !== undefined) return 'x-autorespond';
  if (/^\s*(bulk|junk|list)\s*$/i.test(header('precedence') ?? '')) return 'precedence';
  if (header('list-id') !== undefined) return 'list-id';
  // Exchange's out-of-office reply may carry only this: 'All' or 'OOF' among its comma-separated
  // values, as Zammad's out-of-office filter reads it; 'RN, NRN' (no read receipts) is a person's mail.
  const suppress = (header('x-auto-response-suppress') ?? '')
    .split(',')
    .map((value) => value.trim().toLowerCase());
  if (suppress.includes('all') || suppress.includes('oof')) return 'x-auto-response-suppress';
  return null;
}

/** The text of a mail that could not be read: what an incident opened from it ('Crear incidencia') says. */
export const UNREADABLE_TEXT = '(No se pudo leer el correo: ver el original.)';

/**
 * A line email-reply-parser takes for a quoted header by itself ('De: Nombre <correo>' after a blank
 * line), and the mark that hides it from it: such a line that is no header block is the customer's own.
 */
const LONE_SENDER_LINE = /^\s*(?:de|from|von|van|da)\s?:/i;
const NOT_A_HEADER = '\uE000';

/**
 * The new text of a reply: quoted history (quoted-history.ts first, then email-reply-parser's own
 * patterns and `>` lines) and signatures removed.
 */
export function newTextOf(text: string): string {
  const guarded = cutQuotedHistory(text.replace(/\r\n/g, '\n'))
    .split('\n')
    .map((line) => (LONE_SENDER_LINE.test(line) ? NOT_A_HEADER + line : line))
    .join('\n');
  return new EmailReplyParser().read(guarded).getVisibleText().replaceAll(NOT_A_HEADER, '').trim();
}

/**
 * The files of a mail (attachments and inline images alike), at most {@link MAX_FILES} and
 * {@link MAX_SUBMISSION_BYTES} together, as the forms take them: a file past either, or over
 * {@link MAX_FILE_BYTES}, is handed over without its bytes (`tooLarge`), to be dropped and named in the
 * timeline (src/server/attachments).
 */
export function filesOf(email: Email): IncomingFile[] {
  let total = 0;
  return email.attachments.map((part, index): IncomingFile => {
    const data =
      typeof part.content === 'string'
        ? new TextEncoder().encode(part.content)
        : new Uint8Array(part.content);
    const filename = part.filename?.trim() || `adjunto-${index + 1}${extensionOf(part.mimeType)}`;
    const size = data.byteLength;
    if (index >= MAX_FILES)
      return { filename, data: new Uint8Array(), tooLarge: true, size, limit: 'too-many' };
    if (size > MAX_FILE_BYTES) return { filename, data: new Uint8Array(), tooLarge: true, size };
    total += size;
    if (total > MAX_SUBMISSION_BYTES)
      return { filename, data: new Uint8Array(), tooLarge: true, size, limit: 'total-too-large' };
    return { filename, data };
  });
}

/** A name's extension for a part sent without a name (an inline image): `.png` for `image/png`. */
function extensionOf(mimeType: string): string {
  const sub = /^[a-z]+\/([a-z0-9.+-]+)$/i.exec(mimeType)?.[1]?.toLowerCase();
  if (!sub) return '';
  return `.${{ jpeg: 'jpg', plain: 'txt', 'svg+xml': 'svg' }[sub] ?? sub}`;
}

/**
 * Reads a raw mail into what the channel hands the desk (the bytes back as `raw`); the MIME tree is
 * parsed in a worker thread (mime-worker.ts). With `move`, the caller gives `raw` up: it travels to the
 * worker without a copy. A mail being received is streamed instead ({@link readMailStream}).
 */
export async function readMail(given: Uint8Array, move = false): Promise<ChannelMessage> {
  return messageFrom(await readMime(given, { move }));
}

/** Reads a mail streamed to the reader's worker (its original staged there): see {@link MailStream}. */
export async function readMailStream(stream: MailStream): Promise<ChannelMessage> {
  return messageFrom(await stream.finish());
}

function messageFrom(read: ReadMime): ChannelMessage {
  try {
    return messageOf(read);
  } catch (error) {
    read.original?.release();
    throw error;
  }
}

function messageOf({ email, readable, unreadable, sha256, raw, original }: ReadMime): ChannelMessage {
  const header = (name: string) => email.headers.find((item) => item.key === name)?.value;
  const allHeaders = (name: string) =>
    email.headers.filter((item) => item.key === name).map((item) => item.value);

  const messageId = email.messageId ? normalizeMessageId(email.messageId) : null;
  const dedupKey = messageId ? `message-id:${messageId}` : `sha256:${sha256}`;
  // Read from the headers as sent (src/server/channels/mail/addresses.ts), not from postal-mime's reading.
  const sender = senderOf(header('from'), header('reply-to'));
  const recipients = [
    ...['to', 'cc'].flatMap(allHeaders).flatMap(mailboxesOf),
    ...['delivered-to', 'x-original-to', 'envelope-to', 'x-envelope-to']
      .flatMap(allHeaders)
      .map((address) => ({ address: withoutComments(address).toLowerCase(), name: '' })),
  ]
    .map((item) => item.address)
    .filter(Boolean);

  const report = unreadable ? null : mailReportOf(header('content-type'), email.attachments);

  const automatic = automaticReason(header);
  const spam = /^\s*yes\b/i.test(header('x-spam-flag') ?? '');
  return {
    channel: MAIL_CHANNEL,
    dedupKey,
    messageId,
    sender,
    recipients,
    threadKeys: [...new Set([...messageIds(header('in-reply-to')), ...messageIds(header('references'))])],
    subject: (email.subject ?? '').trim(),
    text: unreadable ? UNREADABLE_TEXT : newTextOf(readable),
    files: report ? [] : filesOf(email),
    raw,
    original,
    refusal: automatic
      ? { outcome: 'ignored', reason: automatic }
      : spam
        ? { outcome: 'rejected', reason: 'spam' }
        : null,
    report,
    unreadable,
  };
}

/**
 * A raw mail through the one inbound path: read, stored once, acted on (src/server/channels/intake.ts).
 * The bytes are handed to the reader's worker as a stream ({@link receiveMailStream}), in one piece (the
 * caller keeps them: they are copied in chunks, a few at a time).
 */
export async function receiveMail(
  db: Db,
  raw: Uint8Array,
  settings: InboundSettings,
  now: Date = new Date(),
): Promise<IngestResult> {
  const stream = new MailStream();
  try {
    await stream.push(raw);
  } catch (error) {
    stream.abort();
    throw error;
  }
  return receiveMailStream(db, stream, settings, now);
}

/**
 * A mail a channel streamed to the reader's worker ({@link MailStream}, every chunk pushed) through the
 * one inbound path. Its original stays in the worker, which stores it compressed once the message's row
 * is committed. The stream is ended here, read or dropped.
 */
export async function receiveMailStream(
  db: Db,
  stream: MailStream,
  settings: InboundSettings,
  now: Date = new Date(),
): Promise<IngestResult> {
  let message: ChannelMessage;
  try {
    message = await readMailStream(stream);
  } finally {
    stream.abort();
  }
  return ingestMessage(db, message, settings, now);
}
