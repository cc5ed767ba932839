/**
 * 'Contenido' (issue 23) against the production build, in Chromium: at 390 px without JavaScript, an
 * article written in the editor and published opens on the blog; its slug changed, the old address
 * answers 301 to the new one; 'Despublicar' makes both 404. At 1280 px, a second editor whose version
 * is stale is warned and nothing of theirs is saved; a scheduled article shows its state. The list and
 * the editor are axe-clean (with JavaScript: axe runs in the page).
 */
import { describe, expect, it } from 'vitest';
import { DESKTOP, expectNoAxeViolations, noOverflow, PHONE } from '../support/browser.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';

const { server, browser, db, staff } = useSite({ env: { TRUST_PROXY: 'true', LOG_LEVEL: 'warn' } });

const status = async (path: string) => (await fetch(`${server.url}${path}`, { redirect: 'manual' })).status;

describe("'Contenido'", () => {
  it('at 390 px without JavaScript: written, published (on the blog), slug changed (301), unpublished (404)', async () => {
    const { context, page } = await signInStaff(
      browser,
      server.url,
      { ...staff, network: '198.51.100.31' },
      { ...PHONE, javaScriptEnabled: false },
    );
    await page.goto(`${server.url}/admin/contenido`);
    // 'Contenido' in the staff menu (the sidebar, and the phone's menu), marked as the current page.
    expect(await page.locator('a[href="/admin/contenido"][aria-current="page"]').count()).toBeGreaterThan(0);
    // The three imported articles are listed, published.
    expect(await page.getByRole('list', { name: 'Artículos' }).getByRole('listitem').count()).toBe(3);
    await page.getByRole('link', { name: 'Nuevo artículo' }).click();
    await page.getByLabel('Título', { exact: true }).fill('Cómo cerrar el mes en tres días');
    await page
      .getByLabel('Resumen')
      .fill(
        'Conciliaciones diarias, un calendario y responsables: así cierran rápido las empresas dominicanas.',
      );
    await page
      .getByLabel('Texto (Markdown)')
      .fill('## Un calendario\n\nCada tarea tiene su día y su responsable.');
    await page.getByLabel('Autor').fill('Ana Pérez');
    expect(await noOverflow(page)).toBe(true);
    await page.getByRole('button', { name: 'Publicar', exact: true }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Artículo publicado.');
    expect(await page.getByTestId('estado-articulo').innerText()).toMatch(/^Estado: Publicado/);
    const editor = page.url();

    const article = await context.newPage();
    const response = await article.goto(`${server.url}/blog/como-cerrar-el-mes-en-tres-dias`);
    expect(response?.status()).toBe(200);
    expect(await article.getByRole('heading', { level: 1 }).innerText()).toBe(
      'Cómo cerrar el mes en tres días',
    );
    // Its social card, with its title, made when it went public: named by the page, served as a PNG.
    const card = await article.locator('meta[property="og:image"]').getAttribute('content');
    expect(card).toMatch(/\/og\/articulos\/blog\/como-cerrar-el-mes-en-tres-dias\.png$/);
    const cardResponse = await fetch(`${server.url}${new URL(card!).pathname}`);
    expect([cardResponse.status, cardResponse.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect((await cardResponse.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    // Rendered into memory once the change is known: the blog lists it.
    await expect
      .poll(
        async () =>
          (await (await fetch(`${server.url}/blog`)).text()).includes(
            '/blog/como-cerrar-el-mes-en-tres-dias',
          ),
        { timeout: 10_000 },
      )
      .toBe(true);

    await page.goto(editor);
    await page.getByLabel('Dirección (slug)').fill('cerrar-el-mes');
    await page.getByRole('button', { name: 'Guardar cambios' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('Cambios guardados: el artículo publicado ya los muestra.');
    const moved = await fetch(`${server.url}/blog/como-cerrar-el-mes-en-tres-dias`, { redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/blog/cerrar-el-mes');
    await article.goto(`${server.url}/blog/como-cerrar-el-mes-en-tres-dias`);
    expect(article.url()).toBe(`${server.url}/blog/cerrar-el-mes`);
    expect(await article.getByRole('heading', { level: 1 }).innerText()).toBe(
      'Cómo cerrar el mes en tres días',
    );

    await page.getByRole('button', { name: 'Despublicar' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('Artículo despublicado: vuelve a ser un borrador.');
    await expect.poll(() => status('/blog/cerrar-el-mes'), { timeout: 10_000 }).toBe(404);
    expect(await status('/blog/como-cerrar-el-mes-en-tres-dias')).toBe(404);
    expect(await page.getByRole('button', { name: 'Guardar borrador' }).count()).toBe(1);
    await context.close();
  });

  it('at 1280 px: a second editor on a stale version is warned and nothing of theirs is saved; a scheduled article says so', async () => {
    const { context, page } = await signInStaff(
      browser,
      server.url,
      { ...staff, network: '198.51.100.32' },
      DESKTOP,
    );
    const row = await db
      .selectFrom('articles')
      .select(['id'])
      .where('slug', '=', 'mejor-erp-2025')
      .executeTakeFirstOrThrow();
    const url = `${server.url}/admin/contenido/${row.id}`;
    await page.goto(`${server.url}/admin/contenido`);
    await expectNoAxeViolations(page);
    await page.goto(url);
    // The editor shows the stored text exactly (a textarea adds no whitespace of its own).
    const { body } = await db
      .selectFrom('articles')
      .select(['body'])
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(await page.getByLabel('Texto (Markdown)').inputValue()).toBe(body);
    const other = await context.newPage();
    await other.goto(url);
    // The first saves a new title…
    await page.getByLabel('Título', { exact: true }).fill('Cómo elegir el mejor ERP en 2025');
    await page.getByRole('button', { name: 'Guardar cambios' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('Cambios guardados: el artículo publicado ya los muestra.');
    // …the second, still on the old version, is refused and keeps what they typed.
    await other
      .getByLabel('Resumen')
      .fill('Un resumen escrito sobre la versión anterior del artículo, que no debe guardarse.');
    await other.getByRole('button', { name: 'Guardar cambios' }).click();
    await expect
      .poll(() => other.getByRole('alert').textContent())
      .toMatch(/Otra persona guardó este artículo mientras lo editabas/);
    expect(await other.getByLabel('Resumen').inputValue()).toMatch(
      /^Un resumen escrito sobre la versión anterior/,
    );
    const stored = await db
      .selectFrom('articles')
      .select(['title', 'excerpt'])
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(stored.title).toBe('Cómo elegir el mejor ERP en 2025');
    expect(stored.excerpt).not.toMatch(/versión anterior/);
    await expectNoAxeViolations(other);

    // A new draft scheduled for tomorrow at 09:30 in Santo Domingo.
    await page.goto(`${server.url}/admin/contenido/nuevo`);
    await page.getByLabel('Título', { exact: true }).fill('Novedades de enero');
    await page.getByLabel('Resumen').fill('Lo nuevo en AdmCloud, Restaurant.pe y Tiendao este mes.');
    await page.getByLabel('Texto (Markdown)').fill('Texto del anuncio.');
    const tomorrow = new Date(Date.now() + 36 * 60 * 60 * 1000).toISOString().slice(0, 10);
    await page.getByLabel('Fecha', { exact: true }).fill(tomorrow);
    await page.getByLabel('Hora', { exact: true }).fill('09:30');
    await page.getByRole('button', { name: 'Programar', exact: true }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Artículo programado.');
    expect(await page.getByTestId('estado-articulo').innerText()).toMatch(
      /^Estado: Programado para el .*9:30/,
    );
    expect(await status('/blog/novedades-de-enero')).toBe(404);
    // The editor shows the stored time back in its fields, in Santo Domingo time.
    expect(await page.getByLabel('Fecha', { exact: true }).inputValue()).toBe(tomorrow);
    expect(await page.getByLabel('Hora', { exact: true }).inputValue()).toBe('09:30');
    await expectNoAxeViolations(page);
    const scheduledEditor = page.url();
    await context.close();

    // The same editor at 390 px with JavaScript: nothing wider than the phone, axe-clean.
    const phone = await signInStaff(browser, server.url, { ...staff, network: '198.51.100.33' }, PHONE);
    await phone.page.goto(scheduledEditor);
    expect(await noOverflow(phone.page)).toBe(true);
    await expectNoAxeViolations(phone.page);
    await phone.context.close();
  });
});
