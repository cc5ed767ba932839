/**
 * The rating request on WhatsApp (issue 37): inside the 24-hour window the resolved incident's rating
 * arrives as an interactive list of five rows ('Excelente' … 'Muy mal'), and the customer's pick comes
 * back as a `list_reply` whose id carries the rating's reference, so that it records the rating as the
 * mail's link does. Row ids are opaque to the customer (never shown) but come back verbatim.
 *
 * Limits from https://developers.facebook.com/documentation/business-messaging/whatsapp/messages/interactive-list-messages:
 * at most 10 rows, row title ≤ 24 characters, row id ≤ 200, button ≤ 20, section title ≤ 24.
 */
import type { ListRow } from './graph.ts';

/** The five options, best first, as the list shows them. */
export const RATING_OPTIONS = [
  { value: 5, title: 'Excelente' },
  { value: 4, title: 'Bien' },
  { value: 3, title: 'Regular' },
  { value: 2, title: 'Mal' },
  { value: 1, title: 'Muy mal' },
] as const;

export type RatingValue = (typeof RATING_OPTIONS)[number]['value'];

/** The list's button (≤ 20 characters) and its section's title (≤ 24). */
export const RATING_BUTTON = 'Calificar';
export const RATING_SECTION_TITLE = 'Tu calificación';

/** What the list message says above its button; 'tú' to the customer. */
export function ratingBody(numeroIncidencia: string): string {
  return (
    `Tu incidencia ${numeroIncidencia} quedó resuelta. ¿Cómo calificarías la atención que recibiste? ` +
    `Toca «${RATING_BUTTON}» y elige una opción.`
  );
}

/** What the customer is told once the pick is recorded. */
export function ratingThanks(title: string): string {
  return `¡Gracias! Registramos tu calificación: ${title}.`;
}

const PREFIX = 'rating';
/** A reference is a rating token or a notice id: letters, digits, '-' and '_' (no ':', the separator). */
const REFERENCE = /^[A-Za-z0-9_-]{1,180}$/;

/** The row id of one option: `rating:<reference>:<value>`. */
export function ratingRowId(reference: string, value: RatingValue): string {
  if (!REFERENCE.test(reference))
    throw new RangeError(
      'La referencia de la calificación solo admite letras, dígitos, «-» y «_» (hasta 180)',
    );
  return `${PREFIX}:${reference}:${value}`;
}

/** The five rows for `reference` (its rating token or notice id). */
export function ratingRows(reference: string): ListRow[] {
  return RATING_OPTIONS.map(({ value, title }) => ({ id: ratingRowId(reference, value), title }));
}

export interface RatingReply {
  reference: string;
  value: RatingValue;
  title: string;
}

/**
 * The rating a `list_reply` (or `button_reply`, or a template's quick-reply payload) id stands for, or
 * `null` when the id is not one of ours: anything else, a value outside 1–5, a malformed reference.
 */
export function parseRatingReply(id: string | null | undefined): RatingReply | null {
  if (typeof id !== 'string') return null;
  const match = /^rating:([^:]+):([1-5])$/.exec(id);
  if (!match || !REFERENCE.test(match[1]!)) return null;
  const option = RATING_OPTIONS.find((item) => item.value === Number(match[2]));
  return option ? { reference: match[1]!, value: option.value, title: option.title } : null;
}
