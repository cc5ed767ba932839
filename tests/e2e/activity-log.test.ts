/**
 * 'Actividad' (issue 25 §10) against the production build, in Chromium: the log reads in words, not
 * internals. A client edit names the fields by their labels, a project state as shown, the record by
 * its name (a link to the client) or number (a link to the incident), a meeting's date in Santo Domingo
 * time; the same in the CSV. At 1280 px an e-mail address is never broken mid-word; at 390 px the rows
 * stack and nothing reaches past the screen. `SCREENSHOT_DIR=/tmp/dir` saves both widths.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordEvent, type AuditActor } from '../../src/server/audit/index.ts';
import { createClient } from '../../src/server/clients/index.ts';
import { DESKTOP, PHONE } from '../support/browser.ts';
import { insertIncident } from '../support/factories.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';

const { server, browser, db, staff } = useSite({ env: { TRUST_PROXY: 'true', LOG_LEVEL: 'warn' } });

const NUMERO = 'INC-20260301-7001';
// 14:30 UTC is 10:30 in Santo Domingo (UTC−4, no daylight saving).
const MEETING_UTC = '2026-12-05T14:30:00.000Z';

let network = 0;
let clientId = 0;

const login = () => ({ ...staff, network: `198.51.100.${++network}` });

beforeAll(async () => {
  const actor: AuditActor = { actorEmail: staff.email, network: '198.51.100.200' };
  clientId = (
    await createClient(
      db,
      {
        razonSocial: 'Distribuidora Fernández, SRL',
        nombreRepresentante: 'Ana Fernández',
        telefono: '8095550199',
        email: 'ana@fernandez.com.do',
        rnc: '130456789',
        tipoProyecto: 'Implementación AdmCloud',
      },
      new Date(),
      actor,
    )
  ).client.id;
  await insertIncident(db, { numeroIncidencia: NUMERO, email: '' });
  await recordEvent(db, { ...actor, action: 'incident.state', subject: NUMERO, detail: 'Resuelto' });
  await recordEvent(db, {
    ...actor,
    action: 'client.edited',
    subject: clientId,
    detail: 'razonSocial, telefono',
  });
  await recordEvent(db, {
    ...actor,
    action: 'client.state',
    subject: clientId,
    detail: 'pendiente → en curso',
  });
  await recordEvent(db, { ...actor, action: 'client.meeting', subject: clientId, detail: MEETING_UTC });
});

const row = (page: Page, action: string) =>
  page.locator(`#actividad tbody tr[data-evento="${action}"]`).first();

/** How many lines a cell's text takes (its text's boxes, one per line). */
const linesOf = (page: Page, action: string, column: number) =>
  row(page, action)
    .locator('td')
    .nth(column)
    .evaluate((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });

async function shoot(page: Page, name: string) {
  if (process.env.SCREENSHOT_DIR)
    await page.locator('#actividad').screenshot({ path: `${process.env.SCREENSHOT_DIR}/${name}.png` });
}

describe("'Actividad' in words", () => {
  it('shows field labels, project states as shown, the record by name or number with a link, and Santo Domingo time', async () => {
    const { context, page } = await signInStaff(browser, server.url, login(), DESKTOP);
    await page.goto(`${server.url}/admin/configuracion#actividad`);
    const activity = (await page.locator('#actividad').textContent()) ?? '';
    expect(activity).not.toContain('razonSocial');
    expect(activity).not.toContain('telefono');
    expect(activity).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    // The introduction counts the rows shown, in words that agree with the number.
    const shown = await page.locator('#actividad tbody tr').count();
    expect((await page.locator('#actividad h2 + p').textContent())?.replace(/\s+/g, ' ').trim()).toMatch(
      new RegExp(
        `^Los últimos ${shown} eventos de seguridad y de datos del área de personal, del más reciente al más antiguo`,
      ),
    );

    const edited = row(page, 'client.edited');
    expect(await edited.textContent()).toContain('Razón social, Teléfono');
    const link = edited.getByRole('link', { name: 'Distribuidora Fernández, SRL' });
    expect(await link.getAttribute('href')).toBe(`/admin/clientes/${clientId}`);
    expect(await edited.textContent()).not.toMatch(new RegExp(`· ${clientId}\\b`));
    expect(await row(page, 'client.state').textContent()).toContain('Pendiente → En curso');
    expect(await row(page, 'client.meeting').textContent()).toContain('05/12/2026 10:30');
    expect(await row(page, 'incident.state').getByRole('link', { name: NUMERO }).getAttribute('href')).toBe(
      `/admin/incidencias/${NUMERO}`,
    );
    expect(
      await row(page, 'client.created').getByRole('link', { name: 'Distribuidora Fernández, SRL' }).count(),
    ).toBe(1);

    // The e-mail address on one line at 1280 px, the 'Cuándo' on one line too.
    expect(await linesOf(page, 'client.edited', 1)).toBe(1);
    expect(await linesOf(page, 'client.edited', 0)).toBe(1);
    await shoot(page, 'actividad-1280');

    // The CSV says the same.
    const csv = await (await page.request.get(`${server.url}/api/staff/actividad.csv`)).text();
    expect(csv).toContain('"Fecha (hora de Santo Domingo)","Acción","Usuario","Sobre","Detalle","Red"');
    expect(csv).toContain('"Cliente editado"');
    expect(csv).toContain('"Razón social, Teléfono"');
    expect(csv).toContain('"Distribuidora Fernández, SRL"');
    expect(csv).toContain('"Pendiente → En curso"');
    expect(csv).toContain('"05/12/2026 10:30"');
    expect(csv).not.toContain('razonSocial');
    expect(csv).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    await context.close();
  });

  it('stacks the rows at 390 px: every cell within the screen, no sideways scrolling', async () => {
    const { context, page } = await signInStaff(browser, server.url, login(), PHONE);
    await page.goto(`${server.url}/admin/configuracion#actividad`);
    const width = await page.evaluate(() => document.documentElement.clientWidth);
    const outside = await page.evaluate(
      (limit) =>
        [...document.querySelectorAll('#actividad *')]
          .filter((element) => element.getBoundingClientRect().right > limit + 0.5)
          .map((element) => element.tagName.toLowerCase())
          .slice(0, 5),
      width,
    );
    expect(outside).toEqual([]);
    const scrolls = await page.evaluate(() =>
      [...document.querySelectorAll('#actividad, #actividad *')].some(
        (element) =>
          element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX !== 'visible',
      ),
    );
    expect(scrolls).toBe(false);
    // 'Qué' whole, above who did it: the label, the record and the detail all on screen.
    const what = row(page, 'client.edited').locator('td').nth(2);
    const box = (await what.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    expect(await what.textContent()).toContain('Razón social, Teléfono');
    const who = (await row(page, 'client.edited').locator('td').nth(1).boundingBox())!;
    expect(who.y).toBeGreaterThan(box.y);
    expect(who.width).toBeGreaterThan(width / 2);
    await shoot(page, 'actividad-390');
    await context.close();
  });
});
