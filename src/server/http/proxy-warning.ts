/**
 * A hint for a forgotten setting: behind a proxy with `TRUST_PROXY` off, every request comes from the
 * proxy's address, so every visitor shares its one allowance of each limit. A request that carries
 * `X-Forwarded-For` while the setting is off suggests exactly that, and is worth a warning in the log:
 * one, then at most one an hour, so a busy site does not fill its log with it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export const PROXY_WARNING_INTERVAL_MS = 60 * 60 * 1000;

export const PROXY_WARNING =
  'X-Forwarded-For received while TRUST_PROXY is off: the site seems to be behind a proxy, so every visitor ' +
  "shares the proxy's address and one rate limit. Set TRUST_PROXY=true if the proxy in front sets X-Forwarded-For " +
  '(see docs/operations/deploy.md, "Limits").';

/** Wraps the server's handler; with `trustProxy` on there is nothing to warn about and it is returned as is. */
export function warnOnUntrustedProxy(
  handler: Handler,
  trustProxy: boolean,
  log: Pick<Logger, 'warn'>,
  intervalMs = PROXY_WARNING_INTERVAL_MS,
): Handler {
  if (trustProxy) return handler;
  let lastWarned = -Infinity;
  return (req, res) => {
    if (req.headers['x-forwarded-for'] !== undefined) {
      const now = Date.now();
      if (now - lastWarned >= intervalMs) {
        lastWarned = now;
        log.warn({ event: 'proxy.untrusted', setting: 'TRUST_PROXY' }, PROXY_WARNING);
      }
    }
    handler(req, res);
  };
}
