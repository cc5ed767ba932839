/**
 * The business-hours clock (issue 22) against the production build, in Chromium: the server's own
 * timer mails each passed target once (no request needed); at 1280 px with JavaScript, 'Vence' red in
 * the list and its 'Vencidas' filter, both clocks on the incident page paused by 'Esperando al
 * cliente', 'Tiempos de respuesta' refused then saved in Configuración, '% dentro del plazo' on the
 * staff home (axe on each); at 390 px without JavaScript, 'Vencen hoy' and the customer's answer on
 * the follow-up page, which sets the incident back to 'En Proceso' and restarts its clock, with no
 * horizontal overflow. Screenshots go to $CLOCK_SHOTS when it is set.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueFollowUpToken } from '../../src/server/incidents/follow-up.ts';
import { queueOverdueAlerts } from '../../src/server/incidents/clock.ts';
import { createIncident } from '../../src/server/incidents/index.ts';
import { setIncidentState } from '../../src/server/incidents/state.ts';
import { DESKTOP, expectNoAxeViolations, noOverflow, PHONE, watchConsole } from '../support/browser.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';
import { ageFormStamps } from '../support/form-stamp.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';

const { server, browser, db, staff } = useSite({ env: { TRUST_PROXY: 'true', LOG_LEVEL: 'warn' } });
const DAY = 24 * 3_600_000;
const fields = (nombre: string) => ({
  problema: 'No imprime la factura.',
  nombre,
  telefono: '',
  email: `${nombre.split(' ')[0]!.toLowerCase()}@cliente.example`,
  rnc: '',
});
const SHOTS = process.env.CLOCK_SHOTS;
let late = '';
let fresh = '';
let waiting = '';
let waitingId = 0;

beforeAll(async () => {
  const options = { brand, staffInbox: 'soporte@vertice.example' };
  // Twelve days old: both targets of 'Normal' (8 h, 5 días) are long past.
  late = (
    await createIncident(db, fields('Tardía Pérez'), { ...options, now: new Date(Date.now() - 12 * DAY) })
  ).numeroIncidencia;
  fresh = (await createIncident(db, fields('Nueva Gómez'), options)).numeroIncidencia;
  const paused = await createIncident(db, fields('Espera Díaz'), {
    ...options,
    now: new Date(Date.now() - 3 * DAY),
  });
  waiting = paused.numeroIncidencia;
  waitingId = paused.id;
  await setIncidentState(
    db,
    { id: paused.id, estado: 'Esperando al cliente', actor: 'soporte@vertice.example' },
    new Date(Date.now() - 3 * DAY + 60_000),
  );
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});

const shot = async (page: Page, name: string, selector?: string) => {
  if (!SHOTS) return;
  if (selector) await page.locator(selector).screenshot({ path: `${SHOTS}/${name}.png` });
  else await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};
const overdueMails = async () =>
  db
    .selectFrom('mailOutbox')
    .select(['subject', 'toAddress'])
    .where('kind', '=', 'incident.overdue')
    .orderBy('id')
    .execute();

describe('business-hours clock', () => {
  it("the server's timer mails each passed target once, with no request", async () => {
    // The first round may have run before these incidents existed: the next is within 15 s.
    await expect.poll(async () => (await overdueMails()).length, { timeout: 40_000 }).toBe(2);
    expect((await overdueMails()).map((mail) => mail.subject)).toEqual([
      `Venció el plazo de la primera respuesta: ${late}`,
      `Venció el plazo de la resolución: ${late}`,
    ]);
    // Another round, as the server's next one (or another process's) would run it, adds nothing.
    expect(
      await queueOverdueAlerts(db, {
        brand,
        staffInbox: 'soporte@verticeconsultores.com.do',
        staffEmails: [staff.email],
      }),
    ).toBe(0);
    expect(await overdueMails()).toHaveLength(2);
  });

  it("at 1280 px with JavaScript: 'Vence' and 'Vencidas' in the list, both clocks paused by 'Esperando al cliente', 'Tiempos de respuesta', '% dentro del plazo'", async () => {
    const { context, page } = await signInStaff(
      browser,
      server.url,
      { ...staff, network: '198.51.100.31' },
      DESKTOP,
    );
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/admin/incidencias`);
    const lateCard = page.locator(`article[data-incidencia="${late}"]`);
    expect(await lateCard.getByTestId('vence').getAttribute('data-vencida')).toBe('true');
    expect(await lateCard.getByTestId('vence').textContent()).toMatch(/^⚠ Vencida · \d\d\/\d\d\/\d{4}/);
    expect(
      await page
        .locator(`article[data-incidencia="${fresh}"]`)
        .getByTestId('vence')
        .getAttribute('data-vencida'),
    ).toBeNull();
    expect(
      await page.locator(`article[data-incidencia="${waiting}"]`).getByTestId('vence').textContent(),
    ).toBe('En pausa');
    await page.getByLabel('Vencimiento').selectOption('vencidas');
    await Promise.all([
      page.waitForURL(/plazo=vencidas/),
      page.getByRole('button', { name: 'Filtrar' }).click(),
    ]);
    expect(
      await page
        .locator('article[data-incidencia]')
        .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-incidencia'))),
    ).toEqual([late]);
    await expectNoAxeViolations(page);
    await shot(page, 'lista-1280');

    await page.goto(`${server.url}/admin/incidencias/${late}`);
    expect(await page.getByTestId('plazo-primera-respuesta').getAttribute('data-estado')).toBe('running');
    expect(await page.getByTestId('plazo-primera-respuesta').textContent()).toContain('Vencido');
    expect(await page.getByTestId('vence-resolucion').textContent()).toMatch(/^Venció el /);
    await expectNoAxeViolations(page);
    await shot(page, 'incidencia-1280');
    await page.getByLabel('Estado', { exact: true }).selectOption('Esperando al cliente');
    await page.getByLabel('Notificar al cliente').uncheck();
    await page.getByRole('button', { name: 'Guardar', exact: true }).click();
    await expect.poll(() => page.getByTestId('estado-actual').textContent()).toBe('Esperando al cliente');
    await expect.poll(() => page.getByTestId('plazo-resolucion').getAttribute('data-estado')).toBe('paused');
    expect(await page.getByTestId('plazo-resolucion').textContent()).toContain('En pausa, vencido');
    expect(await page.getByTestId('vence-resolucion').count()).toBe(0);
    await shot(page, 'incidencia-pausada-1280');
    consoleWatch.assertNone();

    await page.goto(`${server.url}/admin/configuracion#tiempos-de-respuesta`);
    const section = page.locator('#tiempos-de-respuesta');
    expect(await section.getByLabel('Primera respuesta').first().inputValue()).toBe('1');
    await section.locator('#primera-respuesta-Urgente').fill('0');
    await section.getByRole('button', { name: 'Guardar tiempos de respuesta' }).click();
    await expect.poll(() => section.getByRole('alert').textContent()).toContain('revisa los campos marcados');
    expect(await section.locator('#primera-respuesta-Urgente-error').textContent()).toBe(
      'Escribe un número mayor que cero.',
    );
    expect(await section.locator('#primera-respuesta-Urgente').getAttribute('aria-invalid')).toBe('true');
    // From here on, no console error (the refused post above is a 400 page, as designed).
    const afterRefusal = watchConsole(page);
    await section.locator('#primera-respuesta-Urgente').fill('2');
    await section.getByLabel('Sábado', { exact: true }).uncheck();
    await section.getByRole('button', { name: 'Guardar tiempos de respuesta' }).click();
    await expect
      .poll(() => section.getByRole('status').textContent())
      .toContain('Los tiempos de respuesta se guardaron');
    expect(await section.locator('#primera-respuesta-Urgente').inputValue()).toBe('2');
    expect(await section.getByLabel('Sábado', { exact: true }).isChecked()).toBe(false);
    await expectNoAxeViolations(page);
    await shot(page, 'configuracion-1280', '#tiempos-de-respuesta');

    await page.goto(`${server.url}/admin`);
    const card = page.getByTestId('dentro-del-plazo');
    expect(await card.getByRole('heading').textContent()).toBe('% dentro del plazo');
    expect(await card.getByTestId('plazo-actual').textContent()).toMatch(/^(\d+ %|—)$/);
    await expectNoAxeViolations(page);
    await shot(page, 'inicio-1280');
    afterRefusal.assertNone();
    await context.close();
  });

  it("at 390 px without JavaScript: 'Vencen hoy', the clocks, and the customer's answer restarting the clock", async () => {
    const { context, page } = await signInStaff(
      browser,
      server.url,
      { ...staff, network: '198.51.100.32' },
      { ...PHONE, javaScriptEnabled: false },
    );
    await page.goto(`${server.url}/admin/incidencias`);
    // On a phone the fields beside 'Texto' are folded; 'Más filtros' opens them without JavaScript too.
    await page.getByRole('search', { name: 'Filtrar incidencias' }).getByText('Más filtros').click();
    await page.getByLabel('Vencimiento').selectOption('hoy');
    await Promise.all([page.waitForURL(/plazo=hoy/), page.getByRole('button', { name: 'Filtrar' }).click()]);
    const listed = await page
      .locator('article[data-incidencia]')
      .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-incidencia')));
    expect(listed).not.toContain(late);
    expect(listed).not.toContain(waiting);
    expect(await noOverflow(page)).toBe(true);
    await shot(page, 'lista-390');
    await page.goto(`${server.url}/admin/incidencias`);
    await shot(page, 'lista-tarjeta-390', `article[data-incidencia="${late}"]`);

    await page.goto(`${server.url}/admin/incidencias/${waiting}`);
    expect(await page.getByTestId('plazo-resolucion').getAttribute('data-estado')).toBe('paused');
    expect(await noOverflow(page)).toBe(true);
    await shot(page, 'incidencia-390');
    await page.goto(`${server.url}/admin/configuracion#tiempos-de-respuesta`);
    expect(await noOverflow(page)).toBe(true);
    await shot(page, 'configuracion-390', '#tiempos-de-respuesta');
    await context.close();

    // The customer, from the follow-up link: the page asks for the answer; sent, the clock runs again.
    const token = await issueFollowUpToken(db, waitingId, new Date());
    const visitor = await browser.newContext({ ...PHONE, javaScriptEnabled: false });
    const follow = await visitor.newPage();
    // The public forms refuse a post sent within 1.5 s of the page: its stamp is dated back (tests/support/form-stamp.ts).
    await ageFormStamps(follow, server.url);
    await follow.goto(`${server.url}/soporte/seguimiento?token=${token}`);
    expect(await follow.getByTestId('esperando-respuesta').textContent()).toContain(
      'Esperamos tu respuesta para continuar.',
    );
    expect(await noOverflow(follow)).toBe(true);
    await shot(follow, 'seguimiento-390');
    await follow.getByLabel('Tu respuesta').fill('El modelo es una Bixolon SRP-350.');
    await follow.getByRole('button', { name: 'Enviar respuesta' }).click();
    await follow.locator('#respuesta-enviada').waitFor();
    const row = await db
      .selectFrom('incidents')
      .select(['estado', 'dueAt', 'clockSince'])
      .where('id', '=', waitingId)
      .executeTakeFirstOrThrow();
    expect(row.estado).toBe('En Proceso');
    expect(row.clockSince).not.toBeNull();
    expect(row.dueAt).not.toBeNull();
    await visitor.close();
  });
});
