/**
 * Better Auth's endpoints. The client IP it rate-limits by is set here from the socket address
 * (or the trusted proxy's X-Forwarded-For entry), never taken from what the visitor sent.
 */
import type { APIRoute } from 'astro';
import { getAuth, resolveClientIp, withClientIp } from '../../../server/auth/index.ts';
import { getConfig } from '../../../server/config.ts';

export const prerender = false;

export const ALL: APIRoute = async ({ request, clientAddress }) => {
  const ip = resolveClientIp(request.headers, clientAddress, getConfig().TRUST_PROXY);
  const forwarded = new Request(request, { headers: withClientIp(request.headers, ip) });
  const response = await getAuth().handler(forwarded);
  response.headers.set('Cache-Control', 'no-store');
  return response;
};
