/**
 * `/api/whatsapp` (issue 37): Meta's webhook of the WhatsApp Cloud API. The production server answers
 * it before Astro's router ({@link whatsappHandler}, as the inbound-mail webhook), so that the body's
 * raw bytes, which the signature covers, are read as they came, with a size cap; `astro dev` answers
 * it through src/pages/api/whatsapp.ts. Both share {@link answerWhatsAppGet} and {@link answerWhatsAppPost}.
 *
 * - With `WHATSAPP_APP_SECRET` unset the channel is off: 404 to every method.
 * - `GET`: Meta's subscription check, `hub.challenge` as text/plain when `hub.mode=subscribe` and
 *   `hub.verify_token` is ours, else 403.
 * - `POST`: `X-Hub-Signature-256` over the raw bytes (401 when it fails), then every message of the
 *   body is stored once by its wamid through the one intake path (`ingestMessage`, `wamid:<id>`), in
 *   the order given (Meta's own order does not matter: each stands alone), and every status updates
 *   its notice (statuses.ts). 200 when all is stored, whatever the body held (Meta retries anything
 *   else for days); 500 when the database failed, so that Meta delivers it again: what was stored
 *   before the failure is then a duplicate. Each message keeps the body as received ('Ver original').
 *   Files are only queued here (media.ts) and fetched right
 *   after the answer, so that the answer stays fast.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { ROUTES } from '../../../routes.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { readBodyUpTo } from '../../http/index.ts';
import { inboundSettings, ingestMessage, type IngestResult } from '../intake.ts';
import { whatsappMessage, type WhatsAppExtra } from './channel.ts';
import { drainWhatsAppMedia, queueMedia } from './media.ts';
import { noteError, noteWebhook } from './panel.ts';
import { parseWebhookBytes } from './payload.ts';
import { verifySignature, verifySubscription, SIGNATURE_HEADER } from './signature.ts';
import { whatsappSettings } from './settings.ts';
import { applyStatus } from './statuses.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The largest POST taken: Meta batches up to a few hundred updates, a few KiB each. */
export const WHATSAPP_MAX_BODY_BYTES = 3 * 1024 * 1024;

export interface WhatsAppAnswer {
  status: 200 | 401 | 403 | 404 | 405 | 413 | 500;
  /** text/plain: the challenge, or a word for whoever reads the logs. */
  body: string;
}

export const WHATSAPP_ANSWERS = {
  notFound: { status: 404, body: 'No encontrado' },
  wrongMethod: { status: 405, body: 'Solo se admiten GET y POST' },
  forbidden: { status: 403, body: 'Token de verificación no válido' },
  unauthorized: { status: 401, body: 'Firma no válida' },
  tooLarge: { status: 413, body: 'Cuerpo demasiado grande' },
  received: { status: 200, body: 'EVENT_RECEIVED' },
  unavailable: { status: 500, body: 'No se pudo guardar; reinténtalo' },
} as const satisfies Record<string, WhatsAppAnswer>;

/** The subscription check: the challenge, or why not. */
export function answerWhatsAppGet(config: Config, query: URLSearchParams): WhatsAppAnswer {
  const settings = whatsappSettings(config);
  if (!settings) return WHATSAPP_ANSWERS.notFound;
  const challenge = verifySubscription(query, settings.verifyToken);
  return challenge === null ? WHATSAPP_ANSWERS.forbidden : { status: 200, body: challenge };
}

/** Whether a message's file is worth fetching: the message acts on an incident. */
const actsOnIncident = (result: IngestResult) => {
  const outcome = result.outcome === 'duplicate' ? result.firstOutcome : result.outcome;
  return outcome === 'answer' || outcome === 'unverified' || outcome === 'new-incident';
};

/** A POST's raw bytes, verified, stored and acted on; the answer for Meta. */
export async function answerWhatsAppPost(
  db: Db,
  config: Config,
  raw: Uint8Array,
  signature: string | readonly string[] | null | undefined,
  log?: Pick<Logger, 'info' | 'error' | 'warn'>,
  now: Date = new Date(),
): Promise<WhatsAppAnswer> {
  const settings = whatsappSettings(config);
  if (!settings) return WHATSAPP_ANSWERS.notFound;
  if (!verifySignature(raw, signature, settings.appSecret)) return WHATSAPP_ANSWERS.unauthorized;
  const parsed = parseWebhookBytes(raw, { phoneNumberId: settings.phoneNumberId });
  if (parsed.skipped.length > 0) log?.warn({ skipped: parsed.skipped }, 'whatsapp webhook pieces skipped');
  const intake = inboundSettings(config);
  let media = 0;
  try {
    for (const item of parsed.messages) {
      const message = whatsappMessage(item, raw);
      const result = await ingestMessage(db, message, intake, now);
      const file = (message.extra as Partial<WhatsAppExtra> | undefined)?.media;
      if (file && result.inboundId !== undefined && actsOnIncident(result)) {
        await queueMedia(db, result.inboundId, file, now);
        media += 1;
      }
      log?.info(
        {
          inbound: result.outcome,
          reason: result.reason,
          numeroIncidencia: result.numeroIncidencia,
          channel: 'whatsapp',
        },
        'whatsapp message received',
      );
    }
    for (const update of parsed.statuses) await applyStatus(db, update, now);
  } catch (error) {
    log?.error({ err: error }, 'whatsapp webhook not stored');
    await noteError(db, `No se pudo guardar un mensaje de WhatsApp: ${String(error)}`, now);
    // What was queued before the failure is fetched all the same.
    if (media > 0) void drainWhatsAppMedia(db, settings);
    return WHATSAPP_ANSWERS.unavailable;
  }
  const reported = parsed.errors[0];
  if (reported)
    await noteError(db, `WhatsApp informó: (${reported.code}) ${reported.title || reported.message}`, now);
  await noteWebhook(db, parsed.messages.length, now);
  if (media > 0) void drainWhatsAppMedia(db, settings);
  return WHATSAPP_ANSWERS.received;
}

function write(res: ServerResponse, { status, body }: WhatsAppAnswer, extra: Record<string, string> = {}) {
  const payload = Buffer.from(body);
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': payload.length,
    'Cache-Control': 'no-store',
    ...extra,
  });
  res.end(payload);
}

/** An answer sent before the body was read: the rest is drained, so that the client reads it. */
function refuse(req: IncomingMessage, res: ServerResponse, answer: WhatsAppAnswer, extra = {}) {
  if (req.readableEnded) return write(res, answer, extra);
  req.resume();
  req.once('end', () => write(res, answer, extra));
  req.once('error', () => res.destroy());
}

/**
 * The production server's webhook (scripts/start.ts), ahead of `next`: the body read whole up to
 * {@link WHATSAPP_MAX_BODY_BYTES} (it must be: the signature covers all of it), then answered.
 */
export function whatsappHandler(
  config: Config,
  db: () => Db,
  log: Pick<Logger, 'info' | 'error' | 'warn'>,
  next: Handler,
): Handler {
  return (req, res) => {
    const [path, query = ''] = (req.url ?? '').split('?', 2) as [string, string?];
    if (path !== ROUTES.whatsapp) return next(req, res);
    if (!whatsappSettings(config)) return refuse(req, res, WHATSAPP_ANSWERS.notFound);
    if (req.method === 'GET' || req.method === 'HEAD')
      return refuse(req, res, answerWhatsAppGet(config, new URLSearchParams(query)));
    if (req.method !== 'POST') return refuse(req, res, WHATSAPP_ANSWERS.wrongMethod, { Allow: 'GET, POST' });
    if (Number(req.headers['content-length'] ?? 0) > WHATSAPP_MAX_BODY_BYTES) {
      res.setHeader('Connection', 'close');
      return write(res, WHATSAPP_ANSWERS.tooLarge);
    }
    readBodyUpTo(req, res, WHATSAPP_MAX_BODY_BYTES, {
      onTooLarge: () => {
        res.setHeader('Connection', 'close');
        write(res, WHATSAPP_ANSWERS.tooLarge);
        req.destroy();
      },
      onBody: (body) => {
        let database: Db;
        try {
          database = db();
        } catch (error) {
          log.error({ err: error }, 'whatsapp webhook not stored');
          return write(res, WHATSAPP_ANSWERS.unavailable);
        }
        void answerWhatsAppPost(database, config, body, req.headers[SIGNATURE_HEADER], log).then(
          (answer) => write(res, answer),
          (error: unknown) => {
            log.error({ err: error }, 'whatsapp webhook not stored');
            write(res, WHATSAPP_ANSWERS.unavailable);
          },
        );
      },
    });
  };
}
