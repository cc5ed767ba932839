/**
 * WhatsApp's 24-hour customer-service window (issue 37): a business may send free text only within 24
 * hours of the customer's last message; past it, only an approved template
 * (https://developers.facebook.com/documentation/business-messaging/whatsapp/messages/send-messages#customer-service-windows).
 * The reply box says how long is left, and past it that the reply goes as the template.
 */

/** The window's length: 24 hours from the customer's last inbound message. */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

const HOUR_MS = 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

/** What the reply box says past the window. */
export const WINDOW_CLOSED_TEXT =
  'Pasaron más de 24 horas desde el último mensaje del cliente: la respuesta se enviará como plantilla';

/** What a reply says once Meta refused the free text (131047) and the template went instead. */
export const TEMPLATE_SENT_TEXT = 'Pasaron más de 24 horas: se envió la plantilla';

/**
 * Milliseconds left in the window at `now`, or 0 when it is closed or the customer never wrote. A last
 * message stamped in the future (a clock ahead of ours) counts as written now: never more than 24 h.
 */
export function windowLeft(lastInbound: Date | null | undefined, now: Date): number {
  if (!lastInbound || Number.isNaN(lastInbound.getTime())) return 0;
  const elapsed = Math.max(0, now.getTime() - lastInbound.getTime());
  return Math.max(0, WINDOW_MS - elapsed);
}

/** Whether free text may still be sent. */
export function windowOpen(lastInbound: Date | null | undefined, now: Date): boolean {
  return windowLeft(lastInbound, now) > 0;
}

/**
 * The reply box's sentence for `msLeft`: whole hours rounded down ('durante 3 h más' from 3 h to
 * 3 h 59 min), whole minutes under an hour ('durante 25 min más'), 'menos de un minuto' under a
 * minute, and {@link WINDOW_CLOSED_TEXT} once nothing is left. Rounding down never promises time that
 * is not there.
 */
export function windowText(msLeft: number): string {
  if (!Number.isFinite(msLeft) || msLeft <= 0) return WINDOW_CLOSED_TEXT;
  const left = Math.min(msLeft, WINDOW_MS);
  if (left >= HOUR_MS) return `Puedes responder por WhatsApp durante ${Math.floor(left / HOUR_MS)} h más`;
  if (left >= MINUTE_MS)
    return `Puedes responder por WhatsApp durante ${Math.floor(left / MINUTE_MS)} min más`;
  return 'Puedes responder por WhatsApp durante menos de un minuto';
}
