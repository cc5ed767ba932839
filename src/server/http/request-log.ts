/**
 * One structured log line per request: method, path, status and duration. The query string is left
 * out (it may carry filters with personal data or tokens), and so are headers and cookies.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export function loggedRequests(handler: Handler, log: Pick<Logger, 'info'>): Handler {
  return (req, res) => {
    const started = process.hrtime.bigint();
    const path = (req.url ?? '/').split('?')[0];
    // 'close' also fires when the client went away before the answer was complete.
    res.once('close', () => {
      const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
      log.info(
        {
          event: 'request',
          method: req.method,
          path,
          status: res.statusCode,
          durationMs,
          completed: res.writableFinished,
        },
        'request',
      );
    });
    handler(req, res);
  };
}
