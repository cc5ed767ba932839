/**
 * The Clientes page's vocabulary, shared by its server HTML (ClientList.astro, ClientForm.astro), the
 * page that runs the add-client action (src/pages/admin/clientes.astro) and the script that sends the
 * welcome mail in place (src/client/client-list.ts).
 */
import type { ClientFieldName } from '../../domain/forms/client';

export type ClientFormResult = { kind: 'ok' | 'error'; text: string; warnings?: string[] };

/** What the form shows: the values to keep, the Spanish message of each invalid field, and the outcome. */
export interface ClientFormOutcome {
  values?: Partial<Record<ClientFieldName, string>>;
  errors?: Partial<Record<string, string[] | undefined>>;
  result?: ClientFormResult;
}

/** Spanish texts of the form's outcome. */
export const CLIENT_FORM_TEXT = {
  saved: (razonSocial: string) => `Cliente «${razonSocial}» guardado correctamente.`,
  failed: (code: string, fields = false) =>
    `Error al guardar cliente (${code})${fields ? '. Revisa los campos marcados.' : ''}`,
};

/** The suggestions of 'Tipo de proyecto' (any other text is accepted). */
export const PROJECT_TYPES = [
  'Implementación AdmCloud',
  'Restaurant.pe',
  'Tiendao',
  'Desarrollo de reportes',
  'Entrenamiento',
];

export const CLIENT_INPUT_CLASS =
  'w-full rounded-button border border-line bg-white px-3 py-2 text-sm text-ink shadow-sm focus:border-brand-500 aria-[invalid=true]:border-red-400';

/** The 'Bienvenida' button's label as the mail goes (spec §5); 'Enviado' stays, disabled. */
export const WELCOME_LABELS = {
  idle: '📧 Bienvenida',
  sending: '🕓 Enviando...',
  sent: '✅ Enviado',
} as const;

/** How long the welcome mail's success message stays (spec §9). */
export const WELCOME_SUCCESS_MS = 3000;

/** Spanish texts of the welcome mail's outcome. */
export const WELCOME_TEXT = {
  sent: (email: string) => `Correo de bienvenida enviado a ${email}`,
  failed: (code: string) => `Hubo un error al enviar el correo (${code})`,
};
