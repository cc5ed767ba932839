/**
 * A small client of Meta's Graph API for the WhatsApp channel (issue 37): send a text, a template, an
 * interactive list, a file; upload and download media. Plain `fetch` and zod: Meta maintains no Node
 * SDK any more, and the few calls we make are simpler than a wrapper's configuration.
 *
 * Every call either returns what Meta answered (a message's `wamid`, a media id, media bytes) or throws
 * a {@link GraphError} that says whether trying again later could help (`retryable`): 5xx, 429, Meta's
 * throttling codes, a network failure or a time-out are worth a retry; any other 4xx (131047 past the
 * 24-hour window, 131026 undeliverable, 100 invalid parameter, 190 expired token…) is not.
 *
 * Request shapes, from Meta's documentation:
 * - text: https://developers.facebook.com/documentation/business-messaging/whatsapp/messages/text-messages;
 * - a reply quoting a message (`context.message_id`): …/whatsapp/messages/contextual-replies;
 * - template: the Messages API reference, …/whatsapp/reference/whatsapp-business-phone-number/message-api,
 *   and …/whatsapp/templates/overview (`template.name`, `language.code`, `components[]` of
 *   `{type:'body', parameters:[{type:'text', text}]}`);
 * - interactive list: …/messages/interactive-list-messages (≤ 10 rows in all, row title ≤ 24, id ≤ 200,
 *   description ≤ 72, button ≤ 20, body ≤ 4096);
 * - media upload, retrieval and download: …/whatsapp/business-phone-numbers/media (`POST
 *   /{phone-number-id}/media` multipart with `messaging_product`, `type`, `file`; `GET /{media-id}` →
 *   `url`, `mime_type`, `sha256`, `file_size`; then `GET url` with the bearer, within 5 minutes; a media
 *   id from a webhook lives 7 days, one we uploaded 30);
 * - errors: …/whatsapp/support/error-codes (`error.code`, `error_subcode`, `error_data.details`).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { WhatsAppError } from './payload.ts';
import type { WhatsAppSettings } from './settings.ts';

/** One row of an interactive list. */
export interface ListRow {
  id: string;
  title: string;
  description?: string;
}

export type OutboundMediaKind = 'image' | 'document' | 'audio' | 'video' | 'sticker';

export interface FetchedMedia {
  bytes: Uint8Array;
  mimeType: string;
  sha256: string;
  fileSize: number;
}

export type GraphErrorKind = 'http' | 'network' | 'timeout' | 'invalid-response' | 'too-large' | 'checksum';

/** A Graph API call that failed, with what Meta said and whether a retry could help. */
export class GraphError extends Error {
  override name = 'GraphError';
  readonly kind: GraphErrorKind;
  /** HTTP status, or null when no answer came. */
  readonly status: number | null;
  /** Meta's `error.code` and `error.error_subcode`, when it answered with one. */
  readonly code: number | null;
  readonly subcode: number | null;
  /** Meta's `error.error_data.details`, or ''. */
  readonly details: string;
  readonly retryable: boolean;

  constructor(
    message: string,
    fields: {
      kind: GraphErrorKind;
      status?: number | null;
      code?: number | null;
      subcode?: number | null;
      details?: string;
      retryable: boolean;
      cause?: unknown;
    },
  ) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.kind = fields.kind;
    this.status = fields.status ?? null;
    this.code = fields.code ?? null;
    this.subcode = fields.subcode ?? null;
    this.details = fields.details ?? '';
    this.retryable = fields.retryable;
  }
}

/**
 * Meta's codes that mean "not now" even when the HTTP status is 400: throughput and pair rate limits,
 * temporary unavailability (error-codes page: 1, 2, 4, 80007, 130429, 131000, 131016, 131056, 133004).
 */
const RETRYABLE_CODES = new Set([1, 2, 4, 17, 341, 80007, 130429, 131000, 131016, 131056, 133004]);

/** Whether an answer with this HTTP status and Meta code is worth trying again later. */
export function isRetryable(status: number | null, code: number | null): boolean {
  if (status === null) return true;
  if (status >= 500 || status === 429 || status === 408) return true;
  return code !== null && RETRYABLE_CODES.has(code);
}

/** Meta's error codes 131047 (and the older 470): free text past the 24-hour window. */
export function isReengagementError(error: { code: number | null } | null | undefined): boolean {
  return error?.code === 131047 || error?.code === 470;
}

/** The staff's sentence for each known code, after 'No se pudo entregar: ' ('tú' to the staff). */
export const WHATSAPP_ERROR_TEXTS: Readonly<Record<number, string>> = {
  0: 'WhatsApp no aceptó la autenticación; revisa WHATSAPP_ACCESS_TOKEN',
  3: 'la aplicación no tiene permiso para esta llamada de WhatsApp',
  4: 'la aplicación hizo demasiadas llamadas a WhatsApp; se reintentará',
  10: 'la aplicación no tiene permiso para enviar por este número',
  100: 'WhatsApp rechazó un dato del mensaje (parámetro no válido)',
  190: 'el token de acceso de WhatsApp venció o no es válido; renueva WHATSAPP_ACCESS_TOKEN',
  200: 'la aplicación no tiene permiso para enviar por este número',
  368: 'la cuenta está bloqueada temporalmente por infringir las políticas de WhatsApp',
  470: 'pasaron más de 24 horas desde el último mensaje del cliente; hace falta una plantilla',
  80007: 'se alcanzó el límite de llamadas de la cuenta de WhatsApp; se reintentará',
  130429: 'se alcanzó el límite de envíos por segundo de WhatsApp; se reintentará',
  130472: 'el número del cliente forma parte de un experimento de WhatsApp y no recibe este mensaje',
  131000: 'WhatsApp tuvo un error interno; se reintentará',
  131005: 'la aplicación no tiene permiso para enviar por este número',
  131008: 'al mensaje le falta un dato obligatorio',
  131009: 'un dato del mensaje no es válido',
  131016: 'WhatsApp no está disponible en este momento; se reintentará',
  131021: 'el destinatario es el mismo número de la empresa',
  131026:
    'el número no puede recibir este mensaje (no usa WhatsApp, tiene una versión antigua o no aceptó las condiciones nuevas)',
  131031: 'la cuenta de WhatsApp Business está bloqueada',
  131042: 'hay un problema con el método de pago de la cuenta de WhatsApp Business',
  131047: 'pasaron más de 24 horas desde el último mensaje del cliente; hace falta una plantilla',
  131048: 'WhatsApp limitó los envíos de este número por reportes de spam',
  131049: 'WhatsApp no lo entregó para cuidar la experiencia del cliente; prueba más tarde',
  131050: 'el cliente pidió no recibir mensajes de marketing',
  131051: 'WhatsApp no admite ese tipo de mensaje',
  131052: 'no se pudo descargar el archivo que envió el cliente',
  131053: 'no se pudo subir el archivo a WhatsApp (tipo o tamaño no admitido)',
  131056: 'demasiados mensajes seguidos a este número; se reintentará en unos minutos',
  131057: 'la cuenta de WhatsApp Business está en mantenimiento',
  132000: 'la plantilla no recibió la cantidad de parámetros que espera',
  132001:
    'la plantilla no existe o no está aprobada en ese idioma; revisa WHATSAPP_TEMPLATE_REPLY y WHATSAPP_TEMPLATE_LANGUAGE',
  132005: 'el texto de la plantilla con sus parámetros es demasiado largo',
  132007: 'la plantilla infringe las políticas de WhatsApp',
  132012: 'un parámetro de la plantilla no tiene el formato que espera',
  132015: 'la plantilla está en pausa por su baja calidad',
  132016: 'la plantilla está desactivada',
  133010: 'el número de la empresa no está registrado en la Cloud API',
};

/**
 * 'No se pudo entregar: …' for a failure: a Graph call's {@link GraphError} or a `failed` status's error.
 * Known codes read from {@link WHATSAPP_ERROR_TEXTS}; others fall back to Meta's title (or message).
 */
export function describeWhatsAppError(
  error: GraphError | Pick<WhatsAppError, 'code' | 'title' | 'message'> | null | undefined,
): string {
  const prefix = 'No se pudo entregar: ';
  if (error instanceof GraphError) {
    if (error.kind === 'network') return `${prefix}no se pudo conectar con WhatsApp; se reintentará`;
    if (error.kind === 'timeout') return `${prefix}WhatsApp no respondió a tiempo; se reintentará`;
    if (error.kind === 'too-large') return `${prefix}el archivo supera el tamaño permitido`;
    if (error.kind === 'checksum') return `${prefix}el archivo llegó dañado; se reintentará`;
  }
  const code = error?.code ?? null;
  if (code !== null && WHATSAPP_ERROR_TEXTS[code]) return prefix + WHATSAPP_ERROR_TEXTS[code];
  if (error instanceof GraphError) {
    if (error.status !== null && error.status >= 500)
      return `${prefix}WhatsApp tuvo un error (${error.status}); se reintentará`;
    if (error.status === 429) return `${prefix}WhatsApp pidió esperar; se reintentará`;
  }
  const title = error && 'title' in error && error.title ? error.title : (error?.message ?? '');
  if (title) return prefix + title;
  return code !== null ? `${prefix}error ${code} de WhatsApp` : `${prefix}error desconocido de WhatsApp`;
}

// --- The client ------------------------------------------------------------------------------------

export interface GraphClientOptions {
  apiUrl: string;
  accessToken: string;
  phoneNumberId: string;
  /** Per request; default 15 s. */
  timeoutMs?: number;
  /** For tests of the transport itself; defaults to the global fetch. */
  fetch?: typeof fetch;
}

const sendAnswer = z.looseObject({
  messaging_product: z.literal('whatsapp').optional(),
  messages: z.array(z.looseObject({ id: z.string().min(1) })).min(1),
});
const uploadAnswer = z.looseObject({ id: z.string().min(1) });
const readAnswer = z.looseObject({ success: z.literal(true) });
const mediaAnswer = z.looseObject({
  url: z.url({ protocol: /^https?$/ }),
  mime_type: z.string().min(1),
  sha256: z.string().optional(),
  file_size: z.coerce.number().int().nonnegative(),
  id: z.string().optional(),
});
const errorAnswer = z.looseObject({
  error: z.looseObject({
    message: z.string().optional(),
    code: z.coerce.number().int().optional(),
    error_subcode: z.coerce.number().int().optional(),
    error_user_title: z.string().optional(),
    error_data: z.looseObject({ details: z.string().optional() }).optional(),
  }),
});

const TO = /^\d{5,20}$/;
const LIMITS = {
  text: 4096,
  caption: 1024,
  listBody: 4096,
  button: 20,
  rowTitle: 24,
  rowId: 200,
  rowDescription: 72,
  rows: 10,
};

function check(condition: boolean, message: string): void {
  if (!condition) throw new RangeError(message);
}

/** `to`: a WhatsApp id, digits with country code (the `wa_id` or `from` of the customer's messages). */
function recipient(to: string): string {
  const digits = to.replace(/[\s()+-]/g, '');
  check(TO.test(digits), 'El destinatario de WhatsApp debe ser un número con código de país (solo dígitos)');
  return digits;
}

export type GraphClient = ReturnType<typeof createGraphClient>;

/** A client over `settings` (or the same fields given directly, e.g. for a stand-in in tests). */
export function createGraphClient(
  settings: Pick<WhatsAppSettings, 'apiUrl' | 'accessToken' | 'phoneNumberId'> & Partial<GraphClientOptions>,
) {
  const base = settings.apiUrl.replace(/\/+$/, '');
  const timeoutMs = settings.timeoutMs ?? 15_000;
  const doFetch = settings.fetch ?? fetch;
  const authorization = `Bearer ${settings.accessToken}`;

  async function request(url: string, init: RequestInit, ms = timeoutMs): Promise<Response> {
    try {
      return await doFetch(url, {
        ...init,
        headers: { Authorization: authorization, ...init.headers },
        signal: AbortSignal.timeout(ms),
        redirect: 'follow',
      });
    } catch (error) {
      const timedOut =
        error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new GraphError(
        timedOut ? `WhatsApp no respondió en ${ms} ms` : 'No se pudo conectar con WhatsApp',
        {
          kind: timedOut ? 'timeout' : 'network',
          retryable: true,
          cause: error,
        },
      );
    }
  }

  /** The error an answer that is not 2xx stands for (its body read and parsed when it is Meta's JSON). */
  async function failure(response: Response): Promise<GraphError> {
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      // Not JSON (a proxy's page, an empty body): only the status is known.
    }
    const parsed = errorAnswer.safeParse(body);
    const meta = parsed.success ? parsed.data.error : undefined;
    const code = meta?.code ?? null;
    return new GraphError(meta?.message ?? `WhatsApp respondió ${response.status}`, {
      kind: 'http',
      status: response.status,
      code,
      subcode: meta?.error_subcode ?? null,
      details: meta?.error_data?.details ?? '',
      retryable: isRetryable(response.status, code),
    });
  }

  async function json<T>(response: Response, schema: z.ZodType<T>): Promise<T> {
    if (!response.ok) throw await failure(response);
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      throw new GraphError('WhatsApp respondió algo que no es JSON', {
        kind: 'invalid-response',
        status: response.status,
        retryable: true,
        cause: error,
      });
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success)
      throw new GraphError('WhatsApp respondió sin los datos esperados', {
        kind: 'invalid-response',
        status: response.status,
        retryable: true,
        cause: parsed.error,
      });
    return parsed.data;
  }

  /** `POST /{phone-number-id}/messages`: the wamid of the message sent. */
  async function send(message: Record<string, unknown>): Promise<string> {
    const response = await request(`${base}/${encodeURIComponent(settings.phoneNumberId)}/messages`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ messaging_product: 'whatsapp', recipient_type: 'individual', ...message }),
    });
    return (await json(response, sendAnswer)).messages[0]!.id;
  }

  const context = (contextId: string | undefined) =>
    contextId ? { context: { message_id: contextId } } : {};

  async function metadata(mediaId: string) {
    const response = await request(`${base}/${encodeURIComponent(mediaId)}`, { method: 'GET' });
    return json(response, mediaAnswer);
  }

  return {
    /** A free-text message (within the 24-hour window); `contextId` quotes one of the customer's messages. */
    async sendText(
      to: string,
      body: string,
      options: { contextId?: string; previewUrl?: boolean } = {},
    ): Promise<string> {
      check(body.trim().length > 0, 'El texto de WhatsApp no puede estar vacío');
      check(body.length <= LIMITS.text, `El texto de WhatsApp admite hasta ${LIMITS.text} caracteres`);
      return send({
        to: recipient(to),
        ...context(options.contextId),
        type: 'text',
        text: { preview_url: options.previewUrl ?? false, body },
      });
    },

    /**
     * Marks a customer's message read (and every earlier one of the chat): the customer sees the blue
     * ticks. Meta answers `{"success": true}`.
     */
    async markRead(messageId: string): Promise<void> {
      check(messageId.trim().length > 0, 'Falta el identificador del mensaje de WhatsApp');
      const response = await request(`${base}/${encodeURIComponent(settings.phoneNumberId)}/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ messaging_product: 'whatsapp', status: 'read', message_id: messageId }),
      });
      await json(response, readAnswer);
    },

    /** An approved template with its body parameters in order (`{{1}}`, `{{2}}`…). */
    async sendTemplate(
      to: string,
      name: string,
      languageCode: string,
      params: readonly string[] = [],
      options: { contextId?: string } = {},
    ): Promise<string> {
      check(/^[a-z0-9_]{1,512}$/.test(name), 'Nombre de plantilla no válido');
      const components = params.length
        ? [{ type: 'body', parameters: params.map((text) => ({ type: 'text', text })) }]
        : undefined;
      return send({
        to: recipient(to),
        ...context(options.contextId),
        type: 'template',
        template: { name, language: { code: languageCode }, ...(components && { components }) },
      });
    },

    /** An interactive list: one section of up to 10 rows behind `button`. */
    async sendList(
      to: string,
      body: string,
      button: string,
      rows: readonly ListRow[],
      options: { sectionTitle?: string; header?: string; footer?: string; contextId?: string } = {},
    ): Promise<string> {
      check(
        body.trim().length > 0 && body.length <= LIMITS.listBody,
        `El texto de la lista admite de 1 a ${LIMITS.listBody} caracteres`,
      );
      check(
        button.trim().length > 0 && button.length <= LIMITS.button,
        `El botón de la lista admite de 1 a ${LIMITS.button} caracteres`,
      );
      check(
        rows.length >= 1 && rows.length <= LIMITS.rows,
        `Una lista de WhatsApp lleva de 1 a ${LIMITS.rows} filas`,
      );
      check(
        new Set(rows.map((row) => row.id)).size === rows.length,
        'Las filas de la lista deben tener ids distintos',
      );
      for (const row of rows) {
        check(
          row.id.length > 0 && row.id.length <= LIMITS.rowId,
          `El id de una fila admite de 1 a ${LIMITS.rowId} caracteres`,
        );
        check(
          row.title.trim().length > 0 && row.title.length <= LIMITS.rowTitle,
          `El título de una fila admite de 1 a ${LIMITS.rowTitle} caracteres: «${row.title}»`,
        );
        check(
          (row.description ?? '').length <= LIMITS.rowDescription,
          `La descripción de una fila admite hasta ${LIMITS.rowDescription} caracteres`,
        );
      }
      if (options.sectionTitle !== undefined)
        check(
          options.sectionTitle.length <= LIMITS.rowTitle,
          `El título de la sección admite hasta ${LIMITS.rowTitle} caracteres`,
        );
      const section = {
        ...(options.sectionTitle !== undefined && { title: options.sectionTitle }),
        rows: rows.map((row) => ({
          id: row.id,
          title: row.title,
          ...(row.description && { description: row.description }),
        })),
      };
      return send({
        to: recipient(to),
        ...context(options.contextId),
        type: 'interactive',
        interactive: {
          type: 'list',
          ...(options.header && { header: { type: 'text', text: options.header } }),
          body: { text: body },
          ...(options.footer && { footer: { text: options.footer } }),
          action: { button, sections: [section] },
        },
      });
    },

    /** `POST /{phone-number-id}/media` (multipart): the media id to send it by. */
    async uploadMedia(bytes: Uint8Array, mime: string, filename: string): Promise<string> {
      const form = new FormData();
      form.set('messaging_product', 'whatsapp');
      form.set('type', mime);
      form.set('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mime }), filename);
      const response = await request(`${base}/${encodeURIComponent(settings.phoneNumberId)}/media`, {
        method: 'POST',
        body: form,
      });
      return (await json(response, uploadAnswer)).id;
    },

    /** A file uploaded with {@link uploadMedia}; `filename` is shown for a document. */
    async sendMedia(
      to: string,
      kind: OutboundMediaKind,
      mediaId: string,
      options: { caption?: string; filename?: string; contextId?: string } = {},
    ): Promise<string> {
      if (options.caption !== undefined)
        check(
          options.caption.length <= LIMITS.caption,
          `El pie del archivo admite hasta ${LIMITS.caption} caracteres`,
        );
      const captioned = kind !== 'audio' && kind !== 'sticker' && options.caption;
      return send({
        to: recipient(to),
        ...context(options.contextId),
        type: kind,
        [kind]: {
          id: mediaId,
          ...(captioned && { caption: options.caption }),
          ...(kind === 'document' && options.filename && { filename: options.filename }),
        },
      });
    },

    /**
     * A customer's file: `GET /{media-id}` for its short-lived URL, then that URL with the bearer. Refused
     * past `maxBytes` (by Meta's `file_size`, by Content-Length, and while reading); its SHA-256 checked
     * against Meta's. A URL that answers 401/403/404 (past its 5 minutes) is asked for once more; one
     * without https is refused unless it is on the API's own origin (the stand-in's, in tests).
     */
    async fetchMedia(
      mediaId: string,
      options: { maxBytes: number; timeoutMs?: number },
    ): Promise<FetchedMedia> {
      const ms = options.timeoutMs ?? timeoutMs;
      for (let attempt = 1; ; attempt++) {
        const info = await metadata(mediaId);
        if (info.file_size > options.maxBytes) throw tooLarge(options.maxBytes);
        // The bearer goes with the download: never in clear to a host other than the API's own.
        if (new URL(info.url).protocol !== 'https:' && new URL(info.url).origin !== new URL(base).origin)
          throw new GraphError('WhatsApp dio un URL de archivo sin https', {
            kind: 'invalid-response',
            retryable: false,
          });
        const response = await request(info.url, { method: 'GET' }, ms);
        if ([401, 403, 404].includes(response.status) && attempt === 1) {
          await response.body?.cancel();
          continue;
        }
        if (!response.ok) throw await failure(response);
        const bytes = await readCapped(response, options.maxBytes);
        const digest = createHash('sha256').update(bytes);
        const hex = digest.digest('hex');
        const base64 = Buffer.from(hex, 'hex').toString('base64');
        if (info.sha256 && info.sha256 !== hex && info.sha256 !== base64)
          throw new GraphError('El archivo de WhatsApp no coincide con su SHA-256', {
            kind: 'checksum',
            status: response.status,
            retryable: true,
          });
        return { bytes, mimeType: info.mime_type, sha256: hex, fileSize: bytes.length };
      }
    },
  };
}

function tooLarge(maxBytes: number): GraphError {
  return new GraphError(`El archivo de WhatsApp supera ${maxBytes} bytes`, {
    kind: 'too-large',
    retryable: false,
  });
}

/** The body's bytes, refused as soon as they pass `maxBytes` (the rest is not read). */
async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(maxBytes);
  }
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof GraphError) throw error;
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new GraphError('Se cortó la descarga del archivo de WhatsApp', {
      kind: timedOut ? 'timeout' : 'network',
      retryable: true,
      cause: error,
    });
  }
  return Buffer.concat(chunks);
}
