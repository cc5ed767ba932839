/**
 * `npm start`: validate the settings, apply migrations, start background work, then serve the
 * production build on HOST:PORT. SIGTERM/SIGINT drain in-flight requests and exit 0 within 10 s.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beaconHandler, countablePaths } from '../src/server/analytics/index.ts';
import { ConfigError, getConfig, siteUrlPortWarning } from '../src/server/config.ts';
import { startPublicPages, type PublicPages } from '../src/server/content/index.ts';
import { closeDb, getDb } from '../src/server/db/index.ts';
import { compressed } from '../src/server/http/index.ts';
import { warnOnUntrustedProxy } from '../src/server/http/index.ts';
import { loggedRequests } from '../src/server/http/index.ts';
import { secureHandler } from '../src/server/http/index.ts';
import { htmlResponseFixes, loadStaticFiles, staticFilesHandler } from '../src/server/http/index.ts';
import { inboundMailHandler, startWhatsAppMedia, whatsappHandler } from '../src/server/channels/index.ts';
import { setRenderSecret } from '../src/lib/site-fragments.ts';
import { getLogger } from '../src/server/log.ts';
import { closeLiveStreams } from '../src/server/live/index.ts';
import { isHelpSearchUrl } from '../src/routes.ts';
import {
  ensureFirstStaffAccount,
  importInitialContent,
  prepareDatabase,
  startBackground,
} from '../src/server/startup.ts';

const entry = fileURLToPath(new URL('../dist/server/entry.mjs', import.meta.url));
const clientDir = fileURLToPath(new URL('../dist/client/', import.meta.url));
const headersFile = fileURLToPath(new URL('../dist/_headers.json', import.meta.url));
const precompressedDir = fileURLToPath(new URL('../dist/precompressed/', import.meta.url));
/** The header of this server's requests to itself that render the content's pages (never answered from memory). */
const RENDER_HEADER = 'x-vertice-render';

async function main(): Promise<void> {
  let config;
  try {
    config = getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  if (!existsSync(entry)) {
    console.error('No hay compilación de producción: ejecuta `npm run build` antes de `npm start`.');
    process.exit(1);
  }
  const log = getLogger();
  const siteUrlWarning = siteUrlPortWarning(process.env, config);
  if (siteUrlWarning)
    log.warn({ event: 'config.site-url-port', setting: 'SITE_URL', port: config.PORT }, siteUrlWarning);
  await prepareDatabase();
  await importInitialContent();
  await ensureFirstStaffAccount();
  const background = await startBackground();

  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  // React picks its build from NODE_ENV when the entry loads it: unset, it would render with its
  // development build (several times slower). The setting defaults to production; make it the real one.
  process.env.NODE_ENV = config.NODE_ENV;
  const { handler } = (await import(pathToFileURL(entry).href)) as {
    handler: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  };
  // Built files from memory, precompressed; everything else through the adapter, compressed on the fly.
  const files = await loadStaticFiles(clientDir, {
    headersFile,
    precompressedDir,
    siteUrl: config.SITE_URL,
    recompress: config.STATIC_RECOMPRESS,
    onRecompressed: (count) => log.info({ files: count }, 'static files recompressed for SITE_URL'),
  });
  log.info({ files: files.size }, 'static files cached');
  // The pages made from the database's content (docs/decisions/0019) are rendered by this server's own
  // handler once per change and put into the same table: the render's requests carry this process's
  // secret, which sends them past the table to the on-demand routes.
  const renderSecret = Buffer.from(randomBytes(24).toString('base64url'));
  // The fragment routes (the toast, the logo walls: src/lib/site-fragments.ts) answer this secret only.
  setRenderSecret(renderSecret.toString());
  const isRender = (req: http.IncomingMessage) => {
    const header = req.headers[RENDER_HEADER];
    return (
      typeof header === 'string' &&
      header.length === renderSecret.length &&
      timingSafeEqual(Buffer.from(header), renderSecret)
    );
  };
  const countable = new Set(countablePaths(files.keys()));
  // A search of the help centre (`/ayuda?q=…`) is rendered on demand; the plain `/ayuda` is in the table.
  const bypass = (req: http.IncomingMessage) => isRender(req) || isHelpSearchUrl(req.url ?? '');
  // The beacon before the built files and Astro's router: a flood of page views costs what a built page costs.
  const beacons = beaconHandler(
    countable,
    config.TRUST_PROXY,
    staticFilesHandler(files, htmlResponseFixes(compressed(handler)), { bypass }),
  );
  // Raw mails to the desk, before Astro too: their bodies are counted as they stream, never buffered past INBOUND_MAX_BYTES.
  // Meta's WhatsApp webhook likewise: its raw bytes, which the signature covers, read with a cap of its own.
  const site = secureHandler(
    inboundMailHandler(config, getDb, log, whatsappHandler(config, getDb, log, beacons)),
    config,
  );
  const server = http.createServer(loggedRequests(warnOnUntrustedProxy(site, config.TRUST_PROXY, log), log));
  // An idle kept-alive connection stays open 65 s, longer than clients and proxies keep theirs (undici 4 s,
  // nginx's upstream keepalive 60 s, most load balancers 60 s): the client always lets go first. With
  // Node's 5 s, a request sent on a connection the server was closing at that moment failed ("other side
  // closed"), which clients do not retry for a POST. Shutdown still closes idle connections at once.
  server.keepAliveTimeout = 65_000;
  server.requestTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  log.info({ url: `http://${config.HOST}:${port}` }, 'server listening');
  // WhatsApp files a crash or an outage of Meta left to fetch (src/server/channels/whatsapp/media.ts).
  startWhatsAppMedia(getDb(), config);

  // The blog, its articles, the feed and the sitemap, from the database, rendered now and after each change.
  const selfHost = ['0.0.0.0', '::', ''].includes(config.HOST)
    ? '127.0.0.1'
    : config.HOST.includes(':')
      ? `[${config.HOST}]`
      : config.HOST;
  const contentPages: PublicPages = startPublicPages({
    db: getDb(),
    files,
    countable,
    compression: config.STATIC_RECOMPRESS ? 'best' : 'quick',
    card: { companyName: config.COMPANY_NAME, siteHost: new URL(config.SITE_URL).host },
    fetchPage: async (path) => {
      const response = await fetch(`http://${selfHost}:${port}${path}`, {
        headers: { [RENDER_HEADER]: renderSecret.toString(), 'Accept-Encoding': 'identity' },
        redirect: 'manual',
        signal: AbortSignal.timeout(20_000),
      });
      return {
        status: response.status,
        body: Buffer.from(await response.arrayBuffer()),
        contentType: response.headers.get('content-type') ?? 'text/html; charset=utf-8',
        csp: response.headers.get('content-security-policy'),
      };
    },
  });
  void contentPages.ready.then(() =>
    log.info({ pages: contentPages.paths().length }, 'content pages rendered'),
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    let httpClosed = false;
    let backgroundStopped = false;
    const deadline = setTimeout(() => {
      log.error({ httpClosed, backgroundStopped }, 'shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    deadline.unref();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Event streams never finish by themselves: end them, and their browsers reconnect elsewhere (Last-Event-ID).
    closeLiveStreams();
    // Keep-alive connections that finish their last response after close() would otherwise linger
    // until their idle timeout; sweep them as they become idle.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    server.closeIdleConnections();
    // A connection still open after 8 s (a request that will not finish, a socket the peer never
    // used) must not cost the clean exit: cut it, say so, and let the rest of the shutdown finish.
    const cut = setTimeout(() => {
      server.getConnections((_error, count) =>
        log.warn({ connections: count }, 'connections still open after 8 s; closing them'),
      );
      server.closeAllConnections();
    }, 8_000);
    cut.unref();
    void closed.then(() => {
      clearInterval(sweep);
      clearTimeout(cut);
    });
    await Promise.all([
      closed.then(() => (httpClosed = true)),
      Promise.all([...background.map((task) => task.stop()), contentPages.stop()]).then(
        () => (backgroundStopped = true),
      ),
    ]);
    await closeDb();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
