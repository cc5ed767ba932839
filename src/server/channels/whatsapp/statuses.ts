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
 * in the update's own WHERE so that two webhooks at once cannot undo each other.
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

/**
 * Applies one status; whether it changed a notice (false: no notice of ours has that wamid, or it is
 * already at that status or past it).
 */
export async function applyStatus(db: Db, update: StatusUpdate): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable('customerNotices')
      .set({
        deliveryStatus: update.status,
        deliveryError: update.status === 'failed' ? statusText(update) : null,
        statusAt: update.timestamp.toISOString(),
      })
      .where('externalId', '=', update.wamid)
      .where(sql<boolean>`${rankOfColumn} < ${STATUS_RANK[update.status]}`)
      .returning('incidentId')
      .execute();
    if (changed.length === 0) return false;
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
    return true;
  });
}
