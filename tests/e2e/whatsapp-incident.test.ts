/**
 * A WhatsApp incident on the staff side (issue 37) against the production build, in Chromium: Meta's
 * stand-in (tests/support/meta-standin.ts) posts a signed webhook to the server's /api/whatsapp (the
 * production wiring: scripts/start.ts, security.ts), which opens an incident with origin 'WhatsApp';
 * its page shows the number and 'Abrir en WhatsApp' (wa.me with the number's digits) at 390 and
 * 1280 px, axe clean and nothing wider than the phone; the list's 'Origen' filter, the CSV and the
 * staff search find it;
 * 'Correo entrante' in Configuración shows the channel on, its last message and no error. Last, the
 * number blocked from its page: its next message is in 'Rechazados' as 'Número bloqueado' and not on the
 * incident; 'Bloqueados' lists it, and 'Desbloquear' there lifts the block.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, expectNoAxeViolations, noOverflow, PHONE, watchConsole } from '../support/browser.ts';
import { postWebhook, startMetaStandin, textMessage, webhookBody } from '../support/meta-standin.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';

/** Where to save screenshots, when set: `SCREENSHOT_DIR=/tmp/x npx vitest run …`. */
const SHOTS = process.env.SCREENSHOT_DIR;
const NUMBER = '18095550100';

const meta = await startMetaStandin();

const { server, browser, staff } = useSite({
  env: {
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'warn',
    WHATSAPP_APP_SECRET: meta.appSecret,
    WHATSAPP_PHONE_NUMBER_ID: meta.phoneNumberId,
    WHATSAPP_ACCESS_TOKEN: meta.accessToken,
    WHATSAPP_VERIFY_TOKEN: meta.verifyToken,
    WHATSAPP_API_URL: meta.apiUrl,
  },
});

let numero = '';
let network = 10;
const signedIn = (options = DESKTOP) => {
  network += 1;
  return signInStaff(browser, server.url, { ...staff, network: `198.51.100.${network}` }, options);
};

beforeAll(async () => {
  const response = await postWebhook(
    `${server.url}/api/whatsapp`,
    webhookBody([textMessage(NUMBER, 'María Peña', 'La caja registradora no enciende desde ayer.')]),
    { appSecret: meta.appSecret },
  );
  expect(response.status).toBe(200);
  // The subscription check, through the same server.
  const check = await fetch(
    `${server.url}/api/whatsapp?hub.mode=subscribe&hub.verify_token=${meta.verifyToken}&hub.challenge=42`,
  );
  expect(await check.text()).toBe('42');
  expect(
    (await postWebhook(`${server.url}/api/whatsapp`, webhookBody([]), { appSecret: 'otro' })).status,
  ).toBe(401);
});

afterAll(() => meta.close());

describe('a WhatsApp incident', () => {
  it("is in the list under 'Origen: WhatsApp', in its CSV and in the search", async () => {
    const { context, page } = await signedIn();
    try {
      await page.goto(`${server.url}/admin/incidencias?origen=whatsapp`);
      const link = page.getByRole('link', { name: /^INC-\d{8}-\d{4}$/ });
      await expect(link.count()).resolves.toBe(1);
      numero = (await link.textContent())!.trim();
      const csv = await context.request.get(`${server.url}/api/staff/incidencias.csv?origen=WhatsApp`);
      expect(csv.status()).toBe(200);
      const text = await csv.text();
      expect(text).toContain(numero);
      expect(text).toContain('María Peña');
      expect(text).toContain('+1 809-555-0100');
      const mail = await context.request.get(`${server.url}/api/staff/incidencias.csv?origen=correo`);
      expect(await mail.text()).not.toContain(numero);
      // The staff search finds it by the customer's words and name, as any incident.
      await page.goto(`${server.url}/admin/buscar?q=${encodeURIComponent('caja registradora')}`);
      await expect(page.getByRole('link', { name: new RegExp(numero) }).count()).resolves.toBeGreaterThan(0);
      await page.goto(`${server.url}/admin/buscar?q=${encodeURIComponent('María Peña')}`);
      await expect(page.getByRole('link', { name: new RegExp(numero) }).count()).resolves.toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });

  for (const [label, viewport] of [
    ['390', PHONE],
    ['1280', DESKTOP],
  ] as const) {
    it(`shows the number and 'Abrir en WhatsApp' at ${label} px, axe clean`, async () => {
      expect(numero).not.toBe('');
      const { context, page } = await signedIn(viewport);
      try {
        const consoleWatch = watchConsole(page);
        await page.goto(`${server.url}/admin/incidencias/${numero}`);
        expect(await page.getByTestId('origen').textContent()).toBe('Origen: WhatsApp');
        expect(await page.getByTestId('whatsapp-numero').innerText()).toBe('WhatsApp: +1 809-555-0100');
        const open = page.getByRole('link', { name: 'Abrir en WhatsApp' });
        expect(await open.getAttribute('href')).toBe(`https://wa.me/${NUMBER}`);
        expect(await open.isVisible()).toBe(true);
        await expect(page.getByText('La caja registradora no enciende desde ayer.').count()).resolves.toBe(1);
        expect(await noOverflow(page)).toBe(true);
        if (SHOTS)
          await page.screenshot({ path: `${SHOTS}/whatsapp-incidencia-${label}.png`, fullPage: true });
        await expectNoAxeViolations(page);
        consoleWatch.assertNone();
      } finally {
        await context.close();
      }
    });
  }

  it("'Correo entrante' shows the WhatsApp channel on, its last message and no error", async () => {
    const { context, page } = await signedIn(PHONE);
    try {
      await page.goto(`${server.url}/admin/configuracion#correo-entrante`);
      const section = page.locator('#correo-entrante');
      expect(await section.getByTestId('whatsapp-canal').innerText()).toContain(
        `Activado webhook ${server.url}/api/whatsapp`,
      );
      expect(await section.getByTestId('whatsapp-ultimo').locator('time').count()).toBe(1);
      expect(await section.getByTestId('whatsapp-error').innerText()).toBe('Ninguno');
      expect(await noOverflow(page)).toBe(true);
      await expectNoAxeViolations(page);
    } finally {
      await context.close();
    }
  });

  it("'Bloquear número' keeps its next message out of the incident, in 'Rechazados'; 'Desbloquear' lifts it", async () => {
    expect(numero).not.toBe('');
    const { context, page } = await signedIn(PHONE);
    try {
      const consoleWatch = watchConsole(page);
      await page.goto(`${server.url}/admin/incidencias/${numero}`);
      await page.getByRole('button', { name: 'Bloquear número' }).click();
      await page.waitForURL(/hecho=bloqueado/);
      await expect(
        page.getByRole('status').filter({ hasText: 'Bloqueaste este número' }).count(),
      ).resolves.toBe(1);
      expect(await page.getByTestId('remitente-bloqueado').innerText()).toMatch(/^Número bloqueado: desde /);
      expect(await noOverflow(page)).toBe(true);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/whatsapp-bloqueado-390.png`, fullPage: true });
      await expectNoAxeViolations(page);

      const response = await postWebhook(
        `${server.url}/api/whatsapp`,
        webhookBody([textMessage(NUMBER, 'María Peña', 'Oferta: gana dinero desde casa')]),
        { appSecret: meta.appSecret },
      );
      expect(response.status).toBe(200);
      await page.goto(`${server.url}/admin/incidencias/${numero}`);
      await expect(page.getByText('Oferta: gana dinero desde casa').count()).resolves.toBe(0);

      await page.goto(`${server.url}/admin/configuracion#correo-entrante`);
      const refused = page
        .getByTestId('rechazados')
        .locator('li', { hasText: 'Oferta: gana dinero desde casa' });
      expect(await refused.innerText()).toContain('Número bloqueado');
      const blocked = page.getByTestId('bloqueados').locator(`[data-bloqueado="${NUMBER}"]`);
      expect(await blocked.innerText()).toContain('WhatsApp');
      expect(await noOverflow(page)).toBe(true);
      await expectNoAxeViolations(page);
      await blocked.getByRole('button', { name: `Desbloquear ${NUMBER}` }).click();
      await page.waitForURL(/hecho=desbloqueado/);
      await expect(page.getByTestId('bloqueados-vacio').count()).resolves.toBe(1);
      await page.goto(`${server.url}/admin/incidencias/${numero}`);
      await expect(page.getByRole('button', { name: 'Bloquear número' }).count()).resolves.toBe(1);
      consoleWatch.assertNone();
    } finally {
      await context.close();
    }
  });
});
