/**
 * The page-view beacon (`navigator.sendBeacon(ROUTES.beacon, location.pathname)`), answered before
 * Astro's router by the production server (scripts/start.ts) so that a flood of beacons costs as
 * little as a built page; `src/pages/api/pv.ts` answers it the same way under `astro dev`.
 * At most {@link VIEWS_PER_NETWORK} views per client network per 10 minutes are counted; past that,
 * beacons are answered and dropped, without touching the database. Past a budget of beacons a second,
 * answers are held a moment (flood-brake.ts), so that a flood cannot take the pages' share of the server.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isPublicPage, PUBLIC_PAGES, ROUTES } from '../../routes.ts';
import { getDb } from '../db/index.ts';
import { clientNetwork } from '../http/index.ts';
import { MemoryLimiter } from '../limits/index.ts';
import { getLogger } from '../log.ts';
import { resolveClientIp } from '../http/index.ts';
import { FloodBrake } from './flood-brake.ts';
import { bufferPageView } from './page-views.ts';

/** Views counted per client network per 10 minutes. */
export const VIEWS_PER_NETWORK = 30;
const VIEWS_WINDOW_MS = 10 * 60 * 1000;
/** A path is short: anything longer is not ours and is not read further. */
const BODY_MAX = 200;

const limiter = new MemoryLimiter();

/** Counts one beacon of `network` for `body` (a path) when it is one of `known` and the network has allowance left. */
export async function countBeacon(
  network: string,
  body: string,
  known: ReadonlySet<string>,
  now = new Date(),
): Promise<void> {
  const seen = limiter.count(network, VIEWS_WINDOW_MS, now.getTime());
  if (seen > VIEWS_PER_NETWORK) {
    // Logged once per window and network, not per beacon: a flood must not flood the log either.
    if (seen === VIEWS_PER_NETWORK + 1)
      getLogger().warn({ event: 'beacon.refused', network, reason: 'rate-limit' }, 'page views not counted');
    return;
  }
  try {
    await bufferPageView(getDb(), body.slice(0, BODY_MAX), now, known);
  } catch (error) {
    getLogger().warn({ err: error }, 'page view not recorded');
  }
}

/** The pages a beacon may count: the listed public pages and every built page that is public (the blog articles). */
export function countablePaths(builtPaths: Iterable<string>): ReadonlySet<string> {
  return new Set([...PUBLIC_PAGES, ...[...builtPaths].filter((path) => isPublicPage(path))]);
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Answers `POST ROUTES.beacon` with 204 (counted or not); every other request goes to `next`. */
export function beaconHandler(
  known: ReadonlySet<string>,
  trustProxy: boolean,
  next: Handler,
  brake = new FloodBrake(),
): Handler {
  return (req, res) => {
    if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== ROUTES.beacon) return next(req, res);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size < BODY_MAX) chunks.push(chunk);
      size += chunk.length;
    });
    req.on('end', () => {
      const forwarded = req.headers['x-forwarded-for'];
      const headers = new Headers(typeof forwarded === 'string' ? { 'x-forwarded-for': forwarded } : {});
      const network = clientNetwork(resolveClientIp(headers, req.socket.remoteAddress, trustProxy));
      void countBeacon(network, Buffer.concat(chunks).toString('utf8'), known).finally(() =>
        brake.answer(Date.now(), () => {
          res.writeHead(204, { 'Cache-Control': 'no-store' });
          res.end();
        }),
      );
    });
  };
}
