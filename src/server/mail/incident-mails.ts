/**
 * The mails to staff about support incidents (new incident, digest, assignment, the customer's answer,
 * a complaint, a missed due time): 'tú'. The customer's own mails (confirmation, state change, staff
 * reply) are the mail channel's, src/server/channels/mail/customer-mails.ts; the links both use are here.
 */
import type { IncidentRecord } from '../../domain/incidents.ts';
import { CLOCK_TARGET_LABEL, type ClockTarget } from '../../domain/response-times.ts';
import { incidentPath, ROUTES } from '../../routes.ts';
import { absoluteUrl, formatAddress, formatDominicanTime, renderMail, type MailBrand } from './templates.ts';
import { automatic, type MailMessage } from './types.ts';
import { CHANNEL_WORDS, type ChannelId } from '../../domain/channels.ts';

/** The incident as the mails about it need it: the record without its id and history. */
export type IncidentMailData = Omit<IncidentRecord, 'id' | 'historial'>;

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

/** "Te enviamos adjunto: a.pdf." / "… adjuntos 2 archivos: a.pdf, b.png." */
export function filesLine(lead: string, files: readonly string[]): string {
  return files.length === 1
    ? `${lead}: ${files[0]}.`
    : `${lead}s ${files.length} archivos: ${files.join(', ')}.`;
}

/**
 * To the staff inbox, for every new incident, with the link to the incident's own page. Replies go to
 * the visitor when an e-mail was given.
 */
export function incidentStaffNoticeMail(
  brand: MailBrand,
  staffInbox: string,
  incident: IncidentMailData,
  customerEmail: string | null,
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
      customerEmail,
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
  via?: { channel: ChannelId; unverified: boolean },
  /** The names of the files that came with it (issue 21): they are on the incident's page. */
  files: readonly string[] = [],
): MailMessage {
  const how = via?.unverified
    ? `Llegó un correo que dice ser del cliente de la incidencia ${incident.numeroIncidencia} (remitente sin verificar: el número está en el asunto y el remitente coincide, pero eso se puede falsificar). No cambió el estado.`
    : via
      ? `El cliente respondió ${CHANNEL_WORDS[via.channel].via} en la incidencia ${incident.numeroIncidencia}.`
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
