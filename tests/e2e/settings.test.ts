/**
 * The staff settings page (/admin/configuracion) against the production build, in Chromium: the
 * password change (its refusals, the other sessions ending, the notice mail at a real SMTP peer), the
 * session list (ending one, ending the others) and the idle timeout (set to one minute; the session's
 * last use is moved back in the database file instead of waiting).
 */
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, expectNoAxeViolations, watchConsole } from '../support/browser.ts';
import { firstStaffEmail, firstStaffPassword } from '../support/server.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';

const { server, browser, smtp } = useSite({
  smtp: true,
  env: { TRUST_PROXY: 'true', STAFF_SESSION_IDLE_MINUTES: '1', LOG_LEVEL: 'warn' },
});

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const NEW_PASSWORD = 'tortuga-nevera-cobalto-7';
const WEAK_MESSAGE = /demasiado común o fácil de adivinar/;

let email = '';
let password = '';
let ipCounter = 0;

beforeAll(() => {
  email = firstStaffEmail(server);
  password = firstStaffPassword(server);
  expect(email && password).toBeTruthy();
});

/** A signed-in browser context with its own client IP (the server trusts X-Forwarded-For here). */
async function signedIn(
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page; ip: string }> {
  ipCounter += 1;
  const ip = `198.51.100.${ipCounter}`;
  const { context, page } = await signInStaff(
    browser,
    server.url,
    { email, password, network: ip },
    { ...DESKTOP, ...options },
  );
  return { context, page, ip };
}

const settings = (page: Page) => page.goto(`${server.url}/admin/configuracion`);
const path = (page: Page) => new URL(page.url()).pathname;

function withDatabase<T>(run: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(join(server.dataDir, 'site.db'));
  try {
    db.exec('pragma busy_timeout = 5000');
    return run(db);
  } finally {
    db.close();
  }
}

describe('staff settings', () => {
  it('is reached from the sidebar and passes axe', async () => {
    const { context, page } = await signedIn();
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/admin`);
    await page
      .getByRole('navigation', { name: 'Panel administrativo' })
      .getByRole('link', { name: 'Configuración' })
      .click();
    await page.waitForURL(`${server.url}/admin/configuracion`);
    await expect
      .poll(() => page.getByRole('heading', { level: 2 }).allTextContents())
      .toEqual([
        'Nombre',
        'Contraseña',
        'Sesiones',
        'Verificación en dos pasos',
        'Correo entrante',
        'Respuestas guardadas',
        'Tiempos de respuesta',
        'Actividad',
      ]);
    await expect
      .poll(() => page.getByRole('link', { name: 'Configuración' }).first().getAttribute('aria-current'))
      .toBe('page');
    await expectNoAxeViolations(page);
    consoleWatch.assertNone();
    // Signed out, so the next test sees only its own sessions.
    await page.getByRole('button', { name: 'Cerrar sesión' }).first().click();
    await page.waitForURL(`${server.url}/admin-login`);
    await context.close();
  });

  it('lists the sessions of the account and ends one, then all the others', async () => {
    const mine = await signedIn();
    const firefox = await signedIn({ userAgent: FIREFOX_LINUX });
    const third = await signedIn();
    const { page } = mine;
    await settings(page);
    const items = page.locator('#sesiones li');
    await expect.poll(() => items.count()).toBe(3);
    const current = items.filter({ hasText: 'Esta sesión' });
    await expect.poll(() => current.count()).toBe(1);
    await expect.poll(() => current.textContent()).toContain(mine.ip);
    const other = items.filter({ hasText: 'Firefox 128 en Linux' });
    await expect.poll(() => other.textContent()).toContain(firefox.ip);
    await expect.poll(() => other.textContent()).toMatch(/Iniciada\s*\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    await expect.poll(() => other.textContent()).toMatch(/Último uso\s*\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    // No 'Cerrar' on this session.
    await expect.poll(() => current.getByRole('button').count()).toBe(0);
    await expectNoAxeViolations(page);

    await other.getByRole('button', { name: /^Cerrar la sesión de Firefox/ }).click();
    await page.waitForURL(/hecho=cerrada/);
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('La sesión se cerró.');
    await expect.poll(() => items.count()).toBe(2);
    await firefox.page.goto(`${server.url}/admin`);
    expect(path(firefox.page)).toBe('/admin-login');
    await third.page.goto(`${server.url}/admin/incidencias`);
    expect(path(third.page)).toBe('/admin/incidencias');

    await page.getByRole('button', { name: 'Cerrar las demás sesiones' }).click();
    await page.waitForURL(/hecho=demas/);
    await expect.poll(() => items.count()).toBe(1);
    await expect
      .poll(() => page.locator('#sesiones').textContent())
      .toContain('No hay otras sesiones abiertas.');
    await third.page.goto(`${server.url}/admin`);
    expect(path(third.page)).toBe('/admin-login');
    await page.goto(`${server.url}/admin`);
    expect(path(page)).toBe('/admin');
    for (const { context } of [mine, firefox, third]) await context.close();
  });

  it('refuses a weak or wrong password with a message per field (axe passes with the errors shown), keeping the account field and no password', async () => {
    const { context, page } = await signedIn();
    await settings(page);
    for (const weak of ['password1234', 'Contraseña123']) {
      await page.getByLabel('Contraseña actual', { exact: true }).fill(password);
      await page.getByLabel('Nueva contraseña', { exact: true }).fill(weak);
      await page.getByLabel('Repite la nueva contraseña', { exact: true }).fill(weak);
      await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
      await page.waitForLoadState('load');
      expect(await page.locator('#p-nueva-error').textContent()).toMatch(WEAK_MESSAGE);
      expect(await page.getByLabel('Nueva contraseña', { exact: true }).getAttribute('aria-invalid')).toBe(
        'true',
      );
      expect(await page.getByRole('alert').textContent()).toContain('No se cambió la contraseña');
      expect(await page.getByLabel('Cuenta').inputValue()).toBe(email);
      for (const label of ['Contraseña actual', 'Nueva contraseña', 'Repite la nueva contraseña'])
        expect(await page.getByLabel(label, { exact: true }).inputValue()).toBe('');
    }
    await expectNoAxeViolations(page);

    await page.getByLabel('Contraseña actual', { exact: true }).fill(password);
    await page.getByLabel('Nueva contraseña', { exact: true }).fill('corta');
    await page.getByLabel('Repite la nueva contraseña', { exact: true }).fill('otra');
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await page.waitForLoadState('load');
    expect(await page.locator('#p-nueva-error').textContent()).toContain('al menos 12 caracteres');
    expect(await page.locator('#p-repeticion-error').textContent()).toContain('no coinciden');

    await page.getByLabel('Contraseña actual', { exact: true }).fill(password);
    await page.getByLabel('Nueva contraseña', { exact: true }).fill(password);
    await page.getByLabel('Repite la nueva contraseña', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await page.waitForLoadState('load');
    expect(await page.locator('#p-nueva-error').textContent()).toContain('distinta de la actual');

    await page.getByLabel('Contraseña actual', { exact: true }).fill('no-es-la-clave-actual');
    await page.getByLabel('Nueva contraseña', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repite la nueva contraseña', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await page.waitForLoadState('load');
    expect(await page.locator('#p-actual-error').textContent()).toBe('La contraseña actual no es correcta.');
    await context.close();
  });

  it('changes the password without JavaScript: other sessions end, this one stays, a notice mail is sent', async () => {
    const mine = await signedIn({ javaScriptEnabled: false });
    const other = await signedIn();
    const { page } = mine;
    await settings(page);
    await page.getByLabel('Contraseña actual', { exact: true }).fill(password);
    await page.getByLabel('Nueva contraseña', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repite la nueva contraseña', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await page.waitForURL(/hecho=contrasena/);
    expect(await page.getByRole('status').first().textContent()).toContain('Tu contraseña cambió');
    password = NEW_PASSWORD;

    await other.page.goto(`${server.url}/admin`);
    expect(path(other.page)).toBe('/admin-login');
    await page.goto(`${server.url}/admin`);
    expect(path(page)).toBe('/admin');

    const mail = await smtp.waitFor(
      (message) => /contraseña/i.test(message.subject ?? '') && (message.text ?? '').includes(email),
    );
    expect(JSON.stringify(mail.to)).toContain(email);
    expect(mail.text).toContain('Si no fuiste tú');
    expect(mail.text).toContain(mine.ip);
    expect(mail.text).toMatch(/Fecha y hora \(Santo Domingo\): \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    expect(mail.html).toContain('Si no fuiste tú');

    // The new password signs in.
    const again = await signedIn();
    await again.context.close();
    for (const { context } of [mine, other]) await context.close();
  });

  it('ends a session unused for STAFF_SESSION_IDLE_MINUTES and says why at sign-in', async () => {
    const { context, page } = await signedIn();
    const newest = () =>
      withDatabase((db) =>
        db.prepare('select "id", "updatedAt" from "session" order by "createdAt" desc limit 1').get()!,
      );
    const id = newest().id as string;
    const lastUse = () => newest().updatedAt as string;
    const moveBack = (seconds: number) =>
      withDatabase((db) => {
        const stored = lastUse();
        const back = new Date(Date.now() - seconds * 1000);
        // Written as Better Auth writes it.
        db.prepare('update "session" set "updatedAt" = ?').run(
          /^\d+$/.test(stored) ? back.getTime() : back.toISOString(),
        );
      });

    // Used within the minute: the last use is written again, and the session goes on.
    moveBack(30);
    const before = new Date(lastUse()).getTime();
    await settings(page);
    expect(path(page)).toBe('/admin/configuracion');
    expect(new Date(lastUse()).getTime()).toBeGreaterThan(before + 20_000);

    moveBack(90);
    await page.goto(`${server.url}/admin/incidencias`);
    expect(path(page)).toBe('/admin-login');
    expect(new URL(page.url()).searchParams.get('motivo')).toBe('inactividad');
    expect(await page.getByRole('status').textContent()).toBe(
      'Tu sesión se cerró por inactividad. Inicia sesión de nuevo.',
    );
    expect(
      withDatabase((db) => db.prepare('select count(*) as n from "session" where "id" = ?').get(id)!.n),
    ).toBe(0);
    // The session is gone, not only refused once.
    await page.goto(`${server.url}/admin`);
    expect(path(page)).toBe('/admin-login');
    await context.close();
  });

  it("shows the staff area's events under 'Actividad' with who, what, when and the network, and exports them as CSV", async () => {
    // A failed sign-in from its own network, then a real one.
    const failedIp = '203.0.113.77';
    const stranger = await browser.newContext({
      ...DESKTOP,
      extraHTTPHeaders: { 'x-forwarded-for': failedIp },
    });
    const strangerPage = await stranger.newPage();
    await strangerPage.goto(`${server.url}/admin-login`);
    await strangerPage.getByLabel('Correo electrónico').fill(email);
    await strangerPage.getByLabel('Contraseña').fill('no-es-la-contraseña-123');
    await strangerPage.getByRole('button', { name: 'Iniciar sesión' }).click();
    await expect.poll(() => strangerPage.getByRole('alert').count()).toBeGreaterThan(0);
    await stranger.close();

    const { context, page, ip } = await signedIn();
    await settings(page);
    const rows = page.locator('#actividad tbody tr');
    const row = (action: string) => page.locator(`#actividad tbody tr[data-evento="${action}"]`).first();
    expect(await rows.count()).toBeGreaterThan(3);
    // Newest first: this sign-in heads the list.
    expect(await rows.first().getAttribute('data-evento')).toBe('signin.ok');
    expect(await row('signin.ok').textContent()).toContain(email);
    expect(await row('signin.ok').textContent()).toContain(ip);
    expect(await row('signin.ok').textContent()).toMatch(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    expect(await row('signin.failed').textContent()).toContain(failedIp);
    expect(await row('signin.failed').textContent()).toContain('Intento de inicio de sesión fallido');
    // The earlier tests of this file changed the password and ended sessions.
    expect(await row('password.changed').textContent()).toContain('Cambio de contraseña');
    expect(await row('session.ended').textContent()).toContain('Sesión cerrada a distancia');
    expect(await row('signout').count()).toBe(1);

    const csv = await page.request.get(`${server.url}/api/staff/actividad.csv`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
    const text = await csv.text();
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text).toContain('"Fecha (hora de Santo Domingo)","Acción","Usuario","Sobre","Detalle","Red"');
    expect(text).toContain('Intento de inicio de sesión fallido');
    // Not for strangers.
    expect((await fetch(`${server.url}/api/staff/actividad.csv`, { redirect: 'manual' })).status).toBe(401);
    await context.close();
  });

  it("names the account under 'Nombre': a blank or multi-line name is refused keeping what was typed; a saved one greets, signs the header and the activity log", async () => {
    const { context, page } = await signedIn();
    await settings(page);
    const nameField = page.getByRole('textbox', { name: 'Nombre', exact: true });
    // Without a name the account is shown by its e-mail.
    expect(await nameField.inputValue()).toBe('');
    expect(await page.locator('header strong').first().textContent()).toBe(email);

    await nameField.fill('   ');
    await page.getByRole('button', { name: 'Guardar nombre' }).click();
    await page.waitForLoadState('load');
    expect(await page.locator('#nombre-error').textContent()).toBe('Escribe tu nombre.');
    expect(await nameField.getAttribute('aria-invalid')).toBe('true');
    await expectNoAxeViolations(page);

    // A line break cannot be typed into the field: posted as a client would send it.
    const posted = await page.request.post(`${server.url}/admin/configuracion?_action=settings.changeName`, {
      form: { nombre: 'Ana\nPérez' },
      headers: { origin: server.url },
    });
    expect(posted.status()).toBe(400);
    expect(await posted.text()).toContain(
      'El nombre no puede tener saltos de línea ni caracteres de control.',
    );

    await nameField.fill('  Ana   Pérez ');
    await page.getByRole('button', { name: 'Guardar nombre' }).click();
    await page.waitForURL(/hecho=nombre#nombre$/);
    expect(await page.getByRole('status').first().textContent()).toBe('Tu nombre se guardó.');
    expect(await nameField.inputValue()).toBe('Ana Pérez');
    const header = page.locator('header strong').first();
    expect(await header.textContent()).toBe('Ana Pérez');
    expect(await header.getAttribute('title')).toBe(email);
    const renamed = page.locator('#actividad tbody tr[data-evento="account.renamed"]').first();
    expect(await renamed.textContent()).toContain('Cambio de nombre');
    expect(await renamed.textContent()).toContain('Ana Pérez');
    expect(await renamed.textContent()).not.toContain(email);

    await page.goto(`${server.url}/admin`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('¡Hola, Ana Pérez!');
    await context.close();
  });
});
