/** The mails about a staff member's own account: 'tú'. */
import { formatStaffDateTime } from '../../domain/dates.ts';
import { formatAddress, renderMail, type MailBrand } from './templates.ts';
import { automatic, type MailMessage } from './types.ts';

/** What the password-changed notice says about the change. */
export interface PasswordChangedMailData {
  email: string;
  name: string;
  /** ISO time of the change. */
  changedAt: string;
  /** The client IP the change came from. */
  ip: string;
  /** Browser and system, from the user agent. */
  device: string;
}

/** To a staff member whose password has just changed (from /admin/configuracion). */
export function passwordChangedMail(brand: MailBrand, data: PasswordChangedMailData): MailMessage {
  return automatic(
    renderMail(brand, formatAddress(data.name, data.email), {
      subject: `Tu contraseña de ${brand.companyName} cambió`,
      preheader: 'La contraseña de tu cuenta del panel administrativo acaba de cambiar.',
      heading: 'Tu contraseña cambió',
      intro: [
        data.name ? `Hola, ${data.name}:` : 'Hola:',
        'La contraseña de tu cuenta del panel administrativo acaba de cambiar. Las demás sesiones abiertas de la cuenta se cerraron.',
      ],
      rows: [
        ['Cuenta', data.email],
        ['Fecha y hora (Santo Domingo)', formatStaffDateTime(data.changedAt)],
        ['Red', data.ip],
        ['Dispositivo', data.device],
      ],
      outro: [
        `Si no fuiste tú, avisa de inmediato al administrador del sitio o escribe a ${brand.email}: alguien conoce tu contraseña.`,
      ],
    }),
  );
}
