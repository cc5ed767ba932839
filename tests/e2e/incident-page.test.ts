/**
 * The staff incident page (/admin/incidencias/{numero}, issue 11) against the production build, in
 * Chromium with a real SMTP peer: opened from the list, the problem in the timeline, an internal note
 * (never mailed, never on the follow-up page), a reply (mailed with its follow-up link, whose page
 * shows it), refused texts kept, unknown numbers answered 404 inside the staff layout, and axe.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, expectNoAxeViolations, poll, watchConsole } from '../support/browser.ts';
import { insertIncident } from '../support/factories.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';

const { server, browser, smtp, db, staff } = useSite({
  smtp: true,
  env: { TRUST_PROXY: 'true', LOG_LEVEL: 'warn' },
});

const NUMERO = 'INC-20250115-4321';
const NO_MAIL = 'INC-20250115-4322';
const PROBLEM = 'La impresora fiscal no responde.\nSegunda línea del problema.';
const NOTE = 'Nota secreta: el cliente debe 3 meses <script>alert(1)</script>';
const REPLY = 'Hola José:\nYa revisamos la impresora fiscal.\nPor favor reinicie el equipo.';

let ipCounter = 0;

beforeAll(async () => {
  const fecha = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000 - 60_000).toISOString();
  await insertIncident(db, {
    numeroIncidencia: NUMERO,
    problema: PROBLEM,
    nombre: 'José Pérez',
    telefono: '809-555-0142',
    email: 'jose@cliente.example',
    fecha,
  });
  await insertIncident(db, {
    numeroIncidencia: NO_MAIL,
    nombre: 'Sin Correo',
    telefono: '',
    email: 'no tengo',
    fecha,
  });
});

async function newContext(): Promise<BrowserContext> {
  ipCounter += 1;
  return browser.newContext({
    ...DESKTOP,
    extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${ipCounter}` },
  });
}

async function signedIn(): Promise<{ context: BrowserContext; page: Page }> {
  ipCounter += 1;
  return signInStaff(browser, server.url, { ...staff, network: `198.51.100.${ipCounter}` });
}

const incidentUrl = (numero: string) => `${server.url}/admin/incidencias/${numero}`;
const timelineTexts = (page: Page) => page.getByTestId('linea-de-tiempo').locator('li').allInnerTexts();

describe('incident page', () => {
  it('opens from the list and shows the header and the problem as written; passes axe', async () => {
    const { context, page } = await signedIn();
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/admin/incidencias`);
    await page.getByRole('link', { name: NUMERO }).click();
    await page.waitForURL(incidentUrl(NUMERO));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(NUMERO);
    expect(await page.getByTestId('antiguedad').textContent()).toBe('Abierta hace 3 días');
    expect(await page.getByRole('link', { name: 'Abrir en WhatsApp' }).getAttribute('href')).toBe(
      'https://wa.me/18095550142',
    );
    const texts = await timelineTexts(page);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain('Problema reportado');
    expect(texts[0]).toContain(PROBLEM);
    // The same state control as the list.
    await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
    expect(await page.getByLabel('Estado', { exact: true }).inputValue()).toBe('Registrado');
    await expect.poll(() => page.getByLabel('Notificar al cliente').isChecked()).toBe(true);
    await expectNoAxeViolations(page);
    consoleWatch.assertNone();
    await context.close();
  });

  it('keeps a note internal, mails a reply whose follow-up link shows it, and refuses empty or long texts keeping them', async () => {
    const { context, page } = await signedIn();
    await page.goto(incidentUrl(NUMERO));

    // Empty: refused with a message, nothing stored.
    await page.getByRole('button', { name: 'Responder al cliente' }).click();
    await page.waitForLoadState('load');
    expect(await page.getByRole('alert').textContent()).toBe('Escribe el texto antes de enviarlo.');
    expect(await page.getByLabel('Respuesta o nota').getAttribute('aria-invalid')).toBe('true');
    // Too long: refused, the text kept.
    const long = `${'a'.repeat(4990)}\nfin del texto largo`;
    await page.getByLabel('Respuesta o nota').fill(long);
    await page.getByRole('button', { name: 'Agregar nota interna' }).click();
    await page.waitForLoadState('load');
    expect(await page.getByRole('alert').textContent()).toBe(
      'El texto admite hasta 5.000 caracteres; tiene 5.010.',
    );
    expect(await page.getByLabel('Respuesta o nota').inputValue()).toBe(long);
    expect((await timelineTexts(page)).length).toBe(1);
    await expectNoAxeViolations(page);
    // From here on nothing is refused (the refusals above answer 400, which Chromium logs as an error).
    const consoleWatch = watchConsole(page);

    // A note: stored, labelled, escaped, lines kept.
    await page.getByLabel('Respuesta o nota').fill(NOTE);
    await page.getByRole('button', { name: 'Agregar nota interna' }).click();
    await page.waitForURL(/hecho=nota/);
    expect(await page.getByRole('status').first().textContent()).toBe(
      'La nota interna se guardó. El cliente no la ve.',
    );
    const note = page.locator('[data-tipo="note"]');
    expect(await note.innerText()).toContain('Nota interna');
    expect(await note.innerText()).toContain(NOTE);
    expect(await page.getByLabel('Respuesta o nota').inputValue()).toBe('');

    // A reply: stored and mailed.
    await page.getByLabel('Respuesta o nota').fill(REPLY);
    await page.getByRole('button', { name: 'Responder al cliente' }).click();
    await page.waitForURL(/hecho=respuesta/);
    expect(await page.getByRole('status').first().textContent()).toBe(
      'La respuesta se guardó y se enviará al cliente por correo.',
    );
    const reply = page.locator('[data-tipo="reply"]');
    expect(await reply.innerText()).toContain(REPLY);
    expect(await reply.innerText()).toContain(staff.email);
    expect(
      await page
        .locator('[data-tipo]')
        .evaluateAll((items) => items.map((item) => item.getAttribute('data-tipo'))),
    ).toEqual(['problem', 'note', 'reply']);
    await expectNoAxeViolations(page);
    consoleWatch.assertNone();

    const mail = await smtp.waitFor((item) => item.subject === `Respuesta a tu incidencia ${NUMERO}`);
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toContain('jose@cliente.example');
    expect(mail.text).toContain('Ya revisamos la impresora fiscal.\nPor favor reinicie el equipo.');
    expect(mail.text).not.toContain('Nota secreta');
    expect(String(mail.html)).not.toContain('Nota secreta');
    const link = /(https?:\/\/\S+\/soporte\/seguimiento\?token=[A-Za-z0-9_-]{24})/.exec(mail.text ?? '')?.[1];
    expect(link).toBeTruthy();
    expect(smtp.messages.some((item) => (item.text ?? '').includes('Nota secreta'))).toBe(false);

    // The visitor's follow-up page: the reply, never the note.
    const visitor = await newContext();
    const followUp = await visitor.newPage();
    const visitorConsole = watchConsole(followUp);
    await followUp.goto(link!.replace(/^https?:\/\/[^/]+/, server.url));
    await poll(() => followUp.getByTestId('respuesta').allInnerTexts()).toEqual([REPLY]);
    const body = await followUp.locator('main').innerText();
    expect(body).toContain('Respuesta del equipo de soporte');
    expect(body).not.toContain('Nota secreta');
    expect(await followUp.content()).not.toContain('Nota secreta');
    visitorConsole.assertNone();
    await visitor.close();
    await context.close();
  });

  it('stores a reply to an incident without a usable e-mail and says no mail went out', async () => {
    const { context, page } = await signedIn();
    await page.goto(incidentUrl(NO_MAIL));
    expect(await page.getByRole('link', { name: 'Abrir en WhatsApp' }).count()).toBe(0);
    await page.getByLabel('Respuesta o nota').fill('Le llamamos por teléfono.');
    await page.getByRole('button', { name: 'Responder al cliente' }).click();
    await page.waitForURL(/hecho=respuesta-sin-correo/);
    expect(await page.getByRole('status').first().textContent()).toContain('no tiene un correo válido');
    expect(await page.locator('[data-tipo="reply"]').innerText()).toContain('Le llamamos por teléfono.');
    await context.close();
  });

  it('answers an unknown number with 404 inside the staff layout and a link back to the list', async () => {
    const { context, page } = await signedIn();
    for (const numero of ['INC-20990101-1000', '1']) {
      const response = await page.goto(incidentUrl(numero));
      expect(response?.status(), numero).toBe(404);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Incidencia no encontrada');
      expect(await page.getByRole('navigation', { name: 'Panel administrativo' }).count()).toBeGreaterThan(0);
    }
    await expectNoAxeViolations(page);
    await page.getByRole('link', { name: /Volver a la lista de incidencias/ }).click();
    await page.waitForURL(`${server.url}/admin/incidencias`);
    await context.close();
  });
});
