/**
 * The customer's rating of a resolution (issue 22, /soporte/valoracion): the link's token (a hidden
 * field), the rating 1 to 5 (a radio group) and an optional comment up to 2,000 characters.
 */
import * as z from 'zod/mini';
import { SHORT_TEXT_MAX, antiAbuseFields, textField } from './common.ts';

/** What each rating means, worst to best: the mail's links' titles and the page's choices. */
export const RATING_WORDS = ['Muy mal', 'Mal', 'Regular', 'Bien', 'Muy bien'] as const;

/** Longest comment of a rating. */
export const RATING_COMMENT_MAX = 2000;

export const ratingFormSchema = z.object({
  token: textField({
    label: 'El enlace de valoración',
    max: SHORT_TEXT_MAX,
    required: 'Abre esta página con el enlace de tu correo.',
  }),
  valor: textField({
    label: 'La valoración',
    max: 1,
    required: 'Elige una valoración del 1 al 5.',
    check: (value) => (/^[1-5]$/.test(value) ? undefined : 'Elige una valoración del 1 al 5.'),
  }),
  comentario: textField({ label: 'El comentario', max: RATING_COMMENT_MAX, multiline: true }),
  ...antiAbuseFields,
});

export type RatingFormInput = z.output<typeof ratingFormSchema>;

/** Why a rating link cannot rate, in the words the page shows ('tú'). */
export const RATING_MESSAGES = {
  sent: '¡Gracias! Recibimos tu valoración. Nos ayuda a atenderte mejor.',
  used: 'Ya valoraste esta atención: cada resolución se valora una sola vez. ¡Gracias por tu opinión!',
  expired:
    'Este enlace de valoración caducó: vale 30 días desde el correo. Si necesitas algo más, abre una nueva incidencia.',
  notFound: 'Este enlace de valoración no es válido. Revisa que lo abriste completo desde tu correo.',
  failure: 'No pudimos guardar tu valoración en este momento. Intenta nuevamente.',
  /** Rated from the follow-up page (issue 39 §11) once the incident was reopened. */
  notResolved: 'Esta incidencia ya no está resuelta: podrás valorar la atención cuando se resuelva.',
  /** Rated from the follow-up page past the days its link takes answers. */
  followUpExpired:
    'Esta incidencia se resolvió hace más de 30 días, así que ya no se puede valorar desde este enlace.',
} as const;
