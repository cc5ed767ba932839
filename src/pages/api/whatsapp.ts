/**
 * `/api/whatsapp` under `astro dev` (and any request the production server's own handler did not
 * take): Meta's WhatsApp webhook, with the same checks and storing as
 * src/server/channels/whatsapp/webhook.ts, which scripts/start.ts answers before Astro's router.
 */
import type { APIRoute } from 'astro';
import { getConfig } from '../../server/config.ts';
import { getDb } from '../../server/db/index.ts';
import {
  answerWhatsAppGet,
  answerWhatsAppPost,
  whatsappSettings,
  WHATSAPP_ANSWERS,
  WHATSAPP_MAX_BODY_BYTES,
  type WhatsAppAnswer,
} from '../../server/channels/index.ts';
import { getLogger } from '../../server/log.ts';

export const prerender = false;

const text = ({ status, body }: WhatsAppAnswer, headers: Record<string, string> = {}) =>
  new Response(body, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });

export const ALL: APIRoute = async ({ request, url }) => {
  const config = getConfig();
  if (!whatsappSettings(config)) return text(WHATSAPP_ANSWERS.notFound);
  if (request.method === 'GET' || request.method === 'HEAD')
    return text(answerWhatsAppGet(config, url.searchParams));
  if (request.method !== 'POST') return text(WHATSAPP_ANSWERS.wrongMethod, { Allow: 'GET, POST' });
  if (Number(request.headers.get('content-length') ?? 0) > WHATSAPP_MAX_BODY_BYTES)
    return text(WHATSAPP_ANSWERS.tooLarge);
  let raw: Uint8Array;
  try {
    raw = new Uint8Array(await request.arrayBuffer());
  } catch (error) {
    getLogger().error({ err: error }, 'whatsapp webhook not read');
    return text(WHATSAPP_ANSWERS.unavailable);
  }
  if (raw.byteLength > WHATSAPP_MAX_BODY_BYTES) return text(WHATSAPP_ANSWERS.tooLarge);
  const signature = request.headers.get('x-hub-signature-256');
  return text(await answerWhatsAppPost(getDb(), config, raw, signature, getLogger()));
};
