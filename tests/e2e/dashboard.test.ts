/**
 * The staff home's charts (issue 12) against the production build in Chromium: each SVG with its
 * title and description, the 'Ver datos' tables holding the numbers the database holds (counted here
 * from the raw rows, apart from the site's queries), the same charts with JavaScript off and no chart
 * script requested, and axe at 390 and 1280 px.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDuration } from '../../src/domain/dashboard.ts';
import type { HistoryEntry } from '../../src/domain/incidents.ts';
import { DESKTOP, PHONE, expectNoAxeViolations, watchConsole } from '../support/browser.ts';
import { insertIncidents } from '../support/factories.ts';
import { createStaffAccount } from '../support/server.ts';
import { useSite } from '../support/site.ts';

const ADMIN = 'admin@verticeconsultores.com.do';
const SUPPORT = 'soporte@verticeconsultores.com.do';
const PASSWORD = 'clave-de-soporte-2025';
const SHOTS = process.env.DASHBOARD_SCREENSHOTS;
const DAY = 86_400_000;

const { server, browser, db } = useSite({
  env: () => ({ ADMIN_EMAILS: `${ADMIN},${SUPPORT}`, TRUST_PROXY: 'true', LOG_LEVEL: 'warn' }),
});
let ipCounter = 0;

const SD_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Santo_Domingo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
/** Santo Domingo's calendar day of an instant, and the Monday of its week. */
const localDayOf = (at: number) => SD_DAY.format(new Date(at));
function mondayOf(at: number): string {
  const day = new Date(`${localDayOf(at)}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}
const shiftDay = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
const plain = (text: string) => Number(text.replace(/\D/g, ''));

beforeAll(async () => {
  await createStaffAccount(server, { email: SUPPORT, password: PASSWORD }, `${ADMIN},${SUPPORT}`);
  const now = Date.now();
  const today = localDayOf(now);
  // Views on a few days only: the others must read as zero.
  await db
    .insertInto('pageViews')
    .values([
      { day: today, path: '/', count: 4 },
      { day: today, path: '/blog', count: 3 },
      { day: shiftDay(today, -2), path: '/contacto', count: 12 },
      { day: shiftDay(today, -17), path: '/', count: 25 },
      { day: shiftDay(today, -29), path: '/', count: 1 },
      { day: shiftDay(today, -30), path: '/', count: 99 },
    ])
    .execute();
  // Incidents over 13 weeks, some weeks left empty, resolved after hours to days (one reopened).
  const rows: { numeroIncidencia: string; fecha: string }[] = [];
  const histories = new Map<string, HistoryEntry[]>();
  const spans = [2, 5, 30, 50, 75, 26, 3, 100, 8, 60];
  for (const [index, daysAgo] of [1, 3, 4, 9, 12, 20, 33, 34, 40, 47, 55, 58, 70, 72, 88].entries()) {
    const opened = now - daysAgo * DAY - 3_600_000;
    const numeroIncidencia = `INC-20250101-${2000 + index}`;
    rows.push({ numeroIncidencia, fecha: new Date(opened).toISOString() });
    const history: HistoryEntry[] = [
      { estado: 'Registrado', fecha: new Date(opened).toISOString(), actor: null },
    ];
    const span = spans[index % spans.length]! * 3_600_000;
    if (index % 4 !== 3 && opened + span < now) {
      history.push({ estado: 'Resuelto', fecha: new Date(opened + span).toISOString(), actor: SUPPORT });
      if (index === 5 && opened + 2 * span < now) {
        history.push({
          estado: 'En Proceso',
          fecha: new Date(opened + span + 60_000).toISOString(),
          actor: SUPPORT,
        });
        history.push({
          estado: 'Resuelto',
          fecha: new Date(opened + 2 * span).toISOString(),
          actor: SUPPORT,
        });
      }
    }
    histories.set(numeroIncidencia, history);
  }
  await insertIncidents(
    db,
    rows.map((row) => ({ ...row, estado: histories.get(row.numeroIncidencia)!.at(-1)!.estado })),
    (row) => histories.get(row.numeroIncidencia)!,
  );
});

async function staffHome(
  options = DESKTOP,
  javaScriptEnabled = true,
): Promise<{ context: BrowserContext; page: Page; scripts: string[] }> {
  ipCounter += 1;
  const context = await browser.newContext({
    ...options,
    javaScriptEnabled,
    extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${ipCounter}` },
  });
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto(`${server.url}/admin-login`);
  await page.getByLabel('Correo electrónico').fill(SUPPORT);
  await page.getByLabel('Contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await page.waitForURL(`${server.url}/admin`);
  await page.waitForLoadState('load');
  return { context, page, scripts };
}

/** The rows of a chart's 'Ver datos' table, opened as a visitor opens it. */
async function tableOf(page: Page, chart: string): Promise<string[][]> {
  const card = page.locator(`[data-chart="${chart}"]`);
  const details = card.locator('details');
  if (!(await details.evaluate((element) => (element as HTMLDetailsElement).open)))
    await card.getByText('Ver datos').click();
  await expect.poll(() => card.locator('table').isVisible()).toBe(true);
  return card
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => (cell.textContent ?? '').trim())),
    );
}

/** What the database holds, counted here from the raw rows. */
async function expected() {
  const now = Date.now();
  const today = localDayOf(now);
  const views = await db.selectFrom('pageViews').selectAll().execute();
  const days = Array.from({ length: 30 }, (_, index) => shiftDay(today, index - 29));
  const visits = days.map((day) =>
    views.filter((row) => row.day === day).reduce((sum, row) => sum + Number(row.count), 0),
  );

  const incidents = await db.selectFrom('incidents').select(['id', 'fecha']).execute();
  const events = await db.selectFrom('incidentEvents').selectAll().orderBy('fecha').orderBy('id').execute();
  const opened = new Map(incidents.map((row) => [row.id, Date.parse(String(row.fecha))]));
  const first = new Map<number, number>();
  for (const event of events)
    if (event.estado === 'Resuelto' && !first.has(event.incidentId))
      first.set(event.incidentId, Date.parse(String(event.fecha)));
  const thisMonday = mondayOf(now);
  const mondays = Array.from({ length: 12 }, (_, index) => shiftDay(thisMonday, (index - 11) * 7));
  const weeks = mondays.map((monday) => [
    [...opened.values()].filter((at) => mondayOf(at) === monday).length,
    [...first.values()].filter((at) => mondayOf(at) === monday).length,
  ]);
  const medianOf = (from: string, to: string) => {
    const seconds = [...first]
      .filter(([, at]) => localDayOf(at) >= from && localDayOf(at) <= to)
      .map(([id, at]) => (at - opened.get(id)!) / 1000)
      .sort((a, b) => a - b);
    const middle = Math.floor(seconds.length / 2);
    const median = seconds.length % 2 ? seconds[middle]! : (seconds[middle - 1]! + seconds[middle]!) / 2;
    return { count: seconds.length, text: seconds.length ? formatDuration(Math.round(median)) : 'Sin datos' };
  };
  return {
    visits,
    weeks,
    current: medianOf(shiftDay(today, -29), today),
    previous: medianOf(shiftDay(today, -59), shiftDay(today, -30)),
  };
}

describe('staff home charts', () => {
  it('draws each chart as an SVG with a title and a description, its table holding the numbers of the database', async () => {
    const { context, page } = await staffHome();
    const consoleWatch = watchConsole(page);
    for (const [chart, title] of [
      ['grafico-visitas', 'Visitas de los últimos 30 días'],
      ['grafico-incidencias', 'Incidencias por semana'],
      ['grafico-resolucion', 'Tiempo de resolución'],
    ] as const) {
      const card = page.locator(`[data-chart="${chart}"]`);
      await expect.poll(() => card.getByRole('heading', { level: 2 }).textContent()).toBe(title);
      const svg = card.locator('svg[role="img"]');
      await expect.poll(() => svg.count()).toBe(1);
      expect(await svg.locator('title').textContent()).toBe(title);
      expect((await svg.locator('desc').textContent())!.length).toBeGreaterThan(40);
      // The accessible name and description come from them.
      const labelledBy = (await svg.getAttribute('aria-labelledby'))!.split(' ');
      expect(labelledBy).toEqual([
        await svg.locator('title').getAttribute('id'),
        await svg.locator('desc').getAttribute('id'),
      ]);
      expect(await card.locator('details').evaluate((element) => (element as HTMLDetailsElement).open)).toBe(
        false,
      );
    }

    const truth = await expected();
    const visitRows = await tableOf(page, 'grafico-visitas');
    expect(visitRows.map((row) => plain(row[1]!))).toEqual(truth.visits);
    expect(truth.visits.filter((count) => count === 0).length).toBeGreaterThan(20);
    expect(truth.visits.at(-1)).toBe(7);
    // One bar per day, a zero day included.
    expect(await page.locator('[data-chart="grafico-visitas"] rect[data-day]').count()).toBe(30);

    const weekRows = await tableOf(page, 'grafico-incidencias');
    expect(weekRows.map((row) => [plain(row[1]!), plain(row[2]!)])).toEqual(truth.weeks);
    expect(truth.weeks.some(([openedCount, resolvedCount]) => openedCount === 0 && resolvedCount === 0)).toBe(
      true,
    );
    expect(
      await page.locator('[data-chart="grafico-incidencias"] circle[data-series="opened"]').count(),
    ).toBe(12);

    const resolutionRows = await tableOf(page, 'grafico-resolucion');
    expect(resolutionRows.map((row) => [row[1], plain(row[2]!)])).toEqual([
      [truth.current.text, truth.current.count],
      [truth.previous.text, truth.previous.count],
    ]);
    expect(truth.current.count).toBeGreaterThan(1);
    expect(await page.getByTestId('resolucion-actual').textContent()).toBe(truth.current.text);
    expect(await page.getByTestId('resolucion-anterior').textContent()).toBe(truth.previous.text);
    consoleWatch.assertNone();
    await context.close();
  });

  it('renders the charts with JavaScript off, and requests no chart script', async () => {
    const withScripts = await staffHome();
    // No island around the charts: nothing of theirs is hydrated, so no code of theirs is sent.
    expect(await withScripts.page.locator('[data-testid="graficos"] astro-island').count()).toBe(0);
    expect(
      await withScripts.page
        .locator('astro-island')
        .evaluateAll((islands) => islands.map((island) => island.getAttribute('component-url'))),
    ).not.toContainEqual(expect.stringMatching(/Chart|Dashboard/));
    for (const url of withScripts.scripts) {
      const source = await (await fetch(url)).text();
      expect(source, url).not.toMatch(/Ver datos|grafico-|paddingInner|bandwidth/);
    }
    await withScripts.context.close();

    const { context, page } = await staffHome(DESKTOP, false);
    expect(await page.locator('[data-chart] svg[role="img"]').count()).toBe(3);
    expect(await page.locator('[data-chart="grafico-incidencias"] path[data-series]').count()).toBe(2);
    // 'Ver datos' opens without JavaScript.
    expect((await tableOf(page, 'grafico-visitas')).length).toBe(30);
    await context.close();
  });

  for (const [name, options] of [
    ['390', PHONE],
    ['1280', DESKTOP],
  ] as const) {
    it(`passes axe at ${name} px, with every 'Ver datos' open, and fits the width`, async () => {
      const { context, page } = await staffHome(options);
      for (const chart of ['grafico-visitas', 'grafico-incidencias', 'grafico-resolucion'])
        await tableOf(page, chart);
      // The page does not scroll sideways (a long e-mail in the welcome wraps); each chart fits its card.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        options.viewport!.width,
      );
      for (const svg of await page.locator('[data-chart] svg[role="img"]').all()) {
        const box = (await svg.boundingBox())!;
        expect(box.width).toBeGreaterThan(options === PHONE ? 280 : 380);
        expect(box.x + box.width).toBeLessThanOrEqual(options.viewport!.width);
      }
      await expectNoAxeViolations(page);
      if (SHOTS) {
        await page
          .locator('details')
          .evaluateAll((all) => all.forEach((element) => ((element as HTMLDetailsElement).open = false)));
        await page.locator('[data-testid="graficos"]').screenshot({ path: `${SHOTS}/graficos-${name}.png` });
      }
      await context.close();
    });
  }
});
