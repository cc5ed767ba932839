/**
 * The meeting mails ('Reunión', issue 12): the invitation and its cancellation to the client's
 * representative, formal ('usted') throughout; the staff organiser's copy of each, 'tú'.
 */
import { TIME_ZONE } from '../../domain/dates.ts';
import { formatDuration } from '../../domain/forms/meeting.ts';
import { formatAddress, renderMail, type MailBrand } from './templates.ts';
import type { MailMessage } from './types.ts';

/** What the meeting mails say. */
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
const MEETING_HOUR = new Intl.DateTimeFormat('es-DO', {
  timeZone: TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

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
export function meetingMail(
  brand: MailBrand,
  data: MeetingMailData,
  kind: 'request' | 'cancel',
  copyTo?: string,
): MailMessage {
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
          : `Se envió a ${data.nombreRepresentante} (${data.email}), de ${data.razonSocial}, esta invitación. El archivo adjunto la agrega a tu calendario.`,
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
      preheader: cancelled
        ? `Reunión cancelada: ${day} a las ${time}.`
        : `Reunión el ${day} a las ${time} (hora de Santo Domingo).`,
      heading: cancelled ? 'Reunión cancelada' : 'Invitación a una reunión',
      intro,
      rows,
      ...(data.note && !cancelled ? { quote: { label: 'Nota', text: data.note } } : {}),
      outro: copyTo
        ? [
            'Si el cliente responde, la respuesta llega a quien organiza la reunión.',
            `El equipo de ${brand.companyName}`,
          ]
        : [
            `¿Preguntas? Responda a este correo o llámenos al ${brand.phone}.`,
            `El equipo de ${brand.companyName}`,
          ],
    },
    copyTo ? null : formatAddress(data.organizerName, data.organizerEmail),
  );
}
