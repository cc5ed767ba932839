/**
 * 'Correo entrante' in Configuración (issue 21) against the production build, in Chromium without
 * JavaScript, on a phone then on a desktop (one context, one page), then axe on a phone: two mails refused by the webhook
 * (a customer's that the mailbox's filter marked as spam, and two of real spam) are listed with their sender,
 * subject, reason and date; 'Crear incidencia' opens the incident (the confirmation reaches the customer
 * at the real SMTP peer, and the incident page shows 'por correo' and 'Ver original'); 'Descartar'
 * takes one off the list. Plain form posts and redirects; axe finds nothing; nothing overflows at 390 px.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, expectNoAxeViolations, PHONE, poll, watchConsole } from '../support/browser.ts';
import { inboundFixture, withMessageId } from '../support/inbound.ts';
import { firstStaffPassword } from '../support/server.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';

const SECRET = 'secreto-del-webhook-e2e-panel-0123456789';
const INBOUND = 'soporte@vertice.example';
/** Where to save screenshots of the section (phone and desktop), when set: `SCREENSHOT_DIR=/tmp/x npx vitest run …`. */
const SHOTS = process.env.SCREENSHOT_DIR;

const staff = () => ({
  email: 'admin@verticeconsultores.com.do',
  password: firstStaffPassword(server),
  network: '198.51.100.90',
});

const { server, browser, smtp } = useSite({
  smtp: true,
  env: {
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'warn',
    INBOUND_ADDRESS: INBOUND,
    INBOUND_WEBHOOK_SECRET: SECRET,
  },
});

const post = (raw: Buffer) =>
  fetch(`${server.url}/api/inbound-mail`, {
    method: 'POST',
    body: new Uint8Array(raw),
    headers: { 'Content-Type': 'message/rfc822', Authorization: `Bearer ${SECRET}` },
  });

beforeAll(async () => {
  const customer = inboundFixture('new-incident')
    .toString('utf8')
    .replace('MIME-Version: 1.0\r\n', 'MIME-Version: 1.0\r\nX-Spam-Flag: YES\r\n');
  for (const raw of [
    Buffer.from(customer),
    inboundFixture('spam'),
    withMessageId(inboundFixture('spam'), 'otra-oferta@oferta.example'),
  ]) {
    const response = await post(raw);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ resultado: 'rejected' });
  }
});

describe("Configuración: 'Correo entrante'", () => {
  it('lists the refused mails; Crear incidencia and Descartar work without JavaScript, on a phone and a desktop', async () => {
    const { context, page } = await signInStaff(browser, server.url, staff(), {
      ...PHONE,
      javaScriptEnabled: false,
    });
    try {
      const consoleWatch = watchConsole(page);
      await page.goto(`${server.url}/admin/configuracion#correo-entrante`);
      const section = page.locator('#correo-entrante');
      await expect(section.getByRole('heading', { level: 2 }).textContent()).resolves.toBe('Correo entrante');
      const state = section.getByTestId('correo-estado');
      expect(await state.textContent()).toMatch(/Activado\s*por webhook/);
      expect(await state.textContent()).toContain(INBOUND);
      expect(await state.textContent()).toContain(`POST ${server.url}/api/inbound-mail`);
      expect(await section.getByTestId('recibidos-hoy').textContent()).toBe('3: 3 rechazados');

      const items = section.getByTestId('rechazados').getByRole('listitem');
      await expect(items.count()).resolves.toBe(3);
      const customer = items.filter({ hasText: 'carmen@panaderia.example' });
      expect(await customer.textContent()).toContain('No puedo entrar a Restaurant.pe');
      expect(await customer.textContent()).toContain('El filtro del buzón lo marcó como spam');
      expect(await customer.getByRole('link', { name: 'Ver original' }).getAttribute('href')).toMatch(
        /^\/api\/staff\/correo-original\/\d+$/,
      );
      // Nothing wider than the phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      if (SHOTS) await section.screenshot({ path: `${SHOTS}/correo-entrante-telefono.png` });

      await customer.getByRole('button', { name: /^Crear incidencia/ }).click();
      await page.waitForURL(/hecho=incidencia&numero=INC-\d{8}-\d{4}#correo-entrante$/);
      const done = section.getByTestId('correo-hecho');
      expect(await done.getAttribute('role')).toBe('status');
      const numero = /INC-\d{8}-\d{4}/.exec((await done.textContent()) ?? '')![0];
      expect(await done.textContent()).toContain(`Se abrió la incidencia ${numero}`);
      expect(await done.getByRole('link', { name: numero }).getAttribute('href')).toBe(
        `/admin/incidencias/${numero}`,
      );
      await expect(items.count()).resolves.toBe(2);
      const confirmation = await smtp.waitFor(
        (mail) =>
          mail.subject?.includes(numero) === true &&
          /carmen@panaderia\.example/.test(JSON.stringify(mail.to)),
      );
      expect(confirmation.inReplyTo).toBe(
        '<CAH7uXq4Zr9t1nE0bQf2W3vX5yZ6aB7cD8eF9gH0iJ1kL2mN3oP@mail.gmail.com>',
      );

      // On a desktop now (same page): one spam goes.
      await page.setViewportSize(DESKTOP.viewport!);
      if (SHOTS) await section.screenshot({ path: `${SHOTS}/correo-entrante-escritorio.png` });
      await items
        .first()
        .getByRole('button', { name: /^Descartar/ })
        .click();
      await page.waitForURL(/hecho=descartado#correo-entrante$/);
      expect(await section.getByTestId('correo-hecho').textContent()).toContain('El correo se descartó');
      await expect(items.count()).resolves.toBe(1);

      // The incident came by mail: its first entry says so and keeps the original.
      await page.goto(`${server.url}/admin/incidencias/${numero}`);
      const first = page.getByTestId('linea-de-tiempo').getByRole('listitem').first();
      if (SHOTS) await first.screenshot({ path: `${SHOTS}/incidencia-por-correo.png` });
      expect(await first.getByTestId('por-correo').textContent()).toBe('· por correo');
      const original = await first.getByRole('link', { name: 'Ver original' }).getAttribute('href');
      const raw = await context.request.get(`${server.url}${original}`);
      expect(raw.headers()['content-type']).toBe('text/plain; charset=utf-8');
      expect(await raw.text()).toContain('X-Spam-Flag: YES');

      // 'Actividad' names both.
      await page.goto(`${server.url}/admin/configuracion#actividad`);
      const activity = page.locator('#actividad');
      await poll(() => activity.textContent()).toContain('Incidencia creada desde un correo rechazado');
      expect(await activity.textContent()).toContain('Correo rechazado descartado');
      consoleWatch.assertNone();
    } finally {
      await context.close();
    }
  });

  // axe runs as a script in the page, which the test above turns off: its own context, on what is left.
  it('passes axe on a phone, with a refused mail listed', async () => {
    const { context, page } = await signInStaff(browser, server.url, staff(), PHONE);
    try {
      const consoleWatch = watchConsole(page);
      await page.goto(`${server.url}/admin/configuracion#correo-entrante`);
      await expect(page.getByTestId('rechazados').getByRole('listitem').count()).resolves.toBe(1);
      await expectNoAxeViolations(page);
      consoleWatch.assertNone();
    } finally {
      await context.close();
    }
  });
});
