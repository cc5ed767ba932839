import { beforeAll, describe, expect, it } from 'vitest';
import { postAction } from '../support/actions.ts';
import { DESKTOP, expectNoAxeViolations, islandHydrated, PHONE, watchConsole } from '../support/browser.ts';
import { useSite } from '../support/site.ts';
import { ageFormStamps } from '../support/form-stamp.ts';
import { EMPTY_PROBLEM_QUESTION } from '../../src/domain/forms/incident.ts';

const { server, browser, smtp } = useSite({
  smtp: true,
  env: { FORM_RATE_LIMIT: '1000', STAFF_INBOX: 'soporte@vertice.test' },
});

const NUMBER = /INC-\d{8}-\d{4}/;
// The site header belongs to the frame (another part of the site); these tests judge our own markup.
const SITE_FRAME = ['body > header'];

describe('support dialog (JavaScript on)', () => {
  it('opens with the first click, shows "Enviando…", registers the incident and mails the visitor and the staff', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await ageFormStamps(page, server.url);
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/soporte`);
    // Hold the request briefly so the sending state can be observed.
    await page.route('**/_actions/incidents.create', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });

    await page.getByRole('button', { name: /Solicitar Ayuda/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Solicita ayuda' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await islandHydrated(dialog);
    expect(await dialog.getByRole('link', { name: /AnyDesk/ }).getAttribute('target')).toBe('_blank');
    expect(await dialog.getByRole('link', { name: /TeamViewer/ }).getAttribute('target')).toBe('_blank');
    const box = await dialog.boundingBox();
    expect(box!.height).toBeLessThanOrEqual(800 * 0.95 + 1);

    await dialog
      .getByLabel('¿En qué te podemos ayudar?')
      .fill('La factura electrónica no se envía a la DGII.');
    await dialog.getByLabel('Nombre').fill('Carmen Rosario');
    await dialog.getByLabel('Teléfono').fill('809-555-0199');
    await dialog.getByLabel('Correo electrónico').fill('carmen@cliente.test');
    await dialog.getByLabel('RNC de la empresa').fill('1-31-00000-1');
    await dialog.getByRole('button', { name: 'Abrir Incidencia' }).click();

    const sendingButton = dialog.getByRole('button', { name: 'Enviando…' });
    await expect.poll(() => sendingButton.isDisabled()).toBe(true);

    const notice = page
      .getByRole('alert')
      .filter({ hasText: 'Tu incidencia ha sido registrada con el número:' });
    await expect.poll(() => notice.isVisible(), { timeout: 10_000 }).toBe(true);
    const numero = (await notice.textContent())?.match(NUMBER)?.[0];
    expect(numero).toBeDefined();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    const whatsapp = await notice.getByRole('link', { name: /Continuar por WhatsApp/ }).getAttribute('href');
    expect(whatsapp).toMatch(/^https:\/\/wa\.me\/18095550142\?text=/);
    expect(decodeURIComponent(whatsapp!.split('text=')[1]!)).toContain(numero!);

    const confirmation = await smtp.waitFor((mail) => mail.subject === `Incidencia ${numero} registrada`);
    // The visitor's copy names only what the site wrote; the problem goes to the staff inbox alone.
    expect(confirmation.text).toContain(numero!);
    expect(confirmation.text).not.toContain('La factura electrónica no se envía a la DGII.');
    const notice2 = await smtp.waitFor(
      (mail) => mail.subject?.startsWith(`Nueva incidencia ${numero}`) ?? false,
    );
    expect(notice2.text).toContain('La factura electrónica no se envía a la DGII.');
    expect(notice2.replyTo?.value[0]?.address).toBe('carmen@cliente.test');
    consoleWatch.assertNone();
    await context.close();
  });

  it('registers an empty submission on a phone once asked, and the dialog passes axe', async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    await ageFormStamps(page, server.url);
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/soporte`);
    await page.getByRole('button', { name: /Solicitar Ayuda/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Solicita ayuda' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await islandHydrated(dialog);
    const box = await dialog.boundingBox();
    expect(box!.height).toBeLessThanOrEqual(844 * 0.95 + 1);
    await expectNoAxeViolations(page, SITE_FRAME);
    // Sent empty, it asks once whether to send it so (issue 39 §8); sending again registers it.
    await dialog.getByRole('button', { name: 'Abrir Incidencia' }).click();
    await expect.poll(() => dialog.getByText(EMPTY_PROBLEM_QUESTION).isVisible()).toBe(true);
    await expectNoAxeViolations(page, SITE_FRAME);
    await dialog.getByRole('button', { name: 'Abrir Incidencia' }).click();
    const notice = page
      .getByRole('alert')
      .filter({ hasText: 'Tu incidencia ha sido registrada con el número:' });
    await expect.poll(() => notice.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await notice.textContent()).toMatch(NUMBER);
    await expectNoAxeViolations(page, SITE_FRAME);
    consoleWatch.assertNone();
    await context.close();
  });

  it('closes with Cancelar', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(`${server.url}/soporte`);
    await page.getByRole('button', { name: /Solicitar Ayuda/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Solicita ayuda' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await islandHydrated(dialog);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await context.close();
  });
});

describe('support without JavaScript', () => {
  it('opens the dialog natively, posts to /soporte/nueva and shows the number', async () => {
    const context = await browser.newContext({ ...DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    await ageFormStamps(page, server.url);
    await page.goto(`${server.url}/soporte`);
    await page.getByRole('button', { name: /Solicitar Ayuda/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Solicita ayuda' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByLabel('¿En qué te podemos ayudar?').fill('No abre el punto de venta.');
    await dialog.getByLabel('Nombre').fill('Luis Tavárez');
    await Promise.all([
      page.waitForURL(/\/soporte\/nueva/),
      dialog.getByRole('button', { name: 'Abrir Incidencia' }).click(),
    ]);
    const result = page.getByRole('alert');
    expect(await result.textContent()).toMatch(
      /Tu incidencia ha sido registrada con el número: INC-\d{8}-\d{4}/,
    );
    expect(await page.getByRole('link', { name: /Continuar por WhatsApp/ }).getAttribute('href')).toMatch(
      /^https:\/\/wa\.me\/18095550142\?text=.*INC-/,
    );
    await context.close();
  });

  it('shows the errors with every value kept on /soporte/nueva', async () => {
    const context = await browser.newContext({ ...DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/soporte/nueva`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Abrir una incidencia');
    // Typing beyond maxlength is what only a script does; the server must still refuse it in Spanish.
    const response = await page.request.post(`${server.url}/soporte/nueva?_action=incidents.create`, {
      headers: { origin: server.url },
      form: { problema: 'x'.repeat(5001), nombre: 'Ana <b>Pérez</b>', telefono: '', email: '', rnc: '' },
    });
    expect(response.status()).toBe(400);
    await page.setContent(await response.text(), { waitUntil: 'domcontentloaded' });
    expect(await page.getByRole('alert').textContent()).toContain('Hubo un error al registrar');
    expect(await page.locator('#incidencia-problema-error').textContent()).toBe(
      'La descripción del problema admite como máximo 5.000 caracteres.',
    );
    expect(await page.getByLabel('Nombre').inputValue()).toBe('Ana <b>Pérez</b>');
    await context.close();
  });
});

describe('follow-up page /soporte/seguimiento', () => {
  /** The incident these tests follow, opened as the dialog sends it, so they need no other test before them. */
  let opened: { numero: string; email: string } | undefined;
  beforeAll(async () => {
    const email = 'carmen@cliente.test';
    const answer = await postAction(server.url, 'incidents.create', {
      problema: 'La factura electrónica no se envía a la DGII.',
      nombre: 'Carmen Rosario',
      telefono: '809-555-0199',
      email,
      rnc: '1-31-00000-1',
    });
    if (answer.status !== 200 || !answer.numero)
      throw new Error(`No se pudo abrir la incidencia de prueba: ${JSON.stringify(answer)}`);
    opened = { numero: answer.numero, email };
  });

  it('shows state and history (not the problem) for the right pair, one neutral message otherwise, without JavaScript', async () => {
    expect(opened).toBeDefined();
    const context = await browser.newContext({ ...PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/soporte/seguimiento`);

    await page.getByLabel('Número de incidencia').fill(opened!.numero.toLowerCase());
    await page.getByLabel('Correo electrónico').fill('otra@cliente.test');
    await Promise.all([
      page.waitForLoadState('domcontentloaded'),
      page.getByRole('button', { name: 'Consultar estado' }).click(),
    ]);
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('No encontramos una incidencia con esos datos.');
    expect(await page.getByLabel('Correo electrónico').inputValue()).toBe('otra@cliente.test');

    await page.getByLabel('Correo electrónico').fill(opened!.email.toUpperCase());
    await Promise.all([
      page.waitForLoadState('domcontentloaded'),
      page.getByRole('button', { name: 'Consultar estado' }).click(),
    ]);
    const result = page.getByRole('region', { name: opened!.numero });
    await expect.poll(() => result.isVisible()).toBe(true);
    expect(await result.textContent()).toContain('Registrado');
    // The problem text is for whoever holds the mail's token, not for whoever knows number and e-mail.
    expect(await result.textContent()).not.toContain('La factura electrónica no se envía a la DGII.');
    expect(await result.getByRole('listitem').count()).toBe(1);

    await page.getByLabel('Número de incidencia').fill('12345');
    await Promise.all([
      page.waitForLoadState('domcontentloaded'),
      page.getByRole('button', { name: 'Consultar estado' }).click(),
    ]);
    await expect
      .poll(() => page.locator('#seguimiento-numero-error').textContent())
      .toBe('El número tiene la forma INC-20250131-1234.');
    await context.close();
  });

  it('opens the whole follow-up from the link of the confirmation mail, and nothing with a wrong token', async () => {
    const confirmation = await smtp.waitFor(
      (mail) => mail.subject === `Incidencia ${opened!.numero} registrada`,
    );
    const link = /https?:\/\/[^\s"]+seguimiento\?token=[A-Za-z0-9_-]+/.exec(confirmation.text ?? '')?.[0];
    expect(link).toBeDefined();
    const context = await browser.newContext({ ...PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(link!);
    const result = page.getByRole('region', { name: opened!.numero });
    await expect.poll(() => result.isVisible()).toBe(true);
    expect(await result.textContent()).toContain('La factura electrónica no se envía a la DGII.');
    expect(await result.textContent()).toContain('Registrado');

    const token = new URL(link!).searchParams.get('token')!;
    await page.goto(`${server.url}/soporte/seguimiento?token=${token.slice(0, -2)}xx`);
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('No encontramos una incidencia con esos datos.');
    expect(await page.getByRole('region', { name: opened!.numero }).count()).toBe(0);
    await context.close();
  });

  it('passes axe with a result shown (JavaScript on: axe runs in the page)', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/soporte/seguimiento`);
    await expectNoAxeViolations(page, SITE_FRAME);
    await page.getByLabel('Número de incidencia').fill(opened!.numero);
    await page.getByLabel('Correo electrónico').fill(opened!.email);
    await Promise.all([
      page.waitForURL(/_action=incidents\.track/),
      page.getByRole('button', { name: 'Consultar estado' }).click(),
    ]);
    await expect.poll(() => page.getByRole('region', { name: opened!.numero }).isVisible()).toBe(true);
    await expectNoAxeViolations(page, SITE_FRAME);
    for (const path of ['/soporte', '/soporte/nueva']) {
      await page.goto(`${server.url}${path}`);
      await expectNoAxeViolations(page, SITE_FRAME);
    }
    consoleWatch.assertNone();
    await context.close();
  });
});

describe('when the server is gone', () => {
  // Last: this stops the server. The browser logs the refused request, so the console is not checked.
  it('says "Hubo un error al registrar" and keeps the dialog open with every value', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await ageFormStamps(page, server.url);
    await page.goto(`${server.url}/soporte`);
    await page.getByRole('button', { name: /Solicitar Ayuda/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Solicita ayuda' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await islandHydrated(dialog);
    await dialog.getByLabel('¿En qué te podemos ayudar?').fill('El inventario no cuadra.');
    await dialog.getByLabel('Nombre').fill('Rosa Almonte');
    await dialog.getByLabel('Correo electrónico').fill('rosa@cliente.test');
    // SIGTERM: requests drained, the mail worker stopped after its current send, exit code 0.
    expect(await server.stop()).toBe(0);
    await dialog.getByRole('button', { name: 'Abrir Incidencia' }).click();
    await expect
      .poll(() => dialog.getByRole('alert').textContent(), { timeout: 10_000 })
      .toContain('Hubo un error al registrar');
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.getByLabel('¿En qué te podemos ayudar?').inputValue()).toBe(
      'El inventario no cuadra.',
    );
    expect(await dialog.getByLabel('Nombre').inputValue()).toBe('Rosa Almonte');
    expect(await dialog.getByLabel('Correo electrónico').inputValue()).toBe('rosa@cliente.test');
    expect(await dialog.getByRole('button', { name: 'Abrir Incidencia' }).isEnabled()).toBe(true);
    await context.close();
  });
});
