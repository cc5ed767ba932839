/**
 * The staff area against the production build: sign-in and its failures, the server-side guard on
 * every staff route, incident filters and state changes, clients, CSV export, dashboard data.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffAuth } from '../../src/server/auth/index.ts';
import { signInStaff as signInWithAuth } from '../../src/server/auth/login.ts';
import { parseConfig } from '../../src/server/config.ts';
import { normalizeForSearch } from '../../src/server/text.ts';
import { DESKTOP, PHONE, expectNoAxeViolations, watchConsole } from '../support/browser.ts';
import { routesUnder, STAFF_ACTIONS } from '../support/routes.ts';
import { firstStaffPassword, runAdminScript } from '../support/server.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/smtp.ts';

const ADMIN = 'admin@verticeconsultores.com.do';
const SUPPORT = 'soporte@verticeconsultores.com.do';
const FORMER = 'exempleado@verticeconsultores.com.do';
const PASSWORD = 'clave-de-soporte-2025';
const SHOTS = process.env.ADMIN_SCREENSHOTS;
const AUTH_SECRET = 'prueba-e2e-secreto-de-sesiones-0123456789';

// A test stops this peer and starts another on its port (the mail server going down and coming back),
// so the file keeps its own peer rather than the fixture's.
let smtp: SmtpPeer;
beforeAll(async () => {
  smtp = await startSmtpPeer();
});
afterAll(async () => {
  await smtp?.stop();
});
const { server, browser, db } = useSite({
  env: () => ({
    ADMIN_EMAILS: `${ADMIN},${SUPPORT}`,
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'warn',
    AUTH_SECRET,
    SMTP_URL: smtp.url,
  }),
});
let adminPassword = '';
let ipCounter = 0;

/** Each context its own client IP (the server trusts X-Forwarded-For here), so rate limits do not mix. */
async function newContext(options = DESKTOP): Promise<BrowserContext> {
  ipCounter += 1;
  return browser.newContext({
    ...options,
    extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${ipCounter}` },
  });
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${server.url}/admin-login`);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await page.waitForLoadState('load');
}

/** A page at `path` signed in as SUPPORT by the form's post (the form itself is tested under 'sign-in'). */
async function staffPage(path: string, options = DESKTOP) {
  ipCounter += 1;
  const { context, page } = await signInStaff(
    browser,
    server.url,
    { email: SUPPORT, password: PASSWORD, network: `198.51.100.${ipCounter}` },
    options,
  );
  const consoleWatch = watchConsole(page);
  await page.goto(`${server.url}${path}`);
  await hydrated(page);
  return { context, page, consoleWatch };
}

/** Islands hydrate when idle; interacting before that would test nothing. */
async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
}

async function cookieOf(context: BrowserContext): Promise<string> {
  return (await context.cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
}

const runAdmin = (args: string[], adminEmails = `${ADMIN},${SUPPORT}`) =>
  runAdminScript(server, args, adminEmails);

const INCIDENTS = [
  {
    numero: 'INC-20250110-1001',
    nombre: 'José Pérez',
    rnc: '101850043',
    estado: 'Registrado',
    fecha: '2025-01-10T14:00:00.000Z',
    email: 'jose@example.com',
    problema: 'No imprime la factura con NCF.',
  },
  {
    numero: 'INC-20250111-2002',
    nombre: 'María Gómez',
    rnc: '131246757',
    estado: 'En Proceso',
    fecha: '2025-01-11T14:00:00.000Z',
    email: '',
    problema: 'El reporte 606 sale vacío.',
  },
  {
    numero: 'INC-20250112-3003',
    nombre: 'Jose Alberto Núñez',
    rnc: '40212345678',
    estado: 'Resuelto',
    fecha: '2025-01-12T14:00:00.000Z',
    email: 'jan@example.com',
    problema: 'Cambio de contraseña.',
  },
  {
    numero: 'INC-20250113-4004',
    nombre: 'Ana Pérez',
    rnc: '101-85004-3',
    estado: 'Registrado',
    fecha: '2025-01-13T14:00:00.000Z',
    email: 'ana@example.com',
    problema: '=HYPERLINK("http://x","clic")',
  },
] as const;

beforeAll(async () => {
  adminPassword = firstStaffPassword(server);
  runAdmin(['create', '--email', SUPPORT, '--password', PASSWORD, '--name', 'Equipo de Soporte']);
  runAdmin(['create', '--email', FORMER, '--password', PASSWORD], `${ADMIN},${SUPPORT},${FORMER}`);
  for (const item of INCIDENTS) {
    const row = await db
      .insertInto('incidents')
      .values({
        numeroIncidencia: item.numero,
        problema: item.problema,
        nombre: item.nombre,
        telefono: '809-555-0100',
        email: item.email,
        rnc: item.rnc,
        estado: item.estado,
        fecha: item.fecha,
        lastActivityAt: item.fecha,
        nombreNorm: normalizeForSearch(item.nombre),
        rncNorm: normalizeForSearch(item.rnc),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('incidentEvents')
      .values({ incidentId: row.id, estado: 'Registrado', fecha: item.fecha, actor: null })
      .execute();
  }
});

describe('sign-in', () => {
  it('creates the first staff account on start and signs in with it, once an operator has set its password', async () => {
    expect(adminPassword.length).toBeGreaterThanOrEqual(20);
    expect(runAdmin(['list'])).toContain(ADMIN);
    const context = await newContext();
    const page = await context.newPage();
    const consoleWatch = watchConsole(page);
    await signIn(page, ADMIN, adminPassword);
    expect(new URL(page.url()).pathname).toBe('/admin');
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toContain(`¡Hola, ${ADMIN}!`);
    const cookie = (await context.cookies()).find((item) => item.name.includes('session_token'));
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    consoleWatch.assertNone();
    await context.close();
  });

  it('answers a wrong password and an unknown e-mail with the same message, and keeps no session', async () => {
    const context = await newContext();
    const page = await context.newPage();
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/admin-login`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('Login Administrador');
    await expectNoAxeViolations(page);
    await signIn(page, SUPPORT, 'una-clave-equivocada');
    expect(await page.getByRole('alert').textContent()).toBe(
      'Credenciales incorrectas o error al iniciar sesión.',
    );
    if (SHOTS) await page.screenshot({ path: `${SHOTS}-login-desktop.png` });
    await signIn(page, 'nadie@verticeconsultores.com.do', PASSWORD);
    expect(await page.getByRole('alert').textContent()).toBe(
      'Credenciales incorrectas o error al iniciar sesión.',
    );
    expect((await context.cookies()).filter((item) => item.name.includes('session_token'))).toEqual([]);
    consoleWatch.assertNone();
    await context.close();
  });

  it('refuses a valid account that is not on ADMIN_EMAILS and keeps no session', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await signIn(page, FORMER, PASSWORD);
    expect(new URL(page.url()).pathname).toBe('/admin-login');
    expect(await page.getByRole('alert').textContent()).toBe(
      'Este usuario no tiene permisos de administrador.',
    );
    expect((await context.cookies()).filter((item) => item.name.includes('session_token'))).toEqual([]);
    const sessions = await db
      .withoutPlugins()
      .selectFrom('session' as any)
      .innerJoin('user as u' as any, 'u.id' as any, 'session.userId' as any)
      .select('u.email' as any)
      .execute();
    expect(sessions.map((row: any) => row.email)).not.toContain(FORMER);
    await context.close();
  });

  it('rate-limits repeated attempts from one IP with a Spanish message', async () => {
    const ip = '203.0.113.77';
    const attempt = (email: string, from = ip) =>
      fetch(`${server.url}/admin-login`, {
        method: 'POST',
        headers: {
          origin: server.url,
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': from,
        },
        body: new URLSearchParams({ email, password: 'clave-incorrecta-123' }),
      });
    for (let index = 0; index < 10; index++)
      expect((await attempt(`otro${index}@example.com`)).status).toBe(200);
    const limited = await attempt(SUPPORT);
    expect(limited.status).toBe(429);
    expect(await limited.text()).toContain('Demasiados intentos de inicio de sesión');
    // Another IP is not affected.
    expect((await attempt('otro@example.com', '203.0.113.78')).status).toBe(200);
  });

  it('signs out on the server and goes to /admin-login', async () => {
    const { context, page, consoleWatch } = await staffPage('/admin');
    const cookie = await cookieOf(context);
    await page.getByRole('button', { name: 'Cerrar sesión' }).first().click();
    await page.waitForURL(`${server.url}/admin-login`);
    const replay = await fetch(`${server.url}/admin`, { headers: { cookie }, redirect: 'manual' });
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toBe('/admin-login');
    consoleWatch.assertNone();
    await context.close();
  });
});

describe('guard', () => {
  it('redirects every /admin page to /admin-login without a session', async () => {
    const pages = routesUnder('admin');
    expect(pages).toEqual(expect.arrayContaining(['/admin', '/admin/incidencias', '/admin/clientes']));
    for (const path of pages) {
      const response = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expect(response.status, path).toBe(303);
      expect(response.headers.get('location'), path).toBe('/admin-login');
      expect(response.headers.get('cache-control'), path).toBe('no-store');
    }
    // Spellings of the same routes must not slip past the guard.
    for (const path of ['/%61dmin', '/admin/%63lientes', '/admin//incidencias']) {
      const response = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expect(response.status, path).toBe(303);
    }
  });

  it('answers 403 to a valid session whose e-mail is not on ADMIN_EMAILS', async () => {
    // A session for the former employee, made as a server that still listed them would make it.
    const config = parseConfig({ SITE_URL: server.url, ADMIN_EMAILS: `${ADMIN},${FORMER}`, AUTH_SECRET });
    const auth = createStaffAuth({ db, engine: 'sqlite', config, secret: AUTH_SECRET });
    const outcome = await signInWithAuth(
      { email: FORMER, password: PASSWORD, ip: '192.0.2.50' },
      { auth, config, db },
    );
    if (outcome.kind !== 'ok') throw new Error(outcome.kind);
    const cookie = outcome.setCookies.map((line) => line.split(';')[0]).join('; ');
    const page = await fetch(`${server.url}/admin/clientes`, { headers: { cookie }, redirect: 'manual' });
    expect(page.status).toBe(403);
    expect(await page.text()).toContain('Este usuario no tiene permisos de administrador.');
    const csv = await fetch(`${server.url}/api/staff/incidencias.csv`, { headers: { cookie } });
    expect(csv.status).toBe(403);
    const action = await fetch(`${server.url}/_actions/clients.create`, {
      method: 'POST',
      headers: { cookie, origin: server.url, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(action.status).toBe(403);
  });

  it('answers 401 on every staff API and every staff action without a session', async () => {
    const apis = routesUnder('api/staff').filter((path) => path !== '/api/staff/logout');
    expect(apis.length).toBeGreaterThan(0);
    for (const path of apis) {
      for (const method of ['GET', 'POST']) {
        const response = await fetch(`${server.url}${path}`, { method, headers: { origin: server.url } });
        expect(response.status, `${method} ${path}`).toBe(401);
      }
    }
    // The staff actions of the fixed interface (the middleware recognises them from their definition,
    // STAFF_ACTION_NAMES in src/actions/staff/index.ts).
    for (const name of STAFF_ACTIONS) {
      const response = await fetch(`${server.url}/_actions/${name}`, {
        method: 'POST',
        headers: { origin: server.url, 'content-type': 'application/json' },
        body: JSON.stringify({ id: 1, estado: 'Resuelto' }),
      });
      expect(response.status, name).toBe(401);
      expect(await response.json(), name).toMatchObject({ type: 'AstroActionError', code: 'UNAUTHORIZED' });
    }
    for (const path of [
      '/_actions/clients%2Ecreate',
      '/_actions/%63lients.sendWelcome',
      '/api/%73taff/incidencias.csv',
    ]) {
      const response = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { origin: server.url, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status, path).toBe(401);
    }
  });
});

describe('incidents', () => {
  const numbers = (page: Page) =>
    page
      .locator('article[data-incidencia]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-incidencia')));

  it('lists newest first and filters by number, name, RNC and state (also combined), with the filters in the URL', async () => {
    const { context, page, consoleWatch } = await staffPage('/admin/incidencias');
    expect(await numbers(page)).toEqual([
      'INC-20250113-4004',
      'INC-20250112-3003',
      'INC-20250111-2002',
      'INC-20250110-1001',
    ]);
    await expectNoAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}-incidencias-desktop.png`, fullPage: true });

    await page.getByLabel('Nombre').fill('PEREZ');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await page.waitForURL(/nombre=PEREZ/);
    expect(await numbers(page)).toEqual(['INC-20250113-4004', 'INC-20250110-1001']);
    await page.reload();
    expect(await page.getByLabel('Nombre').inputValue()).toBe('PEREZ');
    expect(await numbers(page)).toEqual(['INC-20250113-4004', 'INC-20250110-1001']);

    await page.goto(`${server.url}/admin/incidencias?numero=inc-20250111`);
    expect(await numbers(page)).toEqual(['INC-20250111-2002']);
    await page.goto(`${server.url}/admin/incidencias?rnc=402123`);
    expect(await numbers(page)).toEqual(['INC-20250112-3003']);
    await page.goto(`${server.url}/admin/incidencias?estado=Registrado`);
    expect(await numbers(page)).toEqual(['INC-20250113-4004', 'INC-20250110-1001']);
    await page.goto(`${server.url}/admin/incidencias?nombre=jose&estado=Resuelto`);
    expect(await numbers(page)).toEqual(['INC-20250112-3003']);

    await page.getByLabel('Nombre').fill('zzz');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await page.waitForURL(/nombre=zzz/);
    expect(await page.getByText('No hay coincidencias.').isVisible()).toBe(true);
    consoleWatch.assertNone();
    await context.close();
  });

  it('changes the state, appending a history entry with the server time and the actor', async () => {
    const { context, page, consoleWatch } = await staffPage('/admin/incidencias?numero=1001');
    const card = page.locator('article[data-incidencia="INC-20250110-1001"]');
    // The island saves in place once it runs (before that, the plain form posts): wait for it.
    await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
    await card.getByLabel('Estado', { exact: true }).selectOption('En Proceso');
    await card.getByRole('button', { name: 'Guardar', exact: true }).click();
    await expect
      .poll(() => card.getByRole('status').textContent())
      .toContain('Estado actualizado correctamente');
    expect(await card.getByTestId('estado-actual').textContent()).toBe('En Proceso');
    // 'Notificar al cliente' is on by default: the visitor hears of the change through the outbox.
    const notice = await smtp.waitFor(
      (message) => message.subject === 'Incidencia INC-20250110-1001: En Proceso',
    );
    expect(notice.to && 'text' in notice.to ? notice.to.text : '').toContain('jose@example.com');
    expect(notice.text).toContain('En Proceso');
    await card.getByText('Historial (2)').click();
    // Signed with the account's name (`admin create --name`), not its e-mail, at once and after a reload.
    expect(await card.getByTestId('historial').textContent()).toContain('Equipo de Soporte');
    expect(await card.getByTestId('historial').textContent()).not.toContain(SUPPORT);

    const events = await db
      .selectFrom('incidentEvents')
      .innerJoin('incidents', 'incidents.id', 'incidentEvents.incidentId')
      .select(['incidentEvents.estado', 'incidentEvents.actor', 'incidentEvents.fecha'])
      .where('incidents.numeroIncidencia', '=', 'INC-20250110-1001')
      .orderBy('incidentEvents.id')
      .execute();
    expect(events.map((event) => [event.estado, event.actor])).toEqual([
      ['Registrado', null],
      ['En Proceso', SUPPORT],
    ]);
    expect(Date.now() - Date.parse(events[1]!.fecha)).toBeLessThan(60_000);
    await page.reload();
    const reloaded = page.locator('article[data-incidencia="INC-20250110-1001"]');
    expect(await reloaded.getByTestId('estado-actual').textContent()).toBe('En Proceso');
    await reloaded.getByText('Historial (2)').click();
    expect(await reloaded.getByTestId('historial').textContent()).toContain('Equipo de Soporte');
    consoleWatch.assertNone();
    await context.close();
  });

  it('exports the filtered list as CSV with BOM, the problem, the history, and formulas neutralised', async () => {
    const { context } = await staffPage('/admin');
    const response = await fetch(`${server.url}/api/staff/incidencias.csv?nombre=p%C3%A9rez`, {
      headers: { cookie: await cookieOf(context) },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      '"Número","Fecha (hora de Santo Domingo)","Estado","Prioridad","Nombre","Teléfono","Correo","RNC","Problema","Historial (hora de Santo Domingo)"',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('"INC-20250113-4004"');
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://x"",""clic"")"`);
    expect(lines[2]).toContain('"No imprime la factura con NCF."');
    expect(lines[2]).toMatch(
      /Registrado \| \d\d\/\d\d\/\d{4} \d\d:\d\d En Proceso \(soporte@verticeconsultores\.com\.do\)/,
    );
    await context.close();
  });
});

describe('clients', () => {
  it('requires the six fields, saves a client as pendiente with a normalised phone, and warns on a bad RNC', async () => {
    const { context, page, consoleWatch } = await staffPage('/admin/clientes');
    expect(await page.getByText('No se encontraron resultados.').isVisible()).toBe(true);
    await expectNoAxeViolations(page);
    // The browser refuses an incomplete form; the server refuses it too.
    await page.getByRole('button', { name: 'Guardar cliente' }).click();
    expect(await page.locator('form input:invalid').count()).toBe(6);
    const incomplete = await fetch(`${server.url}/_actions/clients.create`, {
      method: 'POST',
      headers: { origin: server.url, cookie: await cookieOf(context) },
      body: new URLSearchParams({
        razonSocial: 'Sin Datos SRL',
        nombreRepresentante: '',
        telefono: '',
        email: 'no-es-correo',
        rnc: '',
        tipoProyecto: '',
      }),
    });
    expect(incomplete.status).toBe(400);
    expect((await incomplete.json()).fields).toMatchObject({
      nombreRepresentante: ['Este campo es obligatorio.'],
      tipoProyecto: ['Este campo es obligatorio.'],
      email: ['Correo electrónico no válido.'],
    });

    const fields: Record<string, string> = {
      'Razón social': 'Farmacia Los Álamos SRL',
      'Nombre del representante': 'Carmen Rodríguez',
      Teléfono: '(809) 555-0142',
      'Correo electrónico': 'carmen@losalamos.com.do',
      'RNC o cédula': '101850042',
      'Tipo de proyecto': 'Implementación AdmCloud',
    };
    // While a save is on its way the button says so and is disabled, and a second submit is stopped in
    // the page (the submits are held here by a listener that runs after the page's own).
    const submits = await page.evaluate(() => {
      const form = document.querySelector<HTMLFormElement>('form[data-client-form]')!;
      const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
      const seen: Array<{ prevented: boolean; text: string | null; disabled: boolean }> = [];
      const hold = (event: Event) => {
        seen.push({ prevented: event.defaultPrevented, text: button.textContent, disabled: button.disabled });
        event.preventDefault();
      };
      window.addEventListener('submit', hold);
      form.noValidate = true;
      form.requestSubmit();
      form.requestSubmit();
      window.removeEventListener('submit', hold);
      return seen;
    });
    expect(submits).toEqual([
      { prevented: false, text: 'Guardando...', disabled: true },
      { prevented: true, text: 'Guardando...', disabled: true },
    ]);
    await page.reload();

    for (const [label, value] of Object.entries(fields))
      await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByRole('button', { name: 'Guardar cliente' }).click();
    const status = page.getByRole('status').filter({ hasText: 'guardado correctamente' });
    await expect.poll(() => status.textContent()).toContain('dígito verificador');
    const item = page.locator('li[data-cliente="carmen@losalamos.com.do"]');
    expect(await item.textContent()).toContain('+1 809-555-0142');
    expect(await item.textContent()).toContain('Pendiente');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}-clientes-desktop.png`, fullPage: true });

    const [stored, ...more] = await db
      .selectFrom('clients')
      .selectAll()
      .where('email', '=', 'carmen@losalamos.com.do')
      .execute();
    expect(more).toEqual([]);
    expect(stored!.estadoProyecto).toBe('pendiente');
    expect(Boolean(stored!.correoBienvenidaEnviado)).toBe(false);
    expect(Date.now() - Date.parse(stored!.fechaRegistro)).toBeLessThan(60_000);

    await page.goto(`${server.url}/admin/clientes?q=alamos`);
    expect(await page.locator('li[data-cliente]').count()).toBe(1);
    await page.goto(`${server.url}/admin/clientes?q=101850042`);
    expect(await page.locator('li[data-cliente]').count()).toBe(1);
    await page.goto(`${server.url}/admin/clientes?q=nada-parecido`);
    expect(await page.getByText('No se encontraron resultados.').isVisible()).toBe(true);
    consoleWatch.assertNone();
    await context.close();
  });

  it('sends the welcome mail once through the real SMTP peer, and reports a failure when the mail server is down', async () => {
    const { context, page, consoleWatch } = await staffPage('/admin/clientes');
    const item = page.locator('li[data-cliente="carmen@losalamos.com.do"]');
    expect(await item.getByRole('link', { name: /^Reunión/ }).getAttribute('href')).toMatch(
      /^\/admin\/clientes\/\d+\/reunion$/,
    );
    const button = item.getByRole('button', { name: /Bienvenida|Enviando|Enviado/ });
    const stored = () =>
      db
        .selectFrom('clients')
        .select('correoBienvenidaEnviado')
        .where('email', '=', 'carmen@losalamos.com.do')
        .executeTakeFirstOrThrow();

    // Mail server down: the action answers an error (the browser logs that 500), nothing is marked.
    await smtp.stop();
    consoleWatch.problems.length = 0;
    await button.click();
    await expect
      .poll(() => item.getByRole('alert').textContent(), { timeout: 15_000 })
      .toContain('Hubo un error al enviar el correo');
    expect(await button.textContent()).toBe('📧 Bienvenida');
    expect(await button.isEnabled()).toBe(true);
    expect(Boolean((await stored()).correoBienvenidaEnviado)).toBe(false);

    // Mail server back: a double click sends one mail; the button goes Enviando → Enviado (disabled).
    smtp = await startSmtpPeer({ port: smtp.port });
    await button.dblclick();
    await expect.poll(() => button.textContent(), { timeout: 15_000 }).toBe('✅ Enviado');
    expect(await button.isDisabled()).toBe(true);
    const success = item.getByRole('status');
    expect(await success.textContent()).toMatch(/enviad/i);
    const mail = await smtp.waitFor(
      (message) => message.subject?.includes('Farmacia Los Álamos SRL') ?? false,
    );
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toContain('carmen@losalamos.com.do');
    expect(mail.text).toContain('Carmen Rodríguez');
    expect(
      smtp.messages.filter((message) => message.subject?.includes('Farmacia Los Álamos SRL')),
    ).toHaveLength(1);
    expect(Boolean((await stored()).correoBienvenidaEnviado)).toBe(true);
    // The success message goes away after 3 seconds.
    await expect.poll(() => success.count(), { timeout: 10_000 }).toBe(0);
    await context.close();
  });
});

describe('clients without JavaScript', () => {
  it('adds a client by a plain form post: Spanish messages per field and the typed values kept, then saved and listed', async () => {
    // Signed in with JavaScript (the sign-in form is an island), then the same session with it off.
    const signedIn = await newContext();
    const signInPage = await signedIn.newPage();
    await signIn(signInPage, SUPPORT, PASSWORD);
    const storageState = await signedIn.storageState();
    await signedIn.close();
    ipCounter += 1;
    const context = await browser.newContext({
      ...DESKTOP,
      javaScriptEnabled: false,
      storageState,
      extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${ipCounter}` },
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/admin/clientes`);

    const evil = '<img src=x onerror=alert(1)>';
    const typed: Record<string, string> = {
      'Razón social': evil,
      'Nombre del representante': 'Ana Núñez',
      // What the browser lets through but the server refuses: blanks, an address without a domain.
      Teléfono: '   ',
      'Correo electrónico': 'ana@colmado',
      'RNC o cédula': '101850043',
      'Tipo de proyecto': 'Tiendao',
    };
    for (const [label, value] of Object.entries(typed))
      await page.getByLabel(label, { exact: true }).fill(value);
    await Promise.all([
      page.waitForURL(/_action=clients\.create/),
      page.getByRole('button', { name: 'Guardar cliente' }).click(),
    ]);

    expect(await page.getByRole('alert').textContent()).toBe(
      'Error al guardar cliente (invalid-argument). Revisa los campos marcados.',
    );
    expect(await page.locator('#c-telefono-error').textContent()).toBe('Este campo es obligatorio.');
    expect(await page.locator('#c-email-error').textContent()).toBe('Correo electrónico no válido.');
    expect(await page.getByLabel('Correo electrónico', { exact: true }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(await page.locator('[id$="-error"]').count()).toBe(2);
    for (const [label, value] of Object.entries(typed))
      expect(await page.getByLabel(label, { exact: true }).inputValue(), label).toBe(value);
    expect(await db.selectFrom('clients').select('id').where('rnc', '=', '101850043').execute()).toEqual([]);

    await page.getByLabel('Teléfono', { exact: true }).fill('809 555 0199');
    await page.getByLabel('Correo electrónico', { exact: true }).fill('Ana@Colmado.com.do');
    await Promise.all([
      page.waitForURL(/_action=clients\.create/),
      page.getByRole('button', { name: 'Guardar cliente' }).click(),
    ]);
    expect(await page.getByRole('status').filter({ hasText: 'guardado correctamente' }).textContent()).toBe(
      `Cliente «${evil}» guardado correctamente.`,
    );
    for (const label of Object.keys(typed))
      expect(await page.getByLabel(label, { exact: true }).inputValue(), label).toBe('');
    // The name arrives as text: no image element was made of it.
    const item = page.locator('li[data-cliente="ana@colmado.com.do"]');
    expect(await item.getByRole('heading').textContent()).toBe(evil);
    expect(await item.locator('img').count()).toBe(0);
    expect(await item.textContent()).toContain('+1 809-555-0199');
    const stored = await db
      .selectFrom('clients')
      .selectAll()
      .where('email', '=', 'ana@colmado.com.do')
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ razonSocial: evil, estadoProyecto: 'pendiente', tipoProyecto: 'Tiendao' });
    // Reloading the outcome adds nothing: the save redirected (303) to a page of its own.
    expect(page.url()).toMatch(/\/admin\/clientes\?creado=\d+#nuevo-cliente$/);
    await page.reload();
    expect(
      await db.selectFrom('clients').select('id').where('email', '=', 'ana@colmado.com.do').execute(),
    ).toHaveLength(1);

    // 'Bienvenida' without JavaScript: the row's form posts to the client's page, which sends the mail and says so.
    await Promise.all([
      page.waitForURL(/\/admin\/clientes\/\d+\?hecho=bienvenida$/),
      item.getByRole('button', { name: /Bienvenida/ }).click(),
    ]);
    expect(await page.getByRole('status').textContent()).toBe('Correo de bienvenida enviado.');
    expect(await page.locator('dd', { hasText: 'Enviado' }).count()).toBe(1);
    const mail = await smtp.waitFor(
      (message) =>
        message.to !== undefined && 'text' in message.to && message.to.text.includes('ana@colmado.com.do'),
    );
    expect(mail.text).toContain('Ana Núñez');
    expect(
      Boolean(
        (
          await db
            .selectFrom('clients')
            .select('correoBienvenidaEnviado')
            .where('id', '=', stored.id)
            .executeTakeFirstOrThrow()
        ).correoBienvenidaEnviado,
      ),
    ).toBe(true);
    await page.goto(`${server.url}/admin/clientes`);
    expect(
      await page
        .locator('li[data-cliente="ana@colmado.com.do"]')
        .getByRole('button', { name: /Enviado/ })
        .isDisabled(),
    ).toBe(true);
    await context.close();
  });
});

describe('dashboard and layout', () => {
  it('counts page views from the cookie-less beacon and shows incident counts', async () => {
    // Counted: public pages and articles. Not counted: staff pages, made-up paths, anything not a path.
    for (const path of [
      '/blog',
      '/blog',
      '/productos',
      '/blog/mejor-erp-2025',
      '/admin',
      '/pagina-inventada',
      '/blog/no-existe',
      'javascript:alert(1)',
    ]) {
      const response = await fetch(`${server.url}/api/pv`, {
        method: 'POST',
        headers: { origin: server.url, 'content-type': 'text/plain' },
        body: path,
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('set-cookie')).toBeNull();
    }
    const { context, page, consoleWatch } = await staffPage('/admin');
    // Views are counted in memory and written every few seconds (src/server/analytics), not per beacon.
    // Each try renders the whole dashboard again: once a second, not at expect.poll's 50 ms.
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByTestId('visitas-hoy').textContent();
        },
        { timeout: 15_000, interval: 1000 },
      )
      .toBe('4');
    const mostViewed = await page
      .getByRole('region', { name: 'Páginas más vistas' })
      .locator('li')
      .allTextContents();
    expect(mostViewed[0]).toBe('/blog2 visitas');
    expect(mostViewed.slice(1).sort()).toEqual(['/blog/mejor-erp-20251 visita', '/productos1 visita']);
    expect(await page.getByTestId('incidencias-Registrado').textContent()).toBe('1');
    expect(await page.getByTestId('incidencias-En Proceso').textContent()).toBe('2');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('¡Hola, Equipo de Soporte!');
    await expectNoAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}-dashboard-desktop.png`, fullPage: true });
    consoleWatch.assertNone();
    await context.close();
  });

  it('opens the sidebar menu on a phone', async () => {
    const { context, page, consoleWatch } = await staffPage('/admin/incidencias', PHONE);
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    const menu = page.getByRole('navigation', { name: 'Panel administrativo (móvil)' });
    await expect.poll(() => menu.isVisible()).toBe(true);
    await expectNoAxeViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}-menu-phone.png` });
    await menu.getByRole('link', { name: 'Clientes', exact: true }).click();
    await page.waitForURL(`${server.url}/admin/clientes`);
    // Nothing wider than the phone (a long e-mail in the top bar once pushed the page sideways).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    if (SHOTS) {
      await page.screenshot({ path: `${SHOTS}-clientes-phone.png`, fullPage: true });
      await page.goto(`${server.url}/admin/incidencias`);
      await page.screenshot({ path: `${SHOTS}-incidencias-phone.png`, fullPage: true });
    }
    consoleWatch.assertNone();
    await context.close();
  });
});
