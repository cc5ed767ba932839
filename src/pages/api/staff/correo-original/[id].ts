/**
 * 'Ver original': a mail that came in (issue 21), as it arrived, for staff only (checked here and by
 * the middleware). Always plain text and never rendered: a mail's HTML is the sender's, not ours. A
 * WhatsApp message's original is the webhook's JSON body it came in (issue 37), served the same way.
 */
import type { APIRoute } from 'astro';
import { requireStaffApi } from '../../../../server/auth/index.ts';
import { getDb } from '../../../../server/db/index.ts';
import { inboundOriginal } from '../../../../server/channels/index.ts';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const staff = await requireStaffApi(context);
  if (staff instanceof Response) return staff;
  const id = Number.parseInt(context.params.id ?? '', 10);
  const text = Number.isSafeInteger(id) && id > 0 ? await inboundOriginal(getDb(), id) : null;
  const headers = {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Security-Policy': "sandbox; default-src 'none'",
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, no-store',
  };
  if (text === null) return new Response('Ese correo no existe o ya no se guarda.', { status: 404, headers });
  return new Response(text, { headers });
};
