/**
 * Issue 39 §10: a staff reply built from a saved reply ('Hola, {nombre}:' … {enlace_seguimiento}) is
 * mailed with one greeting and one follow-up link; a plain reply keeps the mail's own of each.
 */
import { describe, expect, it } from 'vitest';
import { incidentReplyMail } from '../../src/server/channels/mail/customer-mails.ts';
import { followUpUrl } from '../../src/server/mail/incident-mails.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';

const incident = { numeroIncidencia: 'INC-20261207-4637', email: 'maria@cliente.test' };
const greetings = (text: string) => text.match(/^(Hola|Buenos días)\b.*$/gmu) ?? [];
const links = (text: string) =>
  text.match(/https:\/\/vertice\.example\/soporte\/seguimiento\?token=\S+/g) ?? [];

describe('the staff reply mail', () => {
  it('greets once and links once when the reply does both (a saved reply)', () => {
    const reply = `Hola, María Fernández:\n\nYa quedó instalado. Puedes ver la conversación aquí: ${followUpUrl(brand, 'otro')}\n\nSaludos.`;
    const mail = incidentReplyMail(brand, incident, reply, 'token', 'Ana Pérez');
    expect(greetings(mail.text)).toEqual(['Hola, María Fernández:']);
    expect(links(mail.text)).toEqual([followUpUrl(brand, 'otro')]);
    expect(mail.html).not.toContain('Ver la conversación');
    expect(mail.html).not.toContain('>Hola:<');
  });

  it('greets and links by itself a reply that does neither', () => {
    const mail = incidentReplyMail(brand, incident, 'El controlador quedó instalado.', 'token');
    expect(greetings(mail.text)).toEqual(['Hola:']);
    expect(links(mail.text)).toEqual([followUpUrl(brand, 'token')]);
    expect(mail.html).toContain('Ver la conversación');
  });

  it("does not greet again a reply that opens with 'Buenos días'", () => {
    const mail = incidentReplyMail(brand, incident, 'Buenos días, María: ya quedó.', 'token');
    expect(greetings(mail.text)).toEqual(['Buenos días, María: ya quedó.']);
    expect(links(mail.text)).toEqual([followUpUrl(brand, 'token')]);
  });
});
