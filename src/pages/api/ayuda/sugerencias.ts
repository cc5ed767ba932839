/**
 * `GET /api/ayuda/sugerencias?q=…` (issue 23): up to three help articles for what a customer is
 * typing in the '🆘 Solicitar Ayuda' dialog, as JSON `{ articulos: [{ titulo, url, resumen }] }`
 * (src/server/content/help-search.ts: accents, case and word forms ignored). Nothing is stored; a
 * client network asking more than a person types gets 429.
 */
import type { APIRoute } from 'astro';
import { getConfig } from '../../../server/config.ts';
import { getDb } from '../../../server/db/index.ts';
import { clientNetworkOf } from '../../../server/http/index.ts';
import { withinCounterLimit } from '../../../server/limits/index.ts';
import { helpSuggestionsView } from '../../../server/views/index.ts';

export const prerender = false;

/** Look-ups per client network per minute: a person typing, debounced, asks a few a minute. */
export const SUGGESTIONS_PER_MINUTE = 60;

export const GET: APIRoute = async (context) => {
  // Off with the other public limits (`FORM_RATE_LIMIT=0`).
  const perMinute = getConfig().FORM_RATE_LIMIT === 0 ? 0 : SUGGESTIONS_PER_MINUTE;
  const limit = await withinCounterLimit(
    getDb(),
    `help.suggest:${clientNetworkOf(context)}`,
    perMinute,
    60_000,
  );
  if (!limit.allowed)
    return Response.json(
      { articulos: [] },
      {
        status: 429,
        headers: { 'Cache-Control': 'no-store', 'Retry-After': String(limit.retryAfterSeconds) },
      },
    );
  const articulos = await helpSuggestionsView(context.url.searchParams.get('q') ?? '');
  return Response.json({ articulos }, { headers: { 'Cache-Control': 'no-store' } });
};
