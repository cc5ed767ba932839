/**
 * The first staff account (issue 14): its generated password is written to FIRST_PASSWORD_FILE with
 * mode 0600 and never printed; signing in with it leads every staff page to 'Contraseña' until a new
 * one is chosen, which removes the file. The admin command reads a password from standard input,
 * warns about `--password`, applies the page's strength rules and lists the last sign-in.
 */
import { existsSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DESKTOP } from '../support/browser.ts';
import { generatedFirstPassword, runAdminScript } from '../support/server.ts';
import { useSite } from '../support/site.ts';

const { server, browser } = useSite({ keepGeneratedPassword: true });
const ADMINS = 'admin@verticeconsultores.com.do,soporte@verticeconsultores.com.do';
const CHOSEN = 'mamey-lámpara-cordillera-58';

describe('the first staff password', () => {
  it('is written to a file only its user can read, and is not printed', () => {
    const generated = generatedFirstPassword(server);
    expect(generated?.email).toBe('admin@verticeconsultores.com.do');
    expect(generated!.password.length).toBeGreaterThanOrEqual(20);
    expect(statSync(server.env.FIRST_PASSWORD_FILE!).mode & 0o777).toBe(0o600);
    expect(server.output()).not.toContain(generated!.password);
    expect(server.output()).toContain(server.env.FIRST_PASSWORD_FILE!);
  });

  it('leads every staff page to Contraseña until a new one is set, then removes the file', async () => {
    const { email, password } = generatedFirstPassword(server)!;
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(`${server.url}/admin-login`);
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Contraseña').fill(password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await page.waitForURL(/\/admin\/configuracion\?motivo=cambio/);
    expect(await page.getByRole('alert').first().textContent()).toContain('Elige una nueva para continuar');
    // Issue 25 §16: the explanation is the first thing seen at 1280×800, wholly in view and uncovered.
    const explanation = page.getByRole('alert').filter({ hasText: 'Elige una nueva para continuar' });
    expect(
      await explanation.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return box.top >= 0 && box.bottom <= window.innerHeight && top !== null && element.contains(top);
      }),
    ).toBe(true);
    if (process.env.OUTCOMES_SHOTS)
      await page.screenshot({ path: `${process.env.OUTCOMES_SHOTS}-contrasena-generada-1280.png` });
    for (const path of ['/admin', '/admin/incidencias', '/admin/clientes']) {
      await page.goto(`${server.url}${path}`);
      expect(new URL(page.url()).pathname, path).toBe('/admin/configuracion');
    }
    await page.getByLabel('Contraseña actual', { exact: true }).fill(password);
    await page.getByLabel('Nueva contraseña', { exact: true }).fill(CHOSEN);
    await page.getByLabel('Repite la nueva contraseña', { exact: true }).fill(CHOSEN);
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await page.waitForURL(/hecho=contrasena/);
    expect(existsSync(server.env.FIRST_PASSWORD_FILE!)).toBe(false);
    await page.goto(`${server.url}/admin/incidencias`);
    expect(new URL(page.url()).pathname).toBe('/admin/incidencias');
    await context.close();
  });

  it('the admin command reads the password from standard input, warns about --password, refuses weak ones and lists sign-ins', () => {
    const email = 'soporte@verticeconsultores.com.do';
    expect(runAdminScript(server, ['create', '--email', email], ADMINS, `${CHOSEN}\n`)).toContain(
      `Cuenta creada: ${email}`,
    );
    expect(() => runAdminScript(server, ['create', '--email', email], ADMINS, 'Contraseña123\n')).toThrow(
      /demasiado común o fácil de adivinar/,
    );
    expect(() =>
      runAdminScript(server, ['create', '--email', email, '--password', 'password1234'], ADMINS),
    ).toThrow(/--password deja la contraseña/);
    const listed = runAdminScript(server, ['list'], ADMINS);
    expect(listed).toMatch(/admin@verticeconsultores\.com\.do.*último inicio de sesión: \d{2}\/\d{2}\/\d{4}/);
    expect(listed).toMatch(/soporte@verticeconsultores\.com\.do.*último inicio de sesión: nunca/);
  });
});
