/**
 * The two checks that keep strangers out of the WhatsApp webhook (issue 37): the signature Meta puts on
 * every POST, and the verify token of the subscription check Meta makes once with a GET.
 *
 * `X-Hub-Signature-256: sha256=<hex>` is the HMAC-SHA256 of the body's raw bytes with the app secret
 * (https://developers.facebook.com/docs/graph-api/webhooks/getting-started#validate-payloads). Meta signs
 * the body as it sends it, with non-ASCII escaped as `\uXXXX` ('ñ' arrives as the six bytes `\u00f1`):
 * the HMAC must be taken over the bytes as received, never over a re-serialised JSON.parse of them.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The header, as Node's `IncomingMessage.headers` names it. */
export const SIGNATURE_HEADER = 'x-hub-signature-256';

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

/** `sha256=` + hex HMAC-SHA256 of `body` with `appSecret`: the header's value for this body. */
export function signatureFor(body: Uint8Array | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/**
 * Whether `header` is the signature of these raw bytes with `appSecret`. The comparison is constant
 * time: a header of the wrong form is compared against a zero digest of the same length before it is
 * refused, so that its answer takes as long as a wrong signature's. Never throws.
 */
export function verifySignature(
  rawBody: Uint8Array,
  header: string | readonly string[] | null | undefined,
  appSecret: string,
): boolean {
  const value = typeof header === 'string' ? header.trim() : undefined;
  const match = value === undefined ? null : SIGNATURE.exec(value);
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  const given = match ? Buffer.from(match[1]!, 'hex') : Buffer.alloc(expected.length);
  if (given.length !== expected.length) return false;
  return timingSafeEqual(given, expected) && match !== null && appSecret !== '';
}

type Query = URLSearchParams | Record<string, string | string[] | undefined>;

function single(query: Query, name: string): string | undefined {
  if (query instanceof URLSearchParams) return query.get(name) ?? undefined;
  const value = query[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Meta's subscription check (`GET ?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…`,
 * https://developers.facebook.com/docs/graph-api/webhooks/getting-started#verification-requests): the
 * challenge to answer with 200, or `null` for a 403. The token is compared in constant time (both sides
 * hashed first, so that the length of what was sent tells nothing).
 */
export function verifySubscription(query: Query, verifyToken: string): string | null {
  const mode = single(query, 'hub.mode');
  const token = single(query, 'hub.verify_token');
  const challenge = single(query, 'hub.challenge');
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const tokenMatches = timingSafeEqual(digest(token ?? ''), digest(verifyToken));
  if (mode !== 'subscribe' || token === undefined || verifyToken === '' || !tokenMatches) return null;
  if (!challenge || challenge.length > 256) return null;
  return challenge;
}
