/**
 * The mail channel's mails to the customer about an incident (confirmation, state change, staff reply):
 * only what the site or a staff member wrote, never what was typed into the public form, so the form
 * cannot be used to send a text of someone's choosing to any address from the company's domain; 'tú'
 * throughout. Handed to the outbox by notices.ts, threaded by threading.ts.
 */
import type { IncidentState } from '../../../domain/incidents.ts';
import { RATING_WORDS } from '../../../domain/forms/rating.ts';
import { formatWhatsappNumber } from '../../../lib/whatsapp.ts';
import { ROUTES } from '../../../routes.ts';
import { absoluteUrl, formatDominicanTime, renderMail, type MailBrand } from '../../mail/index.ts';
import { autoSubmitted, type MailMessage } from '../../mail/index.ts';
import { filesLine, followUpUrl, ratingUrl, type IncidentMailData } from '../../mail/index.ts';

/**
 * What each state means to the visitor, in the state-change notice. A reply reopens a resolved
 * incident only when it reaches the desk (`INBOUND_ADDRESS`); otherwise the follow-up page does.
 */
function stateMeaning(brand: MailBrand, state: IncidentState): string {
  switch (state) {
    case 'Registrado':
      return 'Tu incidencia está registrada y en cola para ser atendida por nuestro equipo de soporte.';
    case 'En Proceso':
      return 'Un consultor ya está trabajando en tu incidencia. Si necesitamos más datos, te contactaremos.';
    case 'Esperando al cliente':
      return brand.inboundAddress
        ? 'Necesitamos tu respuesta para continuar. Responde a este correo o desde la página de seguimiento; mientras tanto, la incidencia queda en espera.'
        : 'Necesitamos tu respuesta para continuar. Respóndenos desde la página de seguimiento; mientras tanto, la incidencia queda en espera.';
    case 'Resuelto':
      return brand.inboundAddress
        ? 'Damos tu incidencia por resuelta. Si el problema persiste, responde a este correo y la reabrimos.'
        : 'Damos tu incidencia por resuelta. Si el problema persiste, respóndenos desde «Consultar el estado» y la reabrimos.';
  }
}

/**
 * The closing lines of every mail to the visitor after the confirmation. Its Reply-To always reaches
 * someone (the incident's address, else the staff inbox: src/server/channels/mail/threading.ts).
 */
function customerOutro(brand: MailBrand): string[] {
  return [
    `¿Dudas? Responde a este correo o llámanos al ${brand.phone}.`,
    `El equipo de soporte de ${brand.companyName}`,
  ];
}

/** The confirmation to the visitor who opened the incident (only when an e-mail was given). */
export function incidentConfirmationMail(
  brand: MailBrand,
  incident: Pick<IncidentMailData, 'numeroIncidencia' | 'email' | 'estado' | 'fecha'>,
  followUpToken: string,
  /** The incident was opened by the customer's mail: this answers it (RFC 3834 `auto-replied`). */
  byMail = false,
): MailMessage {
  const mail = renderMail(brand, incident.email, {
    subject: `Incidencia ${incident.numeroIncidencia} registrada`,
    preheader: `Tu solicitud de soporte quedó registrada con el número ${incident.numeroIncidencia}.`,
    heading: 'Recibimos tu solicitud de soporte',
    intro: [
      'Hola:',
      `Tu incidencia quedó registrada con el número ${incident.numeroIncidencia}. Nuestro equipo de soporte la revisará y te contactará por los datos que nos dejaste.`,
    ],
    rows: [
      ['Número', incident.numeroIncidencia],
      ['Estado', incident.estado],
      ['Fecha', formatDominicanTime(incident.fecha)],
    ],
    action: { label: 'Consultar el estado', href: followUpUrl(brand, followUpToken) },
    outro: [
      'El botón abre el seguimiento de tu incidencia sin más datos: guarda este correo y no lo reenvíes. También puedes consultarla con tu número de incidencia y este correo en la página de seguimiento.',
      ...(brand.inboundAddress
        ? [
            'Para añadir algo a tu incidencia, responde a este correo: tu respuesta llega a la misma incidencia.',
          ]
        : []),
      `Si lo prefieres, escríbenos por WhatsApp al ${formatWhatsappNumber(brand.whatsappNumber)} indicando tu número de incidencia.`,
    ],
  });
  return { ...mail, headers: autoSubmitted(byMail ? 'auto-replied' : 'auto-generated') };
}

/** To the visitor, when staff change the incident's state with 'Notificar al cliente' checked. */
export function incidentStateMail(
  brand: MailBrand,
  incident: Pick<IncidentMailData, 'numeroIncidencia' | 'email' | 'estado'>,
  changedAt: string,
  followUpToken: string,
  /** The rating token of this resolution (a 'Resuelto' notice): '¿Cómo te atendimos?' with five links. */
  ratingToken?: string,
): MailMessage {
  const mail = renderMail(brand, incident.email, {
    subject: `Incidencia ${incident.numeroIncidencia}: ${incident.estado}`,
    preheader: `Tu incidencia ${incident.numeroIncidencia} pasó a «${incident.estado}».`,
    heading: `Incidencia ${incident.numeroIncidencia}: ${incident.estado}`,
    intro: [
      'Hola:',
      `El estado de tu incidencia ${incident.numeroIncidencia} cambió a «${incident.estado}».`,
      stateMeaning(brand, incident.estado),
    ],
    rows: [
      ['Número', incident.numeroIncidencia],
      ['Estado', incident.estado],
      ['Actualizada', formatDominicanTime(changedAt)],
    ],
    action: { label: 'Consultar el estado', href: followUpUrl(brand, followUpToken) },
    ...(ratingToken
      ? {
          choices: {
            question: '¿Cómo te atendimos?',
            hint: 'Elige de 1 (muy mal) a 5 (muy bien); en la página puedes dejar un comentario. El enlace vale 30 días.',
            links: RATING_WORDS.map((word, index) => ({
              label: String(index + 1),
              title: `${index + 1} de 5: ${word}`,
              href: ratingUrl(brand, ratingToken, index + 1),
            })),
          },
        }
      : {}),
    outro: customerOutro(brand),
  });
  return { ...mail, headers: autoSubmitted('auto-generated') };
}

/**
 * A staff reply to the visitor (issue 11): the text a staff member wrote (not the visitor's) and the
 * follow-up link, whose page shows the whole conversation.
 */
export function incidentReplyMail(
  brand: MailBrand,
  incident: Pick<IncidentMailData, 'numeroIncidencia' | 'email'>,
  reply: string,
  followUpToken: string,
  /** The staff member's name ('Nombre' in Configuración); never their e-mail. '' : the team. */
  authorName = '',
  /** The names of the files sent with it, as the mail's attachments (issue 21). */
  files: readonly string[] = [],
): MailMessage {
  const who = authorName.trim()
    ? `${authorName.trim()}, de nuestro equipo de soporte,`
    : 'Nuestro equipo de soporte';
  const said = `${who} respondió a tu incidencia ${incident.numeroIncidencia}.`;
  // A reply that greets (a saved reply's 'Hola, {nombre}:') or carries the follow-up link
  // ({enlace_seguimiento}) is not greeted again nor given a second link (issue 39 §10).
  const greets = REPLY_GREETING.test(reply);
  const links = reply.includes(absoluteUrl(brand, `${ROUTES.supportTracking}?token=`));
  return renderMail(brand, incident.email, {
    subject: `Respuesta a tu incidencia ${incident.numeroIncidencia}`,
    preheader: said,
    heading: `Respuesta a tu incidencia ${incident.numeroIncidencia}`,
    intro: [
      ...(greets ? [] : ['Hola:']),
      said,
      // Also on the conversation's page: where to find them if the mail's files are lost (or, with the
      // emailjs transport, never attached).
      ...(files.length
        ? [
            `${filesLine('Te enviamos adjunto', files)} También ${files.length === 1 ? 'está' : 'están'} en la conversación.`,
          ]
        : []),
    ],
    quote: { label: 'Respuesta', text: reply },
    ...(links ? {} : { action: { label: 'Ver la conversación', href: followUpUrl(brand, followUpToken) } }),
    outro: customerOutro(brand),
  });
}

/** How a reply that greets the customer itself begins ('Hola', 'Buenos días', 'Estimada'…). */
const REPLY_GREETING = /^\s*(hola|buen[oa]s\s+(días|tardes|noches)|estimad[oa]s?|saludos)\b/iu;
