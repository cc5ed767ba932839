/**
 * The page-view beacon: `navigator.sendBeacon('/api/pv', location.pathname)` from public pages.
 * No cookie is read or set and nothing about the visitor is stored (see src/server/analytics).
 */
import type { APIRoute } from 'astro';
import { recordPageView } from '../../server/analytics/index.ts';
import { getDb } from '../../server/db/index.ts';
import { getLogger } from '../../server/log.ts';

export const prerender = false;

export const POST: APIRoute = async ({ request }) => {
  const body = (await request.text()).slice(0, 200);
  try {
    await recordPageView(getDb(), body);
  } catch (error) {
    getLogger().warn({ err: error }, 'page view not recorded');
  }
  return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
};
