/**
 * Issue 39, what was left of "a second real day", in Chromium against the production build at the
 * width where each edge was seen: a resolved incident's follow-up page offers the rating of its
 * resolution and says that an answer reopens it, neither once its link takes no answers (§11); the
 * what's-new toast steps aside from 'Escribir por WhatsApp →' on /soporte and from a help article's text
 * at 1280 px (§12); the company's address and an incident number are never split across lines, and the
 * support dialog opens at its top however far it was scrolled when closed (polish).
 * `SECOND_DAY_SHOTS=/tmp/prefix` saves screenshots of the changed screens.
 */
import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { expect, it, describe } from 'vitest';
import { RATING_MESSAGES } from '../../src/domain/forms/rating.ts';
import { ANSWER_REOPENS_MESSAGE, FOLLOW_UP_CLOSED_MESSAGE } from '../../src/domain/forms/tracking.ts';
import { issueFollowUpToken } from '../../src/server/incidents/follow-up.ts';
import { issueRatingToken } from '../../src/server/incidents/rating.ts';
import { setIncidentState } from '../../src/server/incidents/state.ts';
import { DESKTOP, islandHydrated, PHONE, poll } from '../support/browser.ts';
import { insertIncident } from '../support/factories.ts';
import { ageFormStamps } from '../support/form-stamp.ts';
import { runAdminScript } from '../support/server.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';
import { DEFAULT_RESPONSE_TIMES, formatOpeningHours } from '../../src/domain/response-times.ts';

const { server, browser, db, staff, quietContext } = useSite({
  env: { TRUST_PROXY: 'true', FORM_RATE_LIMIT: '50' },
});
const SHOTS = process.env.SECOND_DAY_SHOTS;
const DAY_MS = 24 * 60 * 60 * 1000;

let serial = 0;
/** A visitor's page from a network of its own. */
async function visitor(options: BrowserContextOptions, javaScriptEnabled = true) {
  serial += 1;
  const context = await quietContext({
    ...options,
    javaScriptEnabled,
    extraHTTPHeaders: { 'x-forwarded-for': `203.0.113.${serial}` },
  });
  const page = await context.newPage();
  await ageFormStamps(page, server.url);
  return { context, page };
}

const shot = async (page: Page, name: string, options: BrowserContextOptions) => {
  if (SHOTS)
    await page.screenshot({ path: `${SHOTS}-${name}-${options.viewport!.width}.png`, fullPage: true });
};

/**
 * An incident in `estado` at `at` (a staff change without a notice), and a follow-up link's token for
 * it; with `ratingMail`, the 'Resuelto' notice's rating token too, as the notice issues them.
 */
async function incidentWithLink(
  numeroIncidencia: string,
  estado: 'Resuelto' | 'En Proceso',
  at: Date,
  ratingMail = false,
) {
  const incident = await insertIncident(db, { numeroIncidencia, email: 'ana@cliente.example' });
  await setIncidentState(db, { id: incident.id, estado, actor: 'admin@verticeconsultores.com.do' }, at);
  return db.transaction().execute(async (trx) => ({
    id: incident.id,
    followUp: await issueFollowUpToken(trx, incident.id, at),
    rating: ratingMail ? await issueRatingToken(trx, incident.id, at) : undefined,
  }));
}

const ratedRows = (incidentId: number) =>
  db
    .selectFrom('incidentRatings')
    .select(['valor', 'comentario'])
    .where('incidentId', '=', incidentId)
    .where('ratedAt', 'is not', null)
    .execute();

describe('issue 39 §11: the follow-up page of a resolved incident', () => {
  it('offers the rating and says an answer reopens it; rated there, the mail link is used (1280×800, JavaScript on)', async () => {
    const tokens = await incidentWithLink('INC-20250101-1101', 'Resuelto', new Date(), true);
    const { context, page } = await visitor(DESKTOP);
    await page.goto(`${server.url}/soporte/seguimiento?token=${tokens.followUp}`);
    const rating = page.getByRole('region', { name: 'Valora nuestra atención' });
    await shot(page, 'seguimiento-resuelto', DESKTOP);
    expect(await rating.getByRole('group', { name: '¿Cómo te atendimos?' }).isVisible()).toBe(true);
    expect(await page.locator('#responder').innerText()).toContain(ANSWER_REOPENS_MESSAGE);
    expect(ANSWER_REOPENS_MESSAGE).toContain('Si respondes, la incidencia se reabre');
    await rating.getByRole('radio', { name: /5/ }).check();
    await rating.getByLabel(/Comentario/).fill('Rápidos y amables');
    await rating.getByRole('button', { name: 'Enviar' }).click();
    const thanks = page.getByRole('status').filter({ hasText: RATING_MESSAGES.sent });
    await poll(() => thanks.isVisible()).toBe(true);
    expect(await thanks.evaluate((element) => element === document.activeElement)).toBe(true);
    // Back on the follow-up page, the incident still shown and no form to rate it again.
    expect(page.url()).toContain(`token=${tokens.followUp}`);
    expect(await page.getByRole('region', { name: 'Valora nuestra atención' }).count()).toBe(0);
    await shot(page, 'seguimiento-valorada', DESKTOP);
    expect(await ratedRows(tokens.id)).toEqual([{ valor: 5, comentario: 'Rápidos y amables' }]);
    // The same resolution is rated once: the mail's link says so.
    await page.goto(`${server.url}/soporte/valoracion?token=${tokens.rating}&valor=2`);
    expect(await page.getByTestId('valoracion-cerrada').textContent()).toBe(RATING_MESSAGES.used);
    await page.goto(`${server.url}/soporte/seguimiento?token=${tokens.followUp}`);
    expect(await page.getByRole('region', { name: 'Valora nuestra atención' }).count()).toBe(0);
    // Still said: answering reopens it.
    expect(await page.locator('#responder').innerText()).toContain(ANSWER_REOPENS_MESSAGE);
    await context.close();
  });

  it('rates a resolution no notice was mailed for (390×844, JavaScript off)', async () => {
    const tokens = await incidentWithLink('INC-20250101-1102', 'Resuelto', new Date(Date.now() - 2 * DAY_MS));
    const { context, page } = await visitor(PHONE, false);
    await page.goto(`${server.url}/soporte/seguimiento?token=${tokens.followUp}`);
    await shot(page, 'seguimiento-resuelto', PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await page.locator('#responder').innerText()).toContain(ANSWER_REOPENS_MESSAGE);
    const rating = page.getByRole('region', { name: 'Valora nuestra atención' });
    // Numbers in one format (issue 39, polish): '2.000', not '2000'.
    expect(await rating.innerText()).toContain('Hasta 2.000 caracteres.');
    await rating.getByText('Regular').click();
    await rating.getByRole('button', { name: 'Enviar' }).click();
    await poll(() => page.getByRole('status').filter({ hasText: RATING_MESSAGES.sent }).count()).toBe(1);
    expect(await ratedRows(tokens.id)).toEqual([{ valor: 3, comentario: null }]);
    await context.close();
  });

  it('neither offers the rating nor says it reopens once the link takes no answers, nor before it is resolved (390×844)', async () => {
    const old = await incidentWithLink(
      'INC-20250101-1103',
      'Resuelto',
      new Date(Date.now() - 31 * DAY_MS),
      true,
    );
    const open = await incidentWithLink('INC-20250101-1104', 'En Proceso', new Date());
    const { context, page } = await visitor(PHONE);
    await page.goto(`${server.url}/soporte/seguimiento?token=${old.followUp}`);
    expect(await page.locator('#responder').innerText()).toContain(FOLLOW_UP_CLOSED_MESSAGE);
    expect(await page.locator('main').innerText()).not.toContain('se reabre');
    expect(await page.getByRole('region', { name: 'Valora nuestra atención' }).count()).toBe(0);
    await page.goto(`${server.url}/soporte/seguimiento?token=${open.followUp}`);
    expect(await page.getByRole('heading', { name: 'Responder' }).isVisible()).toBe(true);
    expect(await page.locator('main').innerText()).not.toContain('se reabre');
    expect(await page.getByRole('region', { name: 'Valora nuestra atención' }).count()).toBe(0);
    await context.close();
  });
});

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

const boxesOf = (page: Page, selector: string) => () =>
  page.locator(selector).evaluateAll((elements) =>
    elements.map((element) => {
      const rect = element.getBoundingClientRect();
      return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
    }),
  );

/**
 * Scrolls the page top to bottom and, at each step while the toast is visible, names what it covers
 * (as tests/e2e/rough-edges.test.ts); and whether it was visible at any step.
 */
async function scanToast(page: Page, guarded: Record<string, () => Promise<Box[]>>) {
  const toast = page.getByRole('complementary', { name: 'Novedades', includeHidden: true });
  const covered: string[] = [];
  let everVisible = false;
  const height = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
  for (let y = 0; ; y = Math.min(y + 150, height)) {
    await page.evaluate((top) => scrollTo({ top, behavior: 'instant' }), y);
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    if (await toast.isVisible()) {
      everVisible = true;
      const box = (await toast.boundingBox())!;
      for (const [name, boxes] of Object.entries(guarded))
        if ((await boxes()).some((other) => overlaps(box, other))) covered.push(`${name} @${y}`);
    }
    if (y >= height) break;
  }
  return { covered, everVisible };
}

describe("issue 39 §12: the what's-new toast steps aside at 1280 px", () => {
  it("covers neither 'Escribir por WhatsApp →' on /soporte nor a help article's text (1280×800)", async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(`${server.url}/soporte`);
    const whatsapp = page.getByRole('link', { name: /Escribir por WhatsApp/ });
    expect(await whatsapp.isVisible()).toBe(true);
    await shot(page, 'soporte-aviso', DESKTOP);
    const hub = await scanToast(page, {
      'Escribir por WhatsApp': async () => [(await whatsapp.boundingBox())!],
    });
    expect(hub.covered).toEqual([]);
    // It still shows where it covers nothing.
    expect(hub.everVisible).toBe(true);

    // A help article long enough to read past the toast, published through the editor's own action
    // (it answers once this server's pages show it).
    serial += 1;
    const editor = await signInStaff(
      browser,
      server.url,
      { email: staff.email, password: staff.password, network: `198.51.100.${serial}` },
      DESKTOP,
    );
    const paragraph =
      'Revisa el cable de la impresora térmica, el rollo de papel y que la impresora esté elegida en Configuración de la caja antes de llamar a soporte; si sigue sin imprimir, reinicia el equipo.';
    const published = await editor.context.request.post(
      `${server.url}/admin/contenido/nuevo?_action=content.save`,
      {
        form: {
          id: '',
          version: '',
          tipo: 'ayuda',
          autor: 'Soporte',
          intencion: 'publicar',
          slug: 'impresora-no-imprime-tickets',
          titulo: 'La impresora de tickets no imprime',
          etiquetas: 'Impresoras',
          resumen: 'Qué revisar cuando la impresora térmica de la caja deja de imprimir.',
          cuerpo: Array.from({ length: 8 }, (_, index) => `## Paso ${index + 1}\n\n${paragraph}`).join(
            '\n\n',
          ),
        },
        headers: { origin: server.url },
        maxRedirects: 0,
      },
    );
    expect(published.status()).toBe(303);
    await editor.context.close();
    // A visitor who has not seen it yet opens it.
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${server.url}/ayuda/impresora-no-imprime-tickets`);
    const text = 'main .article-body :is(p, li, h2, h3, pre, table, blockquote)';
    expect(await page.locator(text).count()).toBeGreaterThan(3);
    await shot(page, 'ayuda-aviso', DESKTOP);
    const article = await scanToast(page, { 'el texto del artículo': boxesOf(page, text) });
    expect(article.covered).toEqual([]);
    await context.close();
  });
});

/** How many lines the element's text takes: its text nodes' boxes, those on one line sharing its middle. */
const linesOf = (locator: Locator) =>
  locator.evaluate((element) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const middles: number[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) if (rect.width > 0) middles.push(rect.top + rect.height / 2);
    }
    middles.sort((a, b) => a - b);
    return middles.filter((middle, index) => index === 0 || middle - middles[index - 1]! > 4).length;
  });

describe('issue 39, polish: addresses and incident numbers stay whole', () => {
  for (const options of [PHONE, DESKTOP]) {
    it(`the company's address and an incident number take one line each (${options.viewport!.width}×${options.viewport!.height})`, async () => {
      const tokens = await incidentWithLink(
        `INC-20261207-${4630 + options.viewport!.width / 10}`,
        'En Proceso',
        new Date(),
      );
      const { context, page } = await visitor(options);
      const split: string[] = [];
      for (const path of [
        '/',
        '/contacto',
        '/soporte/nueva',
        `/soporte/seguimiento?token=${tokens.followUp}`,
      ]) {
        await page.goto(`${server.url}${path}`);
        for (const link of await page.locator('a[href^="mailto:contacto@"]').all()) {
          if (!(await link.isVisible()) || !(await link.innerText()).includes('@')) continue;
          await link.scrollIntoViewIfNeeded();
          if ((await linesOf(link)) !== 1) split.push(`${path}: ${await link.innerText()}`);
        }
      }
      const heading = page.getByRole('heading', { name: /^INC-/ });
      expect(await linesOf(heading)).toBe(1);
      expect(split).toEqual([]);
      await context.close();
    });
  }
});

describe('issue 39, polish: the support dialog opens at its top', () => {
  it('reopened after it was scrolled to its end and closed, it shows its title and first field (390×844)', async () => {
    const { context, page } = await visitor(PHONE);
    await page.goto(`${server.url}/soporte`);
    const open = page.getByRole('button', { name: /Solicitar Ayuda/ });
    await open.click();
    const dialog = page.getByRole('dialog', { name: 'Solicita ayuda' });
    await poll(() => dialog.isVisible()).toBe(true);
    await islandHydrated(dialog);
    for (const close of ['Cancelar', 'Escape'] as const) {
      // To its end, as a visitor who reached 'Cancelar'.
      await dialog.evaluate((element) =>
        element.scrollTo({ top: element.scrollHeight, behavior: 'instant' }),
      );
      expect(await dialog.evaluate((element) => element.scrollTop)).toBeGreaterThan(300);
      if (close === 'Escape') await page.keyboard.press('Escape');
      else await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await poll(() => dialog.isVisible()).toBe(false);
      await open.click();
      await poll(() => dialog.isVisible()).toBe(true);
      await poll(() => dialog.evaluate((element) => element.scrollTop)).toBe(0);
      const first = dialog.getByRole('textbox').first();
      const box = (await first.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(PHONE.viewport!.height);
    }
    await shot(page, 'dialogo-reabierto', PHONE);
    await context.close();
  });
});

describe('issue 39, polish: `npm run admin -- list` reads in Santo Domingo time', () => {
  it('says so above the list, and writes the creation date as the last sign-in is written', async () => {
    // 03:30 UTC on 7 December is 23:30 of the 6th in Santo Domingo.
    await db
      .withoutPlugins()
      .updateTable('user')
      .set({ createdAt: '2026-12-07T03:30:00.000Z' })
      .where('email', '=', 'admin@verticeconsultores.com.do')
      .execute();
    const listed = runAdminScript(server, ['list'], 'admin@verticeconsultores.com.do');
    expect(listed.split('\n')[0]).toBe(
      'Cuentas de personal, fechas en dd/mm/aaaa hh:mm (hora de Santo Domingo):',
    );
    expect(listed).toMatch(/admin@verticeconsultores\.com\.do\t.*\tcreada 06\/12\/2026 23:30\t/);
    expect(listed).not.toMatch(/\d{4}-\d\d-\d\dT/);
  });
});

describe("issue 39 §12: one set of business hours, 'Tiempos de respuesta'", () => {
  it('the public pages state the hours the clock counts, and follow them when staff change them (1280×800)', async () => {
    const publicText = async (page: Page, path: string) => {
      await page.goto(`${server.url}${path}`);
      // textContent: the home page's lower sections skip rendering until scrolled to (content-visibility).
      return ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ');
    };
    const paths = ['/', '/contacto', '/soporte/nueva', '/soporte/valoracion'];
    const { context, page } = await visitor(DESKTOP);
    const counted = formatOpeningHours(DEFAULT_RESPONSE_TIMES).replace(/\s+/g, ' ');
    // The clock counts Saturday morning: so do the pages, no longer 'Lunes a viernes' alone.
    expect(counted).toBe('Lunes a viernes, de 8:00 a. m. a 6:00 p. m.; sábado, de 8:00 a. m. a 12:00 p. m.');
    for (const path of paths) expect(await publicText(page, path), path).toContain(counted);

    // Staff close Saturdays and open at 8:30 on weekdays in 'Tiempos de respuesta'.
    serial += 1;
    const signed = await signInStaff(
      browser,
      server.url,
      { email: staff.email, password: staff.password, network: `198.51.100.${serial}` },
      DESKTOP,
    );
    await signed.page.goto(`${server.url}/admin/configuracion#tiempos-de-respuesta`);
    const section = signed.page.locator('#tiempos-de-respuesta');
    await section.getByLabel('Sábado', { exact: true }).uncheck();
    for (const day of ['Lunes', 'Martes', 'Miércoles', 'Jueves', 'Viernes'])
      await section.getByLabel(`${day}: desde`, { exact: true }).fill('08:30');
    await section.getByRole('button', { name: 'Guardar tiempos de respuesta' }).click();
    await poll(() => section.getByRole('status').textContent()).toContain(
      'Los tiempos de respuesta se guardaron',
    );
    const now = (await section.locator('#tiempos-uso').textContent())!.replace(/\s+/g, ' ');
    await signed.context.close();
    const saved = /«(.+)»/.exec(now)![1]!;
    expect(saved).not.toContain('sábado');
    expect(saved).toBe('Lunes a viernes, de 8:30 a. m. a 6:00 p. m.');
    // Every page says so: the built ones once they are rendered again.
    for (const path of paths) await poll(() => publicText(page, path)).toContain(saved);
    await shot(page, 'contacto-horario', DESKTOP);
    await context.close();
  });
});
