/**
 * The one choke point for response headers: `scripts/start.ts` wraps the Astro handler with
 * {@link secureHandler}, so every response gets them, prerendered pages and static assets included
 * (Astro's own middleware only sees on-demand routes).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Directives that hold for every response. A second CSP header is intersected with any page CSP, so
 * this one can only tighten: it carries what a `<meta>` CSP cannot (`frame-ancestors`).
 */
const BASE_CSP = ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'", "form-action 'self'"].join('; ');

const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'browsing-topics=()',
].join(', ');

/** Paths that must never be cached by a browser or a proxy: staff pages, sign-in, APIs, actions. */
export function isPrivatePath(pathname: string): boolean {
  return /^\/(admin(\/|$)|admin-login(\/|$)|api\/|_actions\/|healthz$)/.test(pathname);
}

/** Headers set on every response. */
export function baseHeaders(config: Pick<Config, 'SITE_URL'>): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Security-Policy': BASE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': PERMISSIONS_POLICY,
    'Cross-Origin-Opener-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
  };
  if (config.SITE_URL.startsWith('https://')) {
    headers['Strict-Transport-Security'] = 'max-age=63072000; includeSubDomains';
  }
  return headers;
}

const REFUSED_METHODS = new Set(['TRACE', 'TRACK', 'CONNECT']);

/** Wraps the Astro request handler with the site-wide headers and method rules. */
export function secureHandler(handler: Handler, config: Pick<Config, 'SITE_URL'>): Handler {
  const headers = Object.entries(baseHeaders(config));
  return (req, res) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    if (REFUSED_METHODS.has(req.method ?? '')) {
      res.writeHead(405, { Allow: 'GET, HEAD, POST', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Método no permitido');
      return;
    }
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    if (isPrivatePath(pathname)) res.setHeader('Cache-Control', 'no-store');
    handler(req, res);
  };
}
