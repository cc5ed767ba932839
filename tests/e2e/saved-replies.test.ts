/**
 * 'Respuestas guardadas' (issue 22) against the production build, in Chromium, one context per device:
 * at 1280 px with JavaScript, a saved reply created in Configuración (an unknown variable refused first,
 * what was typed kept; axe) and inserted on an incident's page in place, after the text already typed,
 * then sent;
 * at 390 px without JavaScript, one inserted by reloading the page (`?respuesta=`), then edited and
 * deleted after its confirmation step, with no horizontal overflow on either page.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createSavedReply } from '../../src/server/replies/index.ts';
import { DESKTOP, expectNoAxeViolations, noOverflow, PHONE, watchConsole } from '../support/browser.ts';
import { insertIncident } from '../support/factories.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';

const { server, browser, db, staff } = useSite({ env: { TRUST_PROXY: 'true', LOG_LEVEL: 'warn' } });

const NUMERO = 'INC-20250210-0101';
const LINK = /https?:\/\/[^\s]+\/soporte\/seguimiento\?token=[A-Za-z0-9_-]{24}/;

beforeAll(async () => {
  await insertIncident(db, {
    numeroIncidencia: NUMERO,
    nombre: 'Rosa Díaz',
    email: 'rosa@cliente.example',
    estado: 'En Proceso',
  });
  await createSavedReply(
    db,
    { title: 'Cierre', body: 'Quedamos atentos, {nombre}.\n{mi_nombre}' },
    { actorEmail: staff.email, network: '192.0.2.0/24' },
  );
});

const settingsUrl = () => `${server.url}/admin/configuracion`;
const incidentUrl = () => `${server.url}/admin/incidencias/${NUMERO}`;

describe('saved replies', () => {
  it('at 1280 px with JavaScript: created in Configuración (an unknown variable refused, kept), inserted after the typed text', async () => {
    const { context, page } = await signInStaff(
      browser,
      server.url,
      { ...staff, network: '198.51.100.21' },
      DESKTOP,
    );
    await page.goto(`${settingsUrl()}#respuestas`);
    const section = page.locator('#respuestas');
    await section.getByLabel('Título').fill('Saludo');
    await section.getByLabel('Texto').fill('Hola, {nombre}: tu incidencia {numero} está «{estado}». {apodo}');
    await section.getByRole('button', { name: 'Guardar respuesta' }).click();
    await expect
      .poll(() => section.getByRole('alert').first().textContent())
      .toMatch(/La variable \{apodo\} no existe\./);
    expect(await section.getByLabel('Título').inputValue()).toBe('Saludo');
    expect(await section.getByLabel('Texto').getAttribute('aria-invalid')).toBe('true');

    // From here on, no console error (the refused post above is a 400 page, as designed).
    const consoleWatch = watchConsole(page);
    await section
      .getByLabel('Texto')
      .fill(
        'Hola, {nombre}: tu incidencia {numero} está «{estado}».\nSíguela aquí: {enlace_seguimiento}\n{mi_nombre}',
      );
    await section.getByRole('button', { name: 'Guardar respuesta' }).click();
    await expect
      .poll(() => page.getByTestId('respuestas-hecho').textContent())
      .toBe('La respuesta guardada se creó.');
    expect(await page.getByTestId('respuestas-lista').locator('h3').allTextContents()).toEqual([
      'Cierre',
      'Saludo',
    ]);
    await expectNoAxeViolations(page);

    await page.goto(incidentUrl());
    const box = page.getByLabel('Respuesta o nota');
    await box.fill('Gracias por escribirnos.');
    await page.getByLabel('Insertar respuesta guardada').selectOption({ label: 'Saludo' });
    await page.getByRole('button', { name: 'Insertar', exact: true }).click();
    await expect
      .poll(() => page.locator('#respuesta-insertada').textContent())
      .toContain('Se insertó «Saludo»');
    const text = await box.inputValue();
    expect(text).toMatch(
      new RegExp(
        `^Gracias por escribirnos\\.\\n\\nHola, Rosa Díaz: tu incidencia ${NUMERO} está «En Proceso»\\.\\nSíguela aquí: ${LINK.source}\\n${staff.email.replace(/[.]/g, '\\.')}$`,
      ),
    );
    expect(page.url()).toBe(incidentUrl());
    expect(await box.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await noOverflow(page)).toBe(true);
    // Sent as it stands: the reply in the timeline is the edited box's text.
    await page.getByRole('button', { name: 'Responder al cliente' }).click();
    await expect
      .poll(() => page.locator('[data-tipo="reply"]').last().textContent())
      .toContain('Gracias por escribirnos.\n\nHola, Rosa Díaz');
    consoleWatch.assertNone();
    await context.close();
  });

  it('at 390 px without JavaScript: inserted by reloading the page, then edited and deleted after its confirmation', async () => {
    const { context, page } = await signInStaff(
      browser,
      server.url,
      { ...staff, network: '198.51.100.22' },
      { ...PHONE, javaScriptEnabled: false },
    );
    await page.goto(incidentUrl());
    await page.getByLabel('Respuesta o nota').fill('Listo.');
    await page.getByLabel('Insertar respuesta guardada').selectOption({ label: 'Cierre' });
    await page.getByRole('button', { name: 'Insertar', exact: true }).click();
    await page.waitForURL(/\?.*respuesta=/);
    expect(await page.getByLabel('Respuesta o nota').inputValue()).toBe(
      `Listo.\n\nQuedamos atentos, Rosa Díaz.\n${staff.email}`,
    );
    expect(await page.getByRole('status').filter({ hasText: 'Se insertó «Cierre»' }).count()).toBe(1);
    expect(await noOverflow(page)).toBe(true);

    await page.goto(`${settingsUrl()}#respuestas`);
    expect(await noOverflow(page)).toBe(true);
    await page.getByRole('link', { name: 'Editar «Cierre»' }).click();
    const form = page.locator('#respuestas-formulario');
    expect(await form.getByLabel('Texto').inputValue()).toBe('Quedamos atentos, {nombre}.\n{mi_nombre}');
    await form.getByLabel('Título').fill('Despedida');
    await form.getByRole('button', { name: 'Guardar cambios' }).click();
    expect(await page.getByTestId('respuestas-hecho').textContent()).toBe(
      'La respuesta guardada se actualizó.',
    );

    await page.getByRole('link', { name: 'Eliminar «Despedida»' }).click();
    const confirm = page.getByTestId('confirmar-eliminar');
    expect(await confirm.textContent()).toContain('¿Eliminar «Despedida»?');
    await confirm.getByRole('button', { name: 'Sí, eliminar' }).click();
    expect(await page.getByTestId('respuestas-hecho').textContent()).toBe(
      'La respuesta guardada se eliminó.',
    );
    expect(await page.locator('[data-respuesta] h3').allTextContents()).not.toContain('Despedida');
    await context.close();
  });
});
