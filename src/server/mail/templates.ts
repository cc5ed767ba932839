/**
 * The site's e-mails: Spanish, HTML and plain text, the company's name and colours, no remote images
 * (mail clients block them and they leak when a mail is read). Every value is escaped in the HTML;
 * the plain text carries the same content.
 */
import { incidentPath, ROUTES } from '../../routes.ts';
import { formatStaffDateTime, TIME_ZONE } from '../../domain/dates.ts';
import { formatDuration } from '../../domain/forms/meeting.ts';
import { INCIDENT_STATE_MEANING, type IncidentRecord } from '../../domain/incidents.ts';
import type { MailMessage } from './types.ts';
import { welcomeSteps } from './welcome-steps.ts';

export interface MailBrand {
  companyName: string;
  siteUrl: string;
  phone: string;
  email: string;
  whatsappNumber: string;
}

const NAVY = '#0b1f3a';
const TEAL = '#0d9488';
const INK = '#0f172a';
const MUTED = '#475569';
const LINE = '#e2e8f0';

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Times are stored in UTC and shown in the Dominican Republic's time. */
// Building an Intl formatter costs about a millisecond; one serves every mail.
const DOMINICAN_TIME = new Intl.DateTimeFormat('es-DO', {
  timeZone: TIME_ZONE,
  dateStyle: 'long',
  timeStyle: 'short',
});

export function formatDominicanTime(iso: string): string {
  return DOMINICAN_TIME.format(new Date(iso));
}

function paragraphsHtml(text: string): string {
  return escapeHtml(text).replace(/\n/g, '<br>');
}

/** The follow-up page opened by a token (src/server/incidents/follow-up.ts). */
function followUpUrl(brand: MailBrand, token: string): string {
  return absoluteUrl(brand, `${ROUTES.supportTracking}?token=${encodeURIComponent(token)}`);
}

function absoluteUrl(brand: MailBrand, path: string): string {
  return new URL(path, brand.siteUrl).href;
}

export interface MailContent {
  subject: string;
  /** Short line shown by mail clients beside the subject. */
  preheader: string;
  heading: string;
  /** Paragraphs before the details table. */
  intro: string[];
  /** Label/value rows; empty values are shown as 'No indicado'. */
  rows?: Array<[string, string]>;
  /** A long free text (problem, message) shown in a quoted block. */
  quote?: { label: string; text: string };
  /** One call to action button. */
  action?: { label: string; href: string };
  /** Paragraphs after the button. */
  outro?: string[];
}

/** Renders any of our mails; also meant for the staff area's welcome mail. */
export function renderMail(brand: MailBrand, to: string, content: MailContent, replyTo?: string | null): MailMessage {
  const rows = content.rows ?? [];
  const shown = (value: string) => (value.trim() === '' ? 'No indicado' : value);

  const textParts = [content.heading, '', ...content.intro.flatMap((line) => [line, ''])];
  if (rows.length) textParts.push(...rows.map(([label, value]) => `${label}: ${shown(value)}`), '');
  if (content.quote) textParts.push(`${content.quote.label}:`, shown(content.quote.text), '');
  if (content.action) textParts.push(`${content.action.label}: ${content.action.href}`, '');
  if (content.outro) textParts.push(...content.outro.flatMap((line) => [line, '']));
  textParts.push('--', brand.companyName, `${brand.phone} · ${brand.email}`, brand.siteUrl);

  const rowsHtml = rows
    .map(
      ([label, value]) =>
        `<tr><td style="padding:8px 12px 8px 0;color:${MUTED};font-size:14px;vertical-align:top;white-space:nowrap">${escapeHtml(label)}</td>` +
        `<td style="padding:8px 0;color:${INK};font-size:14px;font-weight:600;word-break:break-word">${escapeHtml(shown(value))}</td></tr>`,
    )
    .join('');
  const html = `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f7fd;font-family:Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:${INK}">
<span style="display:none;max-height:0;overflow:hidden">${escapeHtml(content.preheader)}</span>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f7fd;padding:24px 12px">
<tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:16px;overflow:hidden;border:1px solid ${LINE}">
<tr><td style="background:${NAVY};padding:20px 28px;color:#ffffff;font-size:18px;font-weight:700;letter-spacing:.2px">${escapeHtml(brand.companyName)}<div style="height:3px;width:48px;background:${TEAL};margin-top:10px;border-radius:2px"></div></td></tr>
<tr><td style="padding:28px">
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:${NAVY}">${escapeHtml(content.heading)}</h1>
${content.intro.map((line) => `<p style="margin:0 0 14px;font-size:15px;line-height:1.6">${paragraphsHtml(line)}</p>`).join('\n')}
${rows.length ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 16px;border-top:1px solid ${LINE};width:100%">${rowsHtml}</table>` : ''}
${content.quote ? `<p style="margin:16px 0 6px;font-size:13px;color:${MUTED};text-transform:uppercase;letter-spacing:.6px">${escapeHtml(content.quote.label)}</p><div style="margin:0 0 16px;padding:14px 16px;background:#f8fafc;border-left:4px solid ${TEAL};border-radius:8px;font-size:15px;line-height:1.6;word-break:break-word">${paragraphsHtml(shown(content.quote.text))}</div>` : ''}
${content.action ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.href)}" style="display:inline-block;background:${TEAL};color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:12px">${escapeHtml(content.action.label)}</a></p>` : ''}
${(content.outro ?? []).map((line) => `<p style="margin:0 0 14px;font-size:15px;line-height:1.6">${paragraphsHtml(line)}</p>`).join('\n')}
</td></tr>
<tr><td style="padding:18px 28px;border-top:1px solid ${LINE};color:${MUTED};font-size:13px;line-height:1.5">${escapeHtml(brand.companyName)} · ${escapeHtml(brand.phone)} · <a href="mailto:${escapeHtml(brand.email)}" style="color:${TEAL}">${escapeHtml(brand.email)}</a><br><a href="${escapeHtml(brand.siteUrl)}" style="color:${TEAL}">${escapeHtml(brand.siteUrl)}</a></td></tr>
</table>
</td></tr></table>
</body></html>`;

  return { to, replyTo: replyTo ?? null, subject: content.subject, text: textParts.join('\n'), html };
}

/** The incident as the mails about it need it: the record without its id and history. */
export type IncidentMailData = Omit<IncidentRecord, 'id' | 'historial'>;

const FIRST_LINE_MAX = 120;

/** The first non-empty line of a text, cut at {@link FIRST_LINE_MAX} characters. */
function firstLine(text: string): string {
  const line = text.split('\n').find((item) => item.trim())?.trim() ?? '';
  return line.length > FIRST_LINE_MAX ? `${line.slice(0, FIRST_LINE_MAX).trimEnd()}…` : line;
}

/** To the visitor who opened the incident (only when an e-mail was given). */
/**
 * The confirmation to the visitor. Like every mail to a visitor it carries only what the site wrote
 * (number, state, date, links): nothing typed into the form, so the form cannot be used to send a
 * text of someone's choosing to any address from the company's domain.
 */
export function incidentConfirmationMail(brand: MailBrand, incident: Pick<IncidentMailData, 'numeroIncidencia' | 'email' | 'estado' | 'fecha'>, followUpToken: string): MailMessage {
  return renderMail(brand, incident.email, {
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
      `Si lo prefieres, escríbenos por WhatsApp al +${brand.whatsappNumber} indicando tu número de incidencia.`,
    ],
  });
}

/** To the staff inbox, for every new incident. Replies go to the visitor when an e-mail was given. */
export function incidentStaffNoticeMail(brand: MailBrand, staffInbox: string, incident: IncidentMailData, visitorEmail: string | null): MailMessage {
  return renderMail(
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
      action: { label: 'Ver incidencias', href: absoluteUrl(brand, ROUTES.adminIncidents) },
    },
    visitorEmail,
  );
}

/**
 * One mail to the staff inbox listing the incidents whose own notices were held back during a flood
 * (src/server/incidents/notices.ts): number, name and the first line of the problem, oldest first.
 */
export function incidentDigestMail(brand: MailBrand, staffInbox: string, incidents: Array<Pick<IncidentMailData, 'numeroIncidencia' | 'nombre' | 'problema' | 'fecha'>>): MailMessage {
  const count = incidents.length;
  return renderMail(brand, staffInbox, {
    subject: `${count} ${count === 1 ? 'incidencia nueva' : 'incidencias nuevas'} (resumen)`,
    preheader: `Llegaron muchas incidencias en poco tiempo: este resumen reúne ${count}.`,
    heading: `Resumen de ${count} ${count === 1 ? 'incidencia nueva' : 'incidencias nuevas'}`,
    intro: [
      'Llegaron más incidencias de lo habitual en la última hora, así que en lugar de un aviso por cada una le enviamos este resumen (como máximo uno cada pocos minutos, hasta que el ritmo baje).',
    ],
    rows: incidents.map((incident) => [
      `${incident.numeroIncidencia} · ${formatDominicanTime(incident.fecha)}`,
      `${incident.nombre.trim() || 'Sin nombre'}: ${firstLine(incident.problema) || 'Sin descripción'}`,
    ]),
    action: { label: 'Ver incidencias', href: absoluteUrl(brand, ROUTES.adminIncidents) },
  });
}

export interface ContactMailData {
  name: string;
  email: string;
  message: string;
  createdAt: string;
}

/** To the staff inbox, with the visitor as Reply-To. */
export function contactStaffNoticeMail(brand: MailBrand, staffInbox: string, contact: ContactMailData): MailMessage {
  return renderMail(
    brand,
    staffInbox,
    {
      subject: `Nuevo mensaje de contacto de ${contact.name}`,
      preheader: `${contact.name} escribió desde el formulario de contacto.`,
      heading: 'Nuevo mensaje desde el sitio web',
      intro: ['Alguien escribió desde el formulario de contacto. Responde a este correo para contestarle directamente.'],
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

/** `"Name" <address>` with the name quoted, so commas or angle brackets in a name cannot add recipients. */
export function formatAddress(name: string, address: string): string {
  const safeName = name.replace(/["\\\r\n<>]/g, '').trim();
  return safeName ? `"${safeName}" <${address}>` : address;
}

/** What the welcome mail says about the new client (the spec's `enviarCorreoBienvenida` data). */
export interface WelcomeMailData {
  nombreRepresentante: string;
  email: string;
  razonSocial: string;
  tipoProyecto: string;
}

/** To a new client's representative, sent by staff from Clientes ('📧 Bienvenida'). */
export function welcomeMail(brand: MailBrand, data: WelcomeMailData): MailMessage {
  // The steps depend on the product the project names, if any (./welcome-steps.ts).
  const plan = welcomeSteps(data.tipoProyecto);
  return renderMail(brand, data.email, {
    subject: `Bienvenido a ${brand.companyName}, ${data.razonSocial}`,
    preheader: `Gracias por confiar en ${brand.companyName}: estos son los próximos pasos de su proyecto.`,
    heading: `¡Bienvenido, ${data.razonSocial}!`,
    intro: [
      `Hola, ${data.nombreRepresentante}:`,
      `Gracias por confiar en ${brand.companyName}. Es un gusto darle la bienvenida a ${data.razonSocial} como cliente; ya estamos preparando el arranque de su proyecto.`,
      ...(plan.intro ? [plan.intro] : []),
    ],
    rows: [
      ['Empresa', data.razonSocial],
      ['Proyecto', data.tipoProyecto],
      ['Representante', data.nombreRepresentante],
    ],
    quote: {
      label: 'Próximos pasos',
      text: plan.steps.map((step, index) => `${index + 1}. ${step}`).join('\n'),
    },
    ...(plan.link ? { action: { label: plan.link.label, href: absoluteUrl(brand, plan.link.path) } } : {}),
    outro: [`¿Preguntas? Responda a este correo, escríbanos a ${brand.email} o llámenos al ${brand.phone}.`, `Un cordial saludo,\nEl equipo de ${brand.companyName}`],
  });
}

/** To the visitor, when staff change the incident's state with 'Notificar al cliente' checked. */
/** The state-change notice to the visitor: only what the site wrote, as in the confirmation. */
export function incidentStateMail(brand: MailBrand, incident: Pick<IncidentMailData, 'numeroIncidencia' | 'email' | 'estado'>, changedAt: string, followUpToken: string): MailMessage {
  return renderMail(brand, incident.email, {
    subject: `Incidencia ${incident.numeroIncidencia}: ${incident.estado}`,
    preheader: `Su incidencia ${incident.numeroIncidencia} pasó a «${incident.estado}».`,
    heading: `Incidencia ${incident.numeroIncidencia}: ${incident.estado}`,
    intro: ['Hola:', `El estado de su incidencia ${incident.numeroIncidencia} cambió a «${incident.estado}».`, INCIDENT_STATE_MEANING[incident.estado]].filter(Boolean),
    rows: [
      ['Número', incident.numeroIncidencia],
      ['Estado', incident.estado],
      ['Actualizada', formatDominicanTime(changedAt)],
    ],
    action: { label: 'Consultar el estado', href: followUpUrl(brand, followUpToken) },
    outro: [`¿Dudas? Responda a este correo o llámenos al ${brand.phone}.`, `El equipo de soporte de ${brand.companyName}`],
  });
}

/**
 * A staff reply to the visitor (issue 11): the text a staff member wrote (not the visitor: the
 * visitor-mail rule above holds) and the follow-up link, whose page shows the whole conversation.
 */
export function incidentReplyMail(brand: MailBrand, incident: Pick<IncidentMailData, 'numeroIncidencia' | 'email'>, reply: string, followUpToken: string): MailMessage {
  return renderMail(brand, incident.email, {
    subject: `Respuesta a tu incidencia ${incident.numeroIncidencia}`,
    preheader: `Nuestro equipo de soporte respondió a su incidencia ${incident.numeroIncidencia}.`,
    heading: `Respuesta a tu incidencia ${incident.numeroIncidencia}`,
    intro: ['Hola:', `Nuestro equipo de soporte respondió a su incidencia ${incident.numeroIncidencia}.`],
    quote: { label: 'Respuesta', text: reply },
    action: { label: 'Ver la conversación', href: followUpUrl(brand, followUpToken) },
    outro: [`¿Dudas? Responda a este correo o llámenos al ${brand.phone}.`, `El equipo de soporte de ${brand.companyName}`],
  });
}

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
  return renderMail(brand, formatAddress(data.name, data.email), {
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
    outro: [`Si no fuiste tú, avisa de inmediato al administrador del sitio o escribe a ${brand.email}: alguien conoce tu contraseña.`],
  });
}

/** What the meeting mails say ('Reunión', issue 12). */
export interface MeetingMailData {
  razonSocial: string;
  nombreRepresentante: string;
  /** The representative's address. */
  email: string;
  organizerName: string;
  organizerEmail: string;
  /** ISO 8601 UTC. */
  startsAt: string;
  durationMinutes: number;
  place: string;
  note: string;
}

const MEETING_DAY = new Intl.DateTimeFormat('es-DO', { timeZone: TIME_ZONE, dateStyle: 'full' });
const MEETING_HOUR = new Intl.DateTimeFormat('es-DO', { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** 'martes, 1 de diciembre de 2026' and '10:30', in Santo Domingo. */
export function meetingWhen(iso: string): { day: string; time: string } {
  const date = new Date(iso);
  return { day: MEETING_DAY.format(date), time: MEETING_HOUR.format(date) };
}

/**
 * The invitation (`kind` 'request') or its cancellation ('cancel') to the client's representative;
 * with `copyTo`, the staff member's copy of it. The `.ics` is attached by the caller (src/server/meetings).
 * Replies go to the organiser.
 */
export function meetingMail(brand: MailBrand, data: MeetingMailData, kind: 'request' | 'cancel', copyTo?: string): MailMessage {
  const { day, time } = meetingWhen(data.startsAt);
  const cancelled = kind === 'cancel';
  const subject = `${cancelled ? 'Cancelada' : 'Invitación'}: reunión con ${brand.companyName} el ${day} a las ${time}`;
  const rows: Array<[string, string]> = [
    ['Fecha', day],
    ['Hora (Santo Domingo)', time],
    ['Duración', formatDuration(data.durationMinutes)],
    ['Lugar o enlace', data.place],
    ['Organiza', data.organizerName ? `${data.organizerName} (${data.organizerEmail})` : data.organizerEmail],
  ];
  const intro = copyTo
    ? [
        `Copia para ${data.organizerName || data.organizerEmail}:`,
        cancelled
          ? `Se envió a ${data.nombreRepresentante} (${data.email}), de ${data.razonSocial}, la cancelación de esta reunión.`
          : `Se envió a ${data.nombreRepresentante} (${data.email}), de ${data.razonSocial}, esta invitación. El archivo adjunto la agrega a su calendario.`,
      ]
    : [
        `Hola, ${data.nombreRepresentante}:`,
        cancelled
          ? `La reunión de ${data.razonSocial} con ${brand.companyName} prevista para el ${day} a las ${time} (hora de Santo Domingo) queda cancelada. Su calendario la retirará al abrir este correo.`
          : `${data.organizerName || brand.companyName} le invita a una reunión de ${data.razonSocial} con ${brand.companyName}. Puede aceptarla o rechazarla desde su calendario; el archivo adjunto la agrega a cualquier otro.`,
      ];
  return renderMail(
    brand,
    copyTo ?? data.email,
    {
      subject: copyTo ? `Copia — ${subject}` : subject,
      preheader: cancelled ? `Reunión cancelada: ${day} a las ${time}.` : `Reunión el ${day} a las ${time} (hora de Santo Domingo).`,
      heading: cancelled ? 'Reunión cancelada' : 'Invitación a una reunión',
      intro,
      rows,
      ...(data.note && !cancelled ? { quote: { label: 'Nota', text: data.note } } : {}),
      outro: [`¿Preguntas? Responda a este correo o llámenos al ${brand.phone}.`, `El equipo de ${brand.companyName}`],
    },
    copyTo ? null : formatAddress(data.organizerName, data.organizerEmail),
  );
}

/** To a staff member an incident was assigned to by someone else (issue 11), with the incident's link. */
export function incidentAssignedMail(
  brand: MailBrand,
  to: string,
  incident: Pick<IncidentMailData, 'numeroIncidencia' | 'nombre'>,
  assignedBy: string,
): MailMessage {
  return renderMail(brand, to, {
    subject: `Te asignaron la incidencia ${incident.numeroIncidencia}`,
    preheader: `${assignedBy} te asignó la incidencia ${incident.numeroIncidencia}.`,
    heading: `Te asignaron la incidencia ${incident.numeroIncidencia}`,
    intro: [`${assignedBy} te asignó la incidencia ${incident.numeroIncidencia}.`],
    rows: [
      ['Número', incident.numeroIncidencia],
      ['Cliente', incident.nombre],
      ['Asignada por', assignedBy],
    ],
    action: { label: 'Abrir la incidencia', href: absoluteUrl(brand, incidentPath(incident.numeroIncidencia)) },
  });
}

/**
 * To the assignee (or the staff inbox when nobody is assigned): the visitor answered on the follow-up
 * page. The visitor's text is quoted (escaped like every value); `reopened` when the answer set a
 * resolved incident back to 'En Proceso'.
 */
export function incidentAnswerMail(
  brand: MailBrand,
  to: string,
  incident: Pick<IncidentMailData, 'numeroIncidencia' | 'nombre'>,
  answer: string,
  reopened: boolean,
): MailMessage {
  return renderMail(brand, to, {
    subject: `Respuesta del cliente en la incidencia ${incident.numeroIncidencia}`,
    preheader: `El cliente respondió en la incidencia ${incident.numeroIncidencia}.`,
    heading: `Respuesta del cliente en la incidencia ${incident.numeroIncidencia}`,
    intro: [
      `El cliente respondió desde su página de seguimiento de la incidencia ${incident.numeroIncidencia}.`,
      ...(reopened ? ['La incidencia estaba resuelta y volvió a «En Proceso» (reabierta por el cliente).'] : []),
    ],
    rows: [
      ['Número', incident.numeroIncidencia],
      ['Cliente', incident.nombre],
    ],
    quote: { label: 'Respuesta del cliente', text: answer },
    action: { label: 'Abrir la incidencia', href: absoluteUrl(brand, incidentPath(incident.numeroIncidencia)) },
    outro: ['Responde desde la página de la incidencia: así la respuesta queda en la conversación y le llega al cliente.'],
  });
}
