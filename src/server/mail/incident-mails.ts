/**
 * The mails about support incidents. To the visitor (confirmation, state change, staff reply): only
 * what the site or a staff member wrote, never what was typed into the public form, so the form cannot
 * be used to send a text of someone's choosing to any address from the company's domain; 'tú'
 * throughout. To staff (new incident, digest, assignment, the visitor's answer): 'tú' as well.
 */
import type { IncidentRecord, IncidentState } from '../../domain/incidents.ts';
import { RATING_WORDS } from '../../domain/forms/rating.ts';
import { CLOCK_TARGET_LABEL, type ClockTarget } from '../../domain/response-times.ts';
import { formatWhatsappNumber } from '../../lib/whatsapp.ts';
import { incidentPath, ROUTES } from '../../routes.ts';
import { absoluteUrl, formatAddress, formatDominicanTime, renderMail, type MailBrand } from './templates.ts';
import { automatic, autoSubmitted, type MailMessage } from './types.ts';

/** The incident as the mails about it need it: the record without its id and history. */
export type IncidentMailData = Omit<IncidentRecord, 'id' | 'historial'>;

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

const FIRST_LINE_MAX = 120;

/** The first non-empty line of a text, cut at {@link FIRST_LINE_MAX} characters. */
function firstLine(text: string): string {
  const line =
    text
      .split('\n')
      .find((item) => item.trim())
      ?.trim() ?? '';
  return line.length > FIRST_LINE_MAX ? `${line.slice(0, FIRST_LINE_MAX).trimEnd()}…` : line;
}

/** The follow-up page opened by a token (src/server/incidents/follow-up.ts); also `{enlace_seguimiento}` (src/server/replies). */
export function followUpUrl(brand: MailBrand, token: string): string {
  return absoluteUrl(brand, `${ROUTES.supportTracking}?token=${encodeURIComponent(token)}`);
}

/** The rating page opened with rating `valor` selected (src/server/incidents/rating.ts). */
export function ratingUrl(brand: MailBrand, token: string, valor: number): string {
  return absoluteUrl(brand, `${ROUTES.supportRating}?token=${encodeURIComponent(token)}&valor=${valor}`);
}

/** The staff page of an incident. */
function incidentUrl(brand: MailBrand, numeroIncidencia: string): string {
  return absoluteUrl(brand, incidentPath(numeroIncidencia));
}

/**
 * The closing lines of every mail to the visitor after the confirmation. Its Reply-To always reaches
 * someone (the incident's address, else the staff inbox: src/server/channels/mail/threading.ts).
 */
function visitorOutro(brand: MailBrand): string[] {
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
    outro: visitorOutro(brand),
  });
  return { ...mail, headers: autoSubmitted('auto-generated') };
}

/**
 * A staff reply to the visitor (issue 11): the text a staff member wrote (not the visitor's) and the
 * follow-up link, whose page shows the whole conversation.
 */
/** "Te enviamos adjunto: a.pdf." / "… adjuntos 2 archivos: a.pdf, b.png." */
function filesLine(lead: string, files: readonly string[]): string {
  return files.length === 1
    ? `${lead}: ${files[0]}.`
    : `${lead}s ${files.length} archivos: ${files.join(', ')}.`;
}

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
    outro: visitorOutro(brand),
  });
}

/** How a reply that greets the customer itself begins ('Hola', 'Buenos días', 'Estimada'…). */
const REPLY_GREETING = /^\s*(hola|buen[oa]s\s+(días|tardes|noches)|estimad[oa]s?|saludos)\b/iu;

/**
 * To the staff inbox, for every new incident, with the link to the incident's own page. Replies go to
 * the visitor when an e-mail was given.
 */
export function incidentStaffNoticeMail(
  brand: MailBrand,
  staffInbox: string,
  incident: IncidentMailData,
  visitorEmail: string | null,
): MailMessage {
  return automatic(
    renderMail(
      brand,
      staffInbox,
      {
        subject: `Nueva incidencia ${incident.numeroIncidencia}${incident.nombre ? ` de ${incident.nombre}` : ''}`,
        preheader: `Se registró la incidencia ${incident.numeroIncidencia} desde el sitio web.`,
        heading: `Nueva incidencia ${incident.numeroIncidencia}`,
        intro: ['Se registró una incidencia desde el formulario de soporte del sitio web.'],
        rows: [
          ['Número', incident.numeroIncidencia],
          ['Fecha', formatDominicanTime(incident.fecha)],
          ['Nombre', incident.nombre],
          ['Teléfono', incident.telefono],
          ['Correo', incident.email],
          ['RNC', incident.rnc],
        ],
        quote: { label: 'Problema', text: incident.problema },
        action: { label: 'Abrir la incidencia', href: incidentUrl(brand, incident.numeroIncidencia) },
      },
      visitorEmail,
    ),
  );
}

/**
 * To the assignee (or the staff inbox when nobody is assigned): the customer reported one of the
 * incident's mails as spam (a mailbox provider's feedback report, issue 41), so the desk no longer sends
 * that address automatic mail; a staff member's own reply still goes.
 */
export function incidentComplaintMail(
  brand: MailBrand,
  to: string,
  incident: Pick<IncidentMailData, 'numeroIncidencia' | 'nombre'>,
  address: string,
): MailMessage {
  return automatic(
    renderMail(brand, to, {
      subject: `El cliente marcó como spam un correo de la incidencia ${incident.numeroIncidencia}`,
      preheader: `Ya no enviamos avisos automáticos a ${address}.`,
      heading: `Queja de spam en la incidencia ${incident.numeroIncidencia}`,
      intro: [
        `El proveedor de correo del cliente nos avisó de que ${address} marcó como spam un correo de la incidencia ${incident.numeroIncidencia}.`,
        'Desde ahora el sitio no envía avisos automáticos a esa dirección (confirmaciones ni cambios de estado). Tus respuestas desde la página de la incidencia sí llegan al cliente: escríbele solo si hace falta, o llámalo.',
      ],
      rows: [
        ['Número', incident.numeroIncidencia],
        ['Cliente', incident.nombre],
        ['Correo', address],
      ],
      action: { label: 'Abrir la incidencia', href: incidentUrl(brand, incident.numeroIncidencia) },
    }),
  );
}

/** An incident in the staff digest: new, or held for its customer's answers (then with the last one). */
export type DigestIncident = Pick<IncidentMailData, 'numeroIncidencia' | 'nombre' | 'problema' | 'fecha'> & {
  answer?: { body: string; at: string };
};

/**
 * One mail to the staff inbox listing the incidents whose own notices were held back during a flood
 * (src/server/incidents/notices.ts), oldest first: a new incident with its name and the first line of
 * its problem; one held for its customer's answers with the first line of the last answer.
 */
export function incidentDigestMail(
  brand: MailBrand,
  staffInbox: string,
  incidents: DigestIncident[],
): MailMessage {
  const count = incidents.length;
  const answered = incidents.filter((incident) => incident.answer).length;
  const what =
    answered === 0
      ? count === 1
        ? 'incidencia nueva'
        : 'incidencias nuevas'
      : answered === count
        ? `${count === 1 ? 'incidencia' : 'incidencias'} con respuestas del cliente`
        : 'incidencias con novedades';
  return automatic(
    renderMail(brand, staffInbox, {
      subject: `${count} ${what} (resumen)`,
      preheader: `Llegaron muchas ${answered ? 'novedades' : 'incidencias'} en poco tiempo: este resumen reúne ${count}.`,
      heading: `Resumen de ${count} ${what}`,
      intro: [
        `Llegaron más ${answered ? 'incidencias y respuestas' : 'incidencias'} de lo habitual en la última hora, así que en lugar de un aviso por cada una te enviamos este resumen (como máximo uno cada pocos minutos, hasta que el ritmo baje).`,
      ],
      // One block per incident, its number linking to its page (issue 39 §3: a two-column table
      // squeezed the text into a one-letter column on a phone, and only the list was linked).
      items: incidents.map((incident) => {
        const name = incident.nombre.trim() || 'Sin nombre';
        const href = incidentUrl(brand, incident.numeroIncidencia);
        return incident.answer
          ? {
              title: `${incident.numeroIncidencia} · respuesta del ${formatDominicanTime(incident.answer.at)}`,
              text: `${name} respondió: ${firstLine(incident.answer.body) || 'Sin texto'}`,
              href,
            }
          : {
              title: `${incident.numeroIncidencia} · ${formatDominicanTime(incident.fecha)}`,
              text: `${name}: ${firstLine(incident.problema) || 'Sin descripción'}`,
              href,
            };
      }),
      action: { label: 'Ver incidencias', href: absoluteUrl(brand, ROUTES.adminIncidents) },
    }),
  );
}

/** To a staff member an incident was assigned to by someone else (issue 11), with the incident's link. */
export function incidentAssignedMail(
  brand: MailBrand,
  to: { email: string; name: string },
  incident: Pick<IncidentMailData, 'numeroIncidencia' | 'nombre'>,
  assignedBy: string,
): MailMessage {
  const name = to.name.trim();
  return automatic(
    renderMail(brand, formatAddress(name, to.email), {
      subject: `Te asignaron la incidencia ${incident.numeroIncidencia}`,
      preheader: `${assignedBy} te asignó la incidencia ${incident.numeroIncidencia}.`,
      heading: `Te asignaron la incidencia ${incident.numeroIncidencia}`,
      intro: [
        name ? `Hola, ${name}:` : 'Hola:',
        `${assignedBy} te asignó la incidencia ${incident.numeroIncidencia}.`,
      ],
      rows: [
        ['Número', incident.numeroIncidencia],
        ['Cliente', incident.nombre],
        ['Asignada por', assignedBy],
      ],
      action: { label: 'Abrir la incidencia', href: incidentUrl(brand, incident.numeroIncidencia) },
    }),
  );
}

/**
 * To the assignee (or the staff inbox when nobody is assigned or the assignee left the staff): a
 * target of the business-hours clock passed (issue 22, src/server/incidents/clock.ts). Sent once per
 * incident and target.
 */
export function incidentOverdueMail(
  brand: MailBrand,
  to: { email: string; name: string },
  incident: {
    numeroIncidencia: string;
    nombre: string;
    prioridad: string;
    target: ClockTarget;
    dueAt: string;
  },
): MailMessage {
  const name = to.name.trim();
  const what = incident.target === 'primera-respuesta' ? 'la primera respuesta' : 'la resolución';
  return automatic(
    renderMail(brand, name ? formatAddress(name, to.email) : to.email, {
      subject: `Venció el plazo de ${what}: ${incident.numeroIncidencia}`,
      preheader: `La incidencia ${incident.numeroIncidencia} pasó el plazo de ${what}.`,
      heading: `Venció el plazo de ${what}`,
      intro: [
        name ? `Hola, ${name}:` : 'Hola:',
        `La incidencia ${incident.numeroIncidencia} (prioridad ${incident.prioridad}) pasó el plazo de ${what}, contado en horario laborable. Este aviso se envía una sola vez.`,
      ],
      rows: [
        ['Número', incident.numeroIncidencia],
        ['Cliente', incident.nombre],
        ['Prioridad', incident.prioridad],
        ['Plazo', CLOCK_TARGET_LABEL[incident.target]],
        ['Venció', formatDominicanTime(incident.dueAt)],
      ],
      action: { label: 'Abrir la incidencia', href: incidentUrl(brand, incident.numeroIncidencia) },
    }),
  );
}

/**
 * To the assignee (or the staff inbox when nobody is assigned): the visitor answered on the follow-up
 * page. The visitor's text is quoted (escaped like every value); `reopened` when the answer set a
 * resolved incident back to 'En Proceso', 'esperando' when it set one waiting for the customer back
 * (the clock runs again).
 */
export function incidentAnswerMail(
  brand: MailBrand,
  to: string,
  incident: Pick<IncidentMailData, 'numeroIncidencia' | 'nombre'>,
  answer: string,
  reopened: boolean | 'esperando',
  /**
   * How it came: the follow-up page (absent), a mail, or a mail matched only by the number in its
   * subject and its From header, which anyone can forge ('Remitente sin verificar').
   */
  via?: 'correo' | 'correo-sin-verificar',
  /** The names of the files that came with it (issue 21): they are on the incident's page. */
  files: readonly string[] = [],
): MailMessage {
  const how =
    via === 'correo-sin-verificar'
      ? `Llegó un correo que dice ser del cliente de la incidencia ${incident.numeroIncidencia} (remitente sin verificar: el número está en el asunto y el remitente coincide, pero eso se puede falsificar). No cambió el estado.`
      : via === 'correo'
        ? `El cliente respondió por correo en la incidencia ${incident.numeroIncidencia}.`
        : `El cliente respondió desde la página de seguimiento de la incidencia ${incident.numeroIncidencia}.`;
  return automatic(
    renderMail(brand, to, {
      subject: `Respuesta del cliente en la incidencia ${incident.numeroIncidencia}`,
      preheader: `El cliente respondió en la incidencia ${incident.numeroIncidencia}.`,
      heading: `Respuesta del cliente en la incidencia ${incident.numeroIncidencia}`,
      intro: [
        how,
        ...(reopened === 'esperando'
          ? [
              'La incidencia esperaba al cliente y volvió a «En Proceso»: el reloj de los plazos corre de nuevo.',
            ]
          : reopened
            ? ['La incidencia estaba resuelta y volvió a «En Proceso» (reabierta por el cliente).']
            : []),
        ...(files.length
          ? [
              `${filesLine('Trae adjunto', files)} ${files.length === 1 ? 'Ábrelo' : 'Ábrelos'} en la página de la incidencia.`,
            ]
          : []),
      ],
      rows: [
        ['Número', incident.numeroIncidencia],
        ['Cliente', incident.nombre],
      ],
      quote: { label: 'Respuesta del cliente', text: answer },
      action: { label: 'Abrir la incidencia', href: incidentUrl(brand, incident.numeroIncidencia) },
      outro: [
        'Responde desde la página de la incidencia: así tu respuesta queda en la conversación y llega al cliente.',
      ],
    }),
  );
}
