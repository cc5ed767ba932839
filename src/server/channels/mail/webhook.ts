/**
 * `POST /api/inbound-mail` (issue 21): an MTA's pipe or a provider's raw forward hands over one raw RFC
 * 5322 mail as the body, with `Authorization: Bearer <INBOUND_WEBHOOK_SECRET>`. The production server
 * answers it before Astro's router ({@link inboundMailHandler}, as the page-view beacon), so that the
 * body is counted as it streams in, handed to the mail reader's worker chunk by chunk and never held
 * whole, and refused past `INBOUND_MAX_BYTES`; `astro dev` answers it
 * through src/pages/api/inbound-mail.ts. Both share {@link authorizedBearer} and {@link streamLimited}.
 *
 * 202 stored (a mail delivered twice is stored once: 202 again; a mail that cannot be parsed is stored
 * too, refused with its original), 401 a wrong or missing secret (the body is not read), 404 when no
 * secret is set (the webhook is off), 413 past the limit, 422 a mail whose reading outlasted the
 * reader's time-out (nothing of it kept: the sender's server bounces it to its sender), 503 only when
 * the database or the reader's worker fails (the sender keeps the mail and retries).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { ROUTES } from '../../../routes.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { RequestTimeoutError } from '../../request-worker.ts';
import { inboundSettings, ingestMessage, type ChannelMessage, type IngestResult } from '../intake.ts';
import { readMailStream } from './read.ts';
import { MailStream } from './mime-worker.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** What a refused request may still send, read and dropped so that the client reads the answer. */
const DRAIN_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Whether an `Authorization` header carries this secret as a Bearer token. Both sides are hashed
 * first, so that the comparison is constant-time whatever the length of what was sent.
 */
export function authorizedBearer(header: string | null | undefined, secret: string): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const given = digest(match?.[1] ?? '');
  return timingSafeEqual(given, digest(secret)) && match !== null;
}

/**
 * The body handed to the mail reader's worker as it arrives ({@link MailStream}), or `too-large` as soon
 * as it passes `max` bytes (what was read is dropped).
 */
export async function streamLimited(
  body: AsyncIterable<Uint8Array>,
  max: number,
): Promise<MailStream | 'too-large'> {
  const stream = new MailStream();
  try {
    for await (const chunk of body) {
      if (stream.size + chunk.length > max) {
        stream.abort();
        return 'too-large';
      }
      await stream.push(chunk);
    }
  } catch (error) {
    stream.abort();
    throw error;
  }
  return stream;
}

export interface WebhookAnswer {
  status: 202 | 401 | 404 | 405 | 413 | 422 | 503;
  body: Record<string, string>;
}

export const WEBHOOK_ANSWERS = {
  notFound: { status: 404, body: { error: 'No encontrado' } },
  wrongMethod: { status: 405, body: { error: 'Solo se admite POST' } },
  unauthorized: { status: 401, body: { error: 'No autorizado' } },
  tooLarge: { status: 413, body: { error: 'El correo supera INBOUND_MAX_BYTES' } },
  unreadable: { status: 422, body: { error: 'No se pudo leer el correo: tardó demasiado en leerse' } },
  unavailable: { status: 503, body: { error: 'No se pudo guardar el correo; reinténtalo más tarde' } },
} as const satisfies Record<string, WebhookAnswer>;

/**
 * Stores one raw mail through the inbound path (its bytes, or the body streamed to the reader's worker,
 * ended here); the answer for the sender (logged without personal data).
 */
export async function storeWebhookMail(
  db: Db,
  mail: Uint8Array | MailStream,
  config: Config,
  log?: Pick<Logger, 'info' | 'error'>,
): Promise<WebhookAnswer> {
  // Read first: a mail that cannot be parsed comes back read as unreadable (stored, refused); one whose
  // reading outlasts the time-out is this mail's fault, not an outage, and retrying it would not help.
  let message: ChannelMessage;
  const stream = mail instanceof MailStream ? mail : new MailStream();
  try {
    if (!(mail instanceof MailStream)) await stream.push(mail);
    message = await readMailStream(stream);
  } catch (error) {
    if (error instanceof RequestTimeoutError) {
      log?.error({ err: error }, 'inbound mail could not be read');
      return WEBHOOK_ANSWERS.unreadable;
    }
    log?.error({ err: error }, 'inbound mail not stored');
    return WEBHOOK_ANSWERS.unavailable;
  } finally {
    stream.abort();
  }
  let result: IngestResult;
  try {
    result = await ingestMessage(db, message, inboundSettings(config), new Date());
  } catch (error) {
    log?.error({ err: error }, 'inbound mail not stored');
    return WEBHOOK_ANSWERS.unavailable;
  }
  log?.info(
    {
      inbound: result.outcome,
      reason: result.reason,
      numeroIncidencia: result.numeroIncidencia,
      channel: 'webhook',
    },
    'inbound mail received',
  );
  return { status: 202, body: { resultado: result.outcome } };
}

function writeAnswer(
  res: ServerResponse,
  { status, body }: WebhookAnswer,
  extra: Record<string, string>,
  end: boolean,
): void {
  const payload = Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': payload.length,
    'Cache-Control': 'no-store',
    ...extra,
  });
  if (end) res.end(payload);
  else res.write(payload);
}

/**
 * Answers a refusal at once, but ends the exchange only once the rest of the body has been read and
 * dropped (up to {@link DRAIN_MAX_BYTES}, then the connection is cut): ending it earlier lets Node close
 * the connection under a client that is still sending, whose next write then fails before it reads the
 * answer (as src/server/http/security.ts does).
 */
function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  refusal: WebhookAnswer,
  extra: Record<string, string> = {},
): void {
  if (req.readableEnded) return writeAnswer(res, refusal, extra, true);
  writeAnswer(res, refusal, extra, false);
  let drained = 0;
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_MAX_BYTES) req.socket.destroy();
  });
  req.once('end', () => res.end());
  req.resume();
}

/**
 * The production server's webhook (scripts/start.ts), ahead of `next`: the secret is checked before
 * the body is read, and the body is counted chunk by chunk against `INBOUND_MAX_BYTES`.
 */
export function inboundMailHandler(
  config: Config,
  db: () => Db,
  log: Pick<Logger, 'info' | 'error'>,
  next: Handler,
): Handler {
  return (req, res) => {
    if ((req.url ?? '').split('?')[0] !== ROUTES.inboundMail) return next(req, res);
    const secret = config.INBOUND_WEBHOOK_SECRET;
    if (!secret) return refuse(req, res, WEBHOOK_ANSWERS.notFound);
    if (req.method !== 'POST') return refuse(req, res, WEBHOOK_ANSWERS.wrongMethod, { Allow: 'POST' });
    if (!authorizedBearer(req.headers.authorization, secret))
      return refuse(req, res, WEBHOOK_ANSWERS.unauthorized, { 'WWW-Authenticate': 'Bearer' });
    const max = config.INBOUND_MAX_BYTES;
    if (Number(req.headers['content-length'] ?? 0) > max) return refuse(req, res, WEBHOOK_ANSWERS.tooLarge);
    streamBody(req, res, max, {
      onTooLarge: () => refuse(req, res, WEBHOOK_ANSWERS.tooLarge),
      onFailed: (error) => {
        log.error({ err: error }, 'inbound mail not stored');
        refuse(req, res, WEBHOOK_ANSWERS.unavailable);
      },
      onBody: (mail) => {
        let database: Db;
        try {
          database = db();
        } catch (error) {
          // No database to store it in: the stream is let go (the worker frees what it read) and the
          // sender told to try again, rather than the request left waiting.
          mail.abort();
          log.error({ err: error }, 'inbound mail not stored');
          refuse(req, res, WEBHOOK_ANSWERS.unavailable);
          return;
        }
        void storeWebhookMail(database, mail, config, log).then((result) =>
          writeAnswer(res, result, {}, true),
        );
      },
    });
  };
}

/**
 * Hands `req`'s body to the mail reader's worker chunk by chunk as it arrives ({@link MailStream}; the
 * request paused while the worker is behind), never holding it whole; refused as soon as it passes
 * `limit` (`onTooLarge`: what was read is dropped, the caller answers and drains). `onFailed`: the worker
 * failed (the caller answers). On a request error or a client gone, the stream is dropped and the
 * exchange cut (unless an answer already started).
 */
function streamBody(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  handlers: { onBody(mail: MailStream): void; onTooLarge(): void; onFailed(error: unknown): void },
): void {
  const mail = new MailStream();
  let over = false;
  const stop = () => {
    if (over) return false;
    over = true;
    mail.abort();
    return true;
  };
  req.on('data', (chunk: Buffer) => {
    if (over) return;
    if (mail.size + chunk.length > limit) {
      stop();
      handlers.onTooLarge();
      return;
    }
    req.pause();
    // Given up: Node's HTTP parser hands each body chunk in a buffer of its own, moved to the worker.
    mail.push(chunk, true).then(
      () => {
        if (!over) req.resume();
      },
      (error: unknown) => {
        if (stop()) handlers.onFailed(error);
      },
    );
  });
  req.once('end', () => {
    if (over) return;
    over = true;
    handlers.onBody(mail);
  });
  const gone = () => {
    if (stop() && !res.headersSent) res.destroy();
  };
  req.once('error', gone);
  req.once('close', () => {
    if (!req.readableEnded) gone();
  });
}
