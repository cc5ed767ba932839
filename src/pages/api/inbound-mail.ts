/**
 * `POST /api/inbound-mail` under `astro dev` (and any request the production server's own handler did
 * not take): the same checks and storing as src/server/channels/mail/webhook.ts, which scripts/start.ts
 * answers before Astro's router so that a large mail is never buffered whole.
 */
import type { APIRoute } from 'astro';
import { getConfig } from '../../server/config.ts';
import { getDb } from '../../server/db/index.ts';
import {
  authorizedBearer,
  streamLimited,
  storeWebhookMail,
  WEBHOOK_ANSWERS,
  type WebhookAnswer,
} from '../../server/channels/index.ts';
import { getLogger } from '../../server/log.ts';

export const prerender = false;

const json = ({ status, body }: WebhookAnswer, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });

export const ALL: APIRoute = async ({ request }) => {
  const config = getConfig();
  const secret = config.INBOUND_WEBHOOK_SECRET;
  if (!secret) return json(WEBHOOK_ANSWERS.notFound);
  if (request.method !== 'POST') return json(WEBHOOK_ANSWERS.wrongMethod, { Allow: 'POST' });
  if (!authorizedBearer(request.headers.get('authorization'), secret))
    return json(WEBHOOK_ANSWERS.unauthorized, { 'WWW-Authenticate': 'Bearer' });
  const max = config.INBOUND_MAX_BYTES;
  if (Number(request.headers.get('content-length') ?? 0) > max) return json(WEBHOOK_ANSWERS.tooLarge);
  let mail;
  try {
    mail = request.body ? await streamLimited(request.body, max) : new Uint8Array();
  } catch (error) {
    getLogger().error({ err: error }, 'inbound mail not stored');
    return json(WEBHOOK_ANSWERS.unavailable);
  }
  if (mail === 'too-large') return json(WEBHOOK_ANSWERS.tooLarge);
  return json(await storeWebhookMail(getDb(), mail, config, getLogger()));
};
