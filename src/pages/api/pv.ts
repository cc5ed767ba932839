/**
 * The page-view beacon: `navigator.sendBeacon('/api/pv', location.pathname)` from public pages.
 * No cookie is read or set and nothing about the visitor is stored (see src/server/analytics).
 */
import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import { articlePath, PUBLIC_PAGES } from '../../routes.ts';
import { bufferPageView } from '../../server/analytics/index.ts';
import { getConfig } from '../../server/config.ts';
import { getDb } from '../../server/db/index.ts';
import { MemoryLimiter } from '../../server/limits/memory.ts';
import { getLogger } from '../../server/log.ts';
import { clientNetworkOf } from '../../server/rate-limit.ts';

export const prerender = false;

/** Only our public pages are counted: any other path (a 404, a made-up one) would only fill the table. */
let publicPaths: Promise<ReadonlySet<string>> | undefined;
const knownPaths = () =>
  (publicPaths ??= getCollection('blog').then((articles) => new Set([...PUBLIC_PAGES, ...articles.map((article) => articlePath(article.id))])));

/** Views counted per client network per 10 minutes; past that, beacons are answered and dropped. */
export const VIEWS_PER_NETWORK = 30;
const VIEWS_WINDOW_MS = 10 * 60 * 1000;
const limiter = new MemoryLimiter();

export const POST: APIRoute = async ({ request, clientAddress }) => {
  const noContent = new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
  const network = clientNetworkOf(request, clientAddress, getConfig().TRUST_PROXY);
  const seen = limiter.count(network, VIEWS_WINDOW_MS);
  if (seen > VIEWS_PER_NETWORK) {
    // Logged once per window and network, not per beacon: a flood must not flood the log either.
    if (seen === VIEWS_PER_NETWORK + 1) getLogger().warn({ event: 'beacon.refused', network, reason: 'rate-limit' }, 'page views not counted');
    return noContent;
  }
  const body = (await request.text()).slice(0, 200);
  try {
    await bufferPageView(getDb(), body, new Date(), await knownPaths());
  } catch (error) {
    getLogger().warn({ err: error }, 'page view not recorded');
  }
  return noContent;
};
