/**
 * Telling the visitor that their incident changed state ('Notificar al cliente').
 *
 * NOT CONNECTED YET: the mail module (outbox) is built in parallel; after the merge this function
 * should enqueue a Spanish state-change mail through the outbox. Until then it reports honestly that
 * nothing was sent, and the staff page says so.
 */
import type { IncidentWithHistory } from './staff.ts';

export type NotifyResult = { queued: true } | { queued: false; reason: 'no-email' | 'not-configured' };

export async function notifyStateChange(incident: IncidentWithHistory): Promise<NotifyResult> {
  if (!incident.email.trim()) return { queued: false, reason: 'no-email' };
  return { queued: false, reason: 'not-configured' };
}
