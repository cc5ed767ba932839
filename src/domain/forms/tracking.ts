/**
 * The follow-up form of /soporte/seguimiento: incident number and the e-mail it was opened with.
 */
import * as z from 'zod/mini';
import { SHORT_TEXT_MAX, antiAbuseFields, textField } from './common.ts';
import { looksLikeEmail } from '../email.ts';
import { INCIDENT_NUMBER_PATTERN } from '../incidents.ts';

export const trackingFormSchema = z.object({
  numeroIncidencia: z.pipe(
    textField({
      label: 'El número de incidencia',
      max: SHORT_TEXT_MAX,
      required: 'Escribe el número de la incidencia.',
      check: (value) =>
        INCIDENT_NUMBER_PATTERN.test(value.toUpperCase()) ? undefined : 'El número tiene la forma INC-20250131-1234.',
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
