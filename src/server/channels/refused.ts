/**
 * 'Rechazados' in Configuración (issue 21): the messages the inbound path refused (spam, too many new
 * incidents from one sender, too large, no sender) that no staff member has dealt with yet, and the two
 * things a staff member can do with one: 'Crear incidencia' (the stored message, read again by its
 * channel, opens an incident through the one path: {@link admitRefused}) and 'Descartar' (it leaves the
 * list; the record stays). Both are audited.
 */
import { sql } from 'kysely';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import { admitRefused, type AdmitResult, type ChannelMessage, type InboundSettings } from './intake.ts';
import { MAIL_CHANNEL, readMail } from './mail/read.ts';
import { originalBytes } from './mail/original.ts';

/** How many refused messages the list shows (newest first). */
export const REFUSED_LIST_LIMIT = 50;

export interface RefusedMessage {
  id: number;
  sender: string;
  subject: string;
  reason: string | null;
  receivedAt: string;
  /** Whether the original is still kept ('Ver original'; dropped after 90 days, never kept past the size limit). */
  hasOriginal: boolean;
}

const iso = (value: string | Date) => (value instanceof Date ? value.toISOString() : value);

/** The refused messages not dealt with, newest first, and how many there are. */
export async function refusedMessages(
  db: Db,
  limit = REFUSED_LIST_LIMIT,
): Promise<{ items: RefusedMessage[]; total: number }> {
  const pending = db
    .selectFrom('inboundMessages')
    .where('outcome', '=', 'rejected')
    .where('reviewedAt', 'is', null);
  const [rows, count] = await Promise.all([
    pending
      .select([
        'id',
        'sender',
        'subject',
        'reason',
        'receivedAt',
        sql<number | boolean>`original_parts is not null`.as('hasOriginal'),
      ])
      .orderBy('receivedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute(),
    pending.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((row) => ({
      id: Number(row.id),
      sender: row.sender,
      subject: row.subject,
      reason: row.reason,
      receivedAt: iso(row.receivedAt),
      hasOriginal: Boolean(row.hasOriginal),
    })),
    total: Number(count.total),
  };
}

/** What the message said, when its original is gone (too large to download, or older than 90 days). */
export const NO_ORIGINAL_TEXT =
  '(El original de este correo no se guardó o ya no se conserva: búscalo en la carpeta «Rechazados» del buzón.)';

/** The stored message as its channel reads it; from the stored record alone when the original is gone. */
async function readAgain(row: {
  channel: string;
  messageId: string | null;
  dedupKey: string;
  sender: string;
  subject: string;
  /** The original (gunzipped), if it is still kept. */
  original: Buffer | null;
}): Promise<ChannelMessage> {
  if (row.original && row.channel === MAIL_CHANNEL) {
    // A mail whose reading fails again (it outlasts the reader's time-out) opens from its record.
    const message = await readMail(
      new Uint8Array(row.original.buffer, row.original.byteOffset, row.original.byteLength),
    ).catch(() => null);
    if (message) return { ...message, raw: null };
  }
  return {
    channel: row.channel,
    dedupKey: row.dedupKey,
    messageId: row.messageId,
    sender: row.sender ? { address: row.sender, name: '' } : null,
    recipients: [],
    threadKeys: [],
    subject: row.subject,
    // A channel whose original is not read again (WhatsApp keeps its webhook JSON) stored its text as the
    // subject (up to 500 characters).
    text: row.channel === MAIL_CHANNEL ? NO_ORIGINAL_TEXT : row.subject || NO_ORIGINAL_TEXT,
    files: [],
    raw: null,
  };
}

/** 'Crear incidencia': the refused message `id` opens an incident (see {@link admitRefused}). */
export async function openIncidentFromRefused(
  db: Db,
  id: number,
  settings: InboundSettings,
  actor: AuditActor,
  now: Date = new Date(),
): Promise<AdmitResult> {
  const row = await db
    .selectFrom('inboundMessages')
    .select(['channel', 'messageId', 'dedupKey', 'sender', 'subject', 'outcome', 'reviewedAt'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row || row.outcome !== 'rejected' || row.reviewedAt !== null) return { status: 'gone' };
  const original = row.channel === MAIL_CHANNEL ? await originalBytes(db, id) : null;
  const message = await readAgain({ ...row, original });
  // The stored sender (what the path refused) wins over a re-read that found none.
  if (!message.sender && row.sender) message.sender = { address: row.sender, name: '' };
  return admitRefused(db, id, message, settings, actor, now);
}

/** 'Descartar': the refused message leaves the list (its record stays, reviewed); `gone` when already dealt with. */
export async function discardRefused(
  db: Db,
  id: number,
  actor: AuditActor,
  now: Date = new Date(),
): Promise<'discarded' | 'gone'> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('inboundMessages')
      .set({ reviewedAt: now.toISOString(), reviewedBy: actor.actorEmail })
      .where('id', '=', id)
      .where('outcome', '=', 'rejected')
      .where('reviewedAt', 'is', null)
      .returning(['sender', 'subject'])
      .executeTakeFirst();
    if (!row) return 'gone';
    await recordEvent(
      trx,
      { ...actor, action: 'inbound.discarded', subject: row.sender || null, detail: row.subject || null },
      now,
    );
    return 'discarded';
  });
}
