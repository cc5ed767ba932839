/**
 * The support form 'Solicita ayuda' (spec §2, §5): every field optional, an empty submission is
 * valid. Only lengths are limited, and control characters are stripped. Sent without a description,
 * it asks once (issue 39 §8): the answer names the problem field with {@link EMPTY_PROBLEM_QUESTION}
 * and the form comes back with {@link EMPTY_PROBLEM_FIELD} set, so sending it again registers it.
 */
import { whatsappLink } from '../../lib/whatsapp.ts';
import * as z from 'zod/mini';
import { LONG_TEXT_MAX, SHORT_TEXT_MAX, antiAbuseFields, textField } from './common.ts';

/** The hidden field that says the visitor was asked and sends it without a description ('si'). */
export const EMPTY_PROBLEM_FIELD = 'sinDescripcion';
export const EMPTY_PROBLEM_QUESTION =
  '¿Enviar sin describir el problema? Si es así, pulsa «Abrir Incidencia» otra vez; si no, cuéntanos qué pasa.';

export const incidentFormSchema = z
  .object({
    problema: textField({ label: 'La descripción del problema', max: LONG_TEXT_MAX, multiline: true }),
    nombre: textField({ label: 'El nombre', max: SHORT_TEXT_MAX }),
    telefono: textField({ label: 'El teléfono', max: SHORT_TEXT_MAX }),
    email: textField({ label: 'El correo electrónico', max: SHORT_TEXT_MAX }),
    rnc: textField({ label: 'El RNC', max: SHORT_TEXT_MAX }),
    [EMPTY_PROBLEM_FIELD]: z.optional(z.nullable(z.string())),
    ...antiAbuseFields,
  })
  .check(
    z.refine((form) => form.problema !== '' || form[EMPTY_PROBLEM_FIELD] === 'si', {
      error: EMPTY_PROBLEM_QUESTION,
      path: ['problema'],
    }),
  );

export type IncidentFormInput = z.output<typeof incidentFormSchema>;
export type IncidentFormValues = Pick<
  IncidentFormInput,
  'problema' | 'nombre' | 'telefono' | 'email' | 'rnc'
>;
export const INCIDENT_FIELDS = ['problema', 'nombre', 'telefono', 'email', 'rnc'] as const;

/** Texts of the spec (§8) shown by the widget and the no-JavaScript page. */
export const INCIDENT_MESSAGES = {
  success: 'Tu incidencia ha sido registrada con el número:',
  failure: 'Hubo un error al registrar',
} as const;

/** The prefilled WhatsApp text after an incident was registered. */
export function whatsappIncidentUrl(whatsappNumber: string, numeroIncidencia: string): string {
  const text = `Hola, acabo de registrar la incidencia ${numeroIncidencia} en su sitio web y quisiera darle seguimiento.`;
  return whatsappLink(whatsappNumber, text);
}
