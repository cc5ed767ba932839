/**
 * The one choke point for response headers and request rules: `scripts/start.ts` wraps the Astro
 * handler with {@link secureHandler}, so every response gets them, prerendered pages and static
 * assets included (Astro's own middleware only sees on-demand routes), and `no-store` on the paths
 * of {@link isNoStorePath}. It also refuses, before any
 * route runs, what no legitimate browser of ours sends: a body larger than the route takes, and a
 * write from another site.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.ts';
import { ACTIONS_PREFIX, isPrivatePath, ROUTES } from '../../routes.ts';
import { readBodyUpTo } from './read-body.ts';
import { actionErrorBody } from './refusals.ts';
import { UPLOAD_ACTIONS, UPLOAD_BODY_BYTES } from '../../domain/attachments.ts';
import { LOGO_BODY_BYTES } from '../../domain/site-content.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Directives that hold for every response. A second CSP header is intersected with any page CSP, so
 * this one can only tighten: it carries what a `<meta>` CSP cannot (`frame-ancestors`).
 */
const BASE_CSP = [
  "frame-ancestors 'none'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

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
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Largest body of a request to any route without a limit of its own. */
export const MAX_BODY_BYTES = 100 * 1024;
/** Largest body of an action, but the client CSV import's (refused here, before Astro reads it). */
export const ACTION_BODY_BYTES = 64 * 1024;
/** The sign-in form: an e-mail and a password of at most 256 characters. */
const SIGN_IN_BODY_BYTES = 4 * 1024;
/**
 * The article editor's form ('Contenido', issue 23): a body of up to 100,000 characters (up to four
 * bytes each in UTF-8, form-encoded) with the other fields.
 */
export const ARTICLE_BODY_BYTES = 1024 * 1024;
/** The editor's saves and its 'Vista previa' (the whole form, without saving it). */
const CONTENT_SAVE_ACTION = /[?&]_action=content\.(save|preview)(&|$)/;
/** The editor's form with an image (src/domain/article-images.ts: at most 3 MB, within Astro's own action limit). */
const CONTENT_IMAGE_ACTION = /[?&]_action=content\.uploadImage(&|$)/;
/** 'Logos de clientes' saves a logo with its image (issue 23). */
const LOGO_SAVE_ACTION = /[?&]_action=logos\.save(&|$)/;
/** The page-view beacon: a path. */
const BEACON_BODY_BYTES = 1024;
/**
 * 'Importar CSV': a file of up to 2 MB, and its confirmation, which carries the same file back in
 * base64 (a third larger) with the multipart framing. The page itself refuses a file over 2 MB in Spanish.
 */
export const CLIENT_IMPORT_BODY_BYTES = 4 * 1024 * 1024;
/**
 * The adapter's own limit (astro.config.ts): the largest of the per-route limits, which this choke
 * point applies route by route: a form with files (issue 21, read as it streams by src/actions/uploads.ts).
 */
export const ADAPTER_BODY_BYTES = UPLOAD_BODY_BYTES;
/** Astro's own limit for the body of an action it reads (`security.actionBodySizeLimit`): a form with files never gets there whole. */
export const ASTRO_ACTION_BODY_BYTES = CLIENT_IMPORT_BODY_BYTES;
/** The import's two steps, posted as forms to its page. */
const CLIENT_IMPORT_ACTION = /[?&]_action=clients\.import(Preview|Confirm)(&|$)/;

/**
 * Never kept by a browser or a proxy (`Cache-Control: no-store`): the private paths, and the follow-up
 * page, whose token link shows the problem text and the conversation, and which also takes the answers
 * (`?_action=…`); the rating page likewise (its link is a token). It stays a public page otherwise (the sitemap lists it, the beacon counts it).
 */
export function isNoStorePath(pathname: string): boolean {
  return (
    isPrivatePath(pathname) ||
    pathname.replace(/\/$/, '') === ROUTES.supportTracking ||
    pathname.replace(/\/$/, '') === ROUTES.supportRating ||
    pathname.startsWith(`${ROUTES.supportAttachments}/`)
  );
}

/** A post to an action whose form takes files (issue 21): by its RPC path or a page's `?_action=`. */
function isUploadRequest(pathname: string, search: string): boolean {
  const name = pathname.startsWith(ACTIONS_PREFIX)
    ? pathname.slice(ACTIONS_PREFIX.length).replace(/\/$/, '')
    : new URLSearchParams(search).get('_action');
  return name !== null && Object.hasOwn(UPLOAD_ACTIONS, name);
}

/**
 * The largest body a request to this path may carry; a form with files (`multipart/form-data` to an
 * action that takes them) may carry 21 MiB, any other body to the same action the actions' 64 KiB.
 */
export function bodyLimit(pathname: string, search: string, contentType?: string): number {
  if (pathname === ROUTES.beacon) return BEACON_BODY_BYTES;
  if (pathname === ROUTES.adminLogin || pathname.startsWith(`${ACTIONS_PREFIX}login.`))
    return SIGN_IN_BODY_BYTES;
  if (
    pathname === ROUTES.adminClientsImport &&
    (CLIENT_IMPORT_ACTION.test(search) || !/[?&]_action=/.test(search))
  )
    return CLIENT_IMPORT_BODY_BYTES;
  if (pathname.startsWith(`${ROUTES.adminContent}/`) && CONTENT_IMAGE_ACTION.test(search))
    return ASTRO_ACTION_BODY_BYTES;
  if (
    (pathname.startsWith(`${ROUTES.adminContent}/`) && CONTENT_SAVE_ACTION.test(search)) ||
    pathname === `${ACTIONS_PREFIX}content.save` ||
    pathname === ROUTES.staffMarkdownPreview
  )
    return ARTICLE_BODY_BYTES;
  if (
    (pathname.startsWith(`${ROUTES.adminLogos}/`) && LOGO_SAVE_ACTION.test(search)) ||
    pathname === `${ACTIONS_PREFIX}logos.save`
  )
    return LOGO_BODY_BYTES;
  if (isUploadRequest(pathname, search) && /^multipart\/form-data\s*;/i.test(contentType ?? ''))
    return UPLOAD_BODY_BYTES;
  if (pathname.startsWith(ACTIONS_PREFIX) || /[?&]_action=/.test(search)) return ACTION_BODY_BYTES;
  return MAX_BODY_BYTES;
}

/** True when a browser says the request comes from a page of another site. */
function isCrossOrigin(origin: string | undefined, host: string | undefined, siteOrigin: string): boolean {
  if (origin === undefined) return false;
  return origin !== siteOrigin && origin !== `http://${host}` && origin !== `https://${host}`;
}

/** What a refused request may still send, read and dropped so the client can read the answer. */
const DRAIN_MAX_BYTES = 8 * 1024 * 1024;
/**
 * The same for a browser's form post, which shows a connection error instead of the page unless it
 * could send its whole body: three times a form with files' limit (a few photos too many); the server's
 * request time-out (30 s) bounds it too.
 */
const DRAIN_PAGE_MAX_BYTES = 3 * UPLOAD_BODY_BYTES;

/** Reads and drops the rest of a refused body (cut past `max` bytes); resolves once it is read. */
function drain(req: IncomingMessage, max = DRAIN_MAX_BYTES): Promise<void> {
  if (req.readableEnded) return Promise.resolve();
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > max) req.socket.destroy();
  });
  const done = new Promise<void>((resolve) => {
    req.once('end', resolve);
    req.once('close', resolve);
  });
  req.resume();
  return done;
}

/**
 * Answers a refused request: JSON in the shape Astro's action client reads back as an error for
 * actions, Spanish text otherwise. The answer is sent at once, but the exchange ends only once the
 * rest of the body has been read and dropped (up to {@link DRAIN_MAX_BYTES}, then the connection is
 * cut): ending it earlier lets Node close a `Connection: close` connection under a client that is
 * still sending, whose next write then fails (EPIPE) before it reads the answer.
 */
function refuse(req: IncomingMessage, res: ServerResponse, status: 403 | 413, pathname: string): void {
  const message =
    status === 413 ? 'La solicitud es demasiado grande.' : 'Solicitud rechazada: no proviene de este sitio.';
  const code = status === 413 ? 'CONTENT_TOO_LARGE' : 'FORBIDDEN';
  const json = pathname.startsWith(ACTIONS_PREFIX);
  const payload = Buffer.from(json ? JSON.stringify(actionErrorBody(code, status, message)) : message);
  res.writeHead(status, {
    'Content-Type': json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
    'Content-Length': payload.length,
    'Cache-Control': 'no-store',
  });
  res.write(payload);
  void drain(req).then(() => res.end());
}

/** A browser's page navigation (a form posted without JavaScript), not an island's or a script's call. */
function wantsPage(req: IncomingMessage, pathname: string): boolean {
  return !pathname.startsWith(ACTIONS_PREFIX) && /\btext\/html\b/.test(req.headers.accept ?? '');
}

/**
 * A form post over its limit, from a browser without JavaScript: the site's page for it
 * ({@link ROUTES.tooLarge}, status 413, in the site's frame, with the way back to `pathname`) rendered
 * by `page` (the site's handler) as a GET of that page; its end waits for the refused body to be read,
 * like {@link refuse}'s.
 */
function refuseWithPage(req: IncomingMessage, res: ServerResponse, pathname: string, page: Handler): void {
  const drained = drain(req, DRAIN_PAGE_MAX_BYTES);
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((...args: unknown[]) => {
    void drained.then(() => end(...args));
    return res;
  }) as typeof res.end;
  req.method = 'GET';
  // Back to the page of the form; an endpoint (`/api/…`) is no page to go back to: home instead.
  req.url = pathname.startsWith('/api/')
    ? ROUTES.tooLarge
    : `${ROUTES.tooLarge}?${new URLSearchParams({ volver: pathname })}`;
  delete req.headers['content-length'];
  delete req.headers['content-type'];
  delete req.headers['transfer-encoding'];
  page(req, res);
}

/**
 * A body sent without a length (chunked) is read here, up to the route's limit, and handed to Astro
 * as `req.body` (which its Node adapter reads instead of the stream). Past the limit it is a 413,
 * the same answer a body announcing its length gets; the adapter's own limit would fail the route
 * with a 500 instead.
 */
function bufferBody(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  tooLarge: () => void,
  next: () => void,
): void {
  readBodyUpTo(req, res, limit, {
    onTooLarge: tooLarge,
    onBody: (body) => {
      (req as IncomingMessage & { body?: Buffer }).body = body;
      next();
    },
  });
}

/** Wraps the Astro request handler with the site-wide headers and method rules. */
export function secureHandler(handler: Handler, config: Pick<Config, 'SITE_URL'>): Handler {
  const headers = Object.entries(baseHeaders(config));
  const siteOrigin = new URL(config.SITE_URL).origin;
  return (req, res) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    if (REFUSED_METHODS.has(req.method ?? '')) {
      res.writeHead(405, { Allow: 'GET, HEAD, POST', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Método no permitido');
      return;
    }
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
    const search = queryAt === -1 ? '' : url.slice(queryAt);
    if (isNoStorePath(pathname)) res.setHeader('Cache-Control', 'no-store');
    if (!SAFE_METHODS.has(req.method ?? 'GET')) {
      // Astro's checkOrigin covers form encodings only; this covers every write, JSON included.
      if (isCrossOrigin(req.headers.origin, req.headers.host, siteOrigin))
        return refuse(req, res, 403, pathname);
      // The inbound-mail webhook counts its own body against INBOUND_MAX_BYTES as it streams in
      // (src/server/channels/mail/webhook.ts): buffering it here would hold a whole mail in memory first.
      // The WhatsApp webhook reads its raw bytes itself, with a cap of its own (a batch of Meta's
      // updates may pass the default limit): src/server/channels/whatsapp/webhook.ts.
      if (pathname === ROUTES.inboundMail || pathname === ROUTES.whatsapp) return handler(req, res);
      const limit = bodyLimit(pathname, search, req.headers['content-type']);
      const tooLarge = () =>
        wantsPage(req, pathname)
          ? refuseWithPage(req, res, pathname, handler)
          : refuse(req, res, 413, pathname);
      if (Number(req.headers['content-length'] ?? 0) > limit) return tooLarge();
      if (req.headers['transfer-encoding'] !== undefined)
        return bufferBody(req, res, limit, tooLarge, () => handler(req, res));
    }
    handler(req, res);
  };
}
