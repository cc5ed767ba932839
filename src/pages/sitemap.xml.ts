/**
 * sitemap.xml: every public page (PUBLIC_PAGES in src/routes.ts) but the rating page, plus every blog article.
 */
import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import { articlePath, PUBLIC_PAGES, ROUTES } from '../routes.ts';
import { getConfig } from '../server/config.ts';

export const prerender = true;

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export const GET: APIRoute = async () => {
  const { SITE_URL } = getConfig();
  const articles = await getCollection('blog');
  const entries: { loc: string; lastmod?: string }[] = [
    // The rating page opens only with a mail's token and is `noindex`: no use to a crawler.
    ...PUBLIC_PAGES.filter((route) => route !== ROUTES.supportRating).map((route) => ({ loc: new URL(route, SITE_URL).href })),
    ...articles
      .sort((a, b) => b.data.date.getTime() - a.data.date.getTime())
      .map((article) => ({
        loc: new URL(articlePath(article.id), SITE_URL).href,
        lastmod: article.data.date.toISOString().slice(0, 10),
      })),
  ];
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${entries
  .map(({ loc, lastmod }) => `  <url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`)
  .join('\n')}
</urlset>
`;
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
