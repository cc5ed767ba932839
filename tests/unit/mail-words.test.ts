/**
 * Issue 20 §3: every mail speaks to its reader one way. Visitors, customers and staff are addressed
 * with 'tú'; the welcome mail and the meeting mails to a client's representative with 'usted',
 * throughout. Every template of src/server/mail is rendered (each variant: each state, each product of
 * the welcome mail, invitation and cancellation, the representative's and the staff copy) and its
 * subject, text and HTML (preheader included) are searched for the other register's words.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { INCIDENT_STATES } from '../../src/domain/incidents.ts';
import { passwordChangedMail } from '../../src/server/mail/account-mails.ts';
import { contactConfirmationMail, contactStaffNoticeMail } from '../../src/server/mail/contact-mails.ts';
import {
  incidentAnswerMail,
  incidentAssignedMail,
  incidentComplaintMail,
  incidentDigestMail,
  incidentStaffNoticeMail,
  incidentOverdueMail,
} from '../../src/server/mail/incident-mails.ts';
import {
  incidentConfirmationMail,
  incidentReplyMail,
  incidentStateMail,
} from '../../src/server/channels/mail/customer-mails.ts';
import { meetingMail } from '../../src/server/mail/meeting-mails.ts';
import type { MailMessage } from '../../src/server/mail/types.ts';
import { welcomeMail } from '../../src/server/mail/welcome-mail.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';

type Register = 'tú' | 'usted';

/** Words of each register, matched as whole words (accents count as letters), in any case. */
const WORDS: Record<Register, readonly string[]> = {
  tú: [
    'tú',
    'tu',
    'tus',
    'te',
    'ti',
    'contigo',
    'tuyo',
    'tuya',
    'puedes',
    'tienes',
    'quieres',
    'necesitas',
    'fuiste',
    'responde',
    'escríbenos',
    'escribe',
    'llámanos',
    'avisa',
    'guarda',
    'revisa',
    'envíanos',
    'prepara',
    'comparte',
    'conoce',
    'consúltala',
  ],
  usted: [
    'usted',
    'ustedes',
    'su',
    'sus',
    'suyo',
    'suya',
    'le',
    'les',
    'puede',
    'tiene',
    'quiere',
    'necesita',
    'desea',
    'responda',
    'escríbanos',
    'escriba',
    'llámenos',
    'llame',
    'avise',
    'guarde',
    'revise',
    'envíenos',
    'prepare',
    'cargue',
    'comparta',
    'conozca',
    'consulte',
    'contáctenos',
  ],
};

/** What a reader sees of the HTML part: its text (the preheader included), tags left out. */
function htmlText(html: string): string {
  const entities: Record<string, string> = {
    '&amp;': '&',
    '&lt;': '<',
    '&gt;': '>',
    '&quot;': '"',
    '&#39;': "'",
  };
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39);/g, (entity) => entities[entity] ?? entity);
}

/** The words of the other register found in a mail's subject, text and HTML. */
function otherRegister(
  register: Register,
  mail: Pick<MailMessage, 'subject' | 'text'> & { html?: string },
): string[] {
  const other = WORDS[register === 'tú' ? 'usted' : 'tú'];
  const words =
    `${mail.subject}\n${mail.text}\n${htmlText(mail.html ?? '')}`.toLowerCase().match(/\p{L}+/gu) ?? [];
  return [...new Set(words.filter((word) => other.includes(word)))];
}

const incident = {
  numeroIncidencia: 'INC-20261123-4821',
  problema: 'No imprime la factura con NCF.\nDesde ayer.',
  nombre: 'José Núñez',
  telefono: '809-555-0101',
  email: 'jose@example.com',
  rnc: '131-00000-1',
  estado: 'Registrado' as const,
  fecha: '2026-11-23T15:00:00.000Z',
  lastActivityAt: '2026-11-23T15:00:00.000Z',
  customerWaiting: false,
  staffNoticePending: false,
  resolvedAt: null,
  assignedTo: null,
};
const meeting = {
  razonSocial: 'Farmacia Los Prados SRL',
  nombreRepresentante: 'Ana Pérez',
  email: 'ana@farmacialosprados.do',
  organizerName: 'Luis Gómez',
  organizerEmail: 'luis@vertice.example',
  startsAt: '2026-12-01T14:30:00.000Z',
  durationMinutes: 60,
  place: 'https://meet.example.com/abc',
  note: 'Plan de migración.',
};
const welcome = {
  nombreRepresentante: 'Ana Pérez',
  email: 'ana@farmacialosprados.do',
  razonSocial: 'Farmacia Los Prados SRL',
};

/** Every template, each variant rendered, with the register its reader is addressed in. */
const SAMPLES: Record<string, Array<{ variant: string; register: Register; mail: MailMessage }>> = {
  incidentConfirmationMail: [
    { variant: '', register: 'tú', mail: incidentConfirmationMail(brand, incident, 'token') },
  ],
  incidentStateMail: [
    ...INCIDENT_STATES.map((estado) => ({
      variant: estado,
      register: 'tú' as const,
      mail: incidentStateMail(brand, { ...incident, estado }, incident.fecha, 'token'),
    })),
    // With '¿Cómo te atendimos?' and its five links (issue 22).
    {
      variant: 'Resuelto con valoración',
      register: 'tú' as const,
      mail: incidentStateMail(
        brand,
        { ...incident, estado: 'Resuelto' },
        incident.fecha,
        'token',
        'valoracion',
      ),
    },
  ],
  incidentReplyMail: [
    {
      variant: '',
      register: 'tú',
      mail: incidentReplyMail(brand, incident, 'El controlador quedó instalado.', 'token'),
    },
    {
      variant: 'named',
      register: 'tú',
      mail: incidentReplyMail(brand, incident, 'El controlador quedó instalado.', 'token', 'Ana Pérez'),
    },
  ],
  incidentStaffNoticeMail: [
    {
      variant: '',
      register: 'tú',
      mail: incidentStaffNoticeMail(brand, 'soporte@vertice.example', incident, incident.email),
    },
  ],
  incidentDigestMail: [
    ...[1, 3].map((count) => ({
      variant: `${count}`,
      register: 'tú' as const,
      mail: incidentDigestMail(
        brand,
        'soporte@vertice.example',
        Array.from({ length: count }, () => incident),
      ),
    })),
    {
      variant: 'respuestas y nuevas',
      register: 'tú' as const,
      mail: incidentDigestMail(brand, 'soporte@vertice.example', [
        incident,
        { ...incident, answer: { body: 'Ya lo probé y sigue igual', at: incident.fecha } },
      ]),
    },
  ],
  incidentOverdueMail: (['primera-respuesta', 'resolucion'] as const).map((target) => ({
    variant: target,
    register: 'tú' as const,
    mail: incidentOverdueMail(
      brand,
      { email: 'luis@vertice.example', name: 'Luis Gómez' },
      { ...incident, prioridad: 'Urgente', target, dueAt: incident.fecha },
    ),
  })),
  incidentAssignedMail: [
    {
      variant: '',
      register: 'tú',
      mail: incidentAssignedMail(
        brand,
        { email: 'luis@vertice.example', name: 'Luis Gómez' },
        incident,
        'Ana Pérez',
      ),
    },
  ],
  incidentAnswerMail: ([false, true, 'esperando'] as const).map((reopened) => ({
    variant: reopened === 'esperando' ? 'resumed' : reopened ? 'reopened' : '',
    register: 'tú' as const,
    mail: incidentAnswerMail(brand, 'luis@vertice.example', incident, 'Sigue sin imprimir.', reopened),
  })),
  incidentComplaintMail: [
    {
      variant: '',
      register: 'tú',
      mail: incidentComplaintMail(brand, 'luis@vertice.example', incident, 'maria@cliente.example'),
    },
  ],
  contactStaffNoticeMail: [
    {
      variant: '',
      register: 'tú',
      mail: contactStaffNoticeMail(brand, 'soporte@vertice.example', {
        id: 7,
        name: 'Rosa Díaz',
        email: 'rosa@example.com',
        message: 'Necesito una cotización.',
        createdAt: incident.fecha,
      }),
    },
  ],
  contactConfirmationMail: [
    {
      variant: '',
      register: 'tú',
      mail: contactConfirmationMail(brand, { email: 'rosa@example.com', createdAt: incident.fecha }),
    },
  ],
  passwordChangedMail: [
    {
      variant: '',
      register: 'tú',
      mail: passwordChangedMail(brand, {
        email: 'luis@vertice.example',
        name: 'Luis Gómez',
        changedAt: incident.fecha,
        ip: '198.51.100.1',
        device: 'Firefox en Linux',
      }),
    },
  ],
  welcomeMail: ['Implementación AdmCloud', 'Restaurant.pe', 'Tiendao', 'Desarrollo de reportes'].map(
    (tipoProyecto) => ({
      variant: tipoProyecto,
      register: 'usted' as const,
      mail: welcomeMail(brand, { ...welcome, tipoProyecto }),
    }),
  ),
  meetingMail: (['request', 'cancel'] as const).flatMap((kind) => [
    {
      variant: `${kind}, to the representative`,
      register: 'usted' as const,
      mail: meetingMail(brand, meeting, kind),
    },
    {
      variant: `${kind}, the staff copy`,
      register: 'tú' as const,
      mail: meetingMail(brand, meeting, kind, meeting.organizerEmail),
    },
  ]),
};

describe('the words of every mail', () => {
  it('catches a mix (the test can fail)', () => {
    const mixed = {
      subject: 'Respuesta a tu incidencia',
      text: 'Nuestro equipo respondió a su incidencia. Responda a este correo.',
    };
    expect(otherRegister('tú', mixed)).toEqual(['su', 'responda']);
    expect(
      otherRegister('usted', {
        subject: 'Bienvenido',
        text: 'Gracias por confiar en nosotros. Escríbenos cuando quieras.',
      }),
    ).toEqual(['escríbenos']);
    expect(
      otherRegister('tú', {
        subject: 'Tu contraseña cambió',
        text: 'Responde para contestarle directamente.',
      }),
    ).toEqual([]);
  });

  it('renders every template of src/server/mail and of the mail channel (src/server/channels/mail)', async () => {
    const templates: string[] = [];
    for (const folder of ['../../src/server/mail/', '../../src/server/channels/mail/']) {
      const dir = new URL(folder, import.meta.url);
      for (const file of readdirSync(fileURLToPath(dir)).filter((name) => /-mails?\.ts$/.test(name))) {
        const module = (await import(new URL(file, dir).href)) as Record<string, unknown>;
        templates.push(
          ...Object.keys(module).filter(
            (name) => name.endsWith('Mail') && typeof module[name] === 'function',
          ),
        );
      }
    }
    expect(templates.sort()).toEqual(Object.keys(SAMPLES).sort());
  });

  for (const [template, samples] of Object.entries(SAMPLES))
    for (const { variant, register, mail } of samples)
      it(`${template}${variant ? ` (${variant})` : ''} says '${register}' throughout`, () => {
        expect(otherRegister(register, mail)).toEqual([]);
      });

  /**
   * RFC 3834 (issue 21): every mail no person wrote says so, so that an autoresponder does not answer
   * it and two help desks cannot loop. A staff member's reply, a meeting invitation and the welcome mail
   * a staff member chose to send are a person's.
   */
  const WRITTEN_BY_A_PERSON = new Set(['incidentReplyMail', 'meetingMail', 'welcomeMail']);
  for (const [template, samples] of Object.entries(SAMPLES))
    it(`${template} ${WRITTEN_BY_A_PERSON.has(template) ? 'carries no' : 'carries'} Auto-Submitted`, () => {
      for (const { mail } of samples) {
        const value = mail.headers?.['Auto-Submitted'];
        if (WRITTEN_BY_A_PERSON.has(template)) expect(value).toBeUndefined();
        else expect(value).toMatch(/^auto-(generated|replied)$/);
      }
    });
});
