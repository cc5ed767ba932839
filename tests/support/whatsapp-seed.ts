/**
 * WhatsApp incidents and staff replies seeded in a server's database as the inbound side and the
 * delivery worker leave them (issue 37), for the Chromium files that check the incident page's states
 * on each engine (tests/e2e/whatsapp-outbound.test.ts on SQLite, whatsapp-states-postgres.test.ts).
 */
import type { Db } from '../../src/server/db/index.ts';
import { insertIncident } from './factories.ts';

export const HOUR = 60 * 60 * 1000;
const NUMBER = '18095551234';

/** A WhatsApp incident whose customer last wrote `hoursAgo` hours ago; its id. */
export async function seedWhatsappIncident(database: Db, numero: string, hoursAgo: number): Promise<number> {
  const incident = await insertIncident(database, {
    numeroIncidencia: numero,
    nombre: 'Rosa Díaz',
    telefono: NUMBER,
    email: '',
  });
  await database
    .updateTable('incidents')
    .set({ channel: 'whatsapp', channelAddress: NUMBER })
    .where('id', '=', incident.id)
    .execute();
  await database
    .insertInto('inboundMessages')
    .values({
      channel: 'whatsapp',
      dedupKey: `wamid:${numero}`,
      messageId: `wamid.${numero}`,
      sender: NUMBER,
      outcome: 'new-incident',
      reason: null,
      incidentId: incident.id,
      originalParts: null,
      receivedAt: new Date(Date.now() - hoursAgo * HOUR).toISOString(),
      reviewedAt: null,
      reviewedBy: null,
    })
    .execute();
  return incident.id;
}

/** A staff reply and its notice as the delivery worker left it. */
export async function seedWhatsappReply(
  database: Db,
  incidentId: number,
  body: string,
  notice: { status: 'pending' | 'sent' | 'failed'; attempts: number; authorEmail: string } & Partial<{
    /** When a pending one is tried again (the server's own delivery worker runs: a due one is sent). */
    nextAttemptAt: string;
    outcome: string;
    lastError: string;
    deliveryStatus: 'sent' | 'delivered' | 'read' | 'failed';
    deliveryError: string;
  }>,
): Promise<void> {
  const at = new Date(Date.now() - HOUR).toISOString();
  const entry = await database
    .insertInto('incidentEntries')
    .values({
      incidentId,
      kind: 'reply',
      authorId: null,
      authorEmail: notice.authorEmail,
      body,
      createdAt: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await database
    .insertInto('customerNotices')
    .values({
      incidentId,
      channel: 'whatsapp',
      kind: 'reply',
      payload: JSON.stringify({ kind: 'reply', entryId: entry.id, body, authorName: 'Ana' }),
      status: notice.status,
      outcome: notice.outcome ?? 'queued',
      attempts: notice.attempts,
      nextAttemptAt: notice.nextAttemptAt ?? at,
      lockedUntil: null,
      lastError: notice.lastError ?? null,
      externalId: notice.status === 'sent' ? `wamid.${entry.id}` : null,
      createdAt: at,
      doneAt: notice.status === 'pending' ? null : at,
      deliveryStatus: notice.deliveryStatus ?? null,
      deliveryError: notice.deliveryError ?? null,
    })
    .execute();
}
