import { describe, expect, it } from 'vitest';
import { passwordProblem, personalWords } from '../../src/server/auth/strength.ts';

const base = {
  current: 'la-clave-de-antes-2025',
  name: 'Ana Martínez',
  email: 'ana.martinez@verticeconsultores.com.do',
};
const check = (password: string, extra: Partial<typeof base> = {}) =>
  passwordProblem({ ...base, ...extra, password });

describe('new staff password', () => {
  it('refuses common and breached passwords', () => {
    expect(check('password1234')).toBe('weak');
    expect(check('Contraseña123')).toBe('weak');
    expect(check('123456789012')).toBe('weak');
    expect(check('qwertyuiopas')).toBe('weak');
  });

  it('refuses what is built from the name or the e-mail', () => {
    expect(check('AnaMartinez2025')).toBe('weak');
    expect(check('verticeconsultores1')).toBe('weak');
  });

  it('checks the length first: 12 to 256 characters', () => {
    expect(check('corta-1')).toBe('too-short');
    expect(check('x'.repeat(257))).toBe('too-long');
    // Counted in characters, not UTF-16 units.
    expect(check('ñ😀'.repeat(6))).not.toBe('too-short');
  });

  it('refuses the current password', () => {
    expect(check(base.current)).toBe('same-as-current');
  });

  it('accepts a passphrase of unrelated words', () => {
    expect(check('tortuga-nevera-cobalto-7')).toBeNull();
    expect(check('Mango verde bajo la lluvia de Baní')).toBeNull();
    expect(check('x'.repeat(150) + 'Zq8!vR2#pL')).not.toBe('too-long');
  });

  it('splits the name and e-mail into guessable words', () => {
    expect(personalWords('Ana Martínez', 'ana.martinez@vertice.com.do')).toEqual(
      expect.arrayContaining(['ana', 'martínez', 'martinez', 'vertice', 'ana.martinez@vertice.com.do']),
    );
  });
});
