import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { validateForm } from '../../src/domain/forms/common.ts';
import { answerFormSchema } from '../../src/domain/forms/tracking.ts';
import { staffLabel } from '../../src/server/incidents/assignment.ts';

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
};

describe("the visitor's answer on the follow-up page", () => {
  it('takes 1 to 5,000 characters, lines kept, with a Spanish message per field', () => {
    expect(validateForm(answerFormSchema, form({ token: 't', respuesta: '  \r\n ' }))).toEqual({
      respuesta: ['Escribe tu respuesta antes de enviarla.'],
    });
    expect(validateForm(answerFormSchema, form({ token: 't', respuesta: 'x'.repeat(5001) }))).toEqual({
      respuesta: ['La respuesta admite como máximo 5.000 caracteres.'],
    });
    expect(validateForm(answerFormSchema, form({ respuesta: 'hola' }))).toEqual({
      token: ['Abre esta página con el enlace de tu correo.'],
    });
    const parsed = z.parse(answerFormSchema, {
      token: 'abc',
      respuesta: ` línea 1\r\nlínea 2 ${'y'.repeat(4970)}`,
    });
    expect(parsed.respuesta.startsWith('línea 1\nlínea 2 ')).toBe(true);
  });
});

describe("the 'Asignar a' label of a staff account", () => {
  it('shows the name and the e-mail, or the e-mail alone', () => {
    expect(staffLabel({ name: 'Ana Gómez', email: 'ana@x.example' })).toBe('Ana Gómez · ana@x.example');
    expect(staffLabel({ name: ' ', email: 'ana@x.example' })).toBe('ana@x.example');
    expect(staffLabel({ name: 'ana@x.example', email: 'ana@x.example' })).toBe('ana@x.example');
  });
});
