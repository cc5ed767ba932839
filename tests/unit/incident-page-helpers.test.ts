/** The small helpers of the staff incident page: its age in Spanish words and the WhatsApp link's number. */
import { describe, expect, it } from 'vitest';
import { formatAgo } from '../../src/domain/dates.ts';
import { entryTextProblem } from '../../src/domain/incidents.ts';
import { dominicanWhatsappNumber } from '../../src/lib/whatsapp.ts';

describe('formatAgo', () => {
  const now = new Date('2025-01-10T12:00:00Z');
  it('says the largest whole unit', () => {
    expect(formatAgo('2025-01-07T11:00:00Z', now)).toBe('hace 3 días');
    expect(formatAgo('2025-01-10T11:00:00Z', now)).toBe('hace 1 hora');
    expect(formatAgo('2025-01-10T11:55:00Z', now)).toBe('hace 5 minutos');
    expect(formatAgo('2025-01-10T11:59:30Z', now)).toBe('hace un momento');
    expect(formatAgo('2024-01-01T00:00:00Z', now)).toBe('hace 1 año');
  });
});

describe('dominicanWhatsappNumber', () => {
  it('accepts 809, 829 and 849 numbers with or without the 1, however written', () => {
    expect(dominicanWhatsappNumber('809-555-0100')).toBe('18095550100');
    expect(dominicanWhatsappNumber('+1 (829) 555-0100')).toBe('18295550100');
    expect(dominicanWhatsappNumber('849.555.0100')).toBe('18495550100');
    expect(dominicanWhatsappNumber('18095550100')).toBe('18095550100');
  });
  it('refuses other numbers and text', () => {
    expect(dominicanWhatsappNumber('305-555-0100')).toBeNull();
    expect(dominicanWhatsappNumber('llamar al 809 555 0100')).toBeNull();
    expect(dominicanWhatsappNumber('809-555-010')).toBeNull();
    expect(dominicanWhatsappNumber('')).toBeNull();
  });
});

describe('entryTextProblem', () => {
  it('asks for text, caps it at 5,000 characters and accepts the rest', () => {
    expect(entryTextProblem(' \n ')).toBe('Escribe el texto antes de enviarlo.');
    expect(entryTextProblem('x'.repeat(5001))).toBe('El texto admite hasta 5.000 caracteres; tiene 5.001.');
    expect(entryTextProblem('x'.repeat(5000))).toBeNull();
  });
});
