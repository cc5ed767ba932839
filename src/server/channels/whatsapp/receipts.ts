/**
 * Read receipts (issue 37): when a staff member opens a WhatsApp incident whose customer wrote since the
 * last receipt, the customer's newest message is marked read through the Cloud API (`POST
 * /{phone-number-id}/messages` with `{"status":"read","message_id":…}`; Meta marks every earlier message
 * of the chat read with it), so the customer sees the blue ticks when a person has seen them. As the
 * Whaticket family of desks does (`SetTicketMessagesAsRead` on opening the ticket) rather than on
 * answering: the answer tells the customer by itself; the ticks tell them someone is on it before then.
 *
 * The page never calls Meta: it records a `receipt` notice in `customer_notices` (one row, no
 * transaction of the desk's) and the delivery worker sends it with the others' guarantees (retries
 * with back-off through an outage of Meta, a lease between two processes). A notice per new message,
 * not per page view: the newest receipt recorded names the message it marked.
 */
import { WHATSAPP_CHANNEL } from '../../../domain/channels.ts';
import type { Db } from '../../db/index.ts';
import type { SeenIncident } from '../channel.ts';

/**
 * Records a receipt for the customer's newest message when none covers it yet; whether it did (the
 * caller wakes the delivery worker: ../delivery.ts `markIncidentSeen`).
 */
export async function recordWhatsAppReceipt(db: Db, incident: SeenIncident, now: Date): Promise<boolean> {
  if (incident.channel !== WHATSAPP_CHANNEL || !incident.channelAddress) return false;
  const [newest, last] = await Promise.all([
    db
      .selectFrom('inboundMessages')
      .select(['id', 'messageId'])
      .where('incidentId', '=', incident.id)
      .where('channel', '=', WHATSAPP_CHANNEL)
      .where('outcome', 'in', ['answer', 'unverified', 'new-incident'])
      .where('messageId', 'is not', null)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('customerNotices')
      .select('payload')
      .where('incidentId', '=', incident.id)
      .where('kind', '=', 'receipt')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  if (!newest?.messageId) return false;
  const marked = last ? (JSON.parse(last.payload) as { inboundId?: number }) : null;
  if (marked?.inboundId !== undefined && marked.inboundId >= newest.id) return false;
  const at = now.toISOString();
  await db
    .insertInto('customerNotices')
    .values({
      incidentId: incident.id,
      channel: WHATSAPP_CHANNEL,
      kind: 'receipt',
      payload: JSON.stringify({ kind: 'receipt', messageId: newest.messageId, inboundId: newest.id }),
      status: 'pending',
      outcome: 'queued',
      nextAttemptAt: at,
      lockedUntil: null,
      lastError: null,
      externalId: null,
      createdAt: at,
      doneAt: null,
    })
    .execute();
  return true;
}
