/**
 * What the staff page shows of the notices a channel sends itself (issue 37): each staff reply's
 * delivery, from its `customer_notices` row — the delivery worker's state and attempts (delivery-worker.ts)
 * and, once Meta's status webhooks have said one, the latest status (migration 0043's `delivery_status`,
 * `delivery_error`). Mail replies have none here: their mail's reports show in the timeline instead.
 */
import type { NoticeDelivery } from '../../domain/channels.ts';
import type { CustomerNoticeRow, Db } from '../db/index.ts';
import { readNoticePayload } from './delivery.ts';
import { SENT_AS } from './whatsapp/outbound.ts';
import { STATUS_LABELS } from './whatsapp/payload.ts';
import { TEMPLATE_SENT_TEXT } from './whatsapp/window.ts';

const FAILED = 'No se pudo entregar';

/** One notice's delivery as the reply shows it. */
export function noticeDelivery(
  row: Pick<
    CustomerNoticeRow,
    'status' | 'attempts' | 'lastError' | 'outcome' | 'deliveryStatus' | 'deliveryError'
  >,
): NoticeDelivery {
  const plantilla =
    row.outcome === SENT_AS.template || row.outcome === SENT_AS.templateAfterRefusal
      ? { plantilla: TEMPLATE_SENT_TEXT }
      : {};
  const intentos = Number(row.attempts);
  if (row.status === 'failed')
    return { estado: 'failed', texto: row.lastError ?? FAILED, intentos, ...plantilla };
  if (row.status === 'pending')
    return {
      estado: 'pending',
      texto: 'Enviando…',
      intentos,
      ...(row.lastError ? { ultimoError: row.lastError } : {}),
    };
  // Sent by the worker; Meta's statuses, when they came, say how far it got.
  if (row.deliveryStatus === 'failed')
    return { estado: 'failed', texto: row.deliveryError ?? FAILED, intentos, ...plantilla };
  const estado = row.deliveryStatus ?? 'sent';
  return { estado, texto: STATUS_LABELS[estado], intentos, ...plantilla };
}

/** The deliveries of an incident's staff replies sent by a channel itself, by their entry's id. */
export async function replyDeliveries(db: Db, incidentId: number): Promise<Map<number, NoticeDelivery>> {
  const rows = await db
    .selectFrom('customerNotices')
    .selectAll()
    .where('incidentId', '=', incidentId)
    .where('kind', '=', 'reply')
    .where('status', 'in', ['pending', 'sent', 'failed'])
    .orderBy('id')
    .execute();
  const byEntry = new Map<number, NoticeDelivery>();
  for (const row of rows) {
    const { notice } = readNoticePayload(row.payload);
    if (notice.kind === 'reply') byEntry.set(notice.entryId, noticeDelivery(row));
  }
  return byEntry;
}
