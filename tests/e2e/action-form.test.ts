/**
 * The islands' one form hook (src/components/support/useActionForm.ts) in both of its forms, the
 * support dialog and the contact form: a field's message from the browser's check (nothing sent), the
 * server out of reach (the alert says so, every value typed stays and the button comes back), then the
 * same form sent once the server answers again (the values emptied, the success shown).
 */
import { describe, expect, it } from 'vitest';
import { DESKTOP, islandHydrated } from '../support/browser.ts';
import { ageFormStamps } from '../support/form-stamp.ts';
import { useSite } from '../support/site.ts';
import { ATTACHMENT_MESSAGES, MAX_FILE_BYTES } from '../../src/domain/attachments.ts';

const { server, browser } = useSite({
  smtp: true,
  env: { FORM_RATE_LIMIT: '1000', STAFF_INBOX: 'soporte@vertice.test' },
});

const OFFLINE_INCIDENT = 'No pudimos comunicarnos con el servidor. Revisa tu conexión e intenta nuevamente.';
const OFFLINE_CONTACT = 'No pudimos comunicarnos con el servidor. Revisa tu conexión.';

describe('the form hook of the islands', () => {
  it('in the support dialog: a field message, the server out of reach with every value kept, then registered', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await ageFormStamps(page, server.url);
    await page.goto(`${server.url}/soporte`);
    let sent = 0;
    await page.route('**/_actions/incidents.create', async (route) => {
      sent += 1;
      await route.abort('internetdisconnected');
    });
    await page.getByRole('button', { name: /Solicitar Ayuda/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Solicita ayuda' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await islandHydrated(dialog);
    const problem = dialog.getByLabel('¿En qué te podemos ayudar?');
    await problem.fill('El sistema de nómina no abre desde esta mañana.');
    await dialog.getByLabel('Nombre').fill('Rosa Almonte');
    await dialog.getByLabel('Teléfono').fill('809-555-0123');

    // The browser's check: a file over the limit is named under 'Adjuntar archivos'; nothing is sent.
    const files = dialog.getByLabel('Adjuntar archivos');
    await files.setInputFiles({
      name: 'grande.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.alloc(MAX_FILE_BYTES + 1),
    });
    await dialog.getByRole('button', { name: 'Abrir Incidencia' }).click();
    await expect
      .poll(() => dialog.getByText(ATTACHMENT_MESSAGES.fileTooLarge('grande.pdf')).isVisible())
      .toBe(true);
    expect(await dialog.getByText('Revisa los campos marcados.').isVisible()).toBe(true);
    expect(sent).toBe(0);

    // The server out of reach: said so, and every value stays for the next try.
    await files.setInputFiles([]);
    await dialog.getByRole('button', { name: 'Abrir Incidencia' }).click();
    await expect.poll(() => dialog.getByText(OFFLINE_INCIDENT).isVisible()).toBe(true);
    expect(sent).toBe(1);
    expect(await dialog.getByText('Hubo un error al registrar').isVisible()).toBe(true);
    expect(await problem.inputValue()).toBe('El sistema de nómina no abre desde esta mañana.');
    expect(await dialog.getByLabel('Nombre').inputValue()).toBe('Rosa Almonte');
    expect(await dialog.getByLabel('Teléfono').inputValue()).toBe('809-555-0123');
    expect(await dialog.getByRole('button', { name: 'Abrir Incidencia' }).isEnabled()).toBe(true);
    expect(await dialog.isVisible()).toBe(true);

    // Reached again: registered, the dialog closed and its form emptied.
    await page.unroute('**/_actions/incidents.create');
    await dialog.getByRole('button', { name: 'Abrir Incidencia' }).click();
    const notice = page
      .getByRole('alert')
      .filter({ hasText: 'Tu incidencia ha sido registrada con el número:' });
    await expect.poll(() => notice.isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => dialog.isVisible()).toBe(false);
    // Closed, the dialog is out of the accessibility tree: its form is read by its fields' names.
    const closed = page.locator('dialog form');
    expect(await closed.locator('[name="problema"]').inputValue()).toBe('');
    expect(await closed.locator('[name="nombre"]').inputValue()).toBe('');
    expect(await closed.getByText(OFFLINE_INCIDENT).count()).toBe(0);
    await context.close();
  });

  it('in the contact form: the server out of reach with every value kept, then sent', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await ageFormStamps(page, server.url);
    await page.goto(`${server.url}/soporte`);
    await page.route('**/_actions/contact.send', (route) => route.abort('internetdisconnected'));
    const form = page.locator('#contacto form');
    await form.getByLabel('Nombre').fill('Pedro Núñez');
    await form.getByLabel('Correo electrónico').fill('pedro@colmado.test');
    await form.getByLabel('Mensaje').fill('Quisiera saber el precio de la facturación electrónica.');
    await form.getByRole('button', { name: 'Enviar mensaje' }).click();

    const alert = form.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain(OFFLINE_CONTACT);
    expect(await alert.textContent()).toContain('Hubo un problema al enviar tu mensaje. Intenta nuevamente.');
    expect(await form.getByLabel('Nombre').inputValue()).toBe('Pedro Núñez');
    expect(await form.getByLabel('Correo electrónico').inputValue()).toBe('pedro@colmado.test');
    expect(await form.getByLabel('Mensaje').inputValue()).toBe(
      'Quisiera saber el precio de la facturación electrónica.',
    );
    expect(await form.getByRole('button', { name: 'Enviar mensaje' }).isEnabled()).toBe(true);

    await page.unroute('**/_actions/contact.send');
    await form.getByRole('button', { name: 'Enviar mensaje' }).click();
    await expect
      .poll(() => form.getByRole('status').textContent(), { timeout: 10_000 })
      .toBe('¡Gracias por tu mensaje! Te responderemos pronto.');
    expect(await form.getByRole('alert').count()).toBe(0);
    expect(await form.getByLabel('Nombre').inputValue()).toBe('');
    expect(await form.getByLabel('Mensaje').inputValue()).toBe('');
    await context.close();
  });
});
