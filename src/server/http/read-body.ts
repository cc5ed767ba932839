/**
 * Reading a request body in the production server, before Astro, with a limit: the choke point's
 * (security.ts, a chunked body). The inbound-mail webhook streams its body to the mail reader instead
 * (src/server/channels/mail/webhook.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface BodyHandlers {
  /** The whole body, once it ended within the limit. */
  onBody(body: Buffer): void;
  /**
   * Called once, as soon as the body passes the limit: nothing more is kept, and the caller answers
   * (and drains what is still coming). `onBody` is never called then.
   */
  onTooLarge(): void;
}

/**
 * Reads `req`'s body up to `limit` bytes, or refuses it as soon as it passes them. A body that announces
 * its length (within the limit; Node's parser holds it to that length) is read into one buffer of that
 * size, so a large body costs its size once, not its chunks and their concatenation. On a request error
 * the exchange is cut (unless an answer already started).
 */
export function readBodyUpTo(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  handlers: BodyHandlers,
): void {
  const announced =
    req.headers['transfer-encoding'] === undefined ? Number(req.headers['content-length'] ?? NaN) : NaN;
  const whole =
    Number.isSafeInteger(announced) && announced >= 0 && announced <= limit
      ? Buffer.allocUnsafe(announced)
      : null;
  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  req.on('data', (chunk: Buffer) => {
    if (refused) return;
    if (size + chunk.length > limit || (whole && size + chunk.length > whole.length)) {
      refused = true;
      chunks.length = 0;
      handlers.onTooLarge();
      return;
    }
    if (whole) chunk.copy(whole, size);
    else chunks.push(chunk);
    size += chunk.length;
  });
  req.once('end', () => {
    if (refused) return;
    handlers.onBody(whole ? whole.subarray(0, size) : Buffer.concat(chunks, size));
  });
  req.once('error', () => {
    if (!res.headersSent) res.destroy();
  });
}
