/**
 * '¿Te resultó útil?' (issue 23): `POST /api/ayuda/util` with the form fields `articulo` (the help
 * article's id) and `voto` ('si' or 'no'). Without JavaScript the article's form posts here and the
 * answer is a 303 back to the article at `#gracias` (the page, served from memory, shows its thank-you
 * for that fragment); the article's small inline script posts with `Accept: application/json` and gets
 * `{ "contado": true|false }`. No cookie is read or set; only the article's two counts change
 * (src/server/content/votes.ts).
 *
 * Abuse: the hidden field of the public forms (`website`) filled, more than `FORM_RATE_LIMIT` × 4
 * votes from one client network in 10 minutes, or more than 3 on one article in an hour are not
 * counted (logged); the visitor is thanked all the same, since there is nothing to do differently.
 */
import type { APIRoute } from 'astro';
import { HONEYPOT_FIELD } from '../../../domain/forms/common.ts';
import { articlePathOf } from '../../../domain/articles.ts';
import { HELP_VOTE } from '../../../domain/help.ts';
import { ROUTES } from '../../../routes.ts';
import { articleById } from '../../../server/content/index.ts';
import { recordVote } from '../../../server/content/index.ts';
import { getConfig } from '../../../server/config.ts';
import { getDb } from '../../../server/db/index.ts';
import { clientNetworkOf } from '../../../server/http/index.ts';
import { withinCounterLimit, withinRateLimit } from '../../../server/limits/index.ts';
import { getLogger } from '../../../server/log.ts';

export const prerender = false;

/** Votes of one client network on one article per hour (an office behind one address counts a few people). */
export const VOTES_PER_ARTICLE_PER_HOUR = 3;

export const POST: APIRoute = async (context) => {
  const { request } = context;
  const wantsJson = (request.headers.get('accept') ?? '').includes('application/json');
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return new Response('Solicitud no válida', { status: 400, headers: { 'Cache-Control': 'no-store' } });
  }
  const rawId = String(form.get('articulo') ?? '');
  const vote = String(form.get('voto') ?? '');
  const article = /^[1-9]\d{0,9}$/.test(rawId) ? await articleById(getDb(), Number(rawId)) : null;
  if (!article || article.kind !== 'ayuda' || (vote !== 'si' && vote !== 'no')) {
    return wantsJson
      ? Response.json({ contado: false }, { status: 400, headers: { 'Cache-Control': 'no-store' } })
      : new Response(null, { status: 303, headers: { Location: ROUTES.help, 'Cache-Control': 'no-store' } });
  }

  const network = clientNetworkOf(context);
  const refused = async (): Promise<string | null> => {
    if (form.get(HONEYPOT_FIELD)) return 'honeypot';
    const formLimit = getConfig().FORM_RATE_LIMIT;
    if (formLimit === 0) return null;
    if (!(await withinRateLimit(getDb(), `help.vote:${network}`, formLimit * 4)).allowed) return 'rate-limit';
    const perArticle = await withinCounterLimit(
      getDb(),
      `help.vote:${network}:${article.id}`,
      VOTES_PER_ARTICLE_PER_HOUR,
      60 * 60 * 1000,
    );
    return perArticle.allowed ? null : 'article-limit';
  };
  const reason = await refused();
  const counted = reason === null && (await recordVote(getDb(), article.id, vote === 'si'));
  if (reason)
    getLogger().warn({ action: 'help.vote', network, reason, article: article.id }, 'vote not counted');

  if (wantsJson) return Response.json({ contado: counted }, { headers: { 'Cache-Control': 'no-store' } });
  return new Response(null, {
    status: 303,
    headers: {
      Location: `${articlePathOf('ayuda', article.slug)}#${HELP_VOTE.anchor}`,
      'Cache-Control': 'no-store',
    },
  });
};
