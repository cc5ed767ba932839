/**
 * The contact inbox (/admin/mensajes, issue 11) against the production build, in Chromium with a real
 * SMTP peer: a message sent through the real contact form reaches the list and the sidebar's count;
 * the list pages, searches and filters through the URL; 'Marcar como atendido' / 'pendiente' post
 * without JavaScript, come back to the same filtered list and show who and when (also to another staff
 * member); 'Crear cliente' pre-fills the add-client form, which then saves the client; the CSV export
 * keeps an XSS payload as text and neutralises a formula; strangers are refused; axe at phone and
 * desktop widths.
 */
import { parse } from 'csv-parse/sync';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  downloadedBytes,
  expectNoAxeViolations,
  PHONE,
  poll,
  watchConsole,
} from '../support/browser.ts';
import { insertContactMessage } from '../support/factories.ts';
import { createStaffAccount } from '../support/server.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';
import { ageFormStamps } from '../support/form-stamp.ts';

const ADMIN = 'admin@verticeconsultores.com.do';
const SUPPORT = 'soporte@verticeconsultores.com.do';
const OTHER = 'ventas@verticeconsultores.com.do';
const PASSWORD = 'clave-de-soporte-2025';

const XSS_NAME = 'Eva <img src=x onerror=alert(1)>';
const XSS_MESSAGE = 'Hola equipo:\n<script>alert("xss")</script>\nNecesito facturación electrónica.';
const FORMULA_NAME = '=HYPERLINK("http://malo.test","clic")';

const { server, browser, smtp, db } = useSite({
  smtp: true,
  env: () => ({
    ADMIN_EMAILS: `${ADMIN},${SUPPORT},${OTHER}`,
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'warn',
    STAFF_INBOX: 'buzon@vertice.test',
  }),
});

let ipCounter = 0;
let formulaId = 0;

beforeAll(async () => {
  for (const email of [SUPPORT, OTHER])
    await createStaffAccount(server, { email, password: PASSWORD }, `${ADMIN},${SUPPORT},${OTHER}`);
  // 21 older pending messages (two pages with the visitor's), one with a formula, one already handled.
  for (let index = 1; index <= 20; index += 1)
    await insertContactMessage(db, {
      name: `Cliente ${String(index).padStart(2, '0')}`,
      email: `cliente${index}@empresa.test`,
      message: `Consulta número ${index}`,
      createdAt: new Date(Date.UTC(2025, 0, 1, 10, index)).toISOString(),
    });
  formulaId = (
    await insertContactMessage(db, {
      name: FORMULA_NAME,
      email: 'formula@malo.test',
      message: '+1+1\n@SUM(A1:A9)',
      createdAt: '2024-12-31T10:00:00.000Z',
    })
  ).id;
  await insertContactMessage(db, {
    name: 'Pedro Atendido',
    email: 'pedro@atendido.test',
    message: 'Ya le llamamos.',
    createdAt: '2024-12-30T10:00:00.000Z',
    handledAt: '2025-01-02T15:00:00.000Z',
    handledById: null,
    handledByEmail: OTHER,
  });
});

async function newContext(options: BrowserContextOptions = DESKTOP): Promise<BrowserContext> {
  ipCounter += 1;
  return browser.newContext({
    ...options,
    extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${ipCounter}` },
  });
}

/** A signed-in staff page (JavaScript on, or off for the plain-form checks). */
async function signedIn(
  email = SUPPORT,
  options: BrowserContextOptions = DESKTOP,
  javaScriptEnabled = true,
): Promise<{ context: BrowserContext; page: Page }> {
  ipCounter += 1;
  return signInStaff(
    browser,
    server.url,
    { email, password: PASSWORD, network: `198.51.100.${ipCounter}` },
    { ...options, javaScriptEnabled },
  );
}

const inbox = (query = '') => `${server.url}/admin/mensajes${query}`;
const cards = (page: Page) => page.locator('article[data-mensaje]');
const cardNames = (page: Page) => cards(page).locator('h2').allTextContents();
const card = (page: Page, name: string) =>
  cards(page).filter({ has: page.getByRole('heading', { name, exact: true }) });
const sidebarCount = (page: Page) =>
  page
    .getByRole('navigation', { name: 'Panel administrativo', exact: true })
    .getByTestId('mensajes-pendientes');
const pendingInDb = async () =>
  Number(
    (
      await db
        .selectFrom('contactMessages')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('handledAt', 'is', null)
        .executeTakeFirstOrThrow()
    ).total,
  );

describe('contact inbox', () => {
  it('shows a message sent through the contact form, whole and escaped, newest first, with the sidebar count; passes axe', async () => {
    // The visitor writes through the real form (JavaScript on), which also mails the staff inbox.
    const visitor = await newContext(DESKTOP);
    const form = await visitor.newPage();
    await ageFormStamps(form, server.url);
    await form.goto(`${server.url}/soporte`);
    const contact = form.locator('#contacto form');
    await contact.getByLabel('Nombre').fill(XSS_NAME);
    await contact.getByLabel('Correo electrónico').fill('eva@ferreteria.test');
    await contact.getByLabel('Mensaje').fill(XSS_MESSAGE);
    await contact.getByRole('button', { name: 'Enviar mensaje' }).click();
    await poll(() => contact.getByRole('status').textContent()).toBe(
      '¡Gracias por tu mensaje! Te responderemos pronto.',
    );
    await smtp.waitFor(
      (mail) =>
        [mail.to ?? []].flat().some((to) => to.text === 'buzon@vertice.test') &&
        (mail.text ?? '').includes('Necesito facturación electrónica.'),
    );
    await visitor.close();

    const { context, page } = await signedIn();
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/admin`);
    expect(await pendingInDb()).toBe(22);
    expect(await sidebarCount(page).textContent()).toBe('22');
    // The staff home's 'Mensajes por atender' says the same, and leads to the inbox.
    expect(new URL(page.url()).pathname).toBe('/admin');
    expect(await page.getByTestId('mensajes-por-atender').textContent()).toBe('22');
    expect(await page.getByRole('link', { name: 'Ir a Mensajes' }).getAttribute('href')).toBe(
      '/admin/mensajes',
    );
    await page
      .getByRole('navigation', { name: 'Panel administrativo', exact: true })
      .getByRole('link', { name: 'Mensajes (22 pendientes)' })
      .click();
    await page.waitForURL(inbox());
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Mensajes');
    expect(
      await page.getByRole('link', { name: 'Pendientes', exact: true }).getAttribute('aria-current'),
    ).toBe('page');
    const names = await cardNames(page);
    expect(names).toHaveLength(20);
    expect(names.slice(0, 3)).toEqual([XSS_NAME, 'Cliente 20', 'Cliente 19']);
    const newest = card(page, XSS_NAME);
    expect(await newest.locator('[data-texto]').innerText()).toBe(XSS_MESSAGE);
    expect(await newest.locator('img, script').count()).toBe(0);
    expect(await newest.locator('[data-estado-mensaje]').textContent()).toBe('Pendiente');
    expect(await newest.getByRole('link', { name: 'eva@ferreteria.test' }).getAttribute('href')).toBe(
      'mailto:eva@ferreteria.test',
    );
    await expectNoAxeViolations(page);

    // Page 2 holds the rest, the formula among them; the handled message is in neither.
    await page.getByRole('link', { name: 'Siguiente →' }).click();
    await page.waitForURL(inbox('?pagina=2'));
    expect(await cardNames(page)).toEqual(['Cliente 01', FORMULA_NAME]);
    expect(await page.getByRole('link', { name: 'Siguiente →' }).count()).toBe(0);
    consoleWatch.assertNone();
    await context.close();
  });

  it('searches name, e-mail and text (accents and case ignored) and filters Atendidos, all in the URL', async () => {
    const { context, page } = await signedIn();
    const consoleWatch = watchConsole(page);
    await page.goto(inbox());
    const search = page.getByRole('searchbox', { name: 'Buscar por nombre, correo o texto' });
    await search.fill('FACTURACION');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL(inbox('?q=FACTURACION'));
    expect(await cardNames(page)).toEqual([XSS_NAME]);
    await search.fill('cliente7@EMPRESA');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL(/q=cliente7%40EMPRESA/);
    expect(await cardNames(page)).toEqual(['Cliente 07']);
    await page.goto(inbox('?q=n%C3%BAmero%2012'));
    expect(await cardNames(page)).toEqual(['Cliente 12']);
    expect(await search.inputValue()).toBe('número 12');
    await page.goto(inbox('?q=nadie-escribio-esto'));
    expect(await page.getByText('Ningún mensaje coincide con la búsqueda.').isVisible()).toBe(true);

    // 'Atendidos' keeps the search; the search form keeps the filter.
    await page.goto(inbox('?q=pedro'));
    expect(await cards(page).count()).toBe(0);
    await page.getByRole('link', { name: 'Atendidos', exact: true }).click();
    await page.waitForURL(inbox('?estado=atendidos&q=pedro'));
    expect(
      await page.getByRole('link', { name: 'Atendidos', exact: true }).getAttribute('aria-current'),
    ).toBe('page');
    expect(await cardNames(page)).toEqual(['Pedro Atendido']);
    expect(await card(page, 'Pedro Atendido').locator('[data-estado-mensaje]').textContent()).toBe(
      `Atendido por ${OTHER} el 02/01/2025 11:00`,
    );
    await page.getByRole('link', { name: 'Limpiar' }).click();
    await page.waitForURL(inbox('?estado=atendidos'));
    await search.fill('atendido.test');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL(inbox('?estado=atendidos&q=atendido.test'));
    expect(await cardNames(page)).toEqual(['Pedro Atendido']);
    await expectNoAxeViolations(page);
    consoleWatch.assertNone();
    await context.close();
  });

  it('marks handled and pending without JavaScript, back on the same filtered list, with who and when, seen by another staff member', async () => {
    const { context, page } = await signedIn(SUPPORT, DESKTOP, false);
    await page.goto(inbox('?q=cliente'));
    expect(await cards(page).count()).toBe(20);
    expect(await sidebarCount(page).textContent()).toBe('22');
    await card(page, 'Cliente 05').getByRole('button', { name: 'Marcar como atendido' }).click();
    await page.waitForURL(inbox('?q=cliente&hecho=atendido'));
    expect(await page.getByRole('status').textContent()).toBe('Mensaje marcado como atendido.');
    expect(await card(page, 'Cliente 05').count()).toBe(0);
    expect(await cards(page).count()).toBe(19);
    expect(
      await page.getByRole('searchbox', { name: 'Buscar por nombre, correo o texto' }).inputValue(),
    ).toBe('cliente');
    expect(await sidebarCount(page).textContent()).toBe('21');
    const stored = await db
      .selectFrom('contactMessages')
      .select(['id', 'handledAt', 'handledByEmail', 'handledById'])
      .where('name', '=', 'Cliente 05')
      .executeTakeFirstOrThrow();
    expect(stored.handledByEmail).toBe(SUPPORT);
    expect(stored.handledById).toBeTruthy();
    expect(Date.now() - Date.parse(stored.handledAt!)).toBeLessThan(60_000);
    const audit = await db
      .selectFrom('auditEvents')
      .select(['action', 'subject', 'actorEmail'])
      .where('action', 'like', 'contact.%')
      .execute();
    expect(audit).toEqual([{ action: 'contact.handled', subject: String(stored.id), actorEmail: SUPPORT }]);

    // Another staff member sees it at once under 'Atendidos', with who and when.
    const other = await signedIn(OTHER);
    await other.page.goto(`${server.url}/admin`);
    expect(await sidebarCount(other.page).textContent()).toBe('21');
    await other.page.goto(inbox('?estado=atendidos'));
    expect(await cardNames(other.page)).toEqual(['Cliente 05', 'Pedro Atendido']);
    const handledText = await card(other.page, 'Cliente 05').locator('[data-estado-mensaje]').textContent();
    expect(handledText).toMatch(
      new RegExp(`^Atendido por ${SUPPORT} el \\d\\d/\\d\\d/\\d{4} \\d\\d:\\d\\d$`),
    );
    await expectNoAxeViolations(other.page);

    // Both open 'Atendidos'; the other one marks it pending first, so the first one's stale post changes nothing.
    await page.goto(inbox('?estado=atendidos'));
    await card(other.page, 'Cliente 05').getByRole('button', { name: 'Marcar como pendiente' }).click();
    await other.page.waitForURL(inbox('?estado=atendidos&hecho=pendiente'));
    expect(await other.page.getByRole('status').textContent()).toBe('Mensaje marcado como pendiente.');
    expect(await cardNames(other.page)).toEqual(['Pedro Atendido']);
    expect(await sidebarCount(other.page).textContent()).toBe('22');
    await card(page, 'Cliente 05').getByRole('button', { name: 'Marcar como pendiente' }).click();
    await page.waitForURL(inbox('?estado=atendidos&hecho=ya-pendiente'));
    expect(await page.getByRole('status').textContent()).toBe('Ese mensaje ya estaba pendiente.');
    expect(
      await db
        .selectFrom('contactMessages')
        .select(['handledAt', 'handledByEmail'])
        .where('id', '=', stored.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ handledAt: null, handledByEmail: null });
    expect(
      (
        await db
          .selectFrom('auditEvents')
          .select('actorEmail')
          .where('action', '=', 'contact.pending')
          .execute()
      ).map((event) => event.actorEmail),
    ).toEqual([OTHER]);
    await page.goto(inbox('?q=cliente%2005'));
    expect(await card(page, 'Cliente 05').locator('[data-estado-mensaje]').textContent()).toBe('Pendiente');
    await other.context.close();

    // A forged post of the inbox's action: unknown mark, unknown id.
    const bad = await page.request.post(inbox('?_action=messages.mark'), {
      headers: { origin: server.url },
      form: { _intent: 'borrar', id: String(stored.id) },
    });
    expect(bad.status()).toBe(400);
    expect(await bad.text()).toContain('Acción desconocida.');
    const gone = await page.request.post(inbox('?_action=messages.mark'), {
      headers: { origin: server.url },
      form: { _intent: 'atendido', id: '999999' },
    });
    expect(gone.status()).toBe(404);
    expect(await gone.text()).toContain('Ese mensaje ya no existe.');
    await context.close();
  });

  it("'Crear cliente' opens the add-client form pre-filled with the name and e-mail, and saves the client", async () => {
    const { context, page } = await signedIn();
    const consoleWatch = watchConsole(page);
    await page.goto(inbox('?q=ferreteria'));
    await card(page, XSS_NAME).getByRole('link', { name: 'Crear cliente' }).click();
    await page.waitForURL(
      /\/admin\/clientes\?nombreRepresentante=.*&email=eva%40ferreteria\.test#nuevo-cliente$/,
    );
    await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
    const form = page.getByRole('region', { name: 'Agregar cliente' });
    expect(await form.getByLabel('Nombre del representante').inputValue()).toBe(XSS_NAME);
    expect(await form.getByLabel('Correo electrónico').inputValue()).toBe('eva@ferreteria.test');
    expect(await form.getByLabel('Razón social').inputValue()).toBe('');
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    await expectNoAxeViolations(page);

    // Only a pre-fill: the name is changed here, and the rest typed as usual.
    await form.getByLabel('Nombre del representante').fill('Eva Martínez');
    await form.getByLabel('Razón social').fill('Ferretería Martínez SRL');
    await form.getByLabel('Teléfono').fill('809-555-0199');
    await form.getByLabel('RNC o cédula').fill('101850043');
    await form.getByLabel('Tipo de proyecto').fill('Implementación AdmCloud');
    await form.getByRole('button', { name: 'Guardar cliente' }).click();
    await poll(() => form.getByRole('status').textContent()).toContain(
      'Cliente «Ferretería Martínez SRL» guardado correctamente.',
    );
    // The form starts empty again, so the same client is not saved twice by mistake.
    expect(await form.getByLabel('Nombre del representante').inputValue()).toBe('');
    expect(await form.getByLabel('Correo electrónico').inputValue()).toBe('');
    const client = await db
      .selectFrom('clients')
      .selectAll()
      .where('email', '=', 'eva@ferreteria.test')
      .executeTakeFirstOrThrow();
    expect(client).toMatchObject({
      razonSocial: 'Ferretería Martínez SRL',
      nombreRepresentante: 'Eva Martínez',
      telefono: '+1 809-555-0199',
    });
    consoleWatch.assertNone();

    // A pre-filled value is checked on submit like any other (here without JavaScript).
    const noJs = await signedIn(SUPPORT, DESKTOP, false);
    await noJs.page.goto(
      `${server.url}/admin/clientes?nombreRepresentante=Ana&email=no-es-correo#nuevo-cliente`,
    );
    const plain = noJs.page.getByRole('region', { name: 'Agregar cliente' });
    expect(await plain.getByLabel('Correo electrónico').inputValue()).toBe('no-es-correo');
    await plain.evaluate((element) => element.querySelector('form')?.setAttribute('novalidate', ''));
    await plain.getByRole('button', { name: 'Guardar cliente' }).click();
    await noJs.page.waitForLoadState('load');
    expect(await noJs.page.locator('#c-email-error').textContent()).toBe('Correo electrónico no válido.');
    expect(await db.selectFrom('clients').select('id').where('email', '=', 'no-es-correo').execute()).toEqual(
      [],
    );
    await noJs.context.close();
    await context.close();
  });

  it("'Exportar CSV' downloads the filtered list: BOM, XSS kept as text, formulas neutralised", async () => {
    await db
      .updateTable('contactMessages')
      .set({ handledAt: '2025-02-01T12:00:00.000Z', handledByEmail: SUPPORT })
      .where('id', '=', formulaId)
      .execute();
    const { context, page } = await signedIn();
    await page.goto(inbox('?estado=atendidos'));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Exportar CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^mensajes-atendidos-\d{4}-\d\d-\d\d\.csv$/);
    const bytes = await downloadedBytes(download);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const handled = parse(bytes.subarray(3).toString('utf8')) as string[][];
    expect(handled).toEqual([
      [
        'Fecha (hora de Santo Domingo)',
        'Nombre',
        'Correo',
        'Mensaje',
        'Estado',
        'Atendido por',
        'Atendido el (hora de Santo Domingo)',
      ],
      [
        '31/12/2024 06:00',
        `'${FORMULA_NAME}`,
        'formula@malo.test',
        "'+1+1\n@SUM(A1:A9)",
        'Atendido',
        SUPPORT,
        '01/02/2025 08:00',
      ],
      [
        '30/12/2024 06:00',
        'Pedro Atendido',
        'pedro@atendido.test',
        'Ya le llamamos.',
        'Atendido',
        OTHER,
        '02/01/2025 11:00',
      ],
    ]);

    // The pending list with a search: only what the page shows (every page of it), the XSS as plain text.
    const response = await page.request.get(`${server.url}/api/staff/mensajes.csv?q=ferreteria`);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers()['x-content-type-options']).toBe('nosniff');
    expect(response.headers()['content-disposition']).toMatch(/^attachment; filename="mensajes-pendientes-/);
    const pending = parse((await response.body()).subarray(3).toString('utf8')) as string[][];
    expect(pending.slice(1).map((row) => [row[1], row[3], row[4]])).toEqual([
      [XSS_NAME, XSS_MESSAGE, 'Pendiente'],
    ]);
    expect(
      (
        parse(
          (await (await page.request.get(`${server.url}/api/staff/mensajes.csv`)).body())
            .subarray(3)
            .toString('utf8'),
        ) as string[][]
      ).length,
    ).toBe(1 + (await pendingInDb()));
    await context.close();
  });

  it('passes axe and fits a phone at 390 px, with the count in the menu', async () => {
    const { context, page } = await signedIn(SUPPORT, PHONE);
    const consoleWatch = watchConsole(page);
    await page.goto(inbox());
    expect(await cards(page).count()).toBe(20);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    const menu = page.getByRole('navigation', { name: 'Panel administrativo (móvil)' });
    expect(await menu.getByRole('link', { name: /^Mensajes/ }).getAttribute('aria-current')).toBe('page');
    expect(await menu.getByTestId('mensajes-pendientes').textContent()).toBe(String(await pendingInDb()));
    await expectNoAxeViolations(page);
    consoleWatch.assertNone();
    await context.close();
  });

  it('refuses strangers: the page sends them to sign in, a post changes nothing, the CSV answers 401', async () => {
    const page = await fetch(inbox(), { redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/admin-login');
    const { id } = await db
      .selectFrom('contactMessages')
      .select('id')
      .where('name', '=', 'Cliente 03')
      .executeTakeFirstOrThrow();
    const post = await fetch(inbox(), {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _intent: 'atendido', id: String(id) }),
    });
    expect(post.status).toBe(303);
    expect(post.headers.get('location')).toBe('/admin-login');
    expect(
      (
        await db
          .selectFrom('contactMessages')
          .select('handledAt')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).handledAt,
    ).toBeNull();
    const csv = await fetch(`${server.url}/api/staff/mensajes.csv`);
    expect(csv.status).toBe(401);
    expect(await csv.text()).not.toContain('Cliente 03');
  });
});
