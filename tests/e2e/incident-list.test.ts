/**
 * The support desk's incident list (issue 11) against the production build, in Chromium: the
 * 'Asignadas a mí' and 'Sin asignar' filters alone and with the state filter, kept in the URL, across
 * pages and in the CSV link; the sort by last activity; the 'Asignada a', 'Última actividad' and age
 * columns; the 'Respuesta del cliente' mark on desktop and phone; axe at both sizes and no sideways
 * scroll on a phone, where 'Más filtros' folds the fields beside 'Texto' so the incidents come first.
 * `LIST_SCREENSHOTS=/tmp/lista` saves screenshots at 390 and 1280 px.
 */
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, expectNoAxeViolations, PHONE, watchConsole } from '../support/browser.ts';
import { insertIncidents } from '../support/factories.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';

const { server, browser, db, staff } = useSite({ env: { TRUST_PROXY: 'true', LOG_LEVEL: 'warn' } });
const SHOTS = process.env.LIST_SCREENSHOTS;

const DAY = 24 * 60 * 60 * 1000;
/** Unassigned, opened three days ago: the newest incident by creation. */
const RECENT = 'INC-20250301-7001';
/** Mine, the oldest by creation, the newest by activity, with a customer answer waiting. */
const OLD_ACTIVE = 'INC-20240101-7002';
const LUIS_WAITING = 'INC-20250120-7005';
const MINE = Array.from({ length: 44 }, (_, i) => `INC-20250201-${1000 + i}`);
const mineRegistered = MINE.filter((_, i) => i % 2 === 0).reverse();

let myName = '';
let ipCounter = 0;

beforeAll(async () => {
  const me = await db
    .withoutPlugins()
    .selectFrom('user')
    .select(['id', 'name'])
    .where('email', '=', staff.email)
    .executeTakeFirstOrThrow();
  myName = me.name.trim() || staff.email;
  const stamp = new Date('2025-01-01T00:00:00.000Z').toISOString();
  await db
    .withoutPlugins()
    .insertInto('user')
    .values({
      id: 'user-luis',
      name: '',
      email: 'luis@vertice.example',
      emailVerified: 1,
      image: null,
      createdAt: stamp,
      updatedAt: stamp,
      mustChangePassword: 0,
      twoFactorEnabled: 0,
    })
    .execute();
  // Every row names every column: a multi-row insert fills a missing one with null, not its default.
  const base = {
    problema: 'No imprime la factura.',
    nombre: 'José Pérez',
    telefono: '809-555-0142',
    email: 'jose@cliente.example',
    rnc: '101850043',
    assignedTo: null,
    customerWaiting: false,
  };
  await insertIncidents(db, [
    ...MINE.map((numeroIncidencia, i) => ({
      ...base,
      numeroIncidencia,
      estado: i % 2 === 0 ? ('Registrado' as const) : ('En Proceso' as const),
      fecha: new Date(Date.parse('2025-02-01T00:00:00.000Z') + i * 60 * 60_000).toISOString(),
      assignedTo: me.id,
    })),
    {
      ...base,
      numeroIncidencia: RECENT,
      estado: 'Registrado',
      fecha: new Date(Date.now() - 3 * DAY - 60_000).toISOString(),
    },
    {
      ...base,
      numeroIncidencia: OLD_ACTIVE,
      estado: 'Resuelto',
      fecha: '2024-01-01T12:00:00.000Z',
      lastActivityAt: new Date(Date.now() - 60 * 60_000).toISOString(),
      assignedTo: me.id,
      customerWaiting: true,
    },
    {
      ...base,
      numeroIncidencia: 'INC-20250115-7003',
      estado: 'Registrado',
      fecha: '2025-01-15T12:00:00.000Z',
    },
    { ...base, numeroIncidencia: 'INC-20250116-7004', estado: 'Resuelto', fecha: '2025-01-16T12:00:00.000Z' },
    {
      ...base,
      numeroIncidencia: LUIS_WAITING,
      estado: 'En Proceso',
      fecha: '2025-01-20T12:00:00.000Z',
      lastActivityAt: '2025-03-01T15:30:00.000Z',
      assignedTo: 'user-luis',
      customerWaiting: true,
    },
  ]);
});

async function signedIn(
  options: BrowserContextOptions = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  ipCounter += 1;
  return signInStaff(browser, server.url, { ...staff, network: `198.51.100.${ipCounter}` }, options);
}

const numbers = (page: Page) =>
  page
    .locator('article[data-incidencia]')
    .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-incidencia')));
const card = (page: Page, numero: string) => page.locator(`article[data-incidencia="${numero}"]`);
const hydrated = (page: Page) =>
  page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);

async function filter(
  page: Page,
  choices: { asignacion?: string; estado?: string; orden?: string },
): Promise<void> {
  if (choices.asignacion) await page.getByLabel('Asignación').selectOption({ label: choices.asignacion });
  if (choices.estado)
    await page.getByLabel('Estado', { exact: true }).first().selectOption({ label: choices.estado });
  if (choices.orden) await page.getByLabel('Ordenar por').selectOption({ label: choices.orden });
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await page.waitForLoadState('load');
}

describe('incident list of the support desk', () => {
  it("filters 'Asignadas a mí' and 'Sin asignar', with the state, kept in the URL, the pages and the CSV link", async () => {
    const { context, page } = await signedIn();
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/admin/incidencias`);
    await hydrated(page);

    await filter(page, { asignacion: 'Asignadas a mí', estado: 'Registrado' });
    await page.waitForURL(/asignacion=mias/);
    const first = new URL(page.url());
    expect([first.searchParams.get('asignacion'), first.searchParams.get('estado')]).toEqual([
      'mias',
      'Registrado',
    ]);
    expect(await numbers(page)).toEqual(mineRegistered.slice(0, 20));
    expect(new Set(await page.getByTestId('asignada-a').allTextContents())).toEqual(new Set([myName]));
    // The form shows the filters it applied.
    expect(await page.getByLabel('Asignación').inputValue()).toBe('mias');
    // The CSV link exports this same view.
    const csvHref = (await page.getByRole('link', { name: 'Exportar CSV' }).getAttribute('href')) ?? '';
    expect(csvHref).toBe('/api/staff/incidencias.csv?estado=Registrado&asignacion=mias');
    const csv = await (await context.request.get(`${server.url}${csvHref}`)).text();
    expect(csv.match(/INC-\d{8}-\d{4}/g)).toEqual(mineRegistered);

    // Page 2 keeps both filters.
    await page.getByRole('link', { name: 'Siguiente →' }).click();
    await page.waitForURL(/pagina=2/);
    const second = new URL(page.url());
    expect([second.searchParams.get('asignacion'), second.searchParams.get('estado')]).toEqual([
      'mias',
      'Registrado',
    ]);
    expect(await numbers(page)).toEqual(mineRegistered.slice(20));
    await page.getByRole('link', { name: '← Anterior' }).click();
    await page.waitForURL(
      (url) => url.searchParams.get('asignacion') === 'mias' && !url.searchParams.has('pagina'),
    );

    // 'Sin asignar', alone and with a state; 'Limpiar' drops every filter.
    await hydrated(page);
    await page.getByLabel('Estado', { exact: true }).first().selectOption({ label: 'Todos' });
    await filter(page, { asignacion: 'Sin asignar' });
    await page.waitForURL(/asignacion=sin-asignar/);
    expect(await numbers(page)).toEqual([RECENT, 'INC-20250116-7004', 'INC-20250115-7003']);
    expect(new Set(await page.getByTestId('asignada-a').allTextContents())).toEqual(new Set(['Sin asignar']));
    await hydrated(page);
    await filter(page, { estado: 'Registrado' });
    await page.waitForURL(/estado=Registrado/);
    expect(await numbers(page)).toEqual([RECENT, 'INC-20250115-7003']);
    await page.getByRole('link', { name: 'Limpiar' }).click();
    await page.waitForURL(`${server.url}/admin/incidencias`);
    expect((await numbers(page)).length).toBe(20);
    consoleWatch.assertNone();
    await context.close();
  });

  it("sorts by 'Más recientes' or 'Última actividad', in the URL and across pages", async () => {
    const { context, page } = await signedIn();
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/admin/incidencias`);
    expect((await numbers(page))[0]).toBe(RECENT);
    expect(await page.getByLabel('Ordenar por').inputValue()).toBe('');
    await hydrated(page);
    await filter(page, { orden: 'Última actividad' });
    await page.waitForURL(/orden=actividad/);
    // Newest activity first: the answer of an hour ago, then the incident opened three days ago.
    expect((await numbers(page)).slice(0, 3)).toEqual([OLD_ACTIVE, RECENT, LUIS_WAITING]);
    expect(await page.getByText('Con actividad más reciente primero.').isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Siguiente →' }).click();
    await page.waitForURL(
      (url) => url.searchParams.get('orden') === 'actividad' && url.searchParams.get('pagina') === '2',
    );
    expect(await numbers(page)).not.toContain(OLD_ACTIVE);
    // With 'Asignadas a mí' too.
    await page.goto(`${server.url}/admin/incidencias?asignacion=mias&orden=actividad`);
    expect((await numbers(page)).slice(0, 2)).toEqual([OLD_ACTIVE, MINE.at(-1)]);
    consoleWatch.assertNone();
    await context.close();
  });

  it("shows who has each incident, its last activity in Santo Domingo time, its age and the 'Respuesta del cliente' mark; passes axe", async () => {
    const { context, page } = await signedIn();
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/admin/incidencias?orden=actividad`);
    const luis = card(page, LUIS_WAITING);
    expect(await luis.getByTestId('asignada-a').textContent()).toBe('luis@vertice.example');
    // 15:30 UTC is 11:30 in Santo Domingo (UTC-4).
    expect(await luis.getByTestId('ultima-actividad').textContent()).toBe('01/03/2025 11:30');
    expect(await luis.getByText('Última actividad').isVisible()).toBe(true);
    expect(await luis.getByText('Asignada a').isVisible()).toBe(true);
    expect(await card(page, RECENT).getByTestId('antiguedad').textContent()).toBe('abierta hace 3 días');
    expect(await card(page, RECENT).getByTestId('asignada-a').textContent()).toBe('Sin asignar');
    // The mark: on the incidents with an answer waiting, read as text by screen readers, on no other.
    for (const numero of [OLD_ACTIVE, LUIS_WAITING]) {
      const mark = card(page, numero).getByTestId('respuesta-del-cliente');
      expect(await mark.isVisible()).toBe(true);
      expect(await mark.innerText()).toBe('Respuesta del cliente');
      expect(await mark.getAttribute('aria-hidden')).toBeNull();
    }
    expect(await page.getByTestId('respuesta-del-cliente').count()).toBe(2);
    await hydrated(page);
    // On a desktop every filter is shown, with no 'Más filtros' switch.
    const form = page.getByRole('search', { name: 'Filtrar incidencias' });
    for (const label of ['Número', 'Nombre', 'RNC', 'Estado', 'Vencimiento', 'Ordenar por', 'Texto'])
      expect(await form.getByLabel(label, { exact: true }).isVisible()).toBe(true);
    expect(await form.getByText('Más filtros').isVisible()).toBe(false);
    await expectNoAxeViolations(page);
    if (SHOTS) {
      await page.screenshot({ path: `${SHOTS}-desktop.png` });
      await page.screenshot({ path: `${SHOTS}-desktop-full.png`, fullPage: true });
    }
    consoleWatch.assertNone();
    await context.close();
  });

  it('stays usable on a phone: the mark and the filters visible, nothing wider than the screen; passes axe', async () => {
    const { context, page } = await signedIn(PHONE);
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/admin/incidencias?orden=actividad`);
    await hydrated(page);
    const mark = card(page, OLD_ACTIVE).getByTestId('respuesta-del-cliente');
    expect(await mark.isVisible()).toBe(true);
    const box = await mark.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    expect(await page.getByLabel('Asignación').isVisible()).toBe(true);
    expect(await page.getByLabel('Ordenar por').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoAxeViolations(page);
    if (SHOTS) {
      await page.screenshot({ path: `${SHOTS}-phone.png` });
      await page.screenshot({ path: `${SHOTS}-phone-full.png`, fullPage: true });
      await mark.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}-phone-card.png` });
    }
    // Filtering works there too.
    await filter(page, { asignacion: 'Asignadas a mí' });
    await page.waitForURL(/asignacion=mias/);
    expect(new URL(page.url()).searchParams.get('orden')).toBe('actividad');
    expect((await numbers(page))[0]).toBe(OLD_ACTIVE);
    consoleWatch.assertNone();
    await context.close();
  });

  it("puts the incidents first on a phone: 'Más filtros' folds the nine fields beside 'Texto', open when one is set", async () => {
    const { context, page } = await signedIn(PHONE);
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/admin/incidencias`);
    await hydrated(page);
    const form = page.getByRole('search', { name: 'Filtrar incidencias' });
    const more = form.getByText('Más filtros');
    const fields = [
      'Número',
      'Nombre',
      'RNC',
      'Estado',
      'Prioridad',
      'Asignación',
      'Origen',
      'Vencimiento',
      'Ordenar por',
    ];
    const shown = async () => {
      const seen: string[] = [];
      for (const label of fields)
        if (await form.getByLabel(label, { exact: true }).isVisible()) seen.push(label);
      return seen;
    };
    expect(await shown()).toEqual([]);
    expect(await form.getByLabel('Texto').isVisible()).toBe(true);
    expect(await form.getByRole('button', { name: 'Filtrar' }).isVisible()).toBe(true);
    // The first incident starts on the first screen (844 px high).
    const first = await page.locator('article[data-incidencia]').first().boundingBox();
    expect(first && first.y + 120 < 844).toBe(true);
    await expectNoAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}-phone-folded.png` });

    await more.click();
    expect(await shown()).toEqual(fields);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await more.click();
    expect(await shown()).toEqual([]);
    // By keyboard too: the switch is a checkbox, focused and turned with the space bar.
    await form.getByLabel('Más filtros').focus();
    await page.keyboard.press('Space');
    expect(await shown()).toEqual(fields);

    await form.getByLabel('Estado', { exact: true }).selectOption('En Proceso');
    await form.getByLabel('Ordenar por').selectOption('actividad');
    await Promise.all([page.waitForURL(/estado=En/), form.getByRole('button', { name: 'Filtrar' }).click()]);
    await hydrated(page);
    // Set filters keep the fields open and are counted.
    expect(await shown()).toEqual(fields);
    expect(await more.innerText()).toBe('Más filtros2 activos');
    expect(await form.getByLabel('Estado', { exact: true }).inputValue()).toBe('En Proceso');
    // 'Texto' alone leaves them folded.
    await page.goto(`${server.url}/admin/incidencias?q=factura`);
    await hydrated(page);
    expect(await shown()).toEqual([]);
    expect(await more.innerText()).toBe('Más filtros');
    consoleWatch.assertNone();
    await context.close();
  });
});
