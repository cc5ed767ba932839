/**
 * Meta's status webhooks on the messages we sent (issue 37): `sent`, `delivered`, `read`, `failed`
 * with its error. Each updates the `customer_notices` row whose `external_id` is the message's wamid
 * (the delivery worker writes it when Meta accepts the send): `delivery_status`, `delivery_error` (the
 * staff's 'No se pudo entregar: …', payload.ts `statusText`) and `status_at` (Meta's time of it), so
 * that the reply shows 'Enviado', 'Entregado', 'Leído' or the error.
 *
 * They come at least once and out of order: a status never moves a notice back. The order is
 * 'sent' < 'failed' < 'delivered' < 'read' ('failed' after 'sent' is news; a 'failed' after
 * 'delivered' or 'read' contradicts what the customer's phone already said, and is left out), checked
 * in the update's own WHERE so that two webhooks at once cannot undo each other. One that comes before
 * its wamid is known waits for it ({@link applyStatus}).
 */
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { WhatsAppDeliveryStatus } from '../../db/index.ts';
import { recordLiveEvent } from '../../live/index.ts';
import { statusText, type StatusUpdate } from './payload.ts';

/** The rank of each status: an update applies only over a lower one. */
export const STATUS_RANK: Record<WhatsAppDeliveryStatus, number> = {
  sent: 1,
  failed: 2,
  delivered: 3,
  read: 4,
};

const rankOfColumn = sql<number>`case delivery_status when 'sent' then 1 when 'failed' then 2 when 'delivered' then 3 when 'read' then 4 else 0 end`;

/** A status as stored on a notice. */
interface StatusValues {
  wamid: string;
  deliveryStatus: WhatsAppDeliveryStatus;
  deliveryError: string | null;
  statusAt: string;
}

/** How long a status whose wamid no notice has waits for one (a send's answer takes seconds at most). */
const EARLY_STATUS_KEEP_MS = 24 * 60 * 60 * 1000;

/**
 * The ranked update of the notice whose `external_id` is the wamid, and the live event of its incident:
 * `changed`, `unchanged` (already at that status or past it) or `unknown` (no notice has the wamid yet).
 */
async function applyValues(db: Db, values: StatusValues): Promise<'changed' | 'unchanged' | 'unknown'> {
  return db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable('customerNotices')
      .set({
        deliveryStatus: values.deliveryStatus,
        deliveryError: values.deliveryError,
        statusAt: values.statusAt,
      })
      .where('externalId', '=', values.wamid)
      .where(sql<boolean>`${rankOfColumn} < ${STATUS_RANK[values.deliveryStatus]}`)
      .returning('incidentId')
      .execute();
    if (changed.length === 0) {
      const known = await trx
        .selectFrom('customerNotices')
        .select('id')
        .where('externalId', '=', values.wamid)
        .executeTakeFirst();
      return known ? 'unchanged' : 'unknown';
    }
    const incident = await trx
      .selectFrom('incidents')
      .select(['id', 'numeroIncidencia', 'assignedTo'])
      .where('id', '=', changed[0]!.incidentId)
      .executeTakeFirst();
    // The incident's open pages refresh (live updates), as for any change to its timeline.
    if (incident)
      await recordLiveEvent(trx, {
        kind: 'incident.changed',
        incidentId: incident.id,
        numero: incident.numeroIncidencia,
        change: 'delivery',
        byId: null,
        byName: null,
        assignedTo: incident.assignedTo ?? null,
      });
    return 'changed';
  });
}

/**
 * Applies one status; whether it changed a notice (false: already at that status or past it, or no
 * notice of ours has that wamid yet).
 *
 * A status whose wamid no notice has is kept (`whatsapp_early_statuses`, migration 0045): Meta may post
 * it before it answers the send, so before the delivery worker writes the wamid ({@link noteSentWamid}).
 * The order closes the race without a lock, on both engines: the status is stored (committed) first,
 * then applied once more; the sender writes the wamid first, then applies what is stored. Whichever
 * comes second sees the other's write.
 */
export async function applyStatus(db: Db, update: StatusUpdate, now: Date = new Date()): Promise<boolean> {
  const values: StatusValues = {
    wamid: update.wamid,
    deliveryStatus: update.status,
    deliveryError: update.status === 'failed' ? statusText(update) : null,
    statusAt: update.timestamp.toISOString(),
  };
  const first = await applyValues(db, values);
  if (first !== 'unknown') return first === 'changed';
  await db
    .insertInto('whatsappEarlyStatuses')
    .values({ ...values, receivedAt: now.toISOString() })
    .execute();
  // Statuses never claimed (of a file we sent: no notice keeps its wamid) leave after a day.
  await db
    .deleteFrom('whatsappEarlyStatuses')
    .where('receivedAt', '<', new Date(now.getTime() - EARLY_STATUS_KEEP_MS).toISOString())
    .execute();
  const again = await applyValues(db, values);
  if (again !== 'unknown')
    await db.deleteFrom('whatsappEarlyStatuses').where('wamid', '=', values.wamid).execute();
  return again === 'changed';
}

/**
 * The sender's side of the race ({@link applyStatus}): as soon as Meta answers a notice's send with its
 * wamid, the wamid is written on the notice (the delivery worker writes it again with 'sent'), and the
 * statuses that came ahead of it are applied and dropped.
 */
export async function noteSentWamid(db: Db, noticeId: number, wamid: string): Promise<void> {
  await db
    .updateTable('customerNotices')
    .set({ externalId: wamid })
    .where('id', '=', noticeId)
    .where('externalId', 'is', null)
    .execute();
  const early = await db
    .selectFrom('whatsappEarlyStatuses')
    .select(['wamid', 'deliveryStatus', 'deliveryError', 'statusAt'])
    .where('wamid', '=', wamid)
    .orderBy('id')
    .execute();
  if (early.length === 0) return;
  for (const row of early)
    await applyValues(db, {
      ...row,
      statusAt:
        (row.statusAt as unknown) instanceof Date
          ? (row.statusAt as unknown as Date).toISOString()
          : row.statusAt,
    });
  await db.deleteFrom('whatsappEarlyStatuses').where('wamid', '=', wamid).execute();
}
