/**
 * WhatsApp outbound on the staff and public pages (issue 37), against the production build with the
 * channel on (its settings pointing at the loopback stand-in of Meta's API) in Chromium, at 390 and
 * 1280 px, axe clean:
 * - a WhatsApp incident's reply box says how long free text may still go ('Puedes responder por
 *   WhatsApp durante 3 h más'), or past the 24-hour window that the reply goes as the template;
 * - each reply shows its delivery: 'Enviando…' with the last attempt's error, 'Leído' (Meta's status in
 *   migration 0043's column), 'Pasaron más de 24 horas: se envió la plantilla', 'No se pudo entregar: …';
 * - the reply form posts without JavaScript and says the reply goes by WhatsApp;
 * - the support dialog offers 'Escribir por WhatsApp' beside the form, on the on-demand /soporte and on
 *   the prerendered home (built without the channel: the form-stamp answer says it is on now).
 * The incidents and their notices are seeded in the server's database as the delivery worker leaves them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DESKTOP, PHONE, expectNoAxeViolations } from '../support/browser.ts';
import { startMetaStandin } from '../support/meta-standin.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';
import { HOUR, seedWhatsappIncident, seedWhatsappReply } from '../support/whatsapp-seed.ts';
import type { Db } from '../../src/server/db/index.ts';

const standin = await startMetaStandin();
const OPEN = 'INC-20260301-3701';
const CLOSED = 'INC-20260301-3702';

const { server, browser, db, staff } = useSite({
  env: {
    LOG_LEVEL: 'warn',
    WHATSAPP_APP_SECRET: standin.appSecret,
    WHATSAPP_PHONE_NUMBER_ID: standin.phoneNumberId,
    WHATSAPP_ACCESS_TOKEN: standin.accessToken,
    WHATSAPP_VERIFY_TOKEN: standin.verifyToken,
    WHATSAPP_API_URL: standin.apiUrl,
  },
});

afterAll(() => standin.close());

const whatsappIncident = seedWhatsappIncident;
const reply = (
  database: Db,
  incidentId: number,
  body: string,
  notice: Omit<Parameters<typeof seedWhatsappReply>[3], 'authorEmail'>,
) => seedWhatsappReply(database, incidentId, body, { ...notice, authorEmail: staff.email });

beforeAll(async () => {
  // 20 h 30 min ago: 3 h 30 min left.
  const open = await whatsappIncident(db, OPEN, 20.5);
  await reply(db, open, 'Ya revisamos la impresora.', {
    status: 'sent',
    attempts: 1,
    deliveryStatus: 'read',
  });
  await reply(db, open, 'Te envío el manual.', {
    status: 'pending',
    attempts: 2,
    lastError: 'No se pudo entregar: no se pudo conectar con WhatsApp; se reintentará',
    nextAttemptAt: new Date(Date.now() + 24 * HOUR).toISOString(),
  });
  const closed = await whatsappIncident(db, CLOSED, 30);
  await reply(db, closed, '¿Sigue el problema?', {
    status: 'sent',
    attempts: 1,
    outcome: 'template-131047',
  });
  await reply(db, closed, 'Hola de nuevo.', {
    status: 'failed',
    attempts: 1,
    lastError: 'No se pudo entregar: el número no puede recibir este mensaje',
  });
});

for (const [size, device] of [
  ['390', PHONE],
  ['1280', DESKTOP],
] as const) {
  // With JavaScript (axe runs in the page); the form's post without it is the next test.
  it(`the reply box says the window's time left, and each reply its delivery, at ${size} px`, async () => {
    const { context, page } = await signInStaff(
      browser,
      server.url,
      { email: staff.email, password: staff.password, network: `198.51.100.${size === '390' ? 71 : 72}` },
      device,
    );
    page.setDefaultTimeout(10_000);
    try {
      await page.goto(`${server.url}/admin/incidencias/${OPEN}`);
      const window = page.getByTestId('ventana-whatsapp');
      expect(await window.innerText()).toBe('Puedes responder por WhatsApp durante 3 h más');
      const deliveries = page.getByTestId('entrega');
      expect(await deliveries.nth(0).innerText()).toBe('WhatsApp: Leído');
      expect(await deliveries.nth(1).getAttribute('data-estado')).toBe('pending');
      expect(await deliveries.nth(1).innerText()).toContain('WhatsApp: Enviando… · 2 intentos');
      expect(await deliveries.nth(1).innerText()).toContain(
        'Último intento: No se pudo entregar: no se pudo conectar con WhatsApp; se reintentará',
      );
      expect(await page.locator('#archivos-ayuda').innerText()).toContain('llegan al cliente por WhatsApp');
      await expectNoAxeViolations(page);

      await page.goto(`${server.url}/admin/incidencias/${CLOSED}`);
      expect(await page.getByTestId('ventana-whatsapp').innerText()).toContain(
        'Pasaron más de 24 horas desde el último mensaje del cliente: la respuesta se enviará como plantilla',
      );
      expect(await page.getByTestId('plantilla-enviada').innerText()).toBe(
        'Pasaron más de 24 horas: se envió la plantilla',
      );
      const failed = page.locator('[data-testid="entrega"][data-estado="failed"]');
      expect(await failed.innerText()).toBe(
        'WhatsApp: No se pudo entregar: el número no puede recibir este mensaje',
      );
      await expectNoAxeViolations(page);
    } finally {
      await context.close();
    }
  });
}

it("the reply form posts without JavaScript and the page keeps the window's sentence", async () => {
  const { context, page } = await signInStaff(
    browser,
    server.url,
    { email: staff.email, password: staff.password, network: '198.51.100.73' },
    { ...PHONE, javaScriptEnabled: false },
  );
  try {
    await page.goto(`${server.url}/admin/incidencias/${OPEN}`);
    await page.locator('#texto').fill('Probemos de nuevo ahora.');
    await page.getByRole('button', { name: 'Responder al cliente' }).click();
    // The WhatsApp channel takes the notice (queued for the delivery worker): 'respuesta', never the
    // mail channel's 'respuesta-sin-correo', and the page says it goes by WhatsApp.
    await page.waitForURL(/hecho=respuesta/);
    expect(new URL(page.url()).searchParams.get('hecho')).toBe('respuesta');
    expect(await page.getByRole('status').innerText()).toBe(
      'La respuesta se guardó y se enviará al cliente por WhatsApp; su estado se ve debajo de ella.',
    );
    expect(await page.getByTestId('linea-de-tiempo').innerText()).toContain('Probemos de nuevo ahora.');
    expect(await page.getByTestId('ventana-whatsapp').innerText()).toBe(
      'Puedes responder por WhatsApp durante 3 h más',
    );
  } finally {
    await context.close();
  }
});

for (const [path, name] of [
  ['/soporte', 'the on-demand /soporte'],
  ['/', 'the prerendered home'],
] as const) {
  it(`the support dialog offers 'Escribir por WhatsApp' beside the form on ${name}`, async () => {
    for (const device of [PHONE, DESKTOP]) {
      const context = await browser.newContext(device);
      try {
        const page = await context.newPage();
        await page.goto(`${server.url}${path}`);
        await page.getByRole('button', { name: 'Solicitar Ayuda' }).click();
        const dialog = page.getByRole('dialog');
        const link = dialog.getByRole('link', { name: 'Escribir por WhatsApp' });
        await link.waitFor();
        expect(await link.getAttribute('href')).toMatch(/^https:\/\/wa\.me\/\d+\?text=/);
        expect(await dialog.locator('form').count()).toBe(1);
        await expectNoAxeViolations(page);
      } finally {
        await context.close();
      }
    }
  });
}
