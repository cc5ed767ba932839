/**
 * The shared form pieces every staff action uses (src/actions/form-fields.ts): reading text fields,
 * zod's issues as one Spanish message per field, and the values a refused form shows again (never a
 * password, a code or the carried CSV).
 */
import { describe, expect, it } from 'vitest';
import { echoedValues, field, fieldErrors, NEVER_ECHOED, readForm } from '../../src/actions/form-fields.ts';
import { clientInputSchema, clientNoteSchema } from '../../src/domain/forms/client.ts';

const form = (entries: Array<[string, string | Blob]>) => {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
};

describe('reading a form', () => {
  it('gives a text field as typed, and "" for a missing field, a file or no form', () => {
    const posted = form([
      ['nota', '  dos\r\nlíneas '],
      ['archivo', new Blob(['a,b'])],
    ]);
    expect(field(posted, 'nota')).toBe('  dos\r\nlíneas ');
    expect(field(posted, 'otra')).toBe('');
    expect(field(posted, 'archivo')).toBe('');
    expect(field(null, 'nota')).toBe('');
    expect(readForm(posted, ['nota', 'otra'] as const)).toEqual({ nota: '  dos\r\nlíneas ', otra: '' });
  });

  it('gives back every text field but the secret ones and files, the first of repeated names', () => {
    const posted = form([
      ['email', 'ana@vertice.example'],
      ['password', 'secreta-123456'],
      ['actual', 'x'],
      ['nueva', 'y'],
      ['repeticion', 'y'],
      ['codigo', '123456'],
      ['contenido', 'YSxi'],
      ['firma', '1.a.b'],
      ['texto', 'primero'],
      ['texto', 'segundo'],
      ['archivo', new Blob(['a,b'])],
    ]);
    expect(echoedValues(posted)).toEqual({ email: 'ana@vertice.example', texto: 'primero' });
    for (const name of ['password', 'actual', 'nueva', 'repeticion', 'codigo'])
      expect(NEVER_ECHOED.has(name), name).toBe(true);
    expect(echoedValues(null)).toEqual({});
  });
});

describe('field errors', () => {
  it("maps a domain schema's issues to one Spanish message per field, the first given", () => {
    const parsed = clientInputSchema.safeParse(
      readForm(
        form([
          ['razonSocial', 'Sin Datos SRL'],
          ['email', 'no-es-correo'],
        ]),
        ['razonSocial', 'nombreRepresentante', 'telefono', 'email', 'rnc', 'tipoProyecto'],
      ),
    );
    expect(parsed.success).toBe(false);
    const errors = fieldErrors(parsed.error!.issues);
    expect(errors).toMatchObject({
      nombreRepresentante: 'Este campo es obligatorio.',
      tipoProyecto: 'Este campo es obligatorio.',
      email: 'Correo electrónico no válido.',
    });
    expect(errors).not.toHaveProperty('razonSocial');
    expect(Object.values(errors).every((message) => typeof message === 'string')).toBe(true);
  });

  it('keeps the first message of a field with several, and skips issues about no field', () => {
    expect(
      fieldErrors([
        { path: ['nota'], message: 'Primero.' },
        { path: ['nota'], message: 'Segundo.' },
        { path: [], message: 'Del formulario.' },
        { path: ['items', 0], message: 'De la lista.' },
      ]),
    ).toEqual({ nota: 'Primero.', items: 'De la lista.' });
    const note = clientNoteSchema.safeParse({ nota: '' });
    expect(fieldErrors(note.error!.issues).nota).toBeTruthy();
  });

  it("reads an Astro input error's fields (arrays of messages) the same way", () => {
    expect(
      fieldErrors({ email: ['Correo electrónico no válido.', 'Otro.'], rnc: [], telefono: undefined }),
    ).toEqual({ email: 'Correo electrónico no válido.' });
  });
});
