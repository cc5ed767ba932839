/**
 * The staff search (`/admin/buscar`, issue 22) against the production build in Chromium: the frame's
 * box, focused by `/` (not while typing in a field), leads to the grouped results with the matching
 * words marked and an XSS payload shown as text; the page works without JavaScript (the box is a plain
 * GET form) and fits a phone; the list's 'Texto' filter uses the same index; strangers are sent to sign in; axe at phone
 * and desktop widths.
 */
import type { BrowserContextOptions } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, expectNoAxeViolations, PHONE, watchConsole } from '../support/browser.ts';
import { insertClient, insertContactMessage, insertIncident } from '../support/factories.ts';
import { createStaffAccount } from '../support/server.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';

const SUPPORT = 'soporte@verticeconsultores.com.do';
const PASSWORD = 'clave-de-soporte-2025';
const XSS = '<img src=x onerror=alert(1)>';

const { server, browser, db } = useSite({
  env: () => ({ ADMIN_EMAILS: SUPPORT, TRUST_PROXY: 'true', LOG_LEVEL: 'warn' }),
});

let ipCounter = 0;
let incidentNumber = '';

beforeAll(async () => {
  await createStaffAccount(server, { email: SUPPORT, password: PASSWORD }, SUPPORT);
  const incident = await insertIncident(db, {
    numeroIncidencia: 'INC-20260110-5555',
    nombre: 'Rosa Almonte',
    problema: `La impresora fiscal no quiere imprimir la Facturación ${XSS}`,
  });
  incidentNumber = incident.numeroIncidencia;
  await db
    .insertInto('incidentEntries')
    .values({
      incidentId: incident.id,
      kind: 'note',
      authorId: null,
      authorEmail: SUPPORT,
      body: 'Se cambió el cabezal de la impresora.',
      createdAt: '2026-01-10T12:00:00.000Z',
    })
    .execute();
  await insertContactMessage(db, {
    name: 'Carlos Féliz',
    message: 'Necesito imprimir la facturación desde Tiendao.',
  });
  await insertClient(db, { razonSocial: 'Imprimir Facturación SRL', rnc: '130555555' });
});

function signedIn(options: BrowserContextOptions = DESKTOP, javaScriptEnabled = true) {
  ipCounter += 1;
  return signInStaff(
    browser,
    server.url,
    { email: SUPPORT, password: PASSWORD, network: `198.51.100.${ipCounter}` },
    { ...options, javaScriptEnabled },
  );
}

describe('staff search', () => {
  it("is reached from the frame's box with '/', groups and marks the results, escapes the text, and passes axe", async () => {
    const { context, page } = await signedIn();
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/admin/incidencias`);
    const box = page.getByRole('searchbox', { name: 'Buscar en incidencias, mensajes y clientes' });

    // '/' typed into a field stays in the field.
    const number = page.getByLabel('Número');
    await number.click();
    await page.keyboard.type('/');
    await expect.poll(() => number.inputValue()).toBe('/');
    await expect.poll(() => box.evaluate((element) => element === document.activeElement)).toBe(false);
    await number.fill('');
    // Elsewhere it focuses the frame's box, without typing itself into it.
    await page.locator('h1').click();
    await page.keyboard.press('/');
    await expect.poll(() => box.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.type('facturacion imprime');
    await expect.poll(() => box.inputValue()).toBe('facturacion imprime');
    await Promise.all([
      page.waitForURL(/\/admin\/buscar\?q=facturacion\+imprime$/),
      page.keyboard.press('Enter'),
    ]);

    await expect.poll(() => page.locator('h1').textContent()).toBe('Buscar');
    const groups = page.locator('section[data-grupo]');
    await expect
      .poll(() => groups.evaluateAll((list) => list.map((item) => item.getAttribute('data-grupo'))))
      .toEqual(['incidents', 'messages', 'clients']);
    const incident = page.locator('section[data-grupo="incidents"] li');
    await expect.poll(() => incident.count()).toBe(1);
    const marks = await incident.locator('mark').allTextContents();
    expect(marks).toEqual(expect.arrayContaining(['imprimir', 'Facturación']));
    // The payload is text, not an element.
    expect(await incident.textContent()).toContain(XSS);
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.locator('section[data-grupo="messages"] mark').allTextContents()).toEqual([
      'imprimir',
      'facturación',
    ]);
    expect(await page.locator('section[data-grupo="clients"] mark').allTextContents()).toEqual([
      'Imprimir',
      'Facturación',
    ]);
    await expectNoAxeViolations(page);

    // A result opens the incident.
    await Promise.all([
      page.waitForURL(/\/admin\/incidencias\/INC-20260110-5555$/),
      incident.getByRole('link').click(),
    ]);
    consoleWatch.assertNone();
    await context.close();
  });

  it('says when nothing matches, and reads well on a phone (axe)', async () => {
    const { context, page } = await signedIn(PHONE);
    await page.goto(`${server.url}/admin/mensajes`);
    const box = page.getByRole('searchbox', { name: 'Buscar en incidencias, mensajes y clientes' });
    await box.fill('cabezal');
    await Promise.all([page.waitForURL(/\/admin\/buscar\?q=cabezal$/), box.press('Enter')]);
    const incident = page.locator('section[data-grupo="incidents"] li');
    expect(await incident.count()).toBe(1);
    expect(await incident.locator('mark').allTextContents()).toEqual(['cabezal']);
    expect(await incident.textContent()).toContain('Nota interna');
    expect(await page.locator('section[data-grupo="messages"]').textContent()).toContain(
      'Ningún mensaje coincide.',
    );
    await expectNoAxeViolations(page);
    // Everything fits the 390 px screen: the frame's box (wide enough to type in) and the result.
    const boxSize = (await box.boundingBox())!;
    expect(boxSize.width).toBeGreaterThanOrEqual(120);
    expect(boxSize.x + boxSize.width).toBeLessThanOrEqual(390);
    const card = (await incident.boundingBox())!;
    expect(card.x + card.width).toBeLessThanOrEqual(390);

    const form = page.getByRole('search', { name: 'Nueva búsqueda' });
    await form.getByLabel('Palabras').fill('zzzz');
    await Promise.all([page.waitForURL(/\?q=zzzz$/), form.getByRole('button', { name: 'Buscar' }).click()]);
    expect(await page.getByRole('status').textContent()).toContain('No encontramos nada con «zzzz»');
    await context.close();
  });

  it("works without JavaScript, and the incident list's 'Texto' filter uses the same index", async () => {
    const { context, page } = await signedIn(DESKTOP, false);
    await page.goto(`${server.url}/admin/incidencias`);
    const box = page.getByRole('searchbox', { name: 'Buscar en incidencias, mensajes y clientes' });
    await box.fill('Cabezal');
    await Promise.all([page.waitForURL(/\/admin\/buscar\?q=Cabezal$/), box.press('Enter')]);
    expect(await page.locator('section[data-grupo="incidents"] mark').allTextContents()).toEqual(['cabezal']);

    await page.goto(`${server.url}/admin/incidencias?q=${encodeURIComponent('CABEZAL impresoras')}`);
    expect(await page.getByLabel('Texto').inputValue()).toBe('CABEZAL impresoras');
    expect(
      await page
        .locator('[data-incidencia]')
        .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-incidencia'))),
    ).toEqual([incidentNumber]);
    await context.close();
  });

  it('sends strangers to sign in', async () => {
    const response = await fetch(`${server.url}/admin/buscar?q=factura`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/admin-login');
  });
});
