/**
 * What the public follow-up page shows when opened with a mail's token: the incident with its
 * conversation, or why not. The token's page is limited per client network like the look-up (a wrong
 * token costs a try too).
 */
import { getConfig } from '../config.ts';
import { getDb } from '../db/index.ts';
import { followUpByToken, type FollowUp } from '../incidents/index.ts';
import { ratingLink, type RatingLink } from '../incidents/index.ts';
import { withinRateLimit } from '../limits/index.ts';
import { attachmentHeaders, type AttachmentContent } from '../attachments/index.ts';
import { attachmentForToken } from '../incidents/index.ts';

export async function followUpView(
  token: string,
  network: string,
): Promise<{ opened: FollowUp | null; limited: boolean }> {
  const limit = await withinRateLimit(getDb(), `incidents.token:${network}`, getConfig().FORM_RATE_LIMIT * 2);
  return { opened: limit.allowed ? await followUpByToken(getDb(), token) : null, limited: !limit.allowed };
}

/**
 * What the rating page shows for a link's token: whether it still rates, or why not. Limited per client
 * network like the follow-up page's token (a wrong token costs a try too).
 */
export async function ratingView(
  token: string,
  network: string,
): Promise<RatingLink | { status: 'limited' }> {
  const limit = await withinRateLimit(getDb(), `incidents.token:${network}`, getConfig().FORM_RATE_LIMIT * 2);
  return limit.allowed ? ratingLink(getDb(), token) : { status: 'limited' };
}

/**
 * A file of the incident this follow-up link's token opens (never one of an internal note, never one of
 * another incident): the response to send, 404 in Spanish otherwise. Not limited per network like the
 * page: the token is 144 random bits, and a page with five thumbnails would spend the allowance.
 */
export async function customerAttachmentResponse(
  idParam: string | undefined,
  token: string,
  thumb: boolean,
): Promise<Response> {
  const id = Number.parseInt(idParam ?? '', 10);
  const file =
    Number.isSafeInteger(id) && id > 0 && token ? await attachmentForToken(getDb(), id, token, thumb) : null;
  return attachmentResponse(file);
}

/** The answer for a file (headers: src/server/attachments), or a Spanish 404. */
export function attachmentResponse(file: AttachmentContent | null): Response {
  if (!file)
    return new Response('Ese archivo no existe o este enlace no lo abre.', {
      status: 404,
      headers: {
        'Content-Type': 'text/plain; charset=utf-8',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "sandbox; default-src 'none'",
        'Cache-Control': 'private, no-store',
      },
    });
  return new Response(new Uint8Array(file.data) as Uint8Array<ArrayBuffer>, {
    headers: attachmentHeaders(file, file.data),
  });
}
