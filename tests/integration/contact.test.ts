import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { cleanText } from '../../src/domain/forms/common.ts';
import { contactFormSchema } from '../../src/domain/forms/contact.ts';
import {
  EMPTY_PROBLEM_FIELD,
  EMPTY_PROBLEM_QUESTION,
  incidentFormSchema,
} from '../../src/domain/forms/incident.ts';
import { trackingFormSchema } from '../../src/domain/forms/tracking.ts';
import { saveContactMessage } from '../../src/server/contact/index.ts';
import { createIncident } from '../../src/server/incidents/index.ts';
import { describeEachEngine } from '../support/db.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';

/** Field -> first message, as the forms show them. */
function messages(schema: z.ZodMiniType, input: Record<string, unknown>): Record<string, string> {
  const result = z.safeParse(schema, input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
}

describe('contact form rules (shared by the browser island and the action)', () => {
  it('requires name, e-mail and message with one Spanish message per field', () => {
    expect(messages(contactFormSchema, { name: null, email: null, message: null })).toEqual({
      name: 'Escribe tu nombre.',
      email: 'Escribe tu correo electrónico.',
      message: 'Escribe tu mensaje.',
    });
    expect(messages(contactFormSchema, { name: '   ', email: 'ana@', message: '\u0007' })).toEqual({
      name: 'Escribe tu nombre.',
      email: 'Escribe un correo electrónico válido, por ejemplo nombre@empresa.com.',
      message: 'Escribe tu mensaje.',
    });
  });

  it('limits lengths: 200 characters for short fields, 5,000 for the message', () => {
    expect(
      messages(contactFormSchema, {
        name: 'a'.repeat(201),
        email: `${'b'.repeat(196)}@x.do`,
        message: 'm'.repeat(5001),
      }),
    ).toEqual({
      name: 'El nombre admite como máximo 200 caracteres.',
      email: 'El correo electrónico admite como máximo 200 caracteres.',
      message: 'El mensaje admite como máximo 5.000 caracteres.',
    });
    expect(
      messages(contactFormSchema, {
        name: 'a'.repeat(200),
        email: 'ana@cliente.do',
        message: 'm'.repeat(5000),
      }),
    ).toEqual({});
  });

  it('strips control characters and keeps the lines of long texts', () => {
    const parsed = z.parse(contactFormSchema, {
      name: ' Ana\u0000 Pérez\n',
      email: ' ana@cliente.do ',
      message: 'Hola\r\n\u001bSegunda línea\u007f',
    });
    expect(parsed).toMatchObject({
      name: 'Ana Pérez',
      email: 'ana@cliente.do',
      message: 'Hola\nSegunda línea',
    });
    expect(cleanText('a\tb\nc', false)).toBe('a b c');
  });

  it('accepts an empty support form once asked (no field is required), but still limits lengths', () => {
    // Sent without a description it asks once (issue 39 §8); sent again with the answer it is accepted.
    expect(messages(incidentFormSchema, {})).toEqual({ problema: EMPTY_PROBLEM_QUESTION });
    expect(z.parse(incidentFormSchema, { [EMPTY_PROBLEM_FIELD]: 'si' })).toMatchObject({
      problema: '',
      nombre: '',
      telefono: '',
      email: '',
      rnc: '',
    });
    expect(messages(incidentFormSchema, { problema: 'p'.repeat(5001), rnc: 'r'.repeat(201) })).toEqual({
      problema: 'La descripción del problema admite como máximo 5.000 caracteres.',
      rnc: 'El RNC admite como máximo 200 caracteres.',
    });
  });

  it('checks the follow-up form and upper-cases the number', () => {
    expect(
      z.parse(trackingFormSchema, { numeroIncidencia: ' inc-20250101-1234 ', email: 'a@b.do' })
        .numeroIncidencia,
    ).toBe('INC-20250101-1234');
    expect(messages(trackingFormSchema, { numeroIncidencia: '1234', email: '' })).toEqual({
      numeroIncidencia: 'El número tiene la forma INC-20250131-1234.',
      email: 'Escribe el correo con el que registraste la incidencia.',
    });
  });
});

describeEachEngine('contact messages', (database) => {
  it('stores the message and queues the staff notice with the visitor as Reply-To, in one transaction', async () => {
    const { db } = database();
    const saved = await saveContactMessage(
      db,
      { name: 'Pedro Núñez', email: 'pedro@cliente.example', message: 'Necesito una cotización.' },
      { brand, staffInbox: 'soporte@vertice.example' },
    );
    const row = await db
      .selectFrom('contactMessages')
      .selectAll()
      .where('id', '=', saved.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      name: 'Pedro Núñez',
      email: 'pedro@cliente.example',
      message: 'Necesito una cotización.',
      createdAt: saved.createdAt,
    });
    const mail = await db
      .selectFrom('mailOutbox')
      .selectAll()
      .where('kind', '=', 'contact.received')
      .executeTakeFirstOrThrow();
    expect(mail).toMatchObject({
      toAddress: 'soporte@vertice.example',
      replyTo: '"Pedro Núñez" <pedro@cliente.example>',
      status: 'pending',
      createdAt: saved.createdAt,
    });
    // RFC 3834: no person wrote it (issue 21).
    expect(JSON.parse(mail.headers ?? '{}')).toEqual({ 'Auto-Submitted': 'auto-generated' });
  });

  it('links the staff notice to the message in /admin/mensajes (issue 25 §11)', async () => {
    const { db } = database();
    const saved = await saveContactMessage(
      db,
      { name: 'Pedro Núñez', email: 'pedro@cliente.example', message: 'Hola.' },
      { brand, staffInbox: 'soporte@vertice.example' },
    );
    const mail = await db
      .selectFrom('mailOutbox')
      .selectAll()
      .where('kind', '=', 'contact.received')
      .executeTakeFirstOrThrow();
    const link = `${brand.siteUrl}/admin/mensajes#mensaje-${saved.id}`;
    expect(mail.textBody).toContain(`Abrir en Mensajes: ${link}`);
    expect(mail.htmlBody).toContain(`href="${link}"`);
  });

  it("confirms to the person who wrote with only the site's words, in the same transaction (issue 25 §4)", async () => {
    const { db } = database();
    const typed = {
      name: 'Visite <b>premios</b>',
      email: 'pedro@cliente.example',
      message: 'Gane dinero en https://estafa.example ahora',
    };
    const saved = await saveContactMessage(db, typed, { brand, staffInbox: 'soporte@vertice.example' });
    expect(saved.confirmation).toBe('queued');
    const mail = await db
      .selectFrom('mailOutbox')
      .selectAll()
      .where('kind', '=', 'contact.confirmation')
      .executeTakeFirstOrThrow();
    expect(mail).toMatchObject({
      toAddress: 'pedro@cliente.example',
      replyTo: null,
      status: 'pending',
      createdAt: saved.createdAt,
    });
    expect(JSON.parse(mail.headers ?? '{}')).toEqual({ 'Auto-Submitted': 'auto-generated' });
    expect(mail.subject).toBe('Recibimos tu mensaje — Vértice Consultores');
    expect(mail.textBody).toContain('un consultor te responderá en un día laborable');
    expect(mail.textBody).toContain('WhatsApp al +1 809-555-0142');
    for (const word of ['Visite', 'premios', 'Gane', 'estafa']) {
      expect(`${mail.subject}\n${mail.textBody}\n${mail.htmlBody}`).not.toContain(word);
    }
  });

  it('sends at most 3 confirmations per address a day, incidents and messages together, and stores every message', async () => {
    const { db } = database();
    const now = new Date('2026-11-25T12:00:00.000Z');
    const options = { brand, staffInbox: 'soporte@vertice.example', now };
    await createIncident(
      db,
      { problema: 'No imprime.', nombre: 'Ana', telefono: '', email: 'Ana@Cliente.example', rnc: '' },
      options,
    );
    const outcomes = [];
    for (let index = 0; index < 3; index += 1) {
      outcomes.push(
        (
          await saveContactMessage(
            db,
            { name: 'Ana', email: ' ana@cliente.example', message: `Mensaje ${index}` },
            options,
          )
        ).confirmation,
      );
    }
    expect(outcomes).toEqual(['queued', 'queued', 'address-cap']);
    expect(await db.selectFrom('contactMessages').select('id').execute()).toHaveLength(3);
    expect(
      await db.selectFrom('mailOutbox').select('id').where('kind', '=', 'contact.received').execute(),
    ).toHaveLength(3);
    expect(
      await db.selectFrom('mailOutbox').select('id').where('kind', '=', 'contact.confirmation').execute(),
    ).toHaveLength(2);
    // The next UTC day the address has its allowance again.
    const tomorrow = new Date('2026-11-26T00:00:01.000Z');
    expect(
      (
        await saveContactMessage(
          db,
          { name: 'Ana', email: 'ana@cliente.example', message: 'Otra vez' },
          { ...options, now: tomorrow },
        )
      ).confirmation,
    ).toBe('queued');
  });

  it('counts the confirmations against VISITOR_MAIL_DAILY_CAP, all visitor mails together', async () => {
    const { db } = database();
    const options = {
      brand,
      staffInbox: 'soporte@vertice.example',
      customerMailDailyCap: 2,
      now: new Date('2026-11-25T12:00:00.000Z'),
    };
    const outcomes = [];
    for (const email of ['a@cliente.example', 'b@cliente.example', 'c@cliente.example']) {
      outcomes.push(
        (await saveContactMessage(db, { name: 'X', email, message: 'Hola' }, options)).confirmation,
      );
    }
    expect(outcomes).toEqual(['queued', 'queued', 'daily-cap']);
    const unlimited = await saveContactMessage(
      db,
      { name: 'X', email: 'd@cliente.example', message: 'Hola' },
      { ...options, customerMailDailyCap: 0 },
    );
    expect(unlimited.confirmation).toBe('queued');
  });
});
