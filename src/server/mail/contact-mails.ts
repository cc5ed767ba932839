/**
 * The mails of the contact form: the staff inbox's notice ('tú' to staff, with the link to the message
 * in `/admin/mensajes`) and the confirmation to the person who wrote ('tú'). The confirmation carries
 * only what the site wrote, never the name or the text typed into the form, so the form cannot be used
 * to send a text of someone's choosing to any address from the company's domain.
 */
import { formatWhatsappNumber } from '../../lib/whatsapp.ts';
import { ROUTES } from '../../routes.ts';
import { absoluteUrl, formatAddress, formatDominicanTime, renderMail, type MailBrand } from './templates.ts';
import { automatic, type MailMessage } from './types.ts';

export interface ContactMailData {
  /** The stored message's id: the notice links to it in the inbox. */
  id: number;
  name: string;
  email: string;
  message: string;
  createdAt: string;
}

/** The message's card in the staff inbox (`/admin/mensajes`, the card's heading is `#mensaje-{id}`). */
export function contactMessageUrl(brand: MailBrand, id: number): string {
  return absoluteUrl(brand, `${ROUTES.adminMessages}#mensaje-${id}`);
}

/** To the staff inbox, with the visitor as Reply-To. */
export function contactStaffNoticeMail(
  brand: MailBrand,
  staffInbox: string,
  contact: ContactMailData,
): MailMessage {
  return automatic(
    renderMail(
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
        action: { label: 'Abrir en Mensajes', href: contactMessageUrl(brand, contact.id) },
        outro: ['Cuando lo atiendas, márcalo como atendido en Mensajes.'],
      },
      formatAddress(contact.name, contact.email),
    ),
  );
}

/** To the person who wrote: the message arrived. Only the site's words and the time it arrived. */
export function contactConfirmationMail(
  brand: MailBrand,
  contact: Pick<ContactMailData, 'email' | 'createdAt'>,
): MailMessage {
  return automatic(
    renderMail(brand, contact.email, {
      subject: `Recibimos tu mensaje — ${brand.companyName}`,
      preheader: 'Tu mensaje llegó a nuestro equipo: un consultor te responderá en un día laborable.',
      heading: 'Recibimos tu mensaje',
      intro: [
        'Hola:',
        `Gracias por escribir a ${brand.companyName}. Tu mensaje llegó a nuestro equipo y un consultor te responderá en un día laborable.`,
      ],
      rows: [['Recibido', formatDominicanTime(contact.createdAt)]],
      outro: [
        `¿Es urgente? Escríbenos por WhatsApp al ${formatWhatsappNumber(brand.whatsappNumber)} o llámanos al ${brand.phone}.`,
        'Si no escribiste tú desde nuestro sitio web, puedes ignorar este correo.',
        `El equipo de ${brand.companyName}`,
      ],
    }),
  );
}
