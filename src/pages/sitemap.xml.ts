/**
 * sitemap.xml: every public page (PUBLIC_PAGES in src/routes.ts) but the rating page, plus every public blog
 * and help article (from the database: rendered once per change of the content, answered from memory).
 */
import type { APIRoute } from 'astro';
import { isoDay } from '../components/blog/format-date.ts';
import { PUBLIC_PAGES, ROUTES } from '../routes.ts';
import { getConfig } from '../server/config.ts';
import { blogArticlesView, helpArticlesView } from '../server/views/index.ts';

/** On demand, rendered once per change of the content and answered from memory (docs/decisions/0019). */
export const prerender = false;

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export const GET: APIRoute = async () => {
  const { SITE_URL } = getConfig();
  const articles = await blogArticlesView();
  const help = await helpArticlesView();
  const entries: { loc: string; lastmod?: string }[] = [
    // The rating page opens only with a mail's token and is `noindex`: no use to a crawler.
    ...PUBLIC_PAGES.filter((route) => route !== ROUTES.supportRating).map((route) => ({
      loc: new URL(route, SITE_URL).href,
    })),
    ...articles.map((article) => ({
      loc: new URL(article.path, SITE_URL).href,
      lastmod: isoDay(article.day),
    })),
    // A help article's day is its last change ('Actualizado el').
    ...help.map((article) => ({
      loc: new URL(article.path, SITE_URL).href,
      lastmod: isoDay(article.updatedDay),
    })),
  ];
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${entries
  .map(
    ({ loc, lastmod }) =>
      `  <url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`,
  )
  .join('\n')}
</urlset>
`;
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
