/**
 * 'Anuncios' and 'Logos de clientes' (issue 23) against the production build, in Chromium. After the
 * one-time import the home page and /clientes are byte for byte the built pages. Without JavaScript
 * at 390 px, a new announcement shows in the home page's toast (for a visitor who saw the four
 * imported ones) and goes after its deletion (confirmed); a logo added (an SVG carrying a script,
 * served sanitised), moved up, hidden and shown again is followed by the wall of the home page and of
 * /clientes, its count and heading. Both staff pages are axe-clean at 390 and 1280 px.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withSiteOrigin } from '../../src/server/http/static-files.ts';
import { DESKTOP, expectNoAxeViolations, noOverflow, PHONE, poll } from '../support/browser.ts';
import { ROOT } from '../support/server.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';
import { silenceWhatsNew } from '../support/whatsnew.ts';

const { server, browser, db, staff } = useSite({ env: { TRUST_PROXY: 'true', LOG_LEVEL: 'warn' } });

const html = async (path: string) =>
  (await fetch(`${server.url}${path}`, { headers: { 'Accept-Encoding': 'identity' } })).text();
/** The alt texts of a page's logo wall, in order. */
const wall = async (path: string) =>
  [
    ...(await html(path)).matchAll(
      /<li[^>]*data-reveal[^>]*>(?:<a[^>]*>)?<img src="([^"]+)"[^>]*alt="([^"]*)"/g,
    ),
  ].map((match) => match[2]);

const EVIL_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="72" viewBox="0 0 240 72" onload="alert(1)">' +
  '<script>alert(2)</script><a href="javascript:alert(3)"><rect width="240" height="72" fill="#0b1f3a"/></a>' +
  '<text x="20" y="45" fill="#fff" font-size="24">Nueva Empresa</text></svg>';

describe("'Anuncios' and 'Logos de clientes'", () => {
  it('after the import, the home page and /clientes are exactly the built pages', async () => {
    for (const [path, file] of [
      ['/', 'index.html'],
      ['/clientes', 'clientes/index.html'],
    ] as const) {
      const built = withSiteOrigin(readFileSync(join(ROOT, 'dist/client', file)), server.env.SITE_URL!);
      await poll(() => html(path)).toBe(built.toString('utf8'));
    }
    expect((await wall('/')).length).toBe(18);
  });

  it('at 390 px without JavaScript: a new announcement shows in the toast, and goes once deleted', async () => {
    const { context, page } = await signInStaff(
      browser,
      server.url,
      { ...staff, network: '198.51.100.41' },
      { ...PHONE, javaScriptEnabled: false },
    );
    await page.goto(`${server.url}/admin/anuncios`);
    expect(await page.locator('a[href="/admin/anuncios"][aria-current="page"]').count()).toBeGreaterThan(0);
    expect(await page.getByRole('list', { name: 'Anuncios' }).getByRole('listitem').count()).toBe(4);
    await page.getByRole('link', { name: 'Nuevo anuncio' }).click();
    await page.getByLabel('Título', { exact: true }).fill('Facturación electrónica en Tiendao');
    await page
      .getByLabel('Mensaje', { exact: true })
      .fill('Tus ventas en línea ya salen con su comprobante fiscal electrónico.');
    await page.getByLabel('Enlace', { exact: true }).fill('javascript:alert(1)');
    expect(await noOverflow(page)).toBe(true);
    await page.getByRole('button', { name: 'Crear anuncio' }).click();
    expect(await page.locator('#enlace-error').innerText()).toMatch(/dirección del sitio/);
    await page.getByLabel('Enlace', { exact: true }).fill('/producto/tiendao');
    await page.getByRole('button', { name: 'Crear anuncio' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Anuncio creado.');

    // A visitor who saw the four imported announcements gets the new one on the home page.
    const visitor = await browser.newContext(PHONE);
    await silenceWhatsNew(visitor);
    const home = await visitor.newPage();
    await home.goto(`${server.url}/`);
    const toast = home.locator('#whatsnew');
    await poll(() => toast.isVisible()).toBe(true);
    expect(await toast.innerText()).toContain('Facturación electrónica en Tiendao');
    expect(await toast.getByRole('link', { name: /Ver más detalles/ }).getAttribute('href')).toBe(
      '/producto/tiendao',
    );
    const key = await toast.locator('[data-whatsnew]:not([hidden])').getAttribute('data-whatsnew');
    expect(key).toMatch(/^facturacion-electronica-en-tiendao-[0-9a-f]{8}$/);
    expect(await home.evaluate((name) => localStorage.getItem(`whatsnew-${name}`), key!)).toBeTruthy();
    // Every public page carries it, the built ones and those rendered from the database.
    expect(await html('/contacto')).toContain('Facturación electrónica en Tiendao');
    expect(await html('/blog/mejor-erp-2025')).toContain('Facturación electrónica en Tiendao');

    // 'Eliminar' asks first.
    await page.goto(`${server.url}/admin/anuncios`);
    await page.getByRole('link', { name: 'Eliminar Facturación electrónica en Tiendao' }).click();
    await page.getByRole('button', { name: 'Eliminar anuncio' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Anuncio eliminado.');
    expect(await html('/')).not.toContain('Facturación electrónica en Tiendao');
    const fresh = await visitor.newPage();
    await fresh.goto(`${server.url}/`);
    await fresh.waitForLoadState('load');
    expect(await fresh.locator('#whatsnew').isVisible()).toBe(false);
    await visitor.close();
    await context.close();
  });

  it('at 390 px without JavaScript: a logo added (sanitised), moved up, hidden and shown is followed by both walls', async () => {
    const { context, page } = await signInStaff(
      browser,
      server.url,
      { ...staff, network: '198.51.100.42' },
      { ...PHONE, javaScriptEnabled: false },
    );
    await page.goto(`${server.url}/admin/logos`);
    expect(await page.getByTestId('logos-resumen').innerText()).toMatch(/^Se muestran 18 logos de 18/);
    await page.getByRole('link', { name: 'Nuevo logo' }).click();
    await page.getByLabel('Nombre', { exact: true }).fill('Nueva Empresa');
    await page
      .getByLabel('Imagen', { exact: true })
      .setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(EVIL_SVG) });
    expect(await noOverflow(page)).toBe(true);
    await page.getByRole('button', { name: 'Agregar logo' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Logo agregado.');
    expect(await page.getByTestId('logos-resumen').innerText()).toMatch(/^Se muestran 19 logos de 19/);

    for (const path of ['/', '/clientes']) {
      const names = await wall(path);
      expect(names.length).toBe(19);
      expect(names.at(-1)).toBe('Nueva Empresa');
    }
    const src = /<img src="(\/logos\/[^"]+\.svg)"[^>]*alt="Nueva Empresa"/.exec(await html('/clientes'))?.[1];
    expect(src).toBeTruthy();
    const image = await fetch(`${server.url}${src}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(image.headers.get('cache-control')).toMatch(/immutable/);
    const svg = await image.text();
    for (const bad of ['script', 'onload', 'javascript:', '<a']) expect(svg).not.toContain(bad);
    expect(svg).toContain('Nueva Empresa');

    // 'Subir' (a plain form): one place up, on both walls.
    await page.getByRole('button', { name: 'Subir Nueva Empresa' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Orden actualizado.');
    expect((await wall('/')).at(-2)).toBe('Nueva Empresa');
    expect((await wall('/clientes')).at(-2)).toBe('Nueva Empresa');

    // Hidden: gone from both walls, the heading stays; shown again: back in its place.
    await page.getByRole('button', { name: 'Ocultar Nueva Empresa' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('El logo quedó oculto.');
    expect(await wall('/')).not.toContain('Nueva Empresa');
    expect((await wall('/clientes')).length).toBe(18);
    expect(await html('/')).toContain('Empresas que impulsan su futuro con nosotros');
    await page.getByRole('button', { name: 'Mostrar Nueva Empresa' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('El logo se muestra en el sitio.');
    expect((await wall('/')).at(-2)).toBe('Nueva Empresa');

    // Seen in a browser: the wall of /clientes shows it, loaded.
    const visitor = await browser.newContext(DESKTOP);
    await silenceWhatsNew(visitor);
    const clientes = await visitor.newPage();
    await clientes.goto(`${server.url}/clientes`);
    const added = clientes.getByRole('img', { name: 'Nueva Empresa', exact: true });
    await added.scrollIntoViewIfNeeded();
    await poll(() => added.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    expect(await clientes.locator('section#clientes li img').count()).toBe(19);
    await visitor.close();

    // Deleted after its confirmation: 18 again.
    await page.goto(`${server.url}/admin/logos`);
    await page.getByRole('link', { name: 'Eliminar Nueva Empresa' }).click();
    await page.getByRole('button', { name: 'Eliminar logo' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Logo eliminado.');
    expect((await wall('/')).length).toBe(18);
    expect((await fetch(`${server.url}${src}`)).status).toBe(404);
    await context.close();
  });

  // One test per width: eight axe passes in one test came within a few seconds of the test timeout on
  // a slow machine.
  it.each([
    ['390', PHONE, '198.51.100.43'],
    ['1280', DESKTOP, '198.51.100.44'],
  ] as const)(
    'at %s px: both pages and their forms are axe-clean and fit',
    async (_width, viewport, network) => {
      const { context, page } = await signInStaff(browser, server.url, { ...staff, network }, viewport);
      for (const path of ['/admin/anuncios', '/admin/anuncios/nuevo', '/admin/logos', '/admin/logos/nuevo']) {
        await page.goto(`${server.url}${path}`);
        expect(await noOverflow(page)).toBe(true);
        await expectNoAxeViolations(page);
      }
      await context.close();
    },
  );

  it('refuses a stale edit (axe-clean with its message), and a dragged logo takes its place on both walls', async () => {
    const { context, page } = await signInStaff(
      browser,
      server.url,
      { ...staff, network: '198.51.100.45' },
      DESKTOP,
    );
    const row = await db
      .selectFrom('announcements')
      .select(['id'])
      .where('key', '=', 'calculadora-tiendao')
      .executeTakeFirstOrThrow();
    await page.goto(`${server.url}/admin/anuncios/${row.id}`);
    const other = await context.newPage();
    await other.goto(`${server.url}/admin/anuncios/${row.id}`);
    await page.getByLabel('Título', { exact: true }).fill('Calculadora de inversión renovada');
    await page.getByRole('button', { name: 'Guardar anuncio' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Anuncio guardado.');
    await other.getByLabel('Mensaje', { exact: true }).fill('Un mensaje escrito sobre la versión anterior.');
    await other.getByRole('button', { name: 'Guardar anuncio' }).click();
    await poll(() => other.getByRole('alert').textContent()).toMatch(/Otra persona guardó este anuncio/);
    await expectNoAxeViolations(other);
    expect(await html('/')).toContain('Calculadora de inversión renovada');

    // With JavaScript, a logo dragged below the third takes its place, on both walls.
    await page.goto(`${server.url}/admin/logos`);
    const items = page.locator('[data-logo-list] > li');
    const first = (await wall('/'))[0]!;
    const box = (await items.nth(2).boundingBox())!;
    await items.nth(0).dragTo(items.nth(2), { targetPosition: { x: 20, y: box.height - 4 } });
    await poll(() => page.getByRole('status').textContent()).toBe('Orden actualizado.');
    expect((await wall('/')).indexOf(first)).toBe(2);
    expect((await wall('/clientes')).indexOf(first)).toBe(2);
    await context.close();
  });
});
