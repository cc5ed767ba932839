/** The mail of the contact form: the staff inbox's notice, 'tú' to staff. */
import { formatAddress, formatDominicanTime, renderMail, type MailBrand } from './templates.ts';
import type { MailMessage } from './types.ts';

export interface ContactMailData {
  name: string;
  email: string;
  message: string;
  createdAt: string;
}

/** To the staff inbox, with the visitor as Reply-To. */
export function contactStaffNoticeMail(
  brand: MailBrand,
  staffInbox: string,
  contact: ContactMailData,
): MailMessage {
  return renderMail(
    brand,
    staffInbox,
    {
      subject: `Nuevo mensaje de contacto de ${contact.name}`,
      preheader: `${contact.name} escribió desde el formulario de contacto.`,
      heading: 'Nuevo mensaje desde el sitio web',
      intro: [
        'Alguien escribió desde el formulario de contacto. Responde a este correo para contestarle directamente.',
      ],
      rows: [
        ['Nombre', contact.name],
        ['Correo', contact.email],
        ['Fecha', formatDominicanTime(contact.createdAt)],
      ],
      quote: { label: 'Mensaje', text: contact.message },
    },
    formatAddress(contact.name, contact.email),
  );
}
