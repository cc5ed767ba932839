/**
 * Live updates of the staff area (issue 22, docs/decisions/0018) on SQLite, in Chromium against the
 * production build: two staff members see each other's changes without reloading (the incident list
 * with a filter being typed, an incident's page, the inbox and the sidebar's count), who else has an
 * incident open, '{nombre} respondió mientras escribías' (and sending anyway), the browser
 * notifications, the stream's guard and a reconnect with Last-Event-ID that misses nothing.
 * The same across two processes on PostgreSQL: live-postgres.test.ts.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/index.ts';
import { DESKTOP, expectNoAxeViolations, PHONE, watchConsole } from '../support/browser.ts';
import { postAction, submitIncident } from '../support/actions.ts';
import { insertIncident } from '../support/factories.ts';
import { issueFollowUpToken } from '../../src/server/incidents/follow-up.ts';
import {
  createStaffAccount,
  FIRST_STAFF_TEST_PASSWORD,
  freePort,
  prepareFirstStaff,
  startServer,
} from '../support/server.ts';
import { createIncident } from '../../src/server/incidents/index.ts';
import { MAIL_BRAND } from '../support/mail-brand.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';
import { readEvents, sessionCookie } from '../support/live.ts';

const FIRST = 'admin@verticeconsultores.com.do';
const ANA = 'ana@verticeconsultores.com.do';
const ANA_PASSWORD = 'cardenal-palmera-ámbar-77';
const ADMIN_EMAILS = `${FIRST},${ANA}`;
const { server, browser, db } = useSite({
  env: { TRUST_PROXY: 'true', LOG_LEVEL: 'warn', ADMIN_EMAILS, FORM_RATE_LIMIT: '1000' },
});

const NUMERO = 'INC-20250301-5101';
let network = 0;

beforeAll(async () => {
  await createStaffAccount(server, { email: ANA, password: ANA_PASSWORD, name: 'Ana Rosario' }, ADMIN_EMAILS);
  await insertIncident(db, {
    numeroIncidencia: NUMERO,
    nombre: 'María Núñez',
    email: 'maria@cliente.example',
    fecha: new Date().toISOString(),
  });
});

const signIn = (who: 'first' | 'ana', options = DESKTOP) => {
  network += 1;
  return signInStaff(
    browser,
    server.url,
    who === 'first'
      ? { email: FIRST, password: FIRST_STAFF_TEST_PASSWORD, network: `203.0.113.${network}` }
      : { email: ANA, password: ANA_PASSWORD, network: `203.0.113.${network}` },
    options,
  );
};

/** Waits until the page's event stream is open (the script marks it). */
const connected = (page: Page) =>
  page.waitForSelector('#en-vivo[data-conectado="si"]', { state: 'attached', timeout: 10_000 });
const hydrated = (page: Page) =>
  page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
const LIVE = { timeout: 2000 };

describe('live updates (SQLite)', () => {
  it('shows a new incident on the list within 2 s, keeping a filter being typed and its focus; passes axe', async () => {
    const { context, page } = await signIn('first');
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/admin/incidencias`);
    await hydrated(page);
    await connected(page);
    const nombre = page.getByLabel('Nombre', { exact: true });
    await nombre.fill('Marí');
    const created = await submitIncident(server.url, 'en-vivo-1', { 'x-forwarded-for': '192.0.2.10' });
    expect(created.status).toBe(200);
    await page.locator(`[data-incidencia="${created.numero}"]`).waitFor(LIVE);
    expect(await nombre.inputValue()).toBe('Marí');
    expect(await nombre.evaluate((element) => element === document.activeElement)).toBe(true);
    await hydrated(page);
    await expectNoAxeViolations(page);
    consoleWatch.assertNone();
    await context.close();
  });

  it("shows the other's state change, presence and '… respondió mientras escribías'; sending anyway works", async () => {
    const first = await signIn('first');
    const ana = await signIn('ana');
    const url = `${server.url}/admin/incidencias/${NUMERO}`;
    await first.page.goto(url);
    await connected(first.page);
    await ana.page.goto(url);
    await connected(ana.page);
    // Each sees the other: by name, or by e-mail for an account without one.
    await expect
      .poll(() => first.page.getByTestId('tambien-viendo').textContent(), { timeout: 5000 })
      .toBe('También está viendo: Ana Rosario');
    await expect
      .poll(() => ana.page.getByTestId('tambien-viendo').textContent(), { timeout: 5000 })
      .toMatch(/^También está viendo: /);

    // Ana changes the state: the first sees the new badge and timeline entry without reloading.
    await hydrated(ana.page);
    await ana.page.getByLabel('Estado', { exact: true }).selectOption('En Proceso');
    await ana.page.getByRole('button', { name: 'Guardar', exact: true }).click();
    await expect.poll(() => first.page.getByTestId('estado-actual').textContent(), LIVE).toBe('En Proceso');

    // The first is typing; Ana replies: the warning names her and shows the reply; the text stays.
    const box = first.page.locator('textarea#texto');
    await box.fill('Hola María, estoy revisando');
    await ana.page.locator('textarea#texto').fill('Hola María: ya lo resolvimos desde aquí.');
    await ana.page.getByRole('button', { name: 'Responder al cliente' }).click();
    await ana.page.waitForURL(/hecho=/);
    const warning = first.page.getByTestId('respondio-mientras');
    await warning.waitFor({ state: 'visible', ...LIVE });
    expect(await warning.textContent()).toContain('Ana Rosario respondió mientras escribías');
    expect(await warning.textContent()).toContain('Hola María: ya lo resolvimos desde aquí.');
    expect(await box.inputValue()).toBe('Hola María, estoy revisando');
    await expectNoAxeViolations(first.page);
    // Both widths: nothing wider than the screen; at 390 px too, axe-clean.
    for (const width of [1280, 390]) {
      await first.page.setViewportSize({ width, height: 844 });
      expect(
        await first.page.evaluate(
          () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
        ),
      ).toBe(true);
      if (process.env.SCREENSHOT_DIR)
        await first.page.screenshot({
          path: `${process.env.SCREENSHOT_DIR}/en-vivo-incidencia-${width}.png`,
          fullPage: true,
        });
    }
    await expectNoAxeViolations(first.page);
    // Sending anyway is allowed.
    await first.page.getByRole('button', { name: 'Responder al cliente' }).click();
    await first.page.waitForURL(/hecho=/);
    expect(await first.page.getByTestId('linea-de-tiempo').locator('li[data-tipo="reply"]').count()).toBe(2);

    // Ana leaves: the first no longer sees her.
    await ana.page.goto(`${server.url}/admin`);
    await expect
      .poll(() => first.page.getByTestId('tambien-viendo').isHidden(), { timeout: 5000 })
      .toBe(true);
    await first.context.close();
    await ana.context.close();
  });

  it('updates the inbox and the sidebar count on a new message and when another marks one', async () => {
    const first = await signIn('first', PHONE);
    const ana = await signIn('ana');
    await first.page.goto(`${server.url}/admin/mensajes`);
    await hydrated(first.page);
    await connected(first.page);
    const before = await first.page.locator('article').count();
    const sent = await postAction(
      server.url,
      'contact.send',
      {
        name: 'Luisa Vólquez',
        email: 'luisa@cliente.example',
        message: 'Quiero una demostración de AdmCloud, por favor.',
      },
      { 'x-forwarded-for': '192.0.2.20' },
    );
    expect(sent.status).toBe(200);
    await first.page.getByText('Luisa Vólquez').first().waitFor(LIVE);
    expect(await first.page.locator('article').count()).toBe(before + 1);
    const badge = () => first.page.locator('#movil-lista [data-testid="mensajes-pendientes"]').textContent();
    const count = Number(await badge());
    // Ana marks it 'atendido' on her own inbox: it leaves the first's 'Pendientes' list and the count drops.
    await ana.page.goto(`${server.url}/admin/mensajes`);
    await ana.page
      .locator('article', { hasText: 'Luisa Vólquez' })
      .getByRole('button', { name: 'Marcar como atendido' })
      .click();
    await ana.page.waitForURL(/hecho=/);
    await first.page.getByText('Luisa Vólquez').waitFor({ state: 'detached', ...LIVE });
    await expect
      .poll(
        async () =>
          Number(
            (await first.page.locator('#movil-lista [data-testid="mensajes-pendientes"]').count())
              ? await badge()
              : 0,
          ),
        LIVE,
      )
      .toBe(count - 1);
    await first.context.close();
    await ana.context.close();
  });

  it('notifies a new incident, and an answer on an incident assigned to me, once allowed from the staff home', async () => {
    const { context, page } = await signIn('first');
    // The browser's Notification, recorded (a headless browser shows none): permission asked only by the button.
    await context.addInitScript(() => {
      const shown: string[] = [];
      let permission: NotificationPermission = 'default';
      let asked = 0;
      class Recorded {
        static get permission() {
          return permission;
        }
        static requestPermission() {
          asked += 1;
          permission = 'granted';
          return Promise.resolve(permission);
        }
        onclick: unknown = null;
        constructor(title: string, options?: NotificationOptions) {
          shown.push(`${title}|${options?.body ?? ''}`);
        }
      }
      Object.assign(window, { Notification: Recorded, __notices: shown, __asked: () => asked });
    });
    await page.goto(`${server.url}/admin`);
    await connected(page);
    expect(await page.evaluate(() => (window as unknown as { __asked: () => number }).__asked())).toBe(0);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
        ),
      ).toBe(true);
      if (process.env.SCREENSHOT_DIR)
        await page.screenshot({
          path: `${process.env.SCREENSHOT_DIR}/en-vivo-inicio-${width}.png`,
          fullPage: true,
        });
    }
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Activar avisos del navegador' }).click();
    await page.getByText('Avisos del navegador activados').waitFor();
    expect(await page.getByRole('button', { name: 'Activar avisos del navegador' }).isHidden()).toBe(true);
    const created = await submitIncident(server.url, 'aviso-1', { 'x-forwarded-for': '192.0.2.11' });
    const notices = () =>
      page.evaluate(() => (window as unknown as { __notices: string[] }).__notices.join('\n'));
    await expect.poll(notices, LIVE).toContain(`Nueva incidencia|${created.numero}`);

    // The customer answers on an incident assigned to me: one notice; on one assigned to nobody: none.
    const me = await db
      .withoutPlugins()
      .selectFrom('user')
      .select('id')
      .where('email', '=', FIRST)
      .executeTakeFirstOrThrow();
    const answer = async (numero: string, text: string) => {
      const { id } = await db
        .selectFrom('incidents')
        .select('id')
        .where('numeroIncidencia', '=', numero)
        .executeTakeFirstOrThrow();
      const token = await issueFollowUpToken(db, id, new Date());
      return postAction(
        server.url,
        'incidents.answer',
        { token, respuesta: text },
        { 'x-forwarded-for': '192.0.2.12' },
      );
    };
    const other = await submitIncident(server.url, 'aviso-2', { 'x-forwarded-for': '192.0.2.11' });
    await db
      .updateTable('incidents')
      .set({ assignedTo: me.id })
      .where('numeroIncidencia', '=', created.numero!)
      .execute();
    expect((await answer(other.numero!, 'Respuesta en una sin asignar')).status).toBe(200);
    expect((await answer(created.numero!, 'Sigue sin funcionar')).status).toBe(200);
    await expect.poll(notices, LIVE).toContain(`Respuesta del cliente|${created.numero}`);
    expect(await notices()).not.toContain(`Respuesta del cliente|${other.numero}`);
    await context.close();
  });

  it('works without JavaScript by reloading: no stream, no button, the same pages', async () => {
    const { context, page } = await signIn('first', { ...DESKTOP, javaScriptEnabled: false });
    await page.goto(`${server.url}/admin`);
    expect(await page.getByRole('button', { name: 'Activar avisos del navegador' }).count()).toBe(0);
    await page.goto(`${server.url}/admin/incidencias/${NUMERO}`);
    expect(await page.getByTestId('tambien-viendo').isHidden()).toBe(true);
    expect(await page.getByTestId('respondio-mientras').isHidden()).toBe(true);
    await page.goto(`${server.url}/admin/incidencias`);
    const created = await submitIncident(server.url, 'sin-js', { 'x-forwarded-for': '192.0.2.13' });
    await page.reload();
    expect(await page.locator(`[data-incidencia="${created.numero}"]`).count()).toBe(1);
    await context.close();
  });

  it('refuses the stream without a session as other staff APIs do, and resumes with Last-Event-ID missing nothing', async () => {
    const refused = await fetch(`${server.url}/api/staff/eventos`);
    const csv = await fetch(`${server.url}/api/staff/incidencias.csv`);
    expect(refused.status).toBe(csv.status);
    expect(await refused.json()).toEqual(await csv.json());

    const cookie = await sessionCookie(server.url, FIRST, FIRST_STAFF_TEST_PASSWORD, '203.0.113.200');
    const first = await readEvents(server.url, cookie, {
      count: 1,
      after: () => submitIncident(server.url, 'resume-0', { 'x-forwarded-for': '192.0.2.30' }),
    });
    const lastId = first.events.at(-1)!.id;
    // While disconnected: three incidents.
    const missed: string[] = [];
    for (const tag of ['resume-1', 'resume-2', 'resume-3'])
      missed.push((await submitIncident(server.url, tag, { 'x-forwarded-for': '192.0.2.31' })).numero!);
    const again = await readEvents(server.url, cookie, { count: 3, lastEventId: lastId });
    expect(again.events.map((event) => event.data.numero)).toEqual(missed);
    expect(again.events.map((event) => event.id)).toEqual(
      [...again.events.map((event) => event.id)].sort((a, b) => a - b),
    );
    expect(again.events[0]!.id).toBeGreaterThan(lastId);
    expect(again.contentType).toMatch(/^text\/event-stream/);
    expect(again.contentEncoding).toBeNull();
  });

  it('a browser whose server restarts reconnects with Last-Event-ID and shows what happened meanwhile, without a reload', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vertice-e2e-vivo-'));
    const port = await freePort();
    const env = { TRUST_PROXY: 'true', LOG_LEVEL: 'warn', ADMIN_EMAILS };
    let restarted = await startServer({ dataDir, port, cleanup: false, env });
    try {
      await prepareFirstStaff(restarted);
      const { context, page } = await signInStaff(browser, restarted.url, {
        email: FIRST,
        password: FIRST_STAFF_TEST_PASSWORD,
        network: '203.0.113.250',
      });
      await page.goto(`${restarted.url}/admin/incidencias`);
      await connected(page);
      await page.evaluate(() => Object.assign(window, { __mismaPagina: true }));
      expect(await restarted.stop()).toBe(0);
      // While it is down, another process (here: this one) opens an incident in the same database.
      const { db: offline } = openDatabase(restarted.env.DATABASE_URL!);
      const created = await createIncident(
        offline,
        {
          problema: 'Mientras el servidor reiniciaba',
          nombre: 'Julia Tavárez',
          telefono: '',
          email: '',
          rnc: '',
        },
        { brand: MAIL_BRAND, staffInbox: 'soporte@vertice.example' },
      );
      await offline.destroy();
      restarted = await startServer({ dataDir, port, cleanup: false, env });
      await page.locator(`[data-incidencia="${created.numeroIncidencia}"]`).waitFor({ timeout: 15_000 });
      expect(
        await page.evaluate(() => (window as unknown as { __mismaPagina?: boolean }).__mismaPagina),
      ).toBe(true);
      await context.close();
    } finally {
      await restarted.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
