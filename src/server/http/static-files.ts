/**
 * The production build's static files (`dist/client/`), read once at start into memory and
 * precompressed (brotli at its best quality, and gzip), then answered without touching the disk, the
 * router or the on-the-fly compressor. It sits at the choke point in front of the Astro handler
 * (scripts/start.ts): {@link secureHandler} has already set the security headers; a path this cache
 * does not hold (on-demand routes, the 404 page, redirects of trailing slashes, media that needs byte
 * ranges) goes on to the adapter unchanged.
 *
 * The build writes the compressed copies (brotli at quality 11 is slow: seconds of CPU for the whole
 * site), named by content, into `dist/precompressed/`; a file without a matching copy is compressed at
 * start. The cache reflects the build at start time: a deploy restarts the process, which reloads it.
 *
 * One build serves any `SITE_URL`: the build renders every absolute URL with {@link BUILD_ORIGIN}
 * (astro.config.ts), and loading puts the run-time origin in its place, so a prerendered page names the
 * same host as an on-demand one. A file so changed is compressed at start at a fast setting, then
 * again at brotli's best in the background, swapped in when ready.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The origin the build writes where the site's own address goes (canonical, og:url, JSON-LD, sitemap,
 * RSS, robots.txt). `.invalid` can never resolve, so a placeholder that escaped would fail loudly.
 */
export const BUILD_ORIGIN = 'https://sitio-compilado.invalid';

/** Types we serve from memory; anything else (video, which players fetch by byte range) goes to the adapter. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
};

const COMPRESSIBLE = /^(text\/|application\/(json|xml|manifest\+json)|image\/svg\+xml)/;
/** Below this size a compressed body saves less than its headers cost (the on-the-fly compressor's threshold too). */
const COMPRESS_THRESHOLD = 1024;

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'public, max-age=0';

export type Encoding = 'br' | 'gzip' | 'identity';

export interface CachedFile {
  contentType: string;
  etag: string;
  lastModified: string;
  cacheControl: string;
  /** Headers of the page itself (its hash-based CSP), from the build's `_headers.json`. */
  pageHeaders: Array<[string, string]>;
  bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer };
  compressible: boolean;
}

interface HeadersEntry {
  pathname: string;
  headers: Array<{ key: string; value: string }>;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.name.startsWith('.')) return [];
    return entry.isDirectory() ? walk(path) : [path];
  });
}

/** The URL paths a built file answers: `/a/index.html` also answers `/a` (trailingSlash 'never'), `/index.html` also `/`. */
export function urlPathsOf(relativePath: string): string[] {
  const path = `/${relativePath.split(sep).join('/')}`;
  if (path === '/index.html') return [path, '/'];
  if (path.endsWith('/index.html')) return [path, path.slice(0, -'/index.html'.length)];
  return [path];
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A file's content tag: names its precompressed copies and makes its ETag. */
const contentTag = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64url').slice(0, 27);

/** Brotli at its best quality (slow: done once, by the build when it can) and gzip, kept only when smaller. */
async function compressBoth(identity: Buffer): Promise<{ br?: Buffer; gzip?: Buffer }> {
  const [br, gz] = await Promise.all([
    brotli(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
    gzipAsync(identity, { level: 9 }),
  ]);
  return {
    br: br.length < identity.length ? br : undefined,
    gzip: gz.length < identity.length ? gz : undefined,
  };
}

function isCompressible(file: string, size: number): boolean {
  const contentType = CONTENT_TYPES[extname(file).toLowerCase()];
  return Boolean(contentType && COMPRESSIBLE.test(contentType) && size >= COMPRESS_THRESHOLD);
}

/**
 * Run by the build (astro.config.ts): writes the brotli and gzip copies of every compressible file of
 * `clientDir` into `outDir`, named by content, so that starting the server only reads them. Returns
 * how many files were compressed.
 */
export async function precompressBuild(clientDir: string, outDir: string): Promise<number> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const files = walk(clientDir).filter((file) => isCompressible(file, statSync(file).size));
  await Promise.all(
    files.map(async (file) => {
      const identity = readFileSync(file);
      const tag = contentTag(identity);
      const { br, gzip: gz } = await compressBoth(identity);
      if (br) writeFileSync(join(outDir, `${tag}.br`), br);
      if (gz) writeFileSync(join(outDir, `${tag}.gz`), gz);
    }),
  );
  return files.length;
}

/** The built file with the run-time origin in place of {@link BUILD_ORIGIN}, as is and URL-encoded; unchanged when absent. */
export function withSiteOrigin(identity: Buffer, siteUrl: string): Buffer {
  const origin = new URL(siteUrl).origin;
  const forms: Array<[string, string]> = [
    [BUILD_ORIGIN, origin],
    [encodeURIComponent(BUILD_ORIGIN), encodeURIComponent(origin)],
  ];
  if (!forms.some(([placeholder]) => identity.includes(placeholder))) return identity;
  let text = identity.toString('utf8');
  for (const [placeholder, value] of forms) text = text.replaceAll(placeholder, value);
  return Buffer.from(text, 'utf8');
}

/** Brotli at a fast setting and gzip: for files changed at start, before the best copies are ready. */
async function compressQuickly(identity: Buffer): Promise<{ br?: Buffer; gzip?: Buffer }> {
  const [br, gz] = await Promise.all([
    brotli(identity, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length },
    }),
    gzipAsync(identity, { level: 6 }),
  ]);
  return {
    br: br.length < identity.length ? br : undefined,
    gzip: gz.length < identity.length ? gz : undefined,
  };
}

function readIfExists(path: string): Buffer | undefined {
  return existsSync(path) ? readFileSync(path) : undefined;
}

export interface LoadOptions {
  /** The adapter's `_headers.json` (page CSPs of prerendered routes), when the build wrote one. */
  headersFile?: string;
  /** The build's brotli and gzip copies, named by content. */
  precompressedDir?: string;
  /** The run-time `SITE_URL`, put where the build wrote {@link BUILD_ORIGIN}. */
  siteUrl?: string;
  /** Recompress at the best setting, after the start, the files that took the site's origin (default true). */
  recompress?: boolean;
  /** Called with the number of files whose best-quality copies replaced the quick ones. */
  onRecompressed?: (count: number) => void;
}

/** Reads and precompresses every servable file of `clientDir`. */
export async function loadStaticFiles(
  clientDir: string,
  options: LoadOptions = {},
): Promise<Map<string, CachedFile>> {
  const { headersFile, precompressedDir, siteUrl } = options;
  const upgrades: Array<() => Promise<void>> = [];
  const pageHeaders = new Map<string, Array<[string, string]>>();
  if (headersFile && existsSync(headersFile)) {
    for (const entry of JSON.parse(readFileSync(headersFile, 'utf8')) as HeadersEntry[]) {
      pageHeaders.set(
        entry.pathname,
        entry.headers.map(({ key, value }) => [key, value]),
      );
    }
  }
  const files = new Map<string, CachedFile>();
  await Promise.all(
    walk(clientDir).map(async (file) => {
      const contentType = CONTENT_TYPES[extname(file).toLowerCase()];
      if (!contentType) return;
      const rel = relative(clientDir, file);
      const paths = urlPathsOf(rel);
      const compressible = COMPRESSIBLE.test(contentType);
      const built = readFileSync(file);
      const identity = compressible && siteUrl ? withSiteOrigin(built, siteUrl) : built;
      const tag = contentTag(identity);
      const bodies: CachedFile['bodies'] = { identity };
      if (isCompressible(file, identity.length)) {
        // The build's copies when they match this content (named by it); a file that took the site's
        // origin is compressed quickly now and at the best setting later; anything else, now.
        const copies = precompressedDir
          ? {
              br: readIfExists(join(precompressedDir, `${tag}.br`)),
              gzip: readIfExists(join(precompressedDir, `${tag}.gz`)),
            }
          : {};
        const changed = identity !== built;
        const { br, gzip: gz } =
          copies.br || copies.gzip
            ? copies
            : changed
              ? await compressQuickly(identity)
              : await compressBoth(identity);
        if (br) bodies.br = br;
        if (gz) bodies.gzip = gz;
        if (changed && !(copies.br || copies.gzip) && options.recompress !== false) {
          upgrades.push(async () => {
            const best = await compressBoth(identity);
            if (best.br) bodies.br = best.br;
            if (best.gzip) bodies.gzip = best.gzip;
          });
        }
      }
      const cached: CachedFile = {
        contentType,
        etag: `W/"${tag}"`,
        lastModified: statSync(file).mtime.toUTCString(),
        cacheControl: paths[0]!.startsWith('/_astro/') ? IMMUTABLE : REVALIDATE,
        // The route of its `_headers.json` entry: the last path it answers, less `.html` (`/404.html` → `/404`).
        pageHeaders: contentType.startsWith('text/html')
          ? (pageHeaders.get(paths.at(-1)!.replace(/\.html$/, '')) ?? [])
          : [],
        bodies,
        compressible,
      };
      for (const path of paths) files.set(path, cached);
    }),
  );
  if (upgrades.length > 0) {
    // One file at a time, after the server is up: the best copies cost CPU the first requests need.
    setTimeout(() => {
      void (async () => {
        for (const upgrade of upgrades) await upgrade();
        options.onRecompressed?.(upgrades.length);
      })();
    }, 1000).unref();
  }
  return files;
}

/**
 * A page rendered while the server runs (content from the database: src/server/content/public-pages.ts),
 * made ready to be answered from memory like a built file: brotli at its best and gzip when
 * compressible, an ETag of its content (the same in every process that rendered the same bytes),
 * revalidated on every use.
 */
export async function renderedFile(
  identity: Buffer,
  contentType: string,
  pageHeaders: Array<[string, string]>,
  renderedAt: Date = new Date(),
  /** 'quick' where CPU matters more than bytes (STATIC_RECOMPRESS=false: test servers). */
  quality: 'best' | 'quick' = 'best',
): Promise<CachedFile> {
  const compressible = COMPRESSIBLE.test(contentType);
  const bodies: CachedFile['bodies'] = { identity };
  if (compressible && identity.length >= COMPRESS_THRESHOLD) {
    const { br, gzip: gz } =
      quality === 'best' ? await compressBoth(identity) : await compressQuickly(identity);
    if (br) bodies.br = br;
    if (gz) bodies.gzip = gz;
  }
  return {
    contentType,
    etag: `W/"${contentTag(identity)}"`,
    lastModified: renderedAt.toUTCString(),
    cacheControl: REVALIDATE,
    pageHeaders,
    bodies,
    compressible,
  };
}

/**
 * The encoding to send for an `Accept-Encoding` header among those available: brotli, then gzip,
 * then the plain bytes; an encoding with `q=0` is refused.
 */
export function chooseEncoding(
  acceptEncoding: string | undefined,
  available: ReadonlySet<Encoding>,
): Encoding {
  if (!acceptEncoding) return 'identity';
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find(Boolean);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const quality = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  for (const encoding of ['br', 'gzip'] as const) {
    if (available.has(encoding) && quality(encoding) > 0) return encoding;
  }
  return 'identity';
}

/**
 * A fix to what the Astro handler answers, at the one place every response passes: an HTML response
 * without a charset gets `charset=utf-8` (Astro sends a bare `text/html` for on-demand pages). The
 * error pages are rendered on demand, so they carry their own hash-based CSP like every other page.
 */
export function htmlResponseFixes(next: Handler): Handler {
  return (req, res) => {
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    res.writeHead = ((statusCode: number, ...rest: unknown[]) => {
      // writeHead(status[, statusMessage][, headers]): headers given as an object are merged here.
      const headersArg = rest.find((arg) => arg && typeof arg === 'object') as
        Record<string, unknown> | unknown[] | undefined;
      if (headersArg && !Array.isArray(headersArg)) {
        for (const [name, value] of Object.entries(headersArg))
          if (value !== undefined) res.setHeader(name, value as string);
      } else if (Array.isArray(headersArg)) {
        for (let index = 0; index + 1 < headersArg.length; index += 2)
          res.setHeader(String(headersArg[index]), String(headersArg[index + 1]));
      }
      const contentType = String(res.getHeader('content-type') ?? '');
      if (/^text\/html\s*$/i.test(contentType)) res.setHeader('Content-Type', 'text/html; charset=utf-8');
      const message = rest.find((arg) => typeof arg === 'string');
      return message === undefined ? writeHead(statusCode) : writeHead(statusCode, message);
    }) as ServerResponse['writeHead'];
    next(req, res);
  };
}

/** True when `If-None-Match` names this ETag (weak comparison, as RFC 9110 asks for GET and HEAD). */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === wanted);
}

function notModifiedSince(ifModifiedSince: string, lastModified: string): boolean {
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && Date.parse(lastModified) <= since;
}

export interface StaticHandlerOptions {
  /** A request the memory table must not answer (the server rendering a page from itself: src/server/content/public-pages.ts). */
  bypass?: (req: IncomingMessage) => boolean;
}

/** The methods a built file answers. */
export const STATIC_METHODS = 'GET, HEAD';

/**
 * Answers GET and HEAD for the cached files, and 405 to any other method on them (a built page takes
 * no writes); paths it does not hold go to `next` (the Astro handler). Expects the site-wide security
 * headers to be set already (see {@link secureHandler}).
 */
export function staticFilesHandler(
  files: Map<string, CachedFile>,
  next: Handler,
  options: StaticHandlerOptions = {},
): Handler {
  // Per file (entries rendered at run time come and go: a WeakMap lets the replaced ones go).
  const available = new WeakMap<CachedFile, ReadonlySet<Encoding>>();
  const encodingsOf = (file: CachedFile) => {
    let set = available.get(file);
    if (!set) available.set(file, (set = new Set(Object.keys(file.bodies) as Encoding[])));
    return set;
  };
  return (req, res) => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    // A form posting to a built page with `?_action=` is Astro's form handling: on-demand pages only.
    const file = options.bypass?.(req) ? undefined : files.get(query >= 0 ? url.slice(0, query) : url);
    if (!file) return next(req, res);
    if (method !== 'GET' && method !== 'HEAD') {
      res.writeHead(method === 'OPTIONS' ? 204 : 405, {
        Allow: STATIC_METHODS,
        'Content-Type': 'text/plain; charset=utf-8',
        'Cache-Control': 'no-store',
      });
      res.end(method === 'OPTIONS' ? undefined : 'Método no permitido');
      // The body of a refused write is read and dropped, so the client can read the answer.
      req.resume();
      return;
    }

    for (const [name, value] of file.pageHeaders) res.setHeader(name, value);
    res.setHeader('Cache-Control', file.cacheControl);
    res.setHeader('Last-Modified', file.lastModified);
    res.setHeader('ETag', file.etag);
    res.setHeader('Content-Type', file.contentType);
    if (file.compressible) res.setHeader('Vary', 'Accept-Encoding');

    const ifNoneMatch = req.headers['if-none-match'];
    const ifModifiedSince = req.headers['if-modified-since'];
    const fresh = ifNoneMatch
      ? etagMatches(ifNoneMatch, file.etag)
      : ifModifiedSince
        ? notModifiedSince(ifModifiedSince, file.lastModified)
        : false;
    if (fresh) {
      res.removeHeader('Content-Type');
      res.writeHead(304);
      res.end();
      return;
    }
    const encoding = chooseEncoding(req.headers['accept-encoding'], encodingsOf(file));
    const body = file.bodies[encoding]!;
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', body.length);
    res.writeHead(200);
    if (method === 'HEAD') res.end();
    else res.end(body);
  };
}
