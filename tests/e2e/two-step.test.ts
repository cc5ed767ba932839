/**
 * 'Verificación en dos pasos' against the production build, in Chromium, with STAFF_REQUIRE_2FA on:
 * an unenrolled account is sent to the section; enrolment (password, the secret shown as a QR code
 * and as text, a code computed from that secret, 10 recovery codes with a download); sign-in with a
 * code (a wrong one refused), with a recovery code (once only); wrong codes count against the
 * sign-in limits; each code of the app works once; turning it off needs the password and a code. The
 * tests run in order on one account.
 */
import * as OTPAuth from 'otpauth';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signInKeys } from '../../src/server/auth/login.ts';
import { openDatabase } from '../../src/server/db/index.ts';
import { clearHits } from '../../src/server/limits/counters.ts';
import { DESKTOP, downloadedBytes, expectNoAxeViolations, watchConsole } from '../support/browser.ts';
import { firstStaffEmail, firstStaffPassword, runAdminScript } from '../support/server.ts';
import { useSite } from '../support/site.ts';

const FIRST = 'admin@verticeconsultores.com.do';
const SECOND = 'soporte@verticeconsultores.com.do';
const SECOND_PASSWORD = 'caoba-tamarindo-mangle-77';
const ADMIN_EMAILS = `${FIRST},${SECOND}`;

const { server, browser } = useSite({
  env: { TRUST_PROXY: 'true', STAFF_REQUIRE_2FA: 'true', LOG_LEVEL: 'warn', ADMIN_EMAILS },
});

let email = '';
let password = '';
let secret = '';
let recoveryCodes: string[] = [];
let ipCounter = 0;

beforeAll(() => {
  email = firstStaffEmail(server);
  password = firstStaffPassword(server);
  expect(email).toBe(FIRST);
  expect(password).toBeTruthy();
});

/**
 * Every check of an account's password or code within 15 minutes, from any network, slows the next one
 * down (src/server/auth/login.ts; proven with its waits recorded in tests/integration/auth.test.ts).
 * These tests sign the same account in again and again: each starts as after a quiet quarter of an
 * hour, with the account's count at zero, or the file would spend a minute in that slow-down.
 */
beforeEach(async () => {
  if (!email) return;
  const { db } = openDatabase(server.env.DATABASE_URL!);
  try {
    await clearHits(db, signInKeys(email, '').account);
  } finally {
    await db.destroy();
  }
});

/** The code the authenticator app shows now (for a check the server refuses before reading the code). */
const currentCode = () =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate();

const STEP_MS = 30_000;
/** Room left in a time step for a code of the step before it to reach the server still inside its window. */
const MARGIN_MS = 10_000;
/** The last time step whose code a test handed to the server: the server takes each code once. */
let lastStep = -1;
/**
 * A code the server has not taken yet, later than any handed out before: of the step before this one
 * (while it has at least 10 s of its window left), of this one or of the next one, the three the server
 * accepts. When all three are spent, the server is made to forget the steps it took (its
 * `totp_last_steps` rows) instead of waiting up to 30 s for the next step: the refusal of a code used
 * twice is proven below ('Ese código ya se usó', two sign-ins with one code, no forgetting in between)
 * and in tests/integration/two-step.test.ts.
 */
async function freshCode(): Promise<string> {
  for (;;) {
    const now = Date.now();
    const current = Math.floor(now / STEP_MS);
    const earliest = now % STEP_MS < STEP_MS - MARGIN_MS ? current - 1 : current;
    const step = Math.max(earliest, lastStep + 1);
    if (step <= current + 1) {
      lastStep = step;
      return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
        timestamp: step * STEP_MS,
      });
    }
    const { db } = openDatabase(server.env.DATABASE_URL!);
    try {
      await db.deleteFrom('totpLastSteps').execute();
    } finally {
      await db.destroy();
    }
    lastStep = -1;
  }
}
/** A code that is not the current one (nor the one either side of it). */
function wrongCode(): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
  const now = Date.now();
  const near = new Set([-1, 0, 1].map((step) => totp.generate({ timestamp: now + step * 30_000 })));
  for (let n = 123456; ; n += 1) if (!near.has(String(n))) return String(n);
}

const path = (page: Page) => new URL(page.url()).pathname;
const section = (page: Page) => page.locator('#dos-pasos');

/** A browser context with its own client network (the server trusts X-Forwarded-For here), on the password step. */
async function passwordStep(
  ip?: string,
  javaScriptEnabled = true,
): Promise<{ context: BrowserContext; page: Page }> {
  ipCounter += 1;
  const context = await browser.newContext({
    ...DESKTOP,
    javaScriptEnabled,
    extraHTTPHeaders: { 'x-forwarded-for': ip ?? `198.51.100.${ipCounter}` },
  });
  const page = await context.newPage();
  await page.goto(`${server.url}/admin-login`);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  return { context, page };
}

async function codeStep(
  ip?: string,
  javaScriptEnabled = true,
): Promise<{ context: BrowserContext; page: Page }> {
  const started = await passwordStep(ip, javaScriptEnabled);
  await started.page.waitForURL(`${server.url}/admin-login?paso=codigo`);
  return started;
}

async function submitCode(page: Page, code: string): Promise<void> {
  await page.getByLabel('Código de verificación').fill(code);
  await page.getByRole('button', { name: 'Verificar' }).click();
  await page.waitForLoadState();
}

// Each code works once, so a test may wait for the next 30-second step before it has a fresh one.
describe('two-step verification', { timeout: 90_000 }, () => {
  it('sends an unenrolled account from every staff page to the section while STAFF_REQUIRE_2FA is on', async () => {
    const { context, page } = await passwordStep();
    await page.waitForURL(`${server.url}/admin/configuracion#dos-pasos`);
    await expect
      .poll(() => section(page).getByRole('status').textContent())
      .toContain('debe activar la verificación en dos pasos');
    for (const target of ['/admin', '/admin/incidencias']) {
      await page.goto(`${server.url}${target}`);
      expect(path(page)).toBe('/admin/configuracion');
    }
    // Signing out still works.
    await page.getByRole('button', { name: 'Cerrar sesión' }).first().click();
    await page.waitForURL(`${server.url}/admin-login`);
    await context.close();
  });

  it('enrols with the password and a code from the secret shown, then shows 10 recovery codes once, downloadable, and passes axe', async () => {
    const { context, page } = await passwordStep();
    await page.waitForURL(/\/admin\/configuracion/);
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
    await expectNoAxeViolations(page);

    await section(page).getByLabel('Confirma con tu contraseña actual').fill('no-es-la-contraseña');
    await section(page).getByRole('button', { name: 'Activar la verificación en dos pasos' }).click();
    await expect.poll(() => section(page).textContent()).toContain('La contraseña actual no es correcta.');

    await section(page).getByLabel('Confirma con tu contraseña actual').fill(password);
    await section(page).getByRole('button', { name: 'Activar la verificación en dos pasos' }).click();
    const qr = section(page).getByRole('img', { name: /Código QR/ });
    await expect.poll(() => qr.locator('svg').count()).toBe(1);
    secret = ((await section(page).locator('[data-secreto]').textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await expectNoAxeViolations(page);

    // A wrong code: refused, the same secret shown again.
    await section(page)
      .getByLabel(/Escribe el código de 6 cifras/)
      .fill(wrongCode());
    await section(page).getByRole('button', { name: 'Confirmar y activar' }).click();
    await expect.poll(() => section(page).textContent()).toContain('El código no es correcto');
    expect(((await section(page).locator('[data-secreto]').textContent()) ?? '').replace(/\s/g, '')).toBe(
      secret,
    );
    await expectNoAxeViolations(page);

    // From here on, nothing is refused: no console errors.
    const consoleWatch = watchConsole(page);
    await section(page)
      .getByLabel(/Escribe el código de 6 cifras/)
      .fill(await freshCode());
    await section(page).getByRole('button', { name: 'Confirmar y activar' }).click();
    await expect.poll(() => section(page).locator('[data-codigos] li').count()).toBe(10);
    recoveryCodes = await section(page).locator('[data-codigos] li').allTextContents();
    expect(new Set(recoveryCodes).size).toBe(10);
    await expectNoAxeViolations(page);

    const link = section(page).getByRole('link', { name: /Descargar los códigos/ });
    expect(await link.getAttribute('href')).toMatch(/^data:text\/plain/);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('codigos-de-recuperacion.txt');
    const text = (await downloadedBytes(download)).toString('utf8');
    for (const code of recoveryCodes) expect(text).toContain(code);

    // Enrolled: staff pages open again; the codes are not shown a second time.
    await page.goto(`${server.url}/admin`);
    expect(path(page)).toBe('/admin');
    await page.goto(`${server.url}/admin/configuracion`);
    await expect.poll(() => section(page).locator('[data-estado="activada"]').count()).toBe(1);
    expect(await section(page).locator('[data-codigos]').count()).toBe(0);
    await expect.poll(() => page.locator('#actividad [data-evento="two-step.enabled"]').count()).toBe(1);
    expect(runAdminScript(server, ['list'], email)).toContain('dos pasos: sí');
    consoleWatch.assertNone();
    await context.close();
  });

  it('asks for a code after the password, on its own step; a wrong code is refused, the right one signs in', async () => {
    const { context, page } = await codeStep();
    await expectNoAxeViolations(page);
    // No session yet.
    await page.goto(`${server.url}/admin`);
    expect(path(page)).toBe('/admin-login');
    await page.goto(`${server.url}/admin-login?paso=codigo`);
    await submitCode(page, wrongCode());
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('El código no es correcto');
    expect(page.url()).toBe(`${server.url}/admin-login?paso=codigo`);
    await expectNoAxeViolations(page);
    const code = await freshCode();
    await submitCode(page, code);
    await page.waitForURL(`${server.url}/admin`);
    await context.close();

    // The same code again, within its window: refused, it has been used.
    const again = await codeStep();
    await submitCode(again.page, code);
    await expect.poll(() => again.page.getByRole('alert').textContent()).toContain('Ese código ya se usó');
    expect(path(again.page)).toBe('/admin-login');
    await again.context.close();
  });

  it('takes a recovery code instead of a code, once', async () => {
    const first = await codeStep();
    await submitCode(first.page, recoveryCodes[0]!);
    await first.page.waitForURL(`${server.url}/admin`);
    await first.context.close();

    const again = await codeStep();
    await submitCode(again.page, recoveryCodes[0]!);
    await expect
      .poll(() => again.page.getByRole('alert').textContent())
      .toContain('El código no es correcto');
    expect(path(again.page)).toBe('/admin-login');
    await again.page.goto(`${server.url}/admin`);
    expect(path(again.page)).toBe('/admin-login');
    await again.context.close();
  });

  it('counts wrong codes against the same per-account-and-network limit as passwords', async () => {
    const ip = '203.0.113.77';
    // 1 password + 4 codes, 1 password + 3 codes, 1 password: the 10 checks the network has for the account.
    for (const codes of [4, 3, 0]) {
      const { context, page } = await codeStep(ip);
      for (let i = 0; i < codes; i += 1) {
        await submitCode(page, wrongCode());
        await expect.poll(() => page.getByRole('alert').textContent()).toContain('El código no es correcto');
      }
      if (codes === 0) {
        // The 11th check, the right code: refused by the limit before it is checked.
        const response = page.waitForResponse((answer) => answer.request().method() === 'POST');
        await submitCode(page, currentCode());
        expect((await response).status()).toBe(429);
        await expect.poll(() => page.getByRole('alert').textContent()).toContain('Demasiados intentos');
        expect(path(page)).toBe('/admin-login');
      }
      await context.close();
    }
  });

  it('turns off only with the password and a code, and is then required again', async () => {
    const { context, page } = await codeStep();
    await submitCode(page, await freshCode());
    await page.waitForURL(`${server.url}/admin`);
    await page.goto(`${server.url}/admin/configuracion#dos-pasos`);
    // Each code works once: the one that signed in does not turn it off.
    const offCode = await freshCode();
    const disable = () =>
      section(page).getByRole('button', { name: 'Desactivar la verificación en dos pasos' }).click();

    await section(page).getByLabel('Confirma con tu contraseña actual').fill('no-es-la-contraseña');
    await section(page).getByLabel('Código de la aplicación').fill(offCode);
    await disable();
    await expect.poll(() => section(page).textContent()).toContain('La contraseña actual no es correcta.');

    await section(page).getByLabel('Confirma con tu contraseña actual').fill(password);
    await section(page).getByLabel('Código de la aplicación').fill(wrongCode());
    await disable();
    await expect.poll(() => section(page).textContent()).toContain('El código no es correcto');
    await expectNoAxeViolations(page);
    expect(await section(page).locator('[data-estado="activada"]').count()).toBe(1);

    await section(page).getByLabel('Confirma con tu contraseña actual').fill(password);
    await section(page).getByLabel('Código de la aplicación').fill(offCode);
    await disable();
    await page.waitForURL(/hecho=dos-pasos-desactivada/);
    await expect.poll(() => section(page).locator('[data-estado="desactivada"]').count()).toBe(1);
    await expect.poll(() => page.locator('#actividad [data-evento="two-step.disabled"]').count()).toBe(1);
    // Still signed in, and sent back to the section from other staff pages.
    await page.goto(`${server.url}/admin/incidencias`);
    expect(path(page)).toBe('/admin/configuracion');
    expect(runAdminScript(server, ['list'], email)).toContain('dos pasos: no');
    await context.close();

    // Sign-in no longer asks for a code.
    const plain = await passwordStep();
    await plain.page.waitForURL(/\/admin\/configuracion/);
    await plain.context.close();
  });
  it('works with JavaScript off: enrolment, the code step and turning it off are plain forms', async () => {
    // A second account, whose codes are its own: the first one spent this minute's codes above.
    email = SECOND;
    password = SECOND_PASSWORD;
    secret = '';
    lastStep = -1;
    runAdminScript(server, ['create', '--email', SECOND], ADMIN_EMAILS, `${SECOND_PASSWORD}\n`);
    const { context, page } = await passwordStep(undefined, false);
    await page.waitForURL(/\/admin\/configuracion/);
    await section(page).getByLabel('Confirma con tu contraseña actual').fill(password);
    await section(page).getByRole('button', { name: 'Activar la verificación en dos pasos' }).click();
    await expect
      .poll(() =>
        section(page)
          .getByRole('img', { name: /Código QR/ })
          .locator('svg')
          .count(),
      )
      .toBe(1);
    secret = ((await section(page).locator('[data-secreto]').textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await section(page)
      .getByLabel(/Escribe el código de 6 cifras/)
      .fill(await freshCode());
    await section(page).getByRole('button', { name: 'Confirmar y activar' }).click();
    await expect.poll(() => section(page).locator('[data-codigos] li').count()).toBe(10);
    expect(
      await section(page)
        .getByRole('link', { name: /Descargar los códigos/ })
        .getAttribute('href'),
    ).toMatch(/^data:text\/plain/);
    await context.close();

    const signIn = await codeStep(undefined, false);
    await submitCode(signIn.page, await freshCode());
    await signIn.page.waitForURL(`${server.url}/admin`);
    await signIn.page.goto(`${server.url}/admin/configuracion#dos-pasos`);
    await section(signIn.page).getByLabel('Confirma con tu contraseña actual').fill(password);
    await section(signIn.page)
      .getByLabel('Código de la aplicación')
      .fill(await freshCode());
    await section(signIn.page)
      .getByRole('button', { name: 'Desactivar la verificación en dos pasos' })
      .click();
    await signIn.page.waitForURL(/hecho=dos-pasos-desactivada/);
    await expect.poll(() => section(signIn.page).locator('[data-estado="desactivada"]').count()).toBe(1);
    await signIn.context.close();
  });
});
