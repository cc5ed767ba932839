/**
 * The signed start time of the public forms (`startedAt`, src/server/http/form-stamp.ts), end to end:
 * the endpoint the islands ask, refusals of a missing, forged or expired value (nothing stored, the
 * reason logged), the no-JavaScript pages that keep the values, and the islands of prerendered pages
 * in Chromium, which fetch a stamp on first use.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signStamp, verifyStamp } from '../../src/server/http/form-stamp.ts';
import { DESKTOP, watchConsole } from '../support/browser.ts';
import { fetchFormStamp, formStamp } from '../support/form-stamp.ts';
import { postForm, send } from '../support/http.ts';
import { TEST_AUTH_SECRET } from '../support/server.ts';
import { useSite } from '../support/site.ts';

const STAFF_INBOX = 'soporte@vertice.test';
const TOO_FAST = 'No pudimos procesar el envío. Espera unos segundos e inténtalo de nuevo.';
const EXPIRED = 'El formulario caducó. Recarga la página e inténtalo de nuevo.';
const CONFIRM = 'Para completar el envío, revisa tus datos y pulsa de nuevo el botón de enviar.';
const SUCCESS = '¡Gracias por tu mensaje! Te responderemos pronto.';
const HOUR = 60 * 60 * 1000;

const { server, smtp, quietContext, db } = useSite({
  smtp: true,
  env: { STAFF_INBOX, FORM_RATE_LIMIT: '1000' },
});

async function stored() {
  const count = async (table: 'incidents' | 'contactMessages' | 'mailOutbox') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    incidents: await count('incidents'),
    contactMessages: await count('contactMessages'),
    mails: await count('mailOutbox'),
  };
}

const contact = (name: string, startedAt?: string) => ({
  name,
  email: 'persona@cliente.test',
  message: `Mensaje de ${name}`,
  ...(startedAt === undefined ? {} : { startedAt }),
});

/** Waits out the time-to-submit check, as a person filling the form does. */
const humanPause = () => new Promise((resolve) => setTimeout(resolve, 1600));

describe('the endpoint', () => {
  it('hands out a fresh stamp signed with AUTH_SECRET, never cached, with no session needed', async () => {
    const before = Date.now();
    const response = await send(`${server.url}/api/form-stamp`);
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const { startedAt } = JSON.parse(response.body) as { startedAt: string };
    expect(startedAt).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    const check = verifyStamp(startedAt, TEST_AUTH_SECRET);
    expect(check.ok).toBe(true);
    if (check.ok) expect(check.time).toBeGreaterThanOrEqual(before - 1000);
    expect(response.cookies).toBe('');
  });
});

describe('refusals over HTTP', () => {
  it('refuses a missing, malformed, forged or tampered start time on every public action; nothing is stored and the reason is logged', async () => {
    const before = await stored();
    const forged = signStamp('un-secreto-que-el-servidor-no-conoce-0123', Date.now() - 5000);
    const [time, signature] = formStamp({ ageMs: 0 }).split('.');
    const tampered = `${Number(time) - 60_000}.${signature}`;
    const cases: Array<[string, string | undefined, string, string]> = [
      [
        'missing',
        undefined,
        'No pudimos confirmar el envío. Revisa tus datos y vuelve a enviarlo.',
        'stamp-missing',
      ],
      ['old unsigned form', String(Date.now() - 5000), TOO_FAST, 'stamp-malformed'],
      ['forged', forged, TOO_FAST, 'stamp-forged'],
      ['tampered time', tampered, TOO_FAST, 'stamp-forged'],
    ];
    for (const [label, startedAt, message, reason] of cases) {
      const forms: Array<[string, Record<string, string>]> = [
        ['contact.send', contact(`Bot ${label}`, startedAt)],
        ['incidents.create', { problema: `Bot ${label}`, ...(startedAt === undefined ? {} : { startedAt }) }],
        [
          'incidents.track',
          {
            numeroIncidencia: 'INC-20250101-1000',
            email: 'bot@spam.test',
            ...(startedAt === undefined ? {} : { startedAt }),
          },
        ],
      ];
      for (const [action, fields] of forms) {
        const response = await postForm(server.url, `/_actions/${action}`, fields);
        expect(response.status, `${label} ${action}`).toBe(400);
        expect((JSON.parse(response.body) as { message: string }).message, `${label} ${action}`).toBe(
          message,
        );
      }
      await expect
        .poll(() => server.output())
        .toMatch(new RegExp(`"action":"incidents\\.track","network":"127\\.0\\.0\\.1","reason":"${reason}"`));
    }
    expect(await stored()).toEqual(before);
    await new Promise((resolve) => setTimeout(resolve, 500)); // room for a mail to show up
    expect(smtp.messages.filter((mail) => (mail.subject ?? '').includes('Bot'))).toHaveLength(0);
  });

  it('accepts a stamp from the endpoint once more than 1.5 s old, and refuses it sooner', async () => {
    const startedAt = await fetchFormStamp(server.url);
    const tooSoon = await postForm(
      server.url,
      '/_actions/contact.send',
      contact('Persona apurada', startedAt),
    );
    expect(tooSoon.status).toBe(400);
    expect((JSON.parse(tooSoon.body) as { message: string }).message).toBe(TOO_FAST);
    await expect
      .poll(() => server.output())
      .toMatch(/"action":"contact\.send","network":"127\.0\.0\.1","reason":"too-fast"/);

    await humanPause();
    const before = await stored();
    const accepted = await postForm(
      server.url,
      '/_actions/contact.send',
      contact('Persona tranquila', startedAt),
    );
    expect(accepted.status, accepted.body).toBe(200);
    expect((await stored()).contactMessages).toBe(before.contactMessages + 1);
    const incident = await postForm(server.url, '/_actions/incidents.create', {
      problema: 'Con sello válido',
      startedAt,
    });
    expect(incident.status, incident.body).toBe(200);
    expect((await stored()).incidents).toBe(before.incidents + 1);
    await smtp.waitFor((mail) => mail.subject === 'Nuevo mensaje de contacto de Persona tranquila');
  });
});

describe('an expired start time (the form was opened more than a day ago)', () => {
  const expired = () => formStamp({ ageMs: 25 * HOUR });

  it('is refused with the reload message over HTTP', async () => {
    const response = await postForm(
      server.url,
      '/_actions/contact.send',
      contact('Persona lenta', expired()),
    );
    expect(response.status).toBe(400);
    expect((JSON.parse(response.body) as { message: string }).message).toBe(EXPIRED);
    await expect
      .poll(() => server.output())
      .toMatch(/"action":"contact\.send","network":"127\.0\.0\.1","reason":"stamp-expired"/);
  });

  it('shows the reload message on the no-JavaScript pages, with every value kept and a fresh stamp; nothing is stored', async () => {
    const context = await quietContext({ ...DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    const before = await stored();
    const cases: Array<{ path: string; fields: Record<string, string> }> = [
      {
        path: '/soporte?_action=contact.send',
        fields: {
          name: 'Marta Peña',
          email: 'marta@cliente.test',
          message: 'Quisiera una demostración de Tiendao.',
        },
      },
      {
        path: '/soporte/nueva?_action=incidents.create',
        fields: {
          problema: 'La caja no imprime el NCF.',
          nombre: 'José Núñez',
          telefono: '809-555-0123',
          email: 'jose@cliente.test',
          rnc: '101850043',
        },
      },
      {
        path: '/soporte/seguimiento?_action=incidents.track',
        fields: { numeroIncidencia: 'INC-20250131-1234', email: 'jose@cliente.test' },
      },
    ];
    for (const { path, fields } of cases) {
      const response = await postForm(server.url, path, { ...fields, startedAt: expired() });
      expect(response.status, path).toBe(400);
      await page.setContent(response.body, { waitUntil: 'domcontentloaded' });
      expect(await page.getByRole('alert').first().textContent(), path).toContain(EXPIRED);
      // The form that was sent (/soporte also holds the support dialog's form).
      const form = page.locator(`form:has([name="${Object.keys(fields)[0]}"])`);
      for (const [name, value] of Object.entries(fields)) {
        expect(await form.locator(`[name="${name}"]`).inputValue(), `${path} ${name}`).toBe(value);
      }
      const fresh = await form.locator('input[name="startedAt"]').inputValue();
      expect(verifyStamp(fresh, TEST_AUTH_SECRET).ok, path).toBe(true);
    }
    expect(await stored()).toEqual(before);
    await context.close();
  });
});

/** The contact form of a page (home and /contacto have one each). */
const contactForm = (page: Page) =>
  page.locator('form').filter({ has: page.getByRole('button', { name: 'Enviar mensaje' }) });

describe('the prerendered /contacto without JavaScript', () => {
  it('comes back from /soporte with the values and a fresh stamp, asks to confirm, and sends on the second click', async () => {
    const context = await quietContext({ ...DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/contacto`);
    expect(await contactForm(page).locator('input[name="startedAt"]').inputValue()).toBe('');
    const form = contactForm(page);
    await form.getByLabel('Nombre').fill('Elena Confirma');
    await form.getByLabel('Correo electrónico').fill('elena@colmado.test');
    await form.getByLabel('Mensaje').fill('Me interesa AdmCloud.');
    const before = await stored();
    await Promise.all([
      page.waitForURL(/\/soporte\?_action=contact\.send/),
      form.getByRole('button', { name: 'Enviar mensaje' }).click(),
    ]);

    const again = page.locator('#contacto form');
    expect(await again.getByRole('status').textContent()).toBe(CONFIRM);
    expect(await again.getByRole('alert').count()).toBe(0);
    expect(await again.getByLabel('Nombre').inputValue()).toBe('Elena Confirma');
    expect(await again.getByLabel('Correo electrónico').inputValue()).toBe('elena@colmado.test');
    expect(await again.getByLabel('Mensaje').inputValue()).toBe('Me interesa AdmCloud.');
    expect(
      verifyStamp(await again.locator('input[name="startedAt"]').inputValue(), TEST_AUTH_SECRET).ok,
    ).toBe(true);
    expect(await stored()).toEqual(before);

    await page.waitForTimeout(1600);
    await Promise.all([
      page.waitForURL(/_action=contact\.send/),
      again.getByRole('button', { name: 'Enviar mensaje' }).click(),
    ]);
    await expect.poll(() => page.locator('#contacto form').getByRole('status').textContent()).toBe(SUCCESS);
    expect((await stored()).contactMessages).toBe(before.contactMessages + 1);
    await smtp.waitFor((mail) => mail.subject === 'Nuevo mensaje de contacto de Elena Confirma');
    await context.close();
  });
});

describe('the islands of prerendered pages (JavaScript on)', () => {
  it('/contacto asks for a stamp when the form is first used, not at load, and sends', async () => {
    const context = await quietContext(DESKTOP);
    const page = await context.newPage();
    const consoleWatch = watchConsole(page);
    const stampRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/form-stamp') stampRequests.push(request.method());
    });
    await page.goto(`${server.url}/contacto`, { waitUntil: 'networkidle' });
    expect(stampRequests).toEqual([]);

    const form = contactForm(page);
    await form.getByLabel('Nombre').fill('Pedro Isla');
    await expect.poll(() => stampRequests).toEqual(['GET']);
    await expect
      .poll(() => form.locator('input[name="startedAt"]').inputValue())
      .toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    await form.getByLabel('Correo electrónico').fill('pedro@cliente.test');
    await form.getByLabel('Mensaje').fill('Necesito una cotización de Restaurant.pe.');
    await page.waitForTimeout(1600);
    const before = await stored();
    await form.getByRole('button', { name: 'Enviar mensaje' }).click();
    await expect.poll(() => form.getByRole('status').textContent(), { timeout: 10_000 }).toBe(SUCCESS);
    expect((await stored()).contactMessages).toBe(before.contactMessages + 1);
    const row = await db
      .selectFrom('contactMessages')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'Pedro Isla', email: 'pedro@cliente.test' });
    await smtp.waitFor((mail) => mail.subject === 'Nuevo mensaje de contacto de Pedro Isla');
    consoleWatch.assertNone();
    await context.close();
  });

  it('the home page support dialog asks for a stamp when it opens, and registers the incident', async () => {
    const context = await quietContext(DESKTOP);
    const page = await context.newPage();
    const consoleWatch = watchConsole(page);
    const stampRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/form-stamp') stampRequests.push(request.method());
    });
    await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
    expect(stampRequests).toEqual([]);
    await page.getByRole('button', { name: /Solicitar Ayuda/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Solicita ayuda' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await expect.poll(() => stampRequests).toEqual(['GET']);
    await dialog.getByLabel('¿En qué te podemos ayudar?').fill('Desde la portada: el sistema no abre.');
    await page.waitForTimeout(1600);
    await dialog.getByRole('button', { name: 'Abrir Incidencia' }).click();
    const notice = page
      .getByRole('alert')
      .filter({ hasText: 'Tu incidencia ha sido registrada con el número:' });
    await expect.poll(() => notice.isVisible(), { timeout: 10_000 }).toBe(true);
    const row = await db
      .selectFrom('incidents')
      .select('problema')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.problema).toBe('Desde la portada: el sistema no abre.');
    consoleWatch.assertNone();
    await context.close();
  });
});
