/**
 * Issue 25 §13: the meeting invitation reads as a person would write it, formal ('usted') to the
 * client's representative, with the organiser named when the account has a name.
 */
import { describe, expect, it } from 'vitest';
import { meetingMail } from '../../src/server/mail/meeting-mails.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';

const meeting = {
  razonSocial: 'Distribuidora Fernández, SRL',
  nombreRepresentante: 'Ana Pérez',
  email: 'ana@distribuidora.do',
  organizerName: 'Luis Gómez',
  organizerEmail: 'luis@vertice.example',
  startsAt: '2026-12-01T14:30:00.000Z',
  durationMinutes: 60,
  place: 'https://meet.example.com/abc',
  note: '',
};
const WHEN = 'martes, 1 de diciembre de 2026, a las 10:30 (hora de Santo Domingo)';

describe('the meeting mails to the representative', () => {
  it('invites in the organiser’s name, and signs with it', () => {
    const { text } = meetingMail(brand, meeting, 'request');
    expect(text).toContain(
      `Hola, Ana Pérez:\n\nLuis Gómez, de Vértice Consultores, le invita a una reunión el ${WHEN}.`,
    );
    expect(text).toContain('Saludos cordiales,\nLuis Gómez\nVértice Consultores');
    // Not the form letter of before: 'le invita a una reunión de Distribuidora Fernández, SRL con …'.
    expect(text).not.toMatch(/reunión de Distribuidora|con Vértice Consultores\./);
  });

  it('speaks for the team when the account has no name', () => {
    const { text } = meetingMail(brand, { ...meeting, organizerName: '' }, 'request');
    expect(text).toContain(`El equipo de Vértice Consultores le invita a una reunión el ${WHEN}.`);
    expect(text).toContain('Saludos cordiales,\nEl equipo de Vértice Consultores');
  });

  it('cancels as a person would, and offers another date', () => {
    const { text } = meetingMail(brand, meeting, 'cancel');
    expect(text).toContain(
      'Lamentamos informarle que la reunión del martes, 1 de diciembre de 2026, a las 10:30 (hora de Santo Domingo), con Luis Gómez, de Vértice Consultores, queda cancelada.',
    );
    expect(text).toContain('Si desea acordar otra fecha, responda a este correo');
  });
});
