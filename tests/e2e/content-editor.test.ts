/**
 * The article editor's history, previews and Markdown preview (issue 23) against the production
 * build, in Chromium: 'Historial' lists every save with its diff, 'Restaurar' brings an old version
 * back and is refused when someone saved since; a draft opens at its future address for staff with
 * the 'Borrador' banner (private, no-store, noindex) and 404 for anyone else; a private preview link
 * opens it without a session (a wrong or expired one does not); the Markdown preview follows the typing
 * with JavaScript and comes on 'Vista previa' without it, at 390 px, axe-clean.
 */
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DESKTOP, expectNoAxeViolations, noOverflow, PHONE } from '../support/browser.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';

const { server, browser, db, staff } = useSite({ env: { TRUST_PROXY: 'true', LOG_LEVEL: 'warn' } });

const status = async (path: string) => (await fetch(`${server.url}${path}`, { redirect: 'manual' })).status;

async function newDraft(page: Page, title: string, body: string): Promise<string> {
  await page.goto(`${server.url}/admin/contenido/nuevo`);
  await page.getByLabel('Título', { exact: true }).fill(title);
  await page.getByLabel('Resumen').fill('Un resumen del artículo para la lista del blog y los buscadores.');
  await page.getByLabel('Texto (Markdown)').fill(body);
  await page.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Borrador guardado.');
  return page.url().replace(/\?.*$/, '');
}

describe("the article editor: 'Historial', 'Vista previa'", () => {
  it("at 1280 px: every save in 'Historial' with its diff; 'Restaurar' refused when stale, then restoring", async () => {
    const { context, page } = await signInStaff(
      browser,
      server.url,
      { ...staff, network: '198.51.100.41' },
      DESKTOP,
    );
    const editor = await newDraft(
      page,
      'Historial de un artículo',
      'Primer párrafo.\n\nSegundo párrafo <b>antiguo</b>.',
    );
    await page.getByLabel('Título', { exact: true }).fill('Historial de un artículo, segunda versión');
    await page.getByLabel('Texto (Markdown)').fill('Primer párrafo.\n\nSegundo párrafo nuevo.');
    await page.getByRole('button', { name: 'Guardar borrador' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Borrador guardado.');

    const history = page.getByTestId('historial');
    expect(await history.getByRole('listitem').count()).toBe(2);
    const first = history.getByRole('listitem').last();
    expect(await first.locator('summary').innerText()).toMatch(
      new RegExp(`^Versión 1 · .* · ${staff.email.replace('.', '\\.')} · Borrador$`),
    );
    expect(await history.getByRole('listitem').first().locator('summary').innerText()).toMatch(
      /Texto actual$/,
    );
    await first.locator('summary').click();
    // The diff: what only the old version had (struck through) and what the text has now; HTML as text.
    expect(await first.locator('del').allInnerTexts()).toEqual([
      '− Historial de un artículo',
      '− Segundo párrafo <b>antiguo</b>.',
    ]);
    expect(await first.locator('ins').allInnerTexts()).toEqual([
      '+ Historial de un artículo, segunda versión',
      '+ Segundo párrafo nuevo.',
    ]);
    expect(await first.locator('b').count()).toBe(0);
    await expectNoAxeViolations(page);

    // A second editor opened now; the first saves again; the second's 'Restaurar' is refused.
    const other = await context.newPage();
    await other.goto(editor);
    await page.getByLabel('Resumen').fill('Otro resumen, guardado mientras la otra pestaña seguía abierta.');
    await page.getByRole('button', { name: 'Guardar borrador' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Borrador guardado.');
    const oldest = other.getByTestId('historial').getByRole('listitem').last();
    await oldest.locator('summary').click();
    await oldest.getByRole('button', { name: 'Restaurar' }).click();
    await expect
      .poll(() => other.getByRole('alert').first().textContent())
      .toMatch(/Otra persona guardó este artículo mientras lo editabas.*No se restauró nada/);
    const id = Number(editor.split('/').pop());
    const stored = () =>
      db
        .selectFrom('articles')
        .select(['title', 'body', 'version'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    expect(await stored()).toMatchObject({ title: 'Historial de un artículo, segunda versión', version: 3 });

    // Reloaded, the same 'Restaurar' brings version 1 back as a fourth save.
    await other.goto(editor);
    const again = other.getByTestId('historial').getByRole('listitem').last();
    await again.locator('summary').click();
    await again.getByRole('button', { name: 'Restaurar' }).click();
    await expect.poll(() => other.getByRole('status').first().textContent()).toMatch(/^Versión restaurada/);
    expect(await stored()).toMatchObject({
      title: 'Historial de un artículo',
      body: 'Primer párrafo.\n\nSegundo párrafo <b>antiguo</b>.',
      version: 4,
    });
    expect(await other.getByLabel('Título', { exact: true }).inputValue()).toBe('Historial de un artículo');
    expect(await other.getByTestId('historial').getByRole('listitem').count()).toBe(4);
    await context.close();
  });

  it('a draft at its future address: staff see it with the banner, a private link opens it without a session, everybody else 404', async () => {
    const { context, page } = await signInStaff(
      browser,
      server.url,
      { ...staff, network: '198.51.100.42' },
      DESKTOP,
    );
    const editor = await newDraft(page, 'Borrador para revisar', '## Una sección\n\nTexto **del borrador**.');
    const path = '/blog/borrador-para-revisar';

    const preview = await context.newPage();
    const response = await preview.goto(`${server.url}${path}`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['cache-control']).toBe('private, no-store');
    expect(response?.headers()['x-robots-tag']).toMatch(/noindex/);
    expect(await preview.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    expect(await preview.getByTestId('banner-borrador').innerText()).toMatch(
      /^BORRADOR\s*Vista previa: este artículo todavía no está publicado\.$/i,
    );
    expect(await preview.getByRole('heading', { level: 1 }).innerText()).toBe('Borrador para revisar');
    expect(await preview.locator('article header').innerText()).toMatch(/Borrador del /);
    expect(await preview.locator('.article-body strong').innerText()).toBe('del borrador');
    await expectNoAxeViolations(preview);
    // Never put among the public pages: anyone else (and the blog, the feed, the sitemap) knows nothing of it.
    expect(await status(path)).toBe(404);
    for (const listing of ['/blog', '/rss.xml', '/sitemap.xml'])
      expect(await (await fetch(`${server.url}${listing}`)).text()).not.toContain('borrador-para-revisar');

    // A private link, made in the editor, shown once.
    await page.goto(editor);
    await page.getByRole('button', { name: 'Crear enlace de vista previa' }).click();
    const link = await page.getByLabel(/^Enlace creado \(válido hasta el /).inputValue();
    expect(link).toMatch(new RegExp(`^${server.url}${path}\\?vista=[A-Za-z0-9_-]{24}$`));
    await expectNoAxeViolations(page);

    const outsider = await browser.newContext(DESKTOP);
    const stranger = await outsider.newPage();
    const opened = await stranger.goto(link);
    expect(opened?.status()).toBe(200);
    expect(opened?.headers()['cache-control']).toBe('private, no-store');
    expect(opened?.headers()['referrer-policy']).toBe('no-referrer');
    expect(await stranger.getByTestId('banner-borrador').isVisible()).toBe(true);
    expect(await stranger.getByRole('heading', { level: 1 }).innerText()).toBe('Borrador para revisar');
    // A wrong token, a malformed one: 404. The link at another address (a slug changed since) goes to the article's.
    const token = new URL(link).searchParams.get('vista')!;
    const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(await status(`${path}?vista=${wrong}`)).toBe(404);
    expect(await status(`${path}?vista=nada`)).toBe(404);
    const moved = await fetch(`${server.url}/blog/otra-direccion?vista=${token}`, { redirect: 'manual' });
    expect([moved.status, moved.headers.get('location'), moved.headers.get('cache-control')]).toEqual([
      302,
      `${path}?vista=${token}`,
      'private, no-store',
    ]);
    expect(await status(`/blog/otra-direccion?vista=${wrong}`)).toBe(404);
    // Past its 7 days: 404.
    await db
      .updateTable('articlePreviewLinks')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await stranger.goto(link))?.status()).toBe(404);
    await outsider.close();

    // Scheduled for later (not public yet): still a preview for staff, saying when it goes public.
    const at = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000);
    await db
      .updateTable('articles')
      .set({ state: 'programado', publishAt: at.toISOString() })
      .where('slug', '=', 'borrador-para-revisar')
      .execute();
    expect((await preview.goto(`${server.url}${path}`))?.status()).toBe(200);
    expect(await preview.getByTestId('banner-borrador').innerText()).toMatch(
      /Vista previa: se publicará el \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} \(hora de Santo Domingo\)\.$/,
    );
    expect(await preview.locator('article header').innerText()).toMatch(/Se publicará el /);
    expect(await status(path)).toBe(404);
    await context.close();
  });

  it("a help article's draft at its future address: the banner and no vote for staff and a private link, 404 for everybody else", async () => {
    const { context, page } = await signInStaff(
      browser,
      server.url,
      { ...staff, network: '198.51.100.47' },
      PHONE,
    );
    await page.goto(`${server.url}/admin/contenido/nuevo`);
    await page.getByRole('radio', { name: 'Ayuda' }).check();
    await page.getByLabel('Título', { exact: true }).fill('Cerrar la caja al final del día');
    await page.getByLabel('Resumen').fill('Cómo hacer el cierre de caja en Restaurant.pe sin descuadres.');
    await page.getByLabel('Texto (Markdown)').fill('Abre **Caja** y pulsa *Cerrar turno*.');
    await page.getByRole('button', { name: 'Guardar borrador' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Borrador guardado.');
    const path = '/ayuda/cerrar-la-caja-al-final-del-dia';
    expect(
      await page.getByRole('link', { name: 'Ver el borrador en su dirección' }).getAttribute('href'),
    ).toBe(path);

    const preview = await context.newPage();
    const response = await preview.goto(`${server.url}${path}`);
    expect([response?.status(), response?.headers()['cache-control']]).toEqual([200, 'private, no-store']);
    expect(await preview.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    expect(await preview.getByTestId('banner-borrador').innerText()).toMatch(
      /Vista previa: este artículo todavía no está publicado\.$/,
    );
    expect(await preview.getByRole('heading', { level: 1 }).innerText()).toBe(
      'Cerrar la caja al final del día',
    );
    expect(await preview.locator('article header').innerText()).toMatch(/Borrador del /);
    // '¿Te resultó útil?' counts public articles only: not offered on a draft.
    expect(await preview.getByText('¿Te resultó útil?').count()).toBe(0);
    expect(await preview.evaluate(() => document.documentElement.scrollWidth <= 390)).toBe(true);
    await expectNoAxeViolations(preview);
    expect(await status(path)).toBe(404);
    expect(await (await fetch(`${server.url}/ayuda`)).text()).not.toContain('cerrar-la-caja');

    await page.getByRole('button', { name: 'Crear enlace de vista previa' }).click();
    const link = await page.getByLabel(/^Enlace creado \(válido hasta el /).inputValue();
    expect(link).toMatch(new RegExp(`^${server.url}${path}\\?vista=[A-Za-z0-9_-]{24}$`));
    const opened = await fetch(link);
    expect([opened.status, opened.headers.get('cache-control')]).toEqual([200, 'private, no-store']);
    expect(await opened.text()).toContain('data-testid="banner-borrador"');
    await context.close();
  });

  it('at 390 px: the Markdown preview beside the text follows the typing, and without JavaScript comes on "Vista previa"; axe-clean', async () => {
    const { context, page } = await signInStaff(
      browser,
      server.url,
      { ...staff, network: '198.51.100.43' },
      PHONE,
    );
    const editor = await newDraft(page, 'Vista previa al escribir', 'Texto inicial.');
    const pane = page.getByTestId('vista-previa');
    expect(await pane.innerText()).toBe('Texto inicial.');
    await page
      .getByLabel('Texto (Markdown)')
      .fill('## Hola **mundo**\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1))');
    await expect
      .poll(() =>
        pane
          .locator('h2')
          .innerText()
          .catch(() => ''),
      )
      .toBe('Hola mundo');
    expect(await pane.locator('h2 strong').innerText()).toBe('mundo');
    expect(await pane.locator('script').count()).toBe(0);
    expect(await pane.innerText()).toContain('<script>alert(1)</script>');
    expect(await pane.locator('a').count()).toBe(0);
    expect(await noOverflow(page)).toBe(true);
    // Stacked on a phone: the preview below the text, as wide as it.
    const [text, shown] = await Promise.all([
      page.getByLabel('Texto (Markdown)').boundingBox(),
      pane.boundingBox(),
    ]);
    expect(shown!.y).toBeGreaterThan(text!.y + text!.height);
    await expectNoAxeViolations(page);
    // The endpoint is staff-only.
    const anonymous = await fetch(`${server.url}/api/staff/vista-previa`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"cuerpo":"x"}',
    });
    expect(anonymous.status).toBe(401);
    await context.close();

    const noScript = await signInStaff(
      browser,
      server.url,
      { ...staff, network: '198.51.100.44' },
      { ...PHONE, javaScriptEnabled: false },
    );
    await noScript.page.goto(editor);
    await noScript.page.getByLabel('Texto (Markdown)').fill('Un *cambio* sin guardar.');
    await noScript.page.getByRole('button', { name: 'Vista previa', exact: true }).click();
    const noScriptPane = noScript.page.getByTestId('vista-previa');
    expect(await noScriptPane.locator('em').innerText()).toBe('cambio');
    // What was typed stays in the form; nothing was saved.
    expect(await noScript.page.getByLabel('Texto (Markdown)').inputValue()).toBe('Un *cambio* sin guardar.');
    const id = Number(editor.split('/').pop());
    expect(
      (await db.selectFrom('articles').select('body').where('id', '=', id).executeTakeFirstOrThrow()).body,
    ).toBe('Texto inicial.');
    expect(await noOverflow(noScript.page)).toBe(true);
    // Then saved from there: the version the editor was opened at still holds.
    await noScript.page.getByRole('button', { name: 'Guardar borrador' }).click();
    await expect
      .poll(() => noScript.page.getByRole('status').first().textContent())
      .toBe('Borrador guardado.');
    expect(
      (await db.selectFrom('articles').select('body').where('id', '=', id).executeTakeFirstOrThrow()).body,
    ).toBe('Un *cambio* sin guardar.');
    await noScript.context.close();
  });

  it('at 390 px without JavaScript: an image uploaded into the text, as AVIF and WebP with width and height, published in a <picture>', async () => {
    const { context, page } = await signInStaff(
      browser,
      server.url,
      { ...staff, network: '198.51.100.45' },
      { ...PHONE, javaScriptEnabled: false },
    );
    const editor = await newDraft(page, 'Artículo con imagen', 'Antes de la imagen.');
    const photo = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#2a6f97' } })
      .jpeg()
      .toBuffer();
    // Without a description: refused, nothing stored, the text kept.
    await page
      .getByLabel(/^Imagen \(PNG/)
      .setInputFiles({ name: 'foto.jpg', mimeType: 'image/jpeg', buffer: photo });
    await page.getByRole('button', { name: 'Subir imagen' }).click();
    expect(await page.locator('#imagenAlt-error').innerText()).toBe(
      'Describe la imagen para quien no la ve.',
    );
    expect(await page.getByLabel('Texto (Markdown)').inputValue()).toBe('Antes de la imagen.');
    expect(await db.selectFrom('articleImages').select('id').execute()).toHaveLength(0);

    await page
      .getByLabel(/^Imagen \(PNG/)
      .setInputFiles({ name: 'foto.jpg', mimeType: 'image/jpeg', buffer: photo });
    await page.getByLabel('Qué muestra la imagen').fill('Un tablero de ventas');
    await page.getByRole('button', { name: 'Subir imagen' }).click();
    const body = await page.getByLabel('Texto (Markdown)').inputValue();
    expect(body).toMatch(
      /^Antes de la imagen\.\n\n!\[Un tablero de ventas\]\(\/blog\/imagenes\/\d+-[0-9a-f]{16}-1440x810\)\n$/,
    );
    const picture = page.getByTestId('vista-previa').locator('picture');
    expect(
      await picture.locator('source').evaluateAll((sources) => sources.map((s) => s.getAttribute('type'))),
    ).toEqual(['image/avif', 'image/webp']);
    const img = picture.locator('img');
    expect([
      await img.getAttribute('width'),
      await img.getAttribute('height'),
      await img.getAttribute('alt'),
    ]).toEqual(['1440', '810', 'Un tablero de ventas']);
    expect(await noOverflow(page)).toBe(true);
    // The image's id and its random key, which every address of it carries.
    const id = /imagenes\/(\d+-[0-9a-f]{16})-/.exec(body)![1]!;
    for (const [file, type, width] of [
      [`${id}-360.avif`, 'image/avif', 360],
      [`${id}-720.webp`, 'image/webp', 720],
      [`${id}-1440.avif`, 'image/avif', 1440],
    ] as const) {
      const response = await fetch(`${server.url}/blog/imagenes/${file}`);
      expect([
        response.status,
        response.headers.get('content-type'),
        response.headers.get('cache-control'),
      ]).toEqual([200, type, 'public, max-age=31536000, immutable']);
      expect((await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width).toBe(width);
    }
    expect(await status(`/blog/imagenes/${id}-2880.webp`)).toBe(404);
    // Without its key (an article not yet public: its images cannot be found by counting ids), 404.
    const wrongKey = id.replace(/-(.)/, (_, digit: string) => `-${digit === '0' ? '1' : '0'}`);
    expect(await status(`/blog/imagenes/${wrongKey}-720.webp`)).toBe(404);
    // Nothing of the article was saved by the upload; 'Publicar' then puts the picture on the blog.
    const articleId = Number(editor.split('/').pop());
    expect(
      (await db.selectFrom('articles').select('body').where('id', '=', articleId).executeTakeFirstOrThrow())
        .body,
    ).toBe('Antes de la imagen.');
    // The uploaded image can be the article's cover too.
    await page
      .getByLabel('Imagen de portada')
      .selectOption({ label: 'Imagen del texto: Un tablero de ventas' });
    await page
      .getByLabel('Descripción de la imagen', { exact: true })
      .fill('Un tablero de ventas en una pantalla');
    await page.getByRole('button', { name: 'Publicar', exact: true }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Artículo publicado.');
    const published = await (await fetch(`${server.url}/blog/articulo-con-imagen`)).text();
    const imgTag = (html: string, src: string) =>
      new RegExp(`<img [^>]*src="${src}"[^>]*>`).exec(html)?.[0] ?? '';
    const cover = imgTag(published, `/blog/imagenes/${id}-1440.webp`);
    for (const attribute of [
      'width="1440"',
      'height="810"',
      'alt="Un tablero de ventas en una pantalla"',
      'fetchPriority="high"',
    ])
      expect(cover).toContain(attribute);
    const card = imgTag(await (await fetch(`${server.url}/blog`)).text(), `/blog/imagenes/${id}-720.webp`);
    for (const attribute of ['width="720"', 'height="405"', 'alt="Un tablero de ventas en una pantalla"'])
      expect(card).toContain(attribute);
    expect(published).toContain(
      `<source type="image/avif" srcset="/blog/imagenes/${id}-360.avif 360w, /blog/imagenes/${id}-720.avif 720w, /blog/imagenes/${id}-1440.avif 1440w"`,
    );
    expect(published).toMatch(
      new RegExp(
        `<img src="/blog/imagenes/${id}-720.webp" alt="Un tablero de ventas" width="1440" height="810"`,
      ),
    );
    await context.close();
  });
});
