import { describe, expect, it } from 'vitest';
import { whatsappLink } from '../../src/lib/whatsapp.ts';

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
