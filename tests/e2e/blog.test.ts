/**
 * The blog in real Chromium against the production build: the grid, the three articles, the 404
 * of an unknown id, and the RSS feed.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, expectNoAxeViolations, poll, watchConsole } from '../support/browser.ts';
import { ROOT } from '../support/server.ts';
import { useSite } from '../support/site.ts';

const { server, browser, quietContext } = useSite({ shared: true });

const ARTICLES = [
  {
    id: 'integracion-admcloud-restaurantpe',
    date: 'Publicado el 15 de abril de 2025',
    title: /integración AdmCloud y Restaurant\.pe/,
  },
  { id: 'mejor-erp-2025', date: 'Publicado el 3 de marzo de 2025', title: /mejor ERP .* 2025/ },
  {
    id: 'software-gestion-restaurantes',
    date: 'Publicado el 20 de enero de 2025',
    title: /5 razones .* restaurante/,
  },
];

it('has exactly the three articles of the spec as Markdown files', () => {
  const files = readdirSync(join(ROOT, 'src/content/blog')).filter((file) => file.endsWith('.md'));
  expect(files.map((file) => file.replace(/\.md$/, '')).sort()).toEqual(
    ARTICLES.map((article) => article.id).sort(),
  );
});

describe('/blog', () => {
  for (const [name, options] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`shows 'Artículos y Guías' with a card per article, newest first (${name})`, async () => {
      const context = await quietContext(options);
      const page = await context.newPage();
      const consoleWatch = watchConsole(page);
      const response = await page.goto(`${server.url}/blog`);
      expect(response?.status()).toBe(200);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Artículos y Guías');
      const cards = page.locator('main article');
      expect(await cards.count()).toBe(3);
      for (const [index, article] of ARTICLES.entries()) {
        const card = cards.nth(index);
        // Below the first section, content is rendered once it nears the viewport (content-visibility):
        // bring the card there, then read its rendered text.
        await card.scrollIntoViewIfNeeded();
        await poll(() => card.getByRole('heading', { level: 2 }).innerText()).toMatch(article.title);
        const excerpt = await card.locator('p').nth(1).innerText();
        expect(excerpt.length).toBeGreaterThan(60);
        const image = card.getByRole('img');
        expect(await image.getAttribute('alt')).toBeTruthy();
        await image.scrollIntoViewIfNeeded();
        await poll(() =>
          image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
        ).toBe(true);
        const more = card.getByRole('link', { name: /^Leer más →/ });
        expect(await more.evaluate((link) => link.firstChild?.textContent)).toBe('Leer más →');
        expect(await more.getAttribute('href')).toBe(`/blog/${article.id}`);
      }
      await expectNoAxeViolations(page);
      consoleWatch.assertNone();
      await context.close();
    });
  }

  it("opens the article from its card's 'Leer más →'", async () => {
    const context = await quietContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(`${server.url}/blog`);
    await page
      .locator('main article')
      .nth(1)
      .getByRole('link', { name: /^Leer más →/ })
      .click();
    await page.waitForURL(`${server.url}/blog/mejor-erp-2025`);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toMatch(ARTICLES[1]!.title);
    await context.close();
  });
});

describe('/blog/{id}', () => {
  for (const article of ARTICLES) {
    it(`renders ${article.id}: image, title, Spanish date, a long HTML body, 'Volver al Blog'`, async () => {
      const context = await quietContext(DESKTOP);
      const page = await context.newPage();
      const consoleWatch = watchConsole(page);
      const response = await page.goto(`${server.url}/blog/${article.id}`);
      expect(response?.status()).toBe(200);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toMatch(article.title);
      expect(await page.locator('main').innerText()).toContain(article.date);
      const image = page.locator('main article img').first();
      expect(await image.getAttribute('alt')).toBeTruthy();
      await poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(
        true,
      );

      const body = page.locator('.article-body');
      const words = (await body.innerText()).split(/\s+/).filter(Boolean).length;
      expect(words).toBeGreaterThanOrEqual(600);
      expect(await body.locator('h2').count()).toBeGreaterThanOrEqual(3);
      expect(await body.locator('li').count()).toBeGreaterThanOrEqual(4);
      // Only our Markdown: no script or raw HTML smuggled in.
      expect(await body.locator('script, iframe, style').count()).toBe(0);

      const jsonLd = JSON.parse(
        (await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}',
      );
      expect(jsonLd['@type']).toBe('BlogPosting');
      expect(jsonLd.headline).toMatch(article.title);
      expect(jsonLd.inLanguage).toBe('es-DO');
      expect(await page.locator('meta[property="og:type"]').getAttribute('content')).toBe('article');

      const back = page.getByRole('link', { name: /Volver al Blog/ }).first();
      await back.click();
      await page.waitForURL(`${server.url}/blog`);
      consoleWatch.assertNone();
      await context.close();
    });
  }

  it('is accessible on a phone', async () => {
    const context = await quietContext(PHONE);
    const page = await context.newPage();
    await page.goto(`${server.url}/blog/software-gestion-restaurantes`);
    await expectNoAxeViolations(page);
    await context.close();
  });

  it("answers HTTP 404 with 'Artículo no encontrado' and a way back for an unknown id", async () => {
    const context = await quietContext(PHONE);
    const page = await context.newPage();
    const consoleWatch = watchConsole(page);
    const response = await page.goto(`${server.url}/blog/articulo-que-no-existe`);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Artículo no encontrado');
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    await expectNoAxeViolations(page);
    await page.getByRole('main').getByRole('link', { name: 'Volver al Blog' }).click();
    await page.waitForURL(`${server.url}/blog`);
    // Chromium reports the 404 document itself as a console error; nothing else may appear.
    expect(consoleWatch.problems.filter((problem) => !problem.includes('status of 404'))).toEqual([]);
    await context.close();
  });
});

describe('RSS', () => {
  it('serves a valid RSS 2.0 feed of the three articles, linked from every page', async () => {
    const response = await fetch(`${server.url}/rss.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/xml/);
    const xml = await response.text();

    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(`${server.url}/blog`);
    const href = await page.locator('link[rel="alternate"][type="application/rss+xml"]').getAttribute('href');
    expect(href).toBe('/rss.xml');
    // Parse with the browser's XML parser: a malformed feed yields a <parsererror>.
    const feed = await page.evaluate((source) => {
      const doc = new DOMParser().parseFromString(source, 'application/xml');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        version: doc.documentElement.getAttribute('version'),
        title: doc.querySelector('channel > title')?.textContent,
        language: doc.querySelector('channel > language')?.textContent,
        items: [...doc.querySelectorAll('item')].map((item) => ({
          title: item.querySelector('title')?.textContent,
          link: item.querySelector('link')?.textContent,
          pubDate: item.querySelector('pubDate')?.textContent,
          description: item.querySelector('description')?.textContent,
        })),
      };
    }, xml);
    await context.close();

    expect(feed.error).toBeNull();
    expect(feed.version).toBe('2.0');
    expect(feed.title).toContain('Vértice Consultores');
    expect(feed.language).toBe('es-do');
    expect(feed.items).toHaveLength(3);
    for (const [index, article] of ARTICLES.entries()) {
      const item = feed.items[index]!;
      expect(item.title).toMatch(article.title);
      expect(new URL(item.link!).pathname).toBe(`/blog/${article.id}`);
      expect(Number.isNaN(Date.parse(item.pubDate!))).toBe(false);
      expect(item.description!.length).toBeGreaterThan(60);
      const articleResponse = await fetch(`${server.url}${new URL(item.link!).pathname}`);
      expect(articleResponse.status).toBe(200);
    }
  });
});
