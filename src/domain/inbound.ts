/**
 * What 'Correo entrante' (Configuración) says about inbound mail (issue 21): why a message was refused
 * ('Rechazados'), in words. Free of server code.
 */

import { CHANNEL_WORDS, isChannelId } from './channels.ts';

/** New incidents one sender may open by mail in an hour; past it the mail is refused ('Rechazados'). */
export const NEW_INCIDENTS_PER_SENDER_PER_HOUR = 5;

/**
 * Mails one sender may have joined to an incident by the number in their subject alone (rule 3,
 * 'Remitente sin verificar') in a UTC day (issue 38, F3: a day has 9,000 numbers to guess); past it such
 * a mail is taken as matching nothing and opens an incident of its own, under the limit above.
 */
export const SUBJECT_MATCHES_PER_SENDER_PER_DAY = 5;

/**
 * The reason stored with a mail that opened an incident from a sender past the first mailbox of From
 * (its first had no address) or from Reply-To (issue 41): the incident page says 'Remitente incierto'.
 */
export const SENDER_UNCERTAIN = 'sender-uncertain';

/** The reason stored with a message from a blocked sender: `blocked:<channel>` ('Número bloqueado'). */
export const BLOCKED_REASON = 'blocked';

/** The reasons src/server/channels stores for a refused message, as staff read them. */
export const REFUSAL_REASONS: Record<string, string> = {
  spam: 'El filtro del buzón lo marcó como spam',
  'rate-limit': `El remitente pasó de ${NEW_INCIDENTS_PER_SENDER_PER_HOUR} incidencias nuevas en una hora`,
  'too-large': 'Supera el tamaño máximo (INBOUND_MAX_BYTES); no se descargó',
  'no-sender': 'No trae remitente',
};

/** 'No se pudo leer el correo (más de 64 niveles de partes anidadas)' for `unreadable: <why>`. */
const UNREADABLE = /^unreadable(?::\s*(.*))?$/s;

export function refusalReasonLabel(reason: string | null): string {
  const unreadable = reason ? UNREADABLE.exec(reason) : null;
  if (unreadable)
    return unreadable[1] ? `No se pudo leer el correo (${unreadable[1]})` : 'No se pudo leer el correo';
  const blocked = reason?.startsWith(`${BLOCKED_REASON}:`) ? reason.slice(BLOCKED_REASON.length + 1) : null;
  if (blocked !== null) return isChannelId(blocked) ? CHANNEL_WORDS[blocked].blocked : 'Remitente bloqueado';
  return (reason && REFUSAL_REASONS[reason]) ?? reason ?? 'Sin motivo registrado';
}

/** What became of the messages received, as 'Correo entrante' counts them (singular, plural). */
export const OUTCOME_COUNTS: Array<[outcome: string, one: string, many: string]> = [
  ['answer', 'respuesta', 'respuestas'],
  ['unverified', 'respuesta sin verificar', 'respuestas sin verificar'],
  ['new-incident', 'incidencia nueva', 'incidencias nuevas'],
  ['bounce', 'rebote', 'rebotes'],
  ['report', 'aviso sobre un correo nuestro', 'avisos sobre correos nuestros'],
  ['ignored', 'ignorado (automático o nuestro)', 'ignorados (automáticos o nuestros)'],
  ['rejected', 'rechazado', 'rechazados'],
];

/** `3 respuestas, 1 incidencia nueva`: the non-zero outcomes, in a fixed order. */
export function outcomeCountsText(byOutcome: Partial<Record<string, number>>): string {
  return OUTCOME_COUNTS.filter(([outcome]) => byOutcome[outcome])
    .map(([outcome, one, many]) => `${byOutcome[outcome]} ${byOutcome[outcome] === 1 ? one : many}`)
    .join(', ');
}
