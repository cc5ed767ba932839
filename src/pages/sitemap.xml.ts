/**
 * sitemap.xml: every public page (found from the route files, so a new page is listed without
 * touching this file) plus every blog article. The staff area, error pages and APIs are left out.
 */
import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import { getConfig } from '../server/config.ts';

export const prerender = true;

const EXCLUDED = /^\/(admin|404|500|og\/|healthz)/;

/** `./producto/admcloud.astro` -> `/producto/admcloud`; `./blog/index.astro` -> `/blog`. */
function routeOf(file: string): string {
  const path = file.replace(/^\./, '').replace(/\.astro$/, '').replace(/\/index$/, '');
  return path === '' ? '/' : path;
}

const staticRoutes = Object.keys(import.meta.glob('./**/*.astro'))
  .map(routeOf)
  .filter((route) => !route.includes('[') && !EXCLUDED.test(route));

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export const GET: APIRoute = async () => {
  const { SITE_URL } = getConfig();
  const articles = await getCollection('blog');
  const entries: { loc: string; lastmod?: string }[] = [
    ...staticRoutes.sort().map((route) => ({ loc: new URL(route, SITE_URL).href })),
    ...articles
      .sort((a, b) => b.data.date.getTime() - a.data.date.getTime())
      .map((article) => ({
        loc: new URL(`/blog/${article.id}`, SITE_URL).href,
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
