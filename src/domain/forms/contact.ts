/**
 * The contact form (spec §2, §5): name, email and message, all required, the same rules in the
 * browser (required, type="email") and on the server (this schema), with Spanish messages per field.
 */
import * as z from 'zod/mini';
import { LONG_TEXT_MAX, SHORT_TEXT_MAX, antiAbuseFields, textField } from './common.ts';
import { looksLikeEmail } from '../email.ts';

export const contactFormSchema = z.object({
  name: textField({ label: 'El nombre', max: SHORT_TEXT_MAX, required: 'Escribe tu nombre.' }),
  email: textField({
    label: 'El correo electrónico',
    max: SHORT_TEXT_MAX,
    required: 'Escribe tu correo electrónico.',
    check: (value) =>
      looksLikeEmail(value)
        ? undefined
        : 'Escribe un correo electrónico válido, por ejemplo nombre@empresa.com.',
  }),
  message: textField({
    label: 'El mensaje',
    max: LONG_TEXT_MAX,
    multiline: true,
    required: 'Escribe tu mensaje.',
  }),
  ...antiAbuseFields,
});

export type ContactFormInput = z.output<typeof contactFormSchema>;
/** The fields a visitor types, in form order. */
export const CONTACT_FIELDS = ['name', 'email', 'message'] as const;
export type ContactFormValues = Pick<ContactFormInput, (typeof CONTACT_FIELDS)[number]>;

/** Texts of the spec (§8). */
export const CONTACT_MESSAGES = {
  success: '¡Gracias por tu mensaje! Te responderemos pronto.',
  failure: 'Hubo un problema al enviar tu mensaje. Intenta nuevamente.',
} as const;
