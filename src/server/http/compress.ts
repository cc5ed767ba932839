/**
 * On-the-fly compression (brotli or gzip, whichever the browser prefers) for text responses of the
 * standalone server. Behind a reverse proxy or CDN that compresses, it is harmless: the proxy sees an
 * already-encoded body and passes it through.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants } from 'node:zlib';
import compression from 'compression';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export function compressed(handler: Handler): Handler {
  const middleware = compression({
    threshold: 1024,
    // Quality 11 (Node's default) costs ~10x the CPU of 5 for a few percent; 5 suits dynamic responses.
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
    // An event stream (/api/staff/eventos) must reach the browser as each event is written, never buffered.
    filter: (req, res) =>
      !/^text\/event-stream/i.test(String(res.getHeader('Content-Type') ?? '')) &&
      compression.filter(req, res),
  });
  return (req, res) => {
    middleware(req as never, res as never, () => handler(req, res));
  };
}
