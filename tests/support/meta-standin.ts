/**
 * A local stand-in of Meta's WhatsApp Cloud API for tests (issue 37): a node:http server on 127.0.0.1
 * that answers the Graph API calls the channel makes and records every request it got, and builders of
 * the webhooks Meta posts, signed over the exact bytes sent. No test reaches the real service.
 *
 * Graph API side (shapes from Meta's documentation, as src/server/channels/whatsapp/graph.ts cites):
 * - `POST /{version}/{phone-number-id}/messages` → `{messaging_product, contacts:[{input, wa_id}], messages:[{id}]}`;
 *   with `{"status":"read","message_id":…}` (a customer's message marked read) → `{success: true}`;
 * - `POST /{version}/{phone-number-id}/media` (multipart) → `{id}`;
 * - `GET /{version}/{media-id}` → `{messaging_product, url, mime_type, sha256, file_size, id}`, the URL
 *   pointing back here, served only with the right bearer and until it is expired;
 * - a wrong bearer → 401 with Meta's code 190; another phone number id → 400 with code 100.
 * It can be told to fail the next N calls (HTTP 500, 429, a given Meta error code), to be down (every
 * connection closed as it arrives), to delay its answers, and to expire the media URLs it gave.
 *
 * Webhook side: {@link textMessage}, {@link imageMessage}… build the documented pieces, {@link webhookBody}
 * puts several in one body, {@link metaJson} writes it as Meta does (non-ASCII as `\uXXXX`, `/` as `\/`),
 * and {@link postWebhook} posts it with its `X-Hub-Signature-256`.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import busboy from 'busboy';

export const STANDIN_VERSION = 'v25.0';

export interface RecordedFile {
  field: string;
  filename: string;
  mimeType: string;
  bytes: Buffer;
}

export interface RecordedRequest {
  method: string;
  /** The path without the query, e.g. `/v25.0/106540352242922/messages`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The JSON body parsed, or null (no body, multipart, not JSON). */
  body: unknown;
  raw: Buffer;
  multipart?: { fields: Record<string, string>; files: RecordedFile[] };
}

/** How the next calls fail: an HTTP status with a generic body, or Meta's error with its code. */
export type StandinFailure =
  | { status: number }
  | { code: number; status?: number; title?: string; message?: string; details?: string; subcode?: number };

export type FailureTarget = 'messages' | 'media' | 'all';

export interface MetaStandin {
  /** Base URL with the version, for `WHATSAPP_API_URL`. */
  apiUrl: string;
  origin: string;
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  /** Every request received, in order (including refused ones; not those cut while down). */
  requests: RecordedRequest[];
  /** The JSON bodies of the `POST …/messages` calls that were answered 200. */
  sentMessages(): Array<Record<string, any>>;
  /** The wamids of the customer's messages marked read (`{"status":"read","message_id":…}`), in order. */
  readMarks(): string[];
  /** The wamids those calls were answered with, in the same order. */
  sentWamids(): string[];
  /** The next `count` calls to `target` (default the messages endpoint) fail this way. */
  failNext(count: number, failure: StandinFailure, target?: FailureTarget): void;
  /** While down, every connection is closed as soon as it arrives (no HTTP answer at all). */
  setDown(down: boolean): void;
  /** Every answer waits this long first (0: none). */
  setDelay(ms: number): void;
  /**
   * Runs `hook` with the wamid of each message accepted before its answer leaves (null: none), as when
   * Meta's status webhook for a message beats the answer of its send.
   */
  beforeAnswer(hook: ((wamid: string) => Promise<void>) | null): void;
  /** A customer's file Meta holds: its media id for a webhook's `image.id`/`document.id`. */
  addMedia(bytes: Uint8Array, mimeType: string, options?: { sha256?: string }): string;
  /** The media URLs given so far (of one media id, or all) answer 404 from now on, as Meta's do after 5 minutes. */
  expireMediaUrls(mediaId?: string): void;
  /** The next `count` media URLs given are already expired when they are fetched. */
  expireNextMediaUrls(count: number): void;
  /** The media URLs given point at this origin instead of the stand-in's (null: back to its own). */
  setMediaUrlOrigin(origin: string | null): void;
  close(): Promise<void>;
}

export interface MetaStandinOptions {
  phoneNumberId?: string;
  accessToken?: string;
  appSecret?: string;
  verifyToken?: string;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  const payload = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': payload.length });
  res.end(payload);
};

const metaError = (res: http.ServerResponse, status: number, error: Record<string, unknown>) =>
  json(res, status, { error: { type: 'OAuthException', fbtrace_id: 'AStandin', ...error } });

/** A wamid of the stand-in, unique per call. */
/** The channel's five settings pointed at this stand-in, for `parseConfig` or a server's environment. */
export function standinEnv(meta: MetaStandin): Record<string, string> {
  return {
    WHATSAPP_APP_SECRET: meta.appSecret,
    WHATSAPP_PHONE_NUMBER_ID: meta.phoneNumberId,
    WHATSAPP_ACCESS_TOKEN: meta.accessToken,
    WHATSAPP_VERIFY_TOKEN: meta.verifyToken,
    WHATSAPP_API_URL: meta.apiUrl,
  };
}

export function newWamid(): string {
  return `wamid.${randomBytes(24).toString('base64')}`;
}

export async function startMetaStandin(options: MetaStandinOptions = {}): Promise<MetaStandin> {
  const phoneNumberId = options.phoneNumberId ?? '106540352242922';
  const accessToken = options.accessToken ?? `EAAstandin${randomBytes(12).toString('hex')}`;
  const appSecret = options.appSecret ?? `secreto-${randomBytes(16).toString('hex')}`;
  const verifyToken = options.verifyToken ?? `verifica-${randomBytes(8).toString('hex')}`;
  const requests: RecordedRequest[] = [];
  const sent: Array<Record<string, any>> = [];
  const reads: string[] = [];
  const wamids: string[] = [];
  const failures: Array<{ failure: StandinFailure; target: FailureTarget }> = [];
  const media = new Map<string, { bytes: Buffer; mimeType: string; sha256: string }>();
  /** Download URL nonce → media id and whether it still works. */
  const urls = new Map<string, { mediaId: string; live: boolean }>();
  const sockets = new Set<Socket>();
  let down = false;
  let delayMs = 0;
  let answerHook: ((wamid: string) => Promise<void>) | null = null;
  let mediaCounter = 0;
  let expireNext = 0;
  let mediaOrigin: string | null = null;
  let origin = '';

  const takeFailure = (target: 'messages' | 'media' | 'other'): StandinFailure | undefined => {
    const index = failures.findIndex((item) => item.target === 'all' || item.target === target);
    return index === -1 ? undefined : failures.splice(index, 1)[0]!.failure;
  };

  const answerFailure = (res: http.ServerResponse, failure: StandinFailure) => {
    if ('code' in failure) {
      return metaError(res, failure.status ?? 400, {
        message: failure.message ?? `(#${failure.code}) ${failure.title ?? 'Error de la stand-in'}`,
        code: failure.code,
        ...(failure.subcode !== undefined && { error_subcode: failure.subcode }),
        error_data: { messaging_product: 'whatsapp', details: failure.details ?? failure.title ?? '' },
      });
    }
    if (failure.status === 429)
      return metaError(res, 429, { message: '(#80007) Rate limit hit', code: 80007 });
    return json(res, failure.status, { error: { message: 'An unexpected error has occurred.', code: 2 } });
  };

  const server = http.createServer((req, res) => {
    if (down) {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks);
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const contentType = req.headers['content-type'] ?? '';
        let body: unknown = null;
        let multipart: RecordedRequest['multipart'];
        if (contentType.startsWith('application/json')) {
          try {
            body = JSON.parse(raw.toString('utf8'));
          } catch {
            body = null;
          }
        } else if (contentType.startsWith('multipart/form-data')) {
          multipart = await readMultipart(req.headers, raw);
        }
        const recorded: RecordedRequest = {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body,
          raw,
          ...(multipart && { multipart }),
        };
        requests.push(recorded);
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        if (down) {
          req.socket.destroy();
          return;
        }
        await answer(recorded, res);
      })().catch(() => {
        if (!res.headersSent) json(res, 500, { error: { message: 'stand-in failure', code: 1 } });
      });
    });
  });

  async function answer(request: RecordedRequest, res: http.ServerResponse): Promise<void> {
    const parts = request.path.split('/').filter(Boolean);
    // The download URLs: /media-download/{nonce}, no version.
    if (parts[0] === 'media-download' && parts.length === 2 && request.method === 'GET') {
      if (request.headers.authorization !== `Bearer ${accessToken}`) {
        res.writeHead(401, { 'Content-Type': 'text/plain' });
        return void res.end('Unauthorized');
      }
      const issued = urls.get(parts[1]!);
      const file = issued && media.get(issued.mediaId);
      if (!issued || !issued.live || !file) {
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        return void res.end('URL expired');
      }
      res.writeHead(200, { 'Content-Type': file.mimeType, 'Content-Length': file.bytes.length });
      return void res.end(file.bytes);
    }
    if (parts[0] !== STANDIN_VERSION)
      return metaError(res, 400, { message: 'Unknown path components', code: 2500 });
    if (request.headers.authorization !== `Bearer ${accessToken}`)
      return metaError(res, 401, {
        message: 'Error validating access token: Session has expired.',
        code: 190,
        error_subcode: 463,
      });
    const target =
      parts.length === 3 && parts[2] === 'messages'
        ? 'messages'
        : parts.length === 2 || parts[2] === 'media'
          ? 'media'
          : 'other';
    const failure = takeFailure(target);
    if (failure) return answerFailure(res, failure);

    if (
      parts.length === 3 &&
      request.method === 'POST' &&
      (parts[2] === 'messages' || parts[2] === 'media')
    ) {
      if (parts[1] !== phoneNumberId)
        return metaError(res, 400, {
          message: `(#100) Unsupported post request. Object with ID '${parts[1]}' does not exist`,
          code: 100,
          error_subcode: 33,
        });
      if (parts[2] === 'messages') {
        const message = request.body as Record<string, any> | null;
        // …/cloud-api/guides/mark-message-as-read: no `to`, answered `{"success": true}`.
        if (message?.messaging_product === 'whatsapp' && message.status === 'read') {
          if (typeof message.message_id !== 'string' || !message.message_id)
            return metaError(res, 400, { message: '(#100) Invalid parameter', code: 100 });
          reads.push(message.message_id);
          return json(res, 200, { success: true });
        }
        if (!message || message.messaging_product !== 'whatsapp' || typeof message.to !== 'string')
          return metaError(res, 400, {
            message: '(#100) The parameter messaging_product is required.',
            code: 100,
            error_data: { messaging_product: 'whatsapp', details: 'messaging_product/to missing' },
          });
        const wamid = newWamid();
        sent.push(message);
        wamids.push(wamid);
        if (answerHook) await answerHook(wamid);
        return json(res, 200, {
          messaging_product: 'whatsapp',
          contacts: [{ input: message.to, wa_id: message.to }],
          messages: [{ id: wamid, ...(message.type === 'template' && { message_status: 'accepted' }) }],
        });
      }
      const file = request.multipart?.files.find((item) => item.field === 'file');
      if (!file || request.multipart?.fields.messaging_product !== 'whatsapp')
        return metaError(res, 400, { message: '(#100) The parameter file is required.', code: 100 });
      const id = addMedia(file.bytes, request.multipart.fields.type || file.mimeType);
      return json(res, 200, { id });
    }
    if (parts.length === 2 && request.method === 'GET') {
      const file = media.get(parts[1]!);
      if (!file)
        return metaError(res, 400, {
          message: `(#100) Unsupported get request. Object with ID '${parts[1]}' does not exist`,
          code: 100,
          error_subcode: 33,
        });
      const nonce = randomBytes(12).toString('hex');
      urls.set(nonce, { mediaId: parts[1]!, live: expireNext === 0 });
      if (expireNext > 0) expireNext -= 1;
      return json(res, 200, {
        messaging_product: 'whatsapp',
        url: `${mediaOrigin ?? origin}/media-download/${nonce}`,
        mime_type: file.mimeType,
        sha256: file.sha256,
        file_size: file.bytes.length,
        id: parts[1],
      });
    }
    metaError(res, 400, { message: 'Unsupported request', code: 100 });
  }

  function addMedia(bytes: Uint8Array, mimeType: string, extra: { sha256?: string } = {}): string {
    mediaCounter += 1;
    const id = String(1_000_000_000_000_000 + mediaCounter * 7919);
    const buffer = Buffer.from(bytes);
    media.set(id, {
      bytes: buffer,
      mimeType,
      sha256: extra.sha256 ?? createHash('sha256').update(buffer).digest('hex'),
    });
    return id;
  }

  server.on('connection', (socket) => {
    if (down) return void socket.destroy();
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiUrl: `${origin}/${STANDIN_VERSION}`,
    origin,
    phoneNumberId,
    accessToken,
    appSecret,
    verifyToken,
    requests,
    sentMessages: () => sent,
    readMarks: () => reads,
    sentWamids: () => wamids,
    failNext(count, failure, target = 'messages') {
      for (let i = 0; i < count; i++) failures.push({ failure, target });
    },
    setDown(value) {
      down = value;
      if (value) for (const socket of sockets) socket.destroy();
    },
    beforeAnswer(hook) {
      answerHook = hook;
    },
    setDelay(ms) {
      delayMs = ms;
    },
    addMedia,
    expireMediaUrls(mediaId) {
      for (const issued of urls.values()) if (!mediaId || issued.mediaId === mediaId) issued.live = false;
    },
    expireNextMediaUrls(count) {
      expireNext = count;
    },
    setMediaUrlOrigin(value) {
      mediaOrigin = value;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readMultipart(
  headers: IncomingHttpHeaders,
  raw: Buffer,
): Promise<{ fields: Record<string, string>; files: RecordedFile[] }> {
  const fields: Record<string, string> = {};
  const files: RecordedFile[] = [];
  await new Promise<void>((resolve, reject) => {
    // Browsers and undici write a file name's UTF-8 bytes as they are (WHATWG's multipart encoding).
    const parser = busboy({ headers, defParamCharset: 'utf8' });
    parser.on('field', (name, value) => (fields[name] = value));
    parser.on('file', (field, stream, info) => {
      const parts: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => parts.push(chunk));
      stream.on('end', () =>
        files.push({
          field,
          filename: info.filename ?? '',
          mimeType: info.mimeType,
          bytes: Buffer.concat(parts),
        }),
      );
    });
    parser.on('close', resolve);
    parser.on('error', reject);
    parser.end(raw);
  });
  return { fields, files };
}

// --- Webhooks --------------------------------------------------------------------------------------

/** One piece of a webhook: a message with its sender's contact, or a status. */
export interface WebhookPart {
  contact?: { profile: { name: string }; wa_id: string };
  message?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

export interface MessageOptions {
  id?: string;
  /** Unix seconds; default now. */
  timestamp?: number;
  /** The wamid of our message the customer quotes. */
  contextId?: string;
}

const seconds = (value?: number) => String(value ?? Math.floor(Date.now() / 1000));

function messagePart(
  from: string,
  name: string,
  type: string,
  content: Record<string, unknown>,
  options: MessageOptions = {},
): WebhookPart {
  return {
    contact: { profile: { name }, wa_id: from },
    message: {
      ...(options.contextId && { context: { from: '15550783881', id: options.contextId } }),
      from,
      id: options.id ?? newWamid(),
      timestamp: seconds(options.timestamp),
      type,
      ...content,
    },
  };
}

/** …/webhooks/reference/messages/text */
export function textMessage(
  from: string,
  name: string,
  text: string,
  options: MessageOptions = {},
): WebhookPart {
  return messagePart(from, name, 'text', { text: { body: text } }, options);
}

/** …/webhooks/reference/messages/image */
export function imageMessage(
  from: string,
  name: string,
  image: { mediaId: string; mimeType?: string; sha256?: string; caption?: string },
  options: MessageOptions = {},
): WebhookPart {
  return messagePart(
    from,
    name,
    'image',
    {
      image: {
        ...(image.caption !== undefined && { caption: image.caption }),
        mime_type: image.mimeType ?? 'image/jpeg',
        sha256: image.sha256 ?? 'c2hhMjU2LWRlLWxhLWltYWdlbg==',
        id: image.mediaId,
      },
    },
    options,
  );
}

/** …/webhooks/reference/messages/document */
export function documentMessage(
  from: string,
  name: string,
  document: { mediaId: string; filename: string; mimeType?: string; sha256?: string; caption?: string },
  options: MessageOptions = {},
): WebhookPart {
  return messagePart(
    from,
    name,
    'document',
    {
      document: {
        ...(document.caption !== undefined && { caption: document.caption }),
        filename: document.filename,
        mime_type: document.mimeType ?? 'application/pdf',
        sha256: document.sha256 ?? 'c2hhMjU2LWRlbC1kb2N1bWVudG8=',
        id: document.mediaId,
      },
    },
    options,
  );
}

/** …/webhooks/reference/messages/audio (a voice note when `voice`), …/video and …/sticker have the same shape. */
export function mediaMessage(
  from: string,
  name: string,
  type: 'audio' | 'video' | 'sticker',
  item: { mediaId: string; mimeType: string; voice?: boolean; caption?: string },
  options: MessageOptions = {},
): WebhookPart {
  return messagePart(
    from,
    name,
    type,
    {
      [type]: {
        mime_type: item.mimeType,
        sha256: 'c2hhMjU2',
        id: item.mediaId,
        ...(item.voice !== undefined && { voice: item.voice }),
        ...(item.caption !== undefined && { caption: item.caption }),
        ...(type === 'sticker' && { animated: false }),
      },
    },
    options,
  );
}

/** …/webhooks/reference/messages/location */
export function location(
  from: string,
  name: string,
  place: { latitude: number; longitude: number; name?: string; address?: string },
  options: MessageOptions = {},
): WebhookPart {
  return messagePart(from, name, 'location', { location: place }, options);
}

/** …/webhooks/reference/messages/contacts */
export function contacts(
  from: string,
  name: string,
  people: Array<{ name: string; phones: string[] }>,
  options: MessageOptions = {},
): WebhookPart {
  return messagePart(
    from,
    name,
    'contacts',
    {
      contacts: people.map((person) => ({
        name: { formatted_name: person.name, first_name: person.name.split(' ')[0] },
        phones: person.phones.map((phone) => ({ phone, wa_id: phone.replace(/\D/g, ''), type: 'CELL' })),
      })),
    },
    options,
  );
}

/** …/webhooks/reference/messages/interactive (a row picked in a list message of ours). */
export function interactiveListReply(
  from: string,
  name: string,
  row: { id: string; title: string; description?: string },
  options: MessageOptions = {},
): WebhookPart {
  return messagePart(
    from,
    name,
    'interactive',
    { interactive: { type: 'list_reply', list_reply: row } },
    options,
  );
}

/** …/webhooks/reference/messages/interactive (a reply button of ours). */
export function interactiveButtonReply(
  from: string,
  name: string,
  button: { id: string; title: string },
  options: MessageOptions = {},
): WebhookPart {
  return messagePart(
    from,
    name,
    'interactive',
    { interactive: { type: 'button_reply', button_reply: button } },
    options,
  );
}

/** …/webhooks/reference/messages/button (a template's quick-reply button). */
export function templateButtonReply(
  from: string,
  name: string,
  button: { payload: string; text: string },
  options: MessageOptions = {},
): WebhookPart {
  return messagePart(from, name, 'button', { button }, options);
}

/** …/webhooks/reference/messages/reaction; no emoji: the reaction was removed. */
export function reaction(
  from: string,
  name: string,
  messageId: string,
  emoji?: string,
  options: MessageOptions = {},
): WebhookPart {
  return messagePart(
    from,
    name,
    'reaction',
    { reaction: { message_id: messageId, ...(emoji !== undefined && { emoji }) } },
    options,
  );
}

/** …/webhooks/reference/messages/unsupported */
export function unsupportedMessage(from: string, name: string, options: MessageOptions = {}): WebhookPart {
  return messagePart(
    from,
    name,
    'unsupported',
    {
      errors: [
        {
          code: 131051,
          title: 'Message type unknown',
          message: 'Message type unknown',
          error_data: { details: 'Message type is currently not supported.' },
        },
      ],
      unsupported: { type: 'edit' },
    },
    options,
  );
}

/** Any other message object, as given (for shapes the channel must skip). */
export function rawMessage(from: string, name: string, message: Record<string, unknown>): WebhookPart {
  return { contact: { profile: { name }, wa_id: from }, message };
}

/** …/webhooks/reference/messages/status */
export function status(
  wamid: string,
  state: 'sent' | 'delivered' | 'read' | 'failed',
  errors: Array<{ code: number; title: string; message?: string; details?: string }> = [],
  options: { recipient?: string; timestamp?: number } = {},
): WebhookPart {
  return {
    status: {
      id: wamid,
      status: state,
      timestamp: seconds(options.timestamp),
      recipient_id: options.recipient ?? '18095550100',
      ...(state !== 'failed' && {
        pricing: { billable: true, pricing_model: 'PMP', category: 'service', type: 'free_customer_service' },
      }),
      ...(errors.length > 0 && {
        errors: errors.map((error) => ({
          code: error.code,
          title: error.title,
          message: error.message ?? error.title,
          error_data: { details: error.details ?? error.title },
          href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
        })),
      }),
    },
  };
}

/**
 * One webhook body: the parts of each group in one entry's one change (contacts de-duplicated), or
 * several entries when given several groups.
 */
export function webhookBody(
  parts: WebhookPart[] | WebhookPart[][],
  options: { phoneNumberId?: string; businessAccountId?: string } = {},
): Record<string, unknown> {
  const groups = (parts.length > 0 && Array.isArray(parts[0]) ? parts : [parts]) as WebhookPart[][];
  return {
    object: 'whatsapp_business_account',
    entry: groups.map((group) => {
      const contactsById = new Map<string, WebhookPart['contact']>();
      for (const part of group) if (part.contact) contactsById.set(part.contact.wa_id, part.contact);
      const messages = group.flatMap((part) => (part.message ? [part.message] : []));
      const statuses = group.flatMap((part) => (part.status ? [part.status] : []));
      return {
        id: options.businessAccountId ?? '102290129340398',
        changes: [
          {
            value: {
              messaging_product: 'whatsapp',
              metadata: {
                display_phone_number: '15550783881',
                phone_number_id: options.phoneNumberId ?? '106540352242922',
              },
              ...(messages.length > 0 && { contacts: [...contactsById.values()], messages }),
              ...(statuses.length > 0 && { statuses }),
            },
            field: 'messages',
          },
        ],
      };
    }),
  };
}

/** JSON as Meta writes it: every character past ASCII as `\uXXXX` (UTF-16 units), `/` as `\/`. */
export function metaJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The bytes Meta would send for `body`, and their signature with `appSecret`. */
export function signedWebhook(body: unknown, appSecret: string): { bytes: Buffer; signature: string } {
  const bytes = Buffer.from(metaJson(body), 'utf8');
  return { bytes, signature: `sha256=${createHmac('sha256', appSecret).update(bytes).digest('hex')}` };
}

/**
 * Posts `body` to `url` as Meta does: the escaped JSON, `Content-Type: application/json` and
 * `X-Hub-Signature-256` over the exact bytes (or `signature` as given; `null` leaves the header out).
 */
export async function postWebhook(
  url: string,
  body: unknown,
  options: { appSecret: string; signature?: string | null },
): Promise<Response> {
  const signed = signedWebhook(body, options.appSecret);
  const signature = options.signature === undefined ? signed.signature : options.signature;
  return fetch(url, {
    method: 'POST',
    body: new Uint8Array(signed.bytes),
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'facebookexternalua',
      ...(signature !== null && { 'X-Hub-Signature-256': signature }),
    },
  });
}
