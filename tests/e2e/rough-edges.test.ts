/**
 * Issue 25, the customer's side in a real browser: the what's-new toast never covers a form, its
 * outcome or its button (§3, measured by comparing boxes at every scroll position), the support hours
 * are one setting shown the same everywhere (§6), and the WhatsApp number has one format (§7); on the
 * staff side, a customer's answer is signed with the incident's name (§5) and project states read
 * capitalised (§14). `ROUGH_EDGES_SHOTS=/tmp/prefix` saves screenshots of the changed screens.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, setClientState } from '../../src/server/clients/index.ts';
import { DEFAULT_RESPONSE_TIMES, formatOpeningHours } from '../../src/domain/response-times.ts';
import { openDatabase, type Db } from '../../src/server/db/index.ts';
import { answerFromCustomer } from '../../src/server/incidents/conversation.ts';
import { issueFollowUpToken } from '../../src/server/incidents/follow-up.ts';
import { DESKTOP, PHONE, poll, watchConsole } from '../support/browser.ts';
import { ALAMOS_FORM, insertIncident } from '../support/factories.ts';
import { ageFormStamps } from '../support/form-stamp.ts';
import { MAIL_BRAND } from '../support/mail-brand.ts';
import { signInFirstStaff } from '../support/server.ts';
import { useSite } from '../support/site.ts';

const { server, browser } = useSite({ env: { FORM_RATE_LIMIT: '20' } });

const SUCCESS = '¡Gracias por tu mensaje! Te responderemos pronto.';
// One source since issue 39 §12: the week of 'Tiempos de respuesta', the clock's own.
const DEFAULT_HOURS = formatOpeningHours(DEFAULT_RESPONSE_TIMES).replace(/\s+/g, ' ');
const SHOTS = process.env.ROUGH_EDGES_SHOTS;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlaps = (a: Box, b: Box) =>
  a.width > 0 &&
  a.height > 0 &&
  b.width > 0 &&
  b.height > 0 &&
  a.x < b.x + b.width &&
  b.x < a.x + a.width &&
  a.y < b.y + b.height &&
  b.y < a.y + a.height;

/**
 * Scrolls the page from top to bottom and, at each step, compares the toast's box (while it is visible)
 * with the boxes of what it must never cover. Returns what it covered at which scroll position, and
 * whether the toast was visible at any step.
 */
async function scanToast(page: Page, guarded: Record<string, () => Promise<Box[]>>) {
  const toast = page.getByRole('complementary', { name: 'Novedades', includeHidden: true });
  const covered: string[] = [];
  let everVisible = false;
  const height = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
  for (let y = 0; ; y = Math.min(y + 150, height)) {
    await page.evaluate((top) => scrollTo({ top, behavior: 'instant' }), y);
    // The toast is placed on the next animation frame after a scroll.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    if (await toast.isVisible()) {
      everVisible = true;
      const box = await toast.boundingBox();
      if (!box) throw new Error('el aviso visible no tiene caja');
      for (const [name, boxes] of Object.entries(guarded)) {
        if ((await boxes()).some((other) => overlaps(box, other))) covered.push(`${name} @${y}`);
      }
    }
    if (y >= height) break;
  }
  return { covered, everVisible };
}

const boxesOf = (page: Page, selector: string) => () =>
  page.locator(selector).evaluateAll((elements) =>
    elements.map((element) => {
      const rect = element.getBoundingClientRect();
      return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
    }),
  );

describe("issue 25 §3: the what's-new toast covers no form, outcome or primary button", () => {
  for (const [name, options] of [
    ['1280×800', DESKTOP],
    ['390×844', PHONE],
  ] as const) {
    it(`/contacto after sending: the thanks, the form and its button stay clear (${name})`, async () => {
      const context = await browser.newContext(options);
      const page = await context.newPage();
      const consoleWatch = watchConsole(page);
      // The island asks for its form stamp when it hydrates, on the first keystroke: a fixed pause after
      // filling could still end before that stamp is 1.5 s old on a loaded machine, so it is aged instead.
      await ageFormStamps(page, server.url);
      await page.goto(`${server.url}/contacto`);
      const form = page.locator('#contacto form');
      await form.getByLabel('Nombre').fill('Juan Marte');
      await form.getByLabel('Correo electrónico').fill('juan@ferreteria.test');
      await form.getByLabel('Mensaje').fill('Quisiera una cotización de AdmCloud.');
      await form.getByRole('button', { name: 'Enviar mensaje' }).click();
      await poll(() => form.getByRole('status').textContent()).toBe(SUCCESS);
      // Where the visitor is right after sending: the thanks in view, the toast off it.
      const toast = page.getByRole('complementary', { name: 'Novedades', includeHidden: true });
      const thanks = await form.getByRole('status').boundingBox();
      const toastBox = await toast.boundingBox();
      if (await toast.isVisible()) expect(overlaps(toastBox!, thanks!)).toBe(false);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}-contacto-enviado-${options.viewport!.width}.png` });

      const { covered, everVisible } = await scanToast(page, {
        thanks: boxesOf(page, '#contacto form [role="status"]'),
        'Enviar mensaje': boxesOf(page, '#contacto form button[type="submit"]'),
        form: boxesOf(page, '#contacto form'),
      });
      expect(covered).toEqual([]);
      // It still appears where it covers nothing, and only then counts as seen.
      expect(everVisible).toBe(true);
      expect(
        await page.evaluate(
          () => Object.keys(localStorage).filter((key) => key.startsWith('whatsnew-')).length,
        ),
      ).toBe(1);
      consoleWatch.assertNone();
      await context.close();
    });

    it(`/soporte/seguimiento: 'Consultar estado', the form and 'Otros canales' stay clear (${name})`, async () => {
      const context = await browser.newContext(options);
      const page = await context.newPage();
      const consoleWatch = watchConsole(page);
      await page.goto(`${server.url}/soporte/seguimiento`);
      const button = page.getByRole('button', { name: 'Consultar estado' });
      expect(await button.isVisible()).toBe(true);
      if (SHOTS)
        await page.screenshot({
          path: `${SHOTS}-seguimiento-${options.viewport!.width}.png`,
          fullPage: true,
        });
      const { covered } = await scanToast(page, {
        'Consultar estado': async () => [(await button.boundingBox())!],
        form: boxesOf(page, 'main form'),
        'Otros canales': boxesOf(page, 'main aside[aria-label="Otros canales de soporte"] > div'),
      });
      expect(covered).toEqual([]);
      consoleWatch.assertNone();
      await context.close();
    });
  }

  it('a page without a form still shows it at once, bottom-right (the measure can fail)', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(`${server.url}/servicios`);
    const toast = page.getByRole('complementary', { name: 'Novedades' });
    await poll(() => toast.isVisible()).toBe(true);
    // A form put under it makes it step aside, and taking the form away brings it back.
    await page.evaluate(() => {
      const box = document.getElementById('whatsnew')!.getBoundingClientRect();
      const form = document.createElement('form');
      form.id = 'debajo';
      form.style.cssText = `position:fixed;left:${box.left}px;top:${box.top}px;width:${box.width}px;height:${box.height}px`;
      document.querySelector('main')!.append(form);
    });
    await poll(() => toast.isVisible()).toBe(false);
    await page.evaluate(() => document.getElementById('debajo')!.remove());
    await poll(() => toast.isVisible()).toBe(true);
    await context.close();
  });
});

describe('issue 25 §6 and §7: one support schedule and one WhatsApp format everywhere', () => {
  it("every page that states hours states those of 'Tiempos de respuesta', and the WhatsApp number reads +1 809-555-0142", async () => {
    expect(DEFAULT_HOURS).toBe(
      'Lunes a viernes, de 8:00 a. m. a 6:00 p. m.; sábado, de 8:00 a. m. a 12:00 p. m.',
    );
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    for (const path of ['/', '/contacto', '/soporte/nueva', '/soporte/seguimiento']) {
      await page.goto(`${server.url}${path}`);
      // textContent: the home page's lower sections skip rendering until scrolled to (content-visibility).
      const text = ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ');
      expect(text, path).toContain(DEFAULT_HOURS);
      expect(text, path).not.toMatch(/8:30 a\. m\.|5:30 p\. m\./);
      expect(text, path).not.toContain('+18095550142');
    }
    for (const path of ['/soporte/nueva', '/soporte/seguimiento']) {
      await page.goto(`${server.url}${path}`);
      const whatsapp = page.locator(
        'main aside[aria-label="Otros canales de soporte"] a[href^="https://wa.me/"]',
      );
      expect(await whatsapp.getAttribute('href'), path).toBe('https://wa.me/18095550142');
      expect((await whatsapp.textContent())?.replace(/\s+/g, ' '), path).toMatch(
        /^\+1 809-555-0142 \(se abre/,
      );
    }
    await context.close();
  });
});

describe('issue 25 §5 and §14: the staff side', () => {
  let db: Db;
  let cookie = '';
  let numero = '';
  let nameless = '';
  let clientId = 0;

  beforeAll(async () => {
    db = openDatabase(server.env.DATABASE_URL!).db;
    cookie = await signInFirstStaff(server);
    const answered = async (nombre: string) => {
      const incident = await insertIncident(db, { nombre, email: 'maria@cliente.test' });
      const token = await issueFollowUpToken(db, incident.id, new Date());
      await answerFromCustomer(db, {
        token,
        body: 'Sigue sin imprimir.',
        brand: MAIL_BRAND,
        staffInbox: 'soporte@vertice.test',
      });
      return incident.numeroIncidencia;
    };
    numero = await answered('María Núñez');
    nameless = await answered('  ');
    const { client } = await createClient(db, ALAMOS_FORM);
    clientId = client.id;
    await setClientState(db, clientId, 'en curso');
  });
  afterAll(async () => {
    await db.destroy();
  });

  for (const [name, options] of [
    ['1280×800', DESKTOP],
    ['390×844', PHONE],
  ] as const) {
    it(`signs the customer's answer with the incident's name, 'Cliente' without one (${name})`, async () => {
      const context = await browser.newContext({ ...options, extraHTTPHeaders: { cookie } });
      const page = await context.newPage();
      await page.goto(`${server.url}/admin/incidencias/${numero}`);
      const answer = page.locator('[data-tipo="answer"]');
      expect(await answer.locator('p').first().innerText()).toMatch(
        /^Respuesta del cliente\s+· María Núñez\s+·/,
      );
      if (SHOTS)
        await page.screenshot({ path: `${SHOTS}-respuesta-${options.viewport!.width}.png`, fullPage: true });
      await page.goto(`${server.url}/admin/incidencias/${nameless}`);
      expect(await answer.locator('p').first().innerText()).toMatch(/^Respuesta del cliente\s+· Cliente\s+·/);
      await context.close();
    });

    it(`shows project states capitalised in the list, its filter and the client page; stores them as the spec's (${name})`, async () => {
      const context = await browser.newContext({ ...options, extraHTTPHeaders: { cookie } });
      const page = await context.newPage();
      await page.goto(`${server.url}/admin/clientes`);
      expect(await page.locator(`li[data-cliente="${ALAMOS_FORM.email}"] [data-estado]`).innerText()).toBe(
        'En curso',
      );
      expect(await page.locator('#filtro-estado option').allInnerTexts()).toEqual([
        'Todos los estados',
        'Pendiente',
        'En curso',
        'Completado',
        'Pausado',
      ]);
      expect(
        await page
          .locator('#filtro-estado option')
          .evaluateAll((items) => items.map((item) => (item as HTMLOptionElement).value)),
      ).toEqual(['', 'pendiente', 'en curso', 'completado', 'pausado']);
      if (SHOTS)
        await page.screenshot({ path: `${SHOTS}-clientes-${options.viewport!.width}.png`, fullPage: true });
      await page.goto(`${server.url}/admin/clientes/${clientId}`);
      expect(await page.getByTestId('estado-proyecto').innerText()).toBe('En curso');
      expect(await page.locator('main').innerText()).toContain(
        'Estado del proyecto: de «Pendiente» a «En curso»',
      );
      if (SHOTS)
        await page.screenshot({ path: `${SHOTS}-cliente-${options.viewport!.width}.png`, fullPage: true });
      const stored = await db
        .selectFrom('clients')
        .select('estadoProyecto')
        .where('id', '=', clientId)
        .executeTakeFirstOrThrow();
      expect(stored.estadoProyecto).toBe('en curso');
      const csv = await (await fetch(`${server.url}/api/staff/clientes.csv`, { headers: { cookie } })).text();
      expect(csv).toContain('en curso');
      expect(csv).not.toContain('En curso');
      await context.close();
    });
  }
});
