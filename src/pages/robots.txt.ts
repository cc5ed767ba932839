import type { APIRoute } from 'astro';
import { ROUTES } from '../routes.ts';
import { getConfig } from '../server/config.ts';

export const prerender = true;

/** Crawlers may read every public page; the staff area is none of their business. */
export const GET: APIRoute = () => {
  const { SITE_URL } = getConfig();
  const body = [
    'User-agent: *',
    'Allow: /',
    `Disallow: ${ROUTES.admin}`,
    `Disallow: ${ROUTES.adminLogin}`,
    'Disallow: /_actions/',
    '',
    `Sitemap: ${new URL('/sitemap.xml', SITE_URL).href}`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
