/**
 * The WhatsApp incident page's states on PostgreSQL (issue 37), in Chromium against the production build
 * on a schema of its own: the window open with its hours left and closed with the template said, and
 * each reply's delivery — 'Enviado', 'Entregado', 'Leído', 'No se pudo entregar: …', 131047's
 * 'Pasaron más de 24 horas: se envió la plantilla'. The same states on SQLite: whatsapp-outbound.test.ts.
 * One test per incident, each checking several states, at 390 px, axe clean.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgSchema, dropPgSchema, withSearchPath } from '../../src/server/db/index.ts';
import { PHONE, expectNoAxeViolations } from '../support/browser.ts';
import { postgresAvailable, TEST_DATABASE_URL } from '../support/db.ts';
import { startMetaStandin } from '../support/meta-standin.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';
import { seedWhatsappIncident, seedWhatsappReply } from '../support/whatsapp-seed.ts';

const OPEN = 'INC-20260301-3711';
const CLOSED = 'INC-20260301-3712';
const schema = `was_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
const standin = await startMetaStandin();
if (postgresAvailable) await createPgSchema(TEST_DATABASE_URL, schema);
// Registered before the site's hooks: it runs after the server has stopped.
afterAll(async () => {
  await standin.close();
  if (postgresAvailable) await dropPgSchema(TEST_DATABASE_URL, schema);
});

const site = postgresAvailable
  ? useSite({
      env: {
        DATABASE_URL: withSearchPath(TEST_DATABASE_URL, schema),
        LOG_LEVEL: 'warn',
        WHATSAPP_APP_SECRET: standin.appSecret,
        WHATSAPP_PHONE_NUMBER_ID: standin.phoneNumberId,
        WHATSAPP_ACCESS_TOKEN: standin.accessToken,
        WHATSAPP_VERIFY_TOKEN: standin.verifyToken,
        WHATSAPP_API_URL: standin.apiUrl,
      },
    })
  : null;

describe.skipIf(!postgresAvailable)('a WhatsApp incident page on PostgreSQL', () => {
  const open = async (numero: string, network: number) => {
    const { server, browser, staff } = site!;
    const signed = await signInStaff(
      browser,
      server.url,
      { email: staff.email, password: staff.password, network: `198.51.100.${network}` },
      PHONE,
    );
    signed.page.setDefaultTimeout(10_000);
    await signed.page.goto(`${server.url}/admin/incidencias/${numero}`);
    return signed;
  };

  it("inside the window: its hours left, and replies 'Enviado', 'Entregado', 'Leído'", async () => {
    const { db, staff } = site!;
    const id = await seedWhatsappIncident(db, OPEN, 20.5);
    for (const [body, deliveryStatus] of [
      ['Recibido, lo revisamos.', undefined],
      ['Ya revisamos la impresora.', 'delivered'],
      ['Te envío el manual.', 'read'],
    ] as const)
      await seedWhatsappReply(db, id, body, {
        status: 'sent',
        attempts: 1,
        authorEmail: staff.email,
        ...(deliveryStatus && { deliveryStatus }),
      });
    const { context, page } = await open(OPEN, 81);
    try {
      expect(await page.getByTestId('ventana-whatsapp').innerText()).toBe(
        'Puedes responder por WhatsApp durante 3 h más',
      );
      const deliveries = page.getByTestId('entrega');
      expect(await deliveries.allInnerTexts()).toEqual([
        'WhatsApp: Enviado',
        'WhatsApp: Entregado',
        'WhatsApp: Leído',
      ]);
      await expectNoAxeViolations(page);
    } finally {
      await context.close();
    }
  });

  it("past the window: the template said, 131047's sentence, and 'No se pudo entregar: …'", async () => {
    const { db, staff } = site!;
    const id = await seedWhatsappIncident(db, CLOSED, 30);
    await seedWhatsappReply(db, id, '¿Sigue el problema?', {
      status: 'sent',
      attempts: 1,
      outcome: 'template-131047',
      authorEmail: staff.email,
    });
    await seedWhatsappReply(db, id, 'Hola de nuevo.', {
      status: 'failed',
      attempts: 1,
      lastError: 'No se pudo entregar: el número no puede recibir este mensaje',
      authorEmail: staff.email,
    });
    const { context, page } = await open(CLOSED, 82);
    try {
      expect(await page.getByTestId('ventana-whatsapp').innerText()).toContain(
        'Pasaron más de 24 horas desde el último mensaje del cliente: la respuesta se enviará como plantilla',
      );
      expect(await page.getByTestId('plantilla-enviada').innerText()).toBe(
        'Pasaron más de 24 horas: se envió la plantilla',
      );
      expect(await page.locator('[data-testid="entrega"][data-estado="failed"]').innerText()).toBe(
        'WhatsApp: No se pudo entregar: el número no puede recibir este mensaje',
      );
      await expectNoAxeViolations(page);
    } finally {
      await context.close();
    }
  });
});
