/**
 * The page-view beacon under `astro dev` (and any request the production server's own beacon handler
 * did not take): the same counting as src/server/analytics/beacon.ts, which scripts/start.ts answers
 * before Astro's router. No cookie is read or set and nothing about the visitor is stored.
 */
import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import { articlePath } from '../../routes.ts';
import { countablePaths, countBeacon } from '../../server/analytics/index.ts';
import { clientNetworkOf } from '../../server/http/index.ts';

export const prerender = false;

let known: Promise<ReadonlySet<string>> | undefined;
const knownPaths = () =>
  (known ??= getCollection('blog').then((articles) =>
    countablePaths(articles.map((article) => articlePath(article.id))),
  ));

export const POST: APIRoute = async (context) => {
  const { request } = context;
  const network = clientNetworkOf(context);
  await countBeacon(network, (await request.text()).slice(0, 200), await knownPaths());
  return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
};
