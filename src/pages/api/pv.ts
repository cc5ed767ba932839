/**
 * The page-view beacon: `navigator.sendBeacon('/api/pv', location.pathname)` from public pages.
 * No cookie is read or set and nothing about the visitor is stored (see src/server/analytics).
 */
import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import { articlePath, STATIC_PUBLIC_ROUTES } from '../../lib/public-routes.ts';
import { recordPageView } from '../../server/analytics/index.ts';
import { getDb } from '../../server/db/index.ts';
import { getLogger } from '../../server/log.ts';

export const prerender = false;

/** Only our public pages are counted: any other path (a 404, a made-up one) would only fill the table. */
let publicPaths: Promise<ReadonlySet<string>> | undefined;
const knownPaths = () =>
  (publicPaths ??= getCollection('blog').then((articles) => new Set([...STATIC_PUBLIC_ROUTES, ...articles.map((article) => articlePath(article.id))])));

export const POST: APIRoute = async ({ request }) => {
  const body = (await request.text()).slice(0, 200);
  try {
    await recordPageView(getDb(), body, new Date(), await knownPaths());
  } catch (error) {
    getLogger().warn({ err: error }, 'page view not recorded');
  }
  return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
};
