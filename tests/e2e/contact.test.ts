import { describe, expect, it } from 'vitest';
import { DESKTOP, expectNoAxeViolations, PHONE, watchConsole } from '../support/browser.ts';
import { ageFormStamps, formStamp } from '../support/form-stamp.ts';
import { useSite } from '../support/site.ts';

const SITE_FRAME = ['body > header'];
const SUCCESS = '¡Gracias por tu mensaje! Te responderemos pronto.';

// A small limit: the tests before the last one store 3 messages from this IP; the last runs into it.
const { server, browser, smtp } = useSite({
  smtp: true,
  env: { FORM_RATE_LIMIT: '6', STAFF_INBOX: 'soporte@vertice.test' },
});

describe('contact form (JavaScript on)', () => {
  it('sends, shows "Enviando…", clears the fields and thanks; the staff gets the mail with the visitor as Reply-To', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await ageFormStamps(page, server.url);
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/soporte`);
    await page.route('**/_actions/contact.send', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    const form = page.locator('#contacto form');
    await form.getByLabel('Nombre').fill('Juan Marte');
    await form.getByLabel('Correo electrónico').fill('juan@ferreteria.test');
    await form
      .getByLabel('Mensaje')
      .fill('Quisiera una cotización de AdmCloud para tres usuarios.\nGracias.');
    await form.getByRole('button', { name: 'Enviar mensaje' }).click();
    await expect.poll(() => form.getByRole('button', { name: 'Enviando…' }).isDisabled()).toBe(true);
    await expect.poll(() => form.getByRole('status').textContent(), { timeout: 10_000 }).toBe(SUCCESS);
    expect(await form.getByLabel('Nombre').inputValue()).toBe('');
    expect(await form.getByLabel('Correo electrónico').inputValue()).toBe('');
    expect(await form.getByLabel('Mensaje').inputValue()).toBe('');

    const mail = await smtp.waitFor((item) => item.subject === 'Nuevo mensaje de contacto de Juan Marte');
    expect(mail.replyTo?.value[0]?.address).toBe('juan@ferreteria.test');
    expect(mail.text).toContain('Quisiera una cotización de AdmCloud para tres usuarios.');
    await expectNoAxeViolations(page, SITE_FRAME);
    consoleWatch.assertNone();
    await context.close();
  });

  it('requires every field in the browser, and shows each Spanish message beside its field', async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/soporte`);
    const form = page.locator('#contacto form');
    for (const label of ['Nombre', 'Correo electrónico', 'Mensaje']) {
      expect(await form.getByLabel(label).getAttribute('required')).not.toBeNull();
    }
    expect(await form.getByLabel('Correo electrónico').getAttribute('type')).toBe('email');

    // Past the browser's own checks (as an old browser or a script would be), the same rules answer in Spanish.
    await form.getByLabel('Nombre').focus();
    await page.waitForTimeout(300);
    await form.evaluate((element) => element.setAttribute('novalidate', ''));
    await form.getByRole('button', { name: 'Enviar mensaje' }).click();
    await expect.poll(() => form.getByText('Escribe tu nombre.').isVisible()).toBe(true);
    expect(await form.getByText('Escribe tu correo electrónico.').isVisible()).toBe(true);
    expect(await form.getByText('Escribe tu mensaje.').isVisible()).toBe(true);
    expect(await form.getByLabel('Nombre').getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('name');

    await form.getByLabel('Nombre').fill('Ana');
    await form.getByLabel('Correo electrónico').fill('ana@');
    await form.getByLabel('Mensaje').fill('Hola');
    await form.getByRole('button', { name: 'Enviar mensaje' }).click();
    await expect
      .poll(() =>
        form.getByText('Escribe un correo electrónico válido, por ejemplo nombre@empresa.com.').isVisible(),
      )
      .toBe(true);
    expect(await form.getByText('Escribe tu nombre.').count()).toBe(0);
    expect(await form.getByLabel('Mensaje').inputValue()).toBe('Hola');
    consoleWatch.assertNone();
    await context.close();
  });
});

describe('contact form without JavaScript', () => {
  it('posts to /soporte and thanks the visitor', async () => {
    const context = await browser.newContext({ ...DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    await ageFormStamps(page, server.url);
    await page.goto(`${server.url}/soporte`);
    const form = page.locator('#contacto form');
    await form.getByLabel('Nombre').fill('Elena Batista');
    await form.getByLabel('Correo electrónico').fill('elena@colmado.test');
    await form.getByLabel('Mensaje').fill('Me interesa Tiendao para mi colmado.');
    await Promise.all([
      page.waitForURL(/_action=contact\.send/),
      form.getByRole('button', { name: 'Enviar mensaje' }).click(),
    ]);
    expect(await page.locator('#contacto form').getByRole('status').textContent()).toBe(SUCCESS);
    expect(await page.locator('#contacto form').getByLabel('Nombre').inputValue()).toBe('');
    await smtp.waitFor((item) => item.subject === 'Nuevo mensaje de contacto de Elena Batista');
    await context.close();
  });

  it("shows the server's messages with the values kept", async () => {
    const context = await browser.newContext({ ...DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    const response = await page.request.post(`${server.url}/soporte?_action=contact.send`, {
      headers: { origin: server.url },
      form: { name: '<script>alert(1)</script>', email: 'no-es-correo', message: '' },
    });
    expect(response.status()).toBe(400);
    const html = await response.text();
    expect(html).not.toContain('<script>alert(1)</script>');
    await page.setContent(html, { waitUntil: 'domcontentloaded' });
    const form = page.locator('#contacto form');
    expect(await form.getByRole('alert').textContent()).toContain(
      'Hubo un problema al enviar tu mensaje. Intenta nuevamente.',
    );
    expect(
      await form
        .getByText('Escribe un correo electrónico válido, por ejemplo nombre@empresa.com.')
        .isVisible(),
    ).toBe(true);
    expect(await form.getByText('Escribe tu mensaje.').isVisible()).toBe(true);
    expect(await form.getByLabel('Nombre').inputValue()).toBe('<script>alert(1)</script>');
    expect(await form.getByLabel('Correo electrónico').inputValue()).toBe('no-es-correo');
    await context.close();
  });
});

describe('abuse guards over HTTP', () => {
  it('refuses a filled honeypot and a too-fast submission with a Spanish message', async () => {
    const post = (form: Record<string, string>) =>
      fetch(`${server.url}/_actions/contact.send`, {
        method: 'POST',
        headers: { origin: server.url },
        body: new URLSearchParams(form),
      });
    const honeypot = await post({
      name: 'Bot',
      email: 'bot@spam.test',
      message: 'Compre ya',
      website: 'https://spam.test',
    });
    expect(honeypot.status).toBe(400);
    expect((await honeypot.json()).message).toBe(
      'No pudimos procesar el envío. Espera unos segundos e inténtalo de nuevo.',
    );
    const fast = await post({
      name: 'Bot',
      email: 'bot@spam.test',
      message: 'Compre ya',
      startedAt: formStamp({ ageMs: 0 }),
    });
    expect(fast.status).toBe(400);
    expect((await fast.json()).message).toBe(
      'No pudimos procesar el envío. Espera unos segundos e inténtalo de nuevo.',
    );
    const ok = await post({
      name: 'Persona',
      email: 'p@cliente.test',
      message: 'Hola',
      startedAt: formStamp({ ageMs: 5000 }),
    });
    expect(ok.status).toBe(200);
    const tooBig = await post({ name: 'Persona', email: 'p@cliente.test', message: 'x'.repeat(70 * 1024) });
    expect(tooBig.status).toBe(413);
  });

  it('answers 429 in Spanish once an IP has sent FORM_RATE_LIMIT messages in 10 minutes, and a forged X-Forwarded-For does not help', async () => {
    const statuses: number[] = [];
    let refusal: { message?: string } | undefined;
    for (let attempt = 0; attempt < 8 && !refusal; attempt += 1) {
      const response = await fetch(`${server.url}/_actions/contact.send`, {
        method: 'POST',
        headers: { origin: server.url, 'x-forwarded-for': `198.51.100.${attempt}` },
        body: new URLSearchParams({
          name: 'Persona',
          email: 'p@cliente.test',
          message: `Mensaje ${attempt}`,
          startedAt: formStamp(),
        }),
      });
      statuses.push(response.status);
      if (response.status === 429) refusal = await response.json();
    }
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(6);
    expect(statuses.at(-1)).toBe(429);
    expect(refusal?.message).toBe(
      'Has enviado demasiadas solicitudes en poco tiempo. Espera unos minutos e inténtalo de nuevo.',
    );
  });
});
