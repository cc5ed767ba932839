/**
 * The CRM slice of issue 12 against the production build, in Chromium with a real SMTP peer:
 * 'Exportar CSV' then 'Importar CSV' into a second server with an empty database (the same clients
 * come back), an import with bad rows (errors and warnings shown, duplicates skipped, nothing written
 * when cancelled, only the valid rows on confirm), the size and row limits, formula and XSS payloads,
 * 'Incidencias del cliente' and the incident's link to its client, the product-specific welcome
 * mails, axe, and the pages at 390 px and 1280 px.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createClient,
  listClients,
  setClientArchived,
  setClientState,
} from '../../src/server/clients/index.ts';
import { openDatabase, type Db } from '../../src/server/db/index.ts';
import { DESKTOP, downloadedBytes, expectNoAxeViolations, PHONE, watchConsole } from '../support/browser.ts';
import { insertIncident } from '../support/factories.ts';
import { firstStaffPassword, prepareFirstStaff, startServer, type RunningServer } from '../support/server.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';

const ADMIN = 'admin@verticeconsultores.com.do';
const { server, browser, smtp, db } = useSite({
  smtp: true,
  env: { ADMIN_EMAILS: ADMIN, TRUST_PROXY: 'true', LOG_LEVEL: 'warn' },
});
const HEADER =
  'Razón social,Nombre del representante,Teléfono,Correo electrónico,RNC o cédula,Tipo de proyecto';
const XSS = '<img src=x onerror="window.__xss=1">';
const FORMULA = '=HYPERLINK("http://malo.example","clic")';

let ipCounter = 0;
let alamosId = 0;

const base = {
  nombreRepresentante: 'Carmen Rodríguez',
  telefono: '8095550142',
  tipoProyecto: 'Implementación AdmCloud',
};

beforeAll(async () => {
  alamosId = (
    await createClient(
      db,
      {
        ...base,
        razonSocial: 'Farmacia Los Álamos SRL',
        email: 'carmen@losalamos.com.do',
        rnc: '101-85004-3',
      },
      new Date('2025-03-01T10:00:00.000Z'),
    )
  ).client.id;
  const formula = await createClient(
    db,
    {
      ...base,
      razonSocial: FORMULA,
      email: 'formula@example.com',
      rnc: '101850002',
      tipoProyecto: '+Tiendao',
    },
    new Date('2025-03-02T10:00:00.000Z'),
  );
  await setClientState(db, formula.client.id, 'en curso');
  await createClient(
    db,
    {
      ...base,
      razonSocial: `${XSS} "Comillas", SRL`,
      email: 'xss@example.com',
      rnc: '101850019',
      telefono: '@809 555 0199',
    },
    new Date('2025-03-03T10:00:00.000Z'),
  );
  const archived = await createClient(
    db,
    { ...base, razonSocial: 'Archivada SRL', email: 'archivada@example.com', rnc: '101850027' },
    new Date('2025-03-04T10:00:00.000Z'),
  );
  await setClientArchived(db, archived.client.id, true);
});

async function signedIn(
  target: RunningServer,
  options: BrowserContextOptions & { javaScriptEnabled?: boolean } = DESKTOP,
  using: Browser = browser,
): Promise<{ context: BrowserContext; page: Page }> {
  ipCounter += 1;
  return signInStaff(
    using,
    target.url,
    { email: ADMIN, password: firstStaffPassword(target), network: `198.51.100.${ipCounter}` },
    options,
  );
}

const csvFile = (text: string, name = 'clientes.csv') => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(text, 'utf8'),
});
const rowsOf = (page: Page) => page.getByRole('region', { name: 'Filas del archivo' }).locator('tbody tr');
const clientCount = async (target: Db) =>
  Number(
    (
      await target
        .selectFrom('clients')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A client as the round trip compares it: every field but the ones a new database assigns. */
const comparable = (clients: Awaited<ReturnType<typeof listClients>>) =>
  clients
    .map(
      ({ id: _id, fechaRegistro: _fecha, version: _version, correoBienvenidaEnviado: _sent, ...client }) =>
        client,
    )
    .sort((a, b) => a.email.localeCompare(b.email));

async function upload(page: Page, url: string, file: ReturnType<typeof csvFile>): Promise<void> {
  await page.goto(`${url}/admin/clientes/importar`);
  await page.getByLabel('Archivo CSV').setInputFiles(file);
  await page.getByRole('button', { name: 'Ver vista previa' }).click();
  // The fresh page has neither: the answer to the upload has one or the other.
  await page.locator('[role="alert"], [role="region"][aria-label="Filas del archivo"]').first().waitFor();
}

describe('clients CSV', () => {
  it('exports the filtered list, formula-safe with a BOM, and imports it into an empty database as the same clients', async () => {
    const { context, page } = await signedIn(server);
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/admin/clientes`);
    await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Exportar CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^clientes-\d{4}-\d{2}-\d{2}\.csv$/);
    const file = await downloadedBytes(download);
    const exported = file.toString('utf8');
    expect(
      exported.startsWith(
        '\uFEFF"Id","Razón social","Nombre del representante","Teléfono","Correo electrónico","RNC o cédula","Tipo de proyecto","Estado del proyecto"',
      ),
    ).toBe(true);
    expect(exported).toContain(`"'=HYPERLINK(""http://malo.example"",""clic"")"`);
    expect(exported).toContain(`"'+1 809-555-0142"`);
    expect(exported).toContain(`"'@809 555 0199"`);
    expect(exported).not.toMatch(/(^|,)"[=+\-@]/m);
    expect(exported).not.toContain('Archivada SRL');
    expect(exported.split('\r\n').filter(Boolean)).toHaveLength(4);

    // The filters travel with the export: the archived list, and a state.
    const archivedCsv = await page.evaluate(
      async (href) => (await fetch(href)).text(),
      `/api/staff/clientes.csv?archivados=1`,
    );
    expect(archivedCsv).toContain('"Archivada SRL"');
    expect(archivedCsv).toContain('"sí"');
    await page.goto(`${server.url}/admin/clientes?estado=en+curso`);
    expect(await page.getByRole('link', { name: 'Exportar CSV' }).getAttribute('href')).toBe(
      '/api/staff/clientes.csv?estado=en+curso',
    );
    consoleWatch.assertNone();
    await context.close();

    // A second server with an empty database.
    const second = await startServer({
      env: { ADMIN_EMAILS: ADMIN, TRUST_PROXY: 'true', LOG_LEVEL: 'warn' },
    });
    const secondDb = openDatabase(second.env.DATABASE_URL!).db;
    try {
      await prepareFirstStaff(second);
      expect(await clientCount(secondDb)).toBe(0);
      const signed = await signedIn(second);
      const secondWatch = watchConsole(signed.page);
      await upload(signed.page, second.url, { name: 'clientes.csv', mimeType: 'text/csv', buffer: file });
      expect(await signed.page.locator('[data-resumen="validas"]').textContent()).toBe('3 válidas');
      expect(await rowsOf(signed.page).count()).toBe(3);
      // The XSS payload is shown as text, never run.
      const xssRow = rowsOf(signed.page).filter({ hasText: 'xss@example.com' });
      expect(await xssRow.locator('td').nth(2).textContent()).toBe(`${XSS} "Comillas", SRL`);
      expect(await signed.page.locator('table img').count()).toBe(0);
      expect(await signed.page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
      await expectNoAxeViolations(signed.page);
      await signed.page.getByRole('button', { name: 'Importar 3 clientes' }).click();
      await signed.page.waitForURL(/importados=3/);
      expect(await signed.page.getByRole('status').textContent()).toContain('Se importaron 3 clientes.');
      expect(comparable(await listClients(secondDb, { limit: null }))).toEqual(
        comparable(await listClients(db, { limit: null })),
      );
      // Each creation is in the client's timeline, and the import in the activity log.
      const events = await secondDb.selectFrom('clientEvents').selectAll().execute();
      expect(events.map((event) => [event.kind, event.detail, event.actorEmail])).toEqual(
        Array(3).fill(['created', 'csv', ADMIN]),
      );
      const audit = await secondDb
        .selectFrom('auditEvents')
        .selectAll()
        .where('action', '=', 'client.imported')
        .execute();
      expect(audit.map((event) => event.detail)).toEqual(['3 clientes importados; 0 filas omitidas']);
      const imported = (await listClients(secondDb, 'formula@example.com'))[0]!;
      await signed.page.goto(`${second.url}/admin/clientes/${imported.id}`);
      expect(await signed.page.getByRole('list', { name: 'Historial del cliente' }).textContent()).toContain(
        'Cliente agregado (importado desde CSV)',
      );
      expect(await signed.page.getByRole('heading', { level: 1 }).textContent()).toBe(FORMULA);
      secondWatch.assertNone();
      await signed.context.close();
    } finally {
      await secondDb.destroy();
      await second.stop();
    }
  });

  it('previews bad rows with their Spanish errors and warnings, writes nothing when cancelled and only the valid rows on confirm — without JavaScript', async () => {
    const { context, page } = await signedIn(server, { ...DESKTOP, javaScriptEnabled: false });
    const before = await clientCount(db);
    const csv = [
      HEADER,
      ',Sin Razón,8095550104,sinrazon@example.com,101850051,AdmCloud',
      'Correo Malo SRL,Rosa,8095550105,rosa-arroba-example.com,101850061,AdmCloud',
      'Aviso RNC SRL,Pedro,8095550106,pedro@example.com,101850042,Restaurant.pe',
      'Ya Existe SRL,Marta,8095550107,marta@example.com,101 850 043,AdmCloud',
      'Nueva Válida SRL,Juan,8095550108,juan@example.com,101850078,Tiendao',
      'Repetida SRL,Juana,8095550109,juana@example.com,101-85007-8,Tiendao',
      `"${XSS.replaceAll('"', '""')}",Ana,8095550110,,101850035,AdmCloud`,
    ].join('\r\n');
    await upload(page, server.url, csvFile(csv, 'con-errores.csv'));
    const row = (line: number) => page.locator(`tr[data-linea="${line}"]`);
    expect(await row(2).getAttribute('data-resultado')).toBe('invalid');
    expect(await row(2).textContent()).toContain('Razón social: Este campo es obligatorio.');
    expect(await row(3).textContent()).toContain('Correo electrónico: Correo electrónico no válido.');
    expect(await row(4).getAttribute('data-resultado')).toBe('valid');
    expect(await row(4).locator('[data-advertencia]').textContent()).toContain('dígito verificador');
    expect(await row(5).getAttribute('data-resultado')).toBe('duplicate');
    expect(await row(5).textContent()).toContain(
      'Ya existe un cliente con este RNC: «Farmacia Los Álamos SRL». Se omite.',
    );
    expect(await row(6).getAttribute('data-resultado')).toBe('valid');
    expect(await row(7).getAttribute('data-resultado')).toBe('duplicate');
    expect(await row(7).textContent()).toContain('Repite el RNC de la fila de la línea 6 de este archivo.');
    expect(await row(8).textContent()).toContain('Correo electrónico: Este campo es obligatorio.');
    expect(await row(8).locator('td').nth(2).textContent()).toBe(XSS);
    expect(await page.locator('table img').count()).toBe(0);
    expect(await page.locator('[data-resumen]').allTextContents()).toEqual([
      '2 válidas',
      '3 con errores',
      '2 duplicadas',
    ]);
    // (axe runs on the previews of the JavaScript-enabled tests: it needs scripts.)

    // 'Cancelar' writes nothing.
    await page.getByRole('link', { name: 'Cancelar' }).click();
    await page.waitForURL(`${server.url}/admin/clientes/importar`);
    expect(await rowsOf(page).count()).toBe(0);
    expect(await clientCount(db)).toBe(before);

    // Confirmed: only the two valid rows.
    await upload(page, server.url, csvFile(csv, 'con-errores.csv'));
    await page.getByRole('button', { name: 'Importar 2 clientes' }).click();
    await page.waitForURL(/importados=2&omitidas=5/);
    expect(await page.getByRole('status').textContent()).toContain(
      'Se importaron 2 clientes. 5 filas omitidas.',
    );
    expect(await clientCount(db)).toBe(before + 2);
    expect((await listClients(db, 'Nueva Válida')).map((client) => client.telefono)).toEqual([
      '+1 809-555-0108',
    ]);
    expect(await listClients(db, 'Correo Malo')).toEqual([]);
    await context.close();
  });

  it('refuses, in Spanish, a file over 2 MB or over 5,000 rows, and a forged confirmation, writing nothing', async () => {
    const { context, page } = await signedIn(server);
    const before = await clientCount(db);
    const big = `${HEADER}\r\n${'Empresa Grande SRL,Rep,8095550100,grande@example.com,101850051,AdmCloud\r\n'.repeat(30_000)}`;
    expect(Buffer.byteLength(big)).toBeGreaterThan(2 * 1024 * 1024);
    await upload(page, server.url, csvFile(big, 'grande.csv'));
    expect(await page.getByRole('alert').textContent()).toMatch(
      /^El archivo pesa 2[,.]\d MB y el máximo es 2 MB\./,
    );

    const many = [
      HEADER,
      ...Array.from(
        { length: 5001 },
        (_, index) => `E${index},R,8095550100,e${index}@x.do,${300000000 + index},T`,
      ),
    ].join('\n');
    expect(Buffer.byteLength(many)).toBeLessThan(2 * 1024 * 1024);
    await upload(page, server.url, csvFile(many, 'muchas.csv'));
    expect(await page.getByRole('alert').textContent()).toContain(
      'El archivo tiene más de 5.000 filas, el máximo por importación.',
    );

    // A confirmation whose file differs from the previewed one is refused.
    await upload(page, server.url, csvFile(`${HEADER}\nUna SRL,R,8095550100,una@example.com,101850051,T\n`));
    await page.locator('input[name="contenido"]').evaluate((input: HTMLInputElement) => {
      input.value = btoa(`${atob(input.value)}Otra SRL,R,8095550100,otra@example.com,101850061,T\n`);
    });
    await page.getByRole('button', { name: 'Importar 1 cliente' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe(
      'La vista previa caducó o no es válida. Vuelve a subir el archivo.',
    );
    expect(await clientCount(db)).toBe(before);

    // Without a session the export and the import page are refused.
    const anonymous = await fetch(`${server.url}/api/staff/clientes.csv`, { redirect: 'manual' });
    expect([401, 403]).toContain(anonymous.status);
    const anonymousImport = await fetch(`${server.url}/admin/clientes/importar`, { redirect: 'manual' });
    expect(anonymousImport.status).toBeGreaterThanOrEqual(300);
    expect(anonymousImport.headers.get('location')).toContain('/admin-login');
    await context.close();
  });
});

describe("the client's incidents", () => {
  it('lists the incidents matching the RNC or e-mail, newest first, and links an incident back to its client', async () => {
    await insertIncident(db, {
      numeroIncidencia: 'INC-20250401-1001',
      nombre: 'Carmen',
      rnc: '101850043',
      email: 'otra@example.com',
      fecha: '2025-04-01T10:00:00.000Z',
    });
    await insertIncident(db, {
      numeroIncidencia: 'INC-20250402-1002',
      nombre: 'Carmen R.',
      rnc: '',
      email: 'Carmen@LosAlamos.com.do',
      fecha: '2025-04-02T10:00:00.000Z',
    });
    await insertIncident(db, {
      numeroIncidencia: 'INC-20250403-1003',
      nombre: 'Nadie',
      rnc: '999999999',
      email: 'nadie@example.com',
      fecha: '2025-04-03T10:00:00.000Z',
    });
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page } = await signedIn(server, viewport);
      const consoleWatch = watchConsole(page);
      await page.goto(`${server.url}/admin/clientes/${alamosId}`);
      const list = page.getByRole('list', { name: 'Incidencias del cliente' });
      expect(
        await list
          .locator('li')
          .evaluateAll((items) => items.map((item) => item.getAttribute('data-incidencia'))),
      ).toEqual(['INC-20250402-1002', 'INC-20250401-1001']);
      expect(await list.locator('li').first().textContent()).toContain('por correo');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.viewport!.width,
      );
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `/tmp/crm-client-${viewport.viewport!.width}.png`, fullPage: true });

      await list.getByRole('link', { name: 'INC-20250401-1001' }).click();
      await page.waitForURL(`${server.url}/admin/incidencias/INC-20250401-1001`);
      const link = page.getByTestId('cliente-de-incidencia');
      expect(await link.textContent()).toContain('Cliente: Farmacia Los Álamos SRL');
      await link.getByRole('link', { name: 'Farmacia Los Álamos SRL' }).click();
      await page.waitForURL(`${server.url}/admin/clientes/${alamosId}`);
      await page.goto(`${server.url}/admin/incidencias/INC-20250403-1003`);
      expect(await page.getByTestId('cliente-de-incidencia').count()).toBe(0);

      await upload(
        page,
        server.url,
        csvFile(`${HEADER}\nUna SRL,R,8095550100,una@example.com,101850051,T\n`),
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.viewport!.width,
      );
      await page.screenshot({ path: `/tmp/crm-import-${viewport.viewport!.width}.png`, fullPage: true });
      consoleWatch.assertNone();
      await context.close();
    }
  });
});

describe('welcome mail', () => {
  it("gives each product's first steps when the project names it, and the general text otherwise", async () => {
    const cases = [
      {
        razonSocial: 'Bienvenida AdmCloud SRL',
        tipoProyecto: 'ERP AdmCloud',
        expect: ['facturación electrónica (e-CF)', 'de 4 a 6 semanas'],
        link: '/producto/admcloud',
      },
      {
        razonSocial: 'Bienvenida Restaurante SRL',
        tipoProyecto: 'restaurant.PE para 2 sucursales',
        expect: ['mapa de mesas', 'cierre de caja por turno'],
        link: '/producto/restaurantpe',
      },
      {
        razonSocial: 'Bienvenida Colmado SRL',
        tipoProyecto: 'tiendao app',
        expect: ['número de WhatsApp', 'Cargue sus productos'],
        link: '/producto/tiendao',
      },
      {
        razonSocial: 'Bienvenida General SRL',
        tipoProyecto: 'Desarrollo de reportes',
        expect: ['reunión de arranque del proyecto', 'consultor asignado'],
        link: null,
      },
    ];
    for (const [index, item] of cases.entries())
      await createClient(db, {
        ...base,
        razonSocial: item.razonSocial,
        tipoProyecto: item.tipoProyecto,
        email: `bienvenida${index}@example.com`,
        rnc: `10185010${index}`,
      });
    const { context, page } = await signedIn(server);
    const consoleWatch = watchConsole(page);
    await page.goto(`${server.url}/admin/clientes?q=Bienvenida`);
    await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
    for (const [index, item] of cases.entries()) {
      const entry = page.locator(`li[data-cliente="bienvenida${index}@example.com"]`);
      await entry.getByRole('button', { name: /Bienvenida/ }).click();
      await expect
        .poll(() => entry.getByRole('button', { name: /Enviado/ }).count(), { timeout: 15_000 })
        .toBe(1);
      const mail = await smtp.waitFor((message) => message.subject?.includes(item.razonSocial) ?? false);
      const text = mail.text ?? '';
      for (const phrase of item.expect) expect(text).toContain(phrase);
      expect(text).toMatch(/1\. .+\n2\. .+\n3\. .+/);
      if (item.link) {
        expect(text).toContain(`${server.url}${item.link}`);
        expect(mail.html || '').toContain(`href="${server.url}${item.link}"`);
        expect(text).toMatch(/4\. /);
      } else {
        expect(text).not.toContain('/producto/');
        expect(text).not.toMatch(/4\. /);
      }
      for (const other of cases.filter((candidate) => candidate !== item))
        for (const phrase of other.expect) expect(text).not.toContain(phrase);
    }
    consoleWatch.assertNone();
    await context.close();
  });
});
