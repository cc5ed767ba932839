/**
 * What a WhatsApp webhook POST says (issue 37), read into a channel-neutral list: the customers'
 * messages and the statuses of ours. Meta delivers at least once, out of order, several entries,
 * changes and messages per POST; a piece whose shape is wrong is skipped and reported, never allowed to
 * take the rest of the POST with it (the webhook answers 200 to a verified POST whatever it holds).
 *
 * Shapes, from Meta's documentation:
 * - envelope, `contacts[]`, `messages[]` and each message type: the messages webhook reference,
 *   https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages
 *   and its per-type pages under …/webhooks/reference/messages/ (…/location, …/status and the like);
 * - `statuses[]` with `errors[]`: …/webhooks/reference/messages/status;
 * - `errors[]` objects (`code`, `title`, `message`, `error_data.details`):
 *   https://developers.facebook.com/documentation/business-messaging/whatsapp/support/error-codes
 */
import { z } from 'zod';
import { describeWhatsAppError } from './graph.ts';
import { parseRatingReply, type RatingReply } from './ratings.ts';

/** One error as Meta reports it, flattened. */
export interface WhatsAppError {
  code: number;
  title: string;
  message: string;
  details: string;
}

export type MediaType = 'image' | 'document' | 'audio' | 'video' | 'sticker';

/** The message types read; anything else arrives as `type: 'unsupported'` with its own type in `originalType`. */
export type InboundType =
  'text' | MediaType | 'location' | 'contacts' | 'interactive' | 'button' | 'reaction' | 'unsupported';

export interface InboundMedia {
  id: string;
  mimeType: string;
  filename?: string;
  caption?: string;
  sha256?: string;
  /** An audio recorded in the chat (a voice note) rather than a file sent. */
  voice?: boolean;
}

export interface InboundMessage {
  /** Meta's message id: the de-duplication key. */
  wamid: string;
  /** The customer's WhatsApp id: digits with country code. */
  from: string;
  /** Their profile name, when `contacts[]` carries it. */
  profileName: string | null;
  /** The business number it was sent to (`metadata.phone_number_id`). */
  phoneNumberId: string;
  timestamp: Date;
  type: InboundType;
  /** The type Meta gave, for `unsupported` (e.g. 'order', 'system'); otherwise the same as `type`. */
  originalType: string;
  /** What the timeline shows: the text, a caption, a location with its map link, the contacts… */
  text: string;
  /** `context.id`: the wamid of our message the customer quoted (replied to). */
  contextId: string | null;
  /** Whether WhatsApp marks it as forwarded. */
  forwarded: boolean;
  media?: InboundMedia;
  location?: { latitude: number; longitude: number; name?: string; address?: string; url: string };
  reaction?: { messageId: string; emoji: string | null };
  /** An interactive (`button_reply`/`list_reply`) or template quick-reply pick. */
  reply?: { kind: 'button_reply' | 'list_reply' | 'button'; id: string; title: string; description?: string };
  /** The rating the pick records, when its id is one of ours (ratings.ts). */
  ratingReply?: RatingReply;
  /** Errors Meta attached (an `unsupported` message carries 131051). */
  errors: WhatsAppError[];
}

export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface StatusUpdate {
  /** The wamid of our message. */
  wamid: string;
  status: DeliveryStatus;
  timestamp: Date;
  /** The customer's WhatsApp id. */
  recipient: string;
  phoneNumberId: string;
  errors: WhatsAppError[];
}

/** A piece that was left out, and why (for the log; no personal data). */
export interface SkippedPiece {
  where: string;
  reason: string;
}

export interface ParsedWebhook {
  messages: InboundMessage[];
  statuses: StatusUpdate[];
  /** `value.errors[]`: errors about the number or the app, not about one message. */
  errors: WhatsAppError[];
  skipped: SkippedPiece[];
}

/** The labels a reply shows for its status (issue 37). */
export const STATUS_LABELS: Record<Exclude<DeliveryStatus, 'failed'>, string> = {
  sent: 'Enviado',
  delivered: 'Entregado',
  read: 'Leído',
};

/** What a reply shows for its latest status: 'Enviado', 'Entregado', 'Leído' or 'No se pudo entregar: …'. */
export function statusText(update: Pick<StatusUpdate, 'status' | 'errors'>): string {
  if (update.status === 'failed') return describeWhatsAppError(update.errors[0] ?? null);
  return STATUS_LABELS[update.status];
}

// --- Schemas ---------------------------------------------------------------------------------------

const digits = z.string().regex(/^\d{5,20}$/);
const unixSeconds = z.union([z.string(), z.number()]).transform((value, context) => {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0 || !/^\d+$/.test(String(value).trim())) {
    context.addIssue({ code: 'custom', message: 'timestamp no es una fecha Unix' });
    return z.NEVER;
  }
  return new Date(seconds * 1000);
});

const errorSchema = z.looseObject({
  code: z.coerce.number().int(),
  title: z.string().optional(),
  message: z.string().optional(),
  error_data: z.looseObject({ details: z.string().optional() }).optional(),
});

const contactSchema = z.looseObject({
  wa_id: z.string(),
  profile: z.looseObject({ name: z.string().optional() }).optional(),
});

const mediaSchema = z.looseObject({
  id: z.string().min(1),
  mime_type: z.string().min(1),
  sha256: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
  voice: z.boolean().optional(),
});

const coordinate = z.coerce.number();
const locationSchema = z.looseObject({
  latitude: coordinate.min(-90).max(90),
  longitude: coordinate.min(-180).max(180),
  name: z.string().optional(),
  address: z.string().optional(),
  url: z.string().optional(),
});

const sharedContactSchema = z.looseObject({
  name: z
    .looseObject({
      formatted_name: z.string().optional(),
      first_name: z.string().optional(),
      last_name: z.string().optional(),
    })
    .optional(),
  phones: z
    .array(
      z.looseObject({
        phone: z.string().optional(),
        wa_id: z.string().optional(),
        type: z.string().optional(),
      }),
    )
    .optional(),
  emails: z.array(z.looseObject({ email: z.string().optional() })).optional(),
});

const replySchema = z.looseObject({
  id: z.string().min(1),
  title: z.string(),
  description: z.string().optional(),
});

const interactiveSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('button_reply'), button_reply: replySchema }),
  z.looseObject({ type: z.literal('list_reply'), list_reply: replySchema }),
]);

const messageBase = z.looseObject({
  from: digits,
  id: z.string().min(1),
  timestamp: unixSeconds,
  type: z.string().min(1),
  context: z.looseObject({ id: z.string().optional(), forwarded: z.boolean().optional() }).optional(),
  errors: z.array(errorSchema).optional(),
});

const bodies = {
  text: z.looseObject({ text: z.looseObject({ body: z.string() }) }),
  location: z.looseObject({ location: locationSchema }),
  contacts: z.looseObject({ contacts: z.array(sharedContactSchema).min(1) }),
  interactive: z.looseObject({ interactive: interactiveSchema }),
  button: z.looseObject({ button: z.looseObject({ text: z.string(), payload: z.string().optional() }) }),
  reaction: z.looseObject({
    reaction: z.looseObject({ message_id: z.string().min(1), emoji: z.string().optional() }),
  }),
};

const MEDIA_TYPES: readonly MediaType[] = ['image', 'document', 'audio', 'video', 'sticker'];

const statusSchema = z.looseObject({
  id: z.string().min(1),
  status: z.enum(['sent', 'delivered', 'read', 'failed']),
  timestamp: unixSeconds,
  recipient_id: z.string().min(1),
  errors: z.array(errorSchema).optional(),
});

const valueSchema = z.looseObject({
  messaging_product: z.literal('whatsapp').optional(),
  metadata: z.looseObject({ phone_number_id: z.string().min(1) }),
  contacts: z.array(z.unknown()).optional(),
  messages: z.array(z.unknown()).optional(),
  statuses: z.array(z.unknown()).optional(),
  errors: z.array(z.unknown()).optional(),
});

const envelopeSchema = z.looseObject({
  object: z.literal('whatsapp_business_account'),
  entry: z.array(z.unknown()),
});

const entrySchema = z.looseObject({ changes: z.array(z.unknown()) });
const changeSchema = z.looseObject({ field: z.string().optional(), value: z.unknown() });

// --- Texts -----------------------------------------------------------------------------------------

/** The map link a location becomes. */
export function mapLink(latitude: number, longitude: number): string {
  return `https://www.google.com/maps?q=${latitude},${longitude}`;
}

function locationText(location: z.infer<typeof locationSchema>): string {
  const lines = ['Ubicación compartida por WhatsApp'];
  const place = [location.name, location.address].filter((part) => part && part.trim()).join(' — ');
  if (place) lines.push(place);
  lines.push(mapLink(location.latitude, location.longitude));
  return lines.join('\n');
}

function contactsText(contacts: z.infer<typeof sharedContactSchema>[]): string {
  const lines = [
    contacts.length === 1 ? 'Contacto compartido por WhatsApp:' : 'Contactos compartidos por WhatsApp:',
  ];
  for (const contact of contacts) {
    const name =
      contact.name?.formatted_name?.trim() ||
      [contact.name?.first_name, contact.name?.last_name].filter(Boolean).join(' ').trim() ||
      'Sin nombre';
    const phones = (contact.phones ?? []).map((phone) => phone.phone ?? phone.wa_id).filter(Boolean);
    const emails = (contact.emails ?? []).map((email) => email.email).filter(Boolean);
    const reach = [...phones, ...emails].join(', ');
    lines.push(`- ${name}${reach ? `: ${reach}` : ' (sin teléfono)'}`);
  }
  return lines.join('\n');
}

/** The timeline's text for a message of a type the channel does not read. */
export function unsupportedText(detail: string): string {
  return `Mensaje de WhatsApp de un tipo no admitido (${detail})`;
}

function flattenError(error: z.infer<typeof errorSchema>): WhatsAppError {
  return {
    code: error.code,
    title: error.title ?? '',
    message: error.message ?? '',
    details: error.error_data?.details ?? '',
  };
}

function readErrors(list: unknown[] | undefined, where: string, skipped: SkippedPiece[]): WhatsAppError[] {
  const errors: WhatsAppError[] = [];
  (list ?? []).forEach((item, index) => {
    const parsed = errorSchema.safeParse(item);
    if (parsed.success) errors.push(flattenError(parsed.data));
    else skipped.push({ where: `${where}[${index}]`, reason: 'error sin código' });
  });
  return errors;
}

function reason(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || '(mensaje)'}: ${issue.message}` : 'forma no válida';
}

// --- Reading ---------------------------------------------------------------------------------------

function readMessage(
  raw: unknown,
  where: string,
  phoneNumberId: string,
  names: Map<string, string>,
  skipped: SkippedPiece[],
): InboundMessage | null {
  const base = messageBase.safeParse(raw);
  if (!base.success) {
    skipped.push({ where, reason: reason(base.error) });
    return null;
  }
  const message = base.data;
  const common = {
    wamid: message.id,
    from: message.from,
    profileName: names.get(message.from) ?? null,
    phoneNumberId,
    timestamp: message.timestamp,
    contextId: message.context?.id ?? null,
    forwarded: message.context?.forwarded === true,
    errors: readErrors(message.errors, `${where}.errors`, skipped),
  };
  const fail = (error: z.ZodError) => {
    skipped.push({ where, reason: reason(error) });
    return null;
  };
  const type = message.type;

  if (type === 'text') {
    const parsed = bodies.text.safeParse(raw);
    if (!parsed.success) return fail(parsed.error);
    return { ...common, type, originalType: type, text: parsed.data.text.body };
  }
  if ((MEDIA_TYPES as readonly string[]).includes(type)) {
    const parsed = z.looseObject({ [type]: mediaSchema }).safeParse(raw);
    if (!parsed.success) return fail(parsed.error);
    const media = parsed.data[type] as z.infer<typeof mediaSchema>;
    return {
      ...common,
      type: type as MediaType,
      originalType: type,
      text: media.caption ?? '',
      media: {
        id: media.id,
        mimeType: media.mime_type,
        ...(media.filename !== undefined && { filename: media.filename }),
        ...(media.caption !== undefined && { caption: media.caption }),
        ...(media.sha256 !== undefined && { sha256: media.sha256 }),
        ...(media.voice !== undefined && { voice: media.voice }),
      },
    };
  }
  if (type === 'location') {
    const parsed = bodies.location.safeParse(raw);
    if (!parsed.success) return fail(parsed.error);
    const location = parsed.data.location;
    return {
      ...common,
      type,
      originalType: type,
      text: locationText(location),
      location: {
        latitude: location.latitude,
        longitude: location.longitude,
        ...(location.name && { name: location.name }),
        ...(location.address && { address: location.address }),
        url: mapLink(location.latitude, location.longitude),
      },
    };
  }
  if (type === 'contacts') {
    const parsed = bodies.contacts.safeParse(raw);
    if (!parsed.success) return fail(parsed.error);
    return { ...common, type, originalType: type, text: contactsText(parsed.data.contacts) };
  }
  if (type === 'interactive') {
    const parsed = bodies.interactive.safeParse(raw);
    if (!parsed.success) {
      // An interactive reply of a kind we never send (a Flow's nfm_reply, a call permission…): recorded as such.
      const kind = (raw as { interactive?: { type?: unknown } }).interactive?.type;
      if (typeof kind === 'string' && kind !== 'button_reply' && kind !== 'list_reply')
        return unsupported(common, `interactive/${kind}`, `interactive/${kind}`);
      return fail(parsed.error);
    }
    const interactive = parsed.data.interactive;
    const picked = interactive.type === 'button_reply' ? interactive.button_reply : interactive.list_reply;
    const rating = parseRatingReply(picked.id);
    return {
      ...common,
      type,
      originalType: type,
      text: picked.title,
      reply: {
        kind: interactive.type,
        id: picked.id,
        title: picked.title,
        ...(picked.description !== undefined && { description: picked.description }),
      },
      ...(rating && { ratingReply: rating }),
    };
  }
  if (type === 'button') {
    const parsed = bodies.button.safeParse(raw);
    if (!parsed.success) return fail(parsed.error);
    const button = parsed.data.button;
    const id = button.payload ?? button.text;
    const rating = parseRatingReply(id);
    return {
      ...common,
      type,
      originalType: type,
      text: button.text,
      reply: { kind: 'button', id, title: button.text },
      ...(rating && { ratingReply: rating }),
    };
  }
  if (type === 'reaction') {
    const parsed = bodies.reaction.safeParse(raw);
    if (!parsed.success) return fail(parsed.error);
    const reaction = parsed.data.reaction;
    const emoji = reaction.emoji && reaction.emoji !== '' ? reaction.emoji : null;
    return {
      ...common,
      type,
      originalType: type,
      text: emoji ? `Reaccionó con ${emoji}` : 'Quitó su reacción',
      reaction: { messageId: reaction.message_id, emoji },
    };
  }
  // 'unsupported' (Meta's own word for a type the Cloud API does not deliver) or one we do not read.
  const detail =
    type === 'unsupported' ? common.errors[0]?.details || common.errors[0]?.title || 'desconocido' : type;
  return unsupported(common, type, detail);
}

function unsupported(
  common: Omit<InboundMessage, 'type' | 'originalType' | 'text'>,
  originalType: string,
  detail: string,
): InboundMessage {
  return { ...common, type: 'unsupported', originalType, text: unsupportedText(detail) };
}

function readStatus(
  raw: unknown,
  where: string,
  phoneNumberId: string,
  skipped: SkippedPiece[],
): StatusUpdate | null {
  const parsed = statusSchema.safeParse(raw);
  if (!parsed.success) {
    skipped.push({ where, reason: reason(parsed.error) });
    return null;
  }
  const status = parsed.data;
  return {
    wamid: status.id,
    status: status.status,
    timestamp: status.timestamp,
    recipient: status.recipient_id,
    phoneNumberId,
    errors: readErrors(status.errors, `${where}.errors`, skipped),
  };
}

/**
 * Every message and status of a webhook body (already parsed JSON), in the order they came. A body that
 * is not a WhatsApp Business payload gives empty lists; a piece of the wrong shape is in `skipped`.
 * `phoneNumberId`, when given, keeps only changes addressed to that business number.
 */
export function parseWebhook(body: unknown, options: { phoneNumberId?: string } = {}): ParsedWebhook {
  const result: ParsedWebhook = { messages: [], statuses: [], errors: [], skipped: [] };
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) {
    if (body !== null && typeof body === 'object')
      result.skipped.push({ where: '(cuerpo)', reason: 'no es un webhook de whatsapp_business_account' });
    return result;
  }
  envelope.data.entry.forEach((rawEntry, entryIndex) => {
    const entryWhere = `entry[${entryIndex}]`;
    const entry = entrySchema.safeParse(rawEntry);
    if (!entry.success) return result.skipped.push({ where: entryWhere, reason: 'sin changes' });
    entry.data.changes.forEach((rawChange, changeIndex) => {
      const where = `${entryWhere}.changes[${changeIndex}]`;
      const change = changeSchema.safeParse(rawChange);
      if (!change.success) return result.skipped.push({ where, reason: 'forma no válida' });
      if (change.data.field !== undefined && change.data.field !== 'messages')
        return result.skipped.push({ where, reason: `campo ${change.data.field} no leído` });
      const value = valueSchema.safeParse(change.data.value);
      if (!value.success)
        return result.skipped.push({ where: `${where}.value`, reason: reason(value.error) });
      const phoneNumberId = value.data.metadata.phone_number_id;
      if (options.phoneNumberId !== undefined && phoneNumberId !== options.phoneNumberId)
        return result.skipped.push({ where, reason: 'otro número de la empresa' });
      const names = new Map<string, string>();
      for (const rawContact of value.data.contacts ?? []) {
        const contact = contactSchema.safeParse(rawContact);
        const name = contact.success ? contact.data.profile?.name?.trim() : undefined;
        if (contact.success && name) names.set(contact.data.wa_id, name);
      }
      (value.data.messages ?? []).forEach((raw, index) => {
        const message = readMessage(
          raw,
          `${where}.value.messages[${index}]`,
          phoneNumberId,
          names,
          result.skipped,
        );
        if (message) result.messages.push(message);
      });
      (value.data.statuses ?? []).forEach((raw, index) => {
        const status = readStatus(raw, `${where}.value.statuses[${index}]`, phoneNumberId, result.skipped);
        if (status) result.statuses.push(status);
      });
      result.errors.push(...readErrors(value.data.errors, `${where}.value.errors`, result.skipped));
    });
  });
  return result;
}

/** {@link parseWebhook} over the raw bytes of a POST (already verified): bytes that are not JSON give empty lists. */
export function parseWebhookBytes(raw: Uint8Array, options: { phoneNumberId?: string } = {}): ParsedWebhook {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    return { messages: [], statuses: [], errors: [], skipped: [{ where: '(cuerpo)', reason: 'no es JSON' }] };
  }
  return parseWebhook(body, options);
}
