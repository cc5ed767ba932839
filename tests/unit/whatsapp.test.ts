import { describe, expect, it } from 'vitest';
import { formatWhatsappNumber, whatsappLink } from '../../src/lib/whatsapp.ts';
import { incidentConfirmationMail } from '../../src/server/channels/mail/customer-mails.ts';
import { MAIL_BRAND } from '../support/mail-brand.ts';

describe('whatsappLink', () => {
  it('builds a bare chat link from the digits of the number', () => {
    expect(whatsappLink('18095550142')).toBe('https://wa.me/18095550142');
    expect(whatsappLink('+1 (809) 555-0142')).toBe('https://wa.me/18095550142');
  });

  it('URL-encodes the prefilled text: spaces, accents, line breaks, $ and punctuation', () => {
    expect(whatsappLink('18095550142', '¡Hola! Número: $45/mes & más\nSí')).toBe(
      'https://wa.me/18095550142?text=%C2%A1Hola!%20N%C3%BAmero%3A%20%2445%2Fmes%20%26%20m%C3%A1s%0AS%C3%AD',
    );
  });

  it('omits ?text= when there is no text', () => {
    expect(whatsappLink('18095550142', '')).toBe('https://wa.me/18095550142');
  });

  it('rejects something that is not a phone number', () => {
    expect(() => whatsappLink('abc')).toThrow(RangeError);
    expect(() => whatsappLink('1234567')).toThrow(RangeError);
  });
});

describe('formatWhatsappNumber (issue 25 §7: one format for people to read)', () => {
  it('writes a North American number as +1 809-555-0142, however it was given', () => {
    for (const given of ['18095550142', '+1 (809) 555-0142', '1-809-555-0142']) {
      expect(formatWhatsappNumber(given)).toBe('+1 809-555-0142');
    }
  });

  it('writes any other number as + and its digits', () => {
    expect(formatWhatsappNumber('34 612 345 678')).toBe('+34612345678');
  });

  it('is the format of the incident confirmation mail, never the raw digits', () => {
    const mail = incidentConfirmationMail(
      MAIL_BRAND,
      {
        numeroIncidencia: 'INC-20261125-1234',
        email: 'ana@example.com',
        estado: 'Registrado',
        fecha: '2026-11-25T14:00:00.000Z',
      },
      'token',
    );
    expect(mail.text).toContain('WhatsApp al +1 809-555-0142');
    expect(`${mail.text}${mail.html}`).not.toContain('+18095550142');
  });
});
