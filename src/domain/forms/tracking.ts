/**
 * The follow-up form of /soporte/seguimiento: incident number and the e-mail it was opened with.
 */
import * as z from 'zod/mini';
import { LONG_TEXT_MAX, SHORT_TEXT_MAX, antiAbuseFields, textField } from './common.ts';
import { looksLikeEmail } from '../email.ts';
import { INCIDENT_NUMBER_PATTERN } from '../incidents.ts';

export const trackingFormSchema = z.object({
  numeroIncidencia: z.pipe(
    textField({
      label: 'El número de incidencia',
      max: SHORT_TEXT_MAX,
      required: 'Escribe el número de la incidencia.',
      check: (value) =>
        INCIDENT_NUMBER_PATTERN.test(value.toUpperCase())
          ? undefined
          : 'El número tiene la forma INC-20250131-1234.',
    }),
    z.transform((value: string) => value.toUpperCase()),
  ),
  email: textField({
    label: 'El correo electrónico',
    max: SHORT_TEXT_MAX,
    required: 'Escribe el correo con el que registraste la incidencia.',
    check: (value) => (looksLikeEmail(value) ? undefined : 'Escribe un correo electrónico válido.'),
  }),
  ...antiAbuseFields,
});

export type TrackingFormInput = z.output<typeof trackingFormSchema>;

export const TRACKING_NOT_FOUND = 'No encontramos una incidencia con esos datos.';

/**
 * The visitor's answer on the follow-up page opened with a token (issue 11): the token (a hidden field)
 * and the text, 1 to 5,000 characters with lines kept.
 */
export const answerFormSchema = z.object({
  token: textField({
    label: 'El enlace de seguimiento',
    max: SHORT_TEXT_MAX,
    required: 'Abre esta página con el enlace de tu correo.',
  }),
  respuesta: textField({
    label: 'La respuesta',
    max: LONG_TEXT_MAX,
    multiline: true,
    required: 'Escribe tu respuesta antes de enviarla.',
  }),
  ...antiAbuseFields,
});

export type AnswerFormInput = z.output<typeof answerFormSchema>;

/** Shown on the follow-up page after an answer was stored. */
export const ANSWER_SENT_MESSAGE =
  'Recibimos tu respuesta. Nuestro equipo de soporte la verá y te contestará por correo.';

/**
 * Shown on the follow-up page, in place of 'Responder', once the incident has been resolved for 30
 * days (src/server/incidents/follow-up.ts), and as the refusal of an answer sent then.
 */
export const FOLLOW_UP_CLOSED_MESSAGE =
  'Esta incidencia se resolvió hace más de 30 días, así que este enlace ya no admite respuestas. Si el problema volvió o tienes otro, abre una nueva incidencia.';

/**
 * Above 'Responder' on the follow-up page of a resolved incident while its link takes answers (issue 39
 * §11): an answer reopens it (src/server/incidents/conversation.ts). Not said once the link is closed.
 */
export const ANSWER_REOPENS_MESSAGE =
  'Tu incidencia está resuelta. Si respondes, la incidencia se reabre y el equipo de soporte vuelve a atenderla.';
