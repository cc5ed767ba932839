/**
 * The blog from the database (issue 23, docs/decisions/0019) against the production build: the pages
 * rendered from the imported articles say what the prerendered ones said (the fixture was taken from
 * the build before the move: text, addresses, images, dates, head, JSON-LD, feed and sitemap), are
 * answered from memory, and in Chromium a published article opens while a draft is a 404; an
 * article's HTML written in its Markdown stays text.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createArticle, publishArticle } from '../../src/server/content/articles.ts';
import { openDatabase } from '../../src/server/db/index.ts';
import { DESKTOP, poll } from '../support/browser.ts';
import { summarizeBlogPage, summarizeRss, summarizeSitemap } from '../support/blog-pages.ts';
import { ROOT } from '../support/server.ts';
import { useSite } from '../support/site.ts';

const { server, quietContext } = useSite();

const BEFORE = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/blog-before.json'), 'utf8')) as {
  pages: Record<string, ReturnType<typeof summarizeBlogPage>>;
  rss: ReturnType<typeof summarizeRss>;
  sitemap: ReturnType<typeof summarizeSitemap>;
};

/**
 * The content pages are rendered into memory right after the server starts listening: wait for them.
 * Until then the route renders the page on demand, compressed on the fly (brotli too) but without an
 * ETag, which only the memory table's answers carry.
 */
async function fromMemory(path: string): Promise<Response> {
  let response: Response | undefined;
  await poll(async () => {
    response = await fetch(`${server.url}${path}`, { headers: { 'Accept-Encoding': 'br' } });
    return [response.headers.get('content-encoding'), response.headers.has('etag')];
  }).toEqual(['br', true]);
  return response!;
}

it('shows the imported articles as the prerendered blog did: text, addresses, images, dates, head, feed, sitemap', async () => {
  for (const [path, before] of Object.entries(BEFORE.pages)) {
    const html = await (await fetch(`${server.url}${path}`)).text();
    expect(summarizeBlogPage(html), path).toEqual(before);
  }
  expect(summarizeRss(await (await fetch(`${server.url}/rss.xml`)).text())).toEqual(BEFORE.rss);
  // The help centre came after the fixture was taken: its entries aside, the sitemap is the same.
  const sitemap = summarizeSitemap(await (await fetch(`${server.url}/sitemap.xml`)).text());
  expect(sitemap.filter((entry) => !entry.loc.startsWith('/ayuda'))).toEqual(BEFORE.sitemap);
  expect(sitemap.map((entry) => entry.loc)).toContain('/ayuda');
});

it('answers the blog, its articles, the feed and the sitemap from memory: brotli, ETag, 304, the page CSP', async () => {
  for (const path of ['/blog', '/blog/mejor-erp-2025', '/rss.xml', '/sitemap.xml']) {
    const response = await fromMemory(path);
    expect(response.status, path).toBe(200);
    const etag = response.headers.get('etag')!;
    expect(etag, path).toMatch(/^W\/"/);
    expect(response.headers.get('content-type'), path).toMatch(/charset=utf-8$/);
    const again = await fetch(`${server.url}${path}`, { headers: { 'If-None-Match': etag } });
    expect(again.status, path).toBe(304);
  }
  const page = await fromMemory('/blog/mejor-erp-2025');
  expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-/);
});

it('opens a published article in Chromium and answers a draft with 404; HTML written in the Markdown stays text', async () => {
  const db = openDatabase(server.env.DATABASE_URL!).db;
  const staff = { actorEmail: 'ana@vertice.example', network: '127.0.0.0/8' };
  try {
    const base = {
      kind: 'blog' as const,
      excerpt: 'Cómo cerrar el mes contable en tres días, con conciliaciones diarias y un calendario.',
      coverImage: null,
      coverAlt: '',
      author: 'Ana',
      tags: [],
      seoTitle: '',
      seoDescription: '',
    };
    const published = await createArticle(
      db,
      {
        ...base,
        title: 'Cerrar el mes en tres días',
        slug: 'cerrar-el-mes',
        body: '## Un calendario\n\n<img src=x onerror="document.title=\'xss\'">\n\n[clic](javascript:alert(1))',
      },
      staff,
    );
    await publishArticle(db, published.id, 1, staff);
    await createArticle(
      db,
      { ...base, title: 'Un borrador sin publicar', slug: 'borrador-sin-publicar', body: 'Texto.' },
      staff,
    );

    const context = await quietContext(DESKTOP);
    const page = await context.newPage();
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    const response = await page.goto(`${server.url}/blog/cerrar-el-mes`);
    expect(response?.status()).toBe(200);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Cerrar el mes en tres días');
    expect(await page.getByRole('heading', { level: 2, name: 'Un calendario' }).count()).toBe(1);
    expect(await page.locator('.article-body').innerText()).toContain('<img src=x onerror=');
    expect(await page.locator('.article-body img').count()).toBe(0);
    expect(await page.locator('.article-body a').count()).toBe(0);
    expect(await page.title()).not.toBe('xss');
    expect(dialogs).toBe(0);

    const draft = await page.goto(`${server.url}/blog/borrador-sin-publicar`);
    expect(draft?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Artículo no encontrado');
    await context.close();
  } finally {
    await db.destroy();
  }
});
