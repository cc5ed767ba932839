/**
 * The WhatsApp channel (issue 37): a customer's messages come in through Meta's webhook (webhook.ts),
 * each read by payload.ts and turned here into the intake's {@link InboundMessage} (`wamid:<id>` its
 * de-duplication key), and handed to the one intake path (../intake.ts), which asks this channel:
 *
 * - `screen`: a reaction is recorded and changes nothing (it never reopens); a message from our own
 *   business number changes nothing; a pick in our rating list records the rating as the mail's link
 *   does (`/soporte/valoracion`), in the message's transaction, and opens or joins nothing;
 * - `match`: a reply quoting one of our messages (`context.id`) joins the incident that message was a
 *   notice of (`customer_notices.external_id`, the wamid the delivery worker sent); otherwise the
 *   number's most recent incident of this channel that is not 'Resuelto'. A message to a resolved
 *   incident without quoting it opens a new one, as the issue says ("a number with an open incident
 *   joins it"); quoting the resolved incident's notice reopens it within the follow-up's 30 days
 *   (`recordCustomerAnswer`), and past them opens a new one;
 * - `newIncident`: origin 'WhatsApp', the profile name as the name, the number as the phone, no e-mail,
 *   the wa_id as the incident's address on the channel;
 * - `deliver`: the notices wait in `customer_notices` for the delivery worker (outbound.ts);
 * - `receipt`: a staff member opened the incident, the customer's newest message is marked read by the
 *   delivery worker (receipts.ts).
 *
 * A number staff blocked is refused by the intake before this channel is asked (../blocked.ts); the
 * per-sender limit of new incidents (intake.ts) applies to a number as to an address.
 */
import { sql } from 'kysely';
import { WHATSAPP_CHANNEL } from '../../../domain/channels.ts';
import { formatWhatsappNumber } from '../../../lib/whatsapp.ts';
import { isPostgres } from '../../db/index.ts';
import { rateResolutionIn } from '../../incidents/index.ts';
import type { Channel, ChannelMatch, InboundMessage } from '../channel.ts';
import { whatsappDelivery } from './outbound.ts';
import { recordWhatsAppReceipt } from './receipts.ts';
import type { InboundMedia, InboundMessage as WhatsAppMessage, MediaType } from './payload.ts';
import type { RatingReply } from './ratings.ts';

/** What the channel's own rules read of a message (`InboundMessage.extra`). */
export interface WhatsAppExtra {
  type: WhatsAppMessage['type'];
  /** Of a reaction: the wamid it reacts to. */
  reactionTo?: string;
  /** Of a pick in our rating list. */
  rating?: RatingReply;
  /** Our business number's digits, when the webhook gave them. */
  businessNumber: string | null;
  /** The file to fetch from Meta after the message is stored (media.ts). */
  media?: InboundMedia & { type: MediaType; filename: string };
}

/** How the timeline names a file sent without a caption. */
const MEDIA_TEXT: Record<MediaType, string> = {
  image: 'Imagen enviada por WhatsApp',
  document: 'Documento enviado por WhatsApp',
  audio: 'Audio enviado por WhatsApp',
  video: 'Video enviado por WhatsApp',
  sticker: 'Sticker enviado por WhatsApp',
};

/** The name a file without one gets: `imagen.jpg`, `audio.ogg`… (the attachment's type fixes the extension). */
const MEDIA_NAME: Record<MediaType, string> = {
  image: 'imagen',
  document: 'documento',
  audio: 'audio',
  video: 'video',
  sticker: 'sticker',
};

function mediaFilename(type: MediaType, media: InboundMedia): string {
  if (media.filename?.trim()) return media.filename.trim();
  const subtype = /^[a-z]+\/([a-z0-9.+-]+)/i.exec(media.mimeType)?.[1]?.split('+')[0];
  const extension = subtype === 'jpeg' ? 'jpg' : subtype === 'mpeg' ? 'mp3' : subtype;
  return extension ? `${MEDIA_NAME[type]}.${extension}` : MEDIA_NAME[type];
}

function messageText(message: WhatsAppMessage): string {
  let text = message.text.trim();
  if (message.media && !text) {
    const type = message.type as MediaType;
    text =
      type === 'audio' && message.media.voice
        ? 'Nota de voz enviada por WhatsApp'
        : type === 'document' && message.media.filename
          ? `${MEDIA_TEXT.document}: ${message.media.filename}`
          : MEDIA_TEXT[type];
  }
  return message.forwarded ? `(Reenviado) ${text}` : text;
}

/**
 * A webhook's message as the intake reads it. `raw`: the POST's body as received, which the intake
 * keeps (gzip-compressed) as the message's original for 'Ver original'; every message of a body keeps
 * the whole body, as Meta signed it (one message a POST is the usual case).
 */
export function whatsappMessage(message: WhatsAppMessage, raw: Uint8Array | null = null): InboundMessage {
  const text = messageText(message);
  const extra: WhatsAppExtra = {
    type: message.type,
    businessNumber: message.businessNumber,
    ...(message.reaction && { reactionTo: message.reaction.messageId }),
    ...(message.ratingReply && { rating: message.ratingReply }),
    ...(message.media && {
      media: {
        ...message.media,
        type: message.type as MediaType,
        filename: mediaFilename(message.type as MediaType, message.media),
      },
    }),
  };
  return {
    channel: WHATSAPP_CHANNEL,
    dedupKey: `wamid:${message.wamid}`,
    messageId: message.wamid,
    sender: { address: message.from, name: message.profileName ?? '' },
    recipients: [],
    threadKeys: message.contextId ? [message.contextId] : [],
    // What 'Rechazados' lists of a refused message, and what opens an incident from there (the
    // intake keeps 500 characters of it; the original is JSON, which no channel reads again).
    subject: text,
    text,
    files: [],
    raw,
    sentAt: message.timestamp,
    extra: extra as unknown as Record<string, unknown>,
  };
}

/** The first key of the advisory lock a number's messages take in turn (PostgreSQL): "issue 37". */
const NUMBER_LOCK_KEY = 37;

const extraOf = (message: InboundMessage) => (message.extra ?? {}) as Partial<WhatsAppExtra>;

export const whatsappChannel: Channel = {
  id: WHATSAPP_CHANNEL,

  async screen(trx, message, _inboundId, _settings, now) {
    const extra = extraOf(message);
    if (extra.type === 'reaction') {
      const notice = extra.reactionTo
        ? await trx
            .selectFrom('customerNotices')
            .select('incidentId')
            .where('externalId', '=', extra.reactionTo)
            .executeTakeFirst()
        : undefined;
      return { outcome: 'ignored', reason: 'reaction', ...(notice && { incidentId: notice.incidentId }) };
    }
    if (!message.sender) return { outcome: 'rejected', reason: 'no-sender' };
    if (extra.businessNumber && message.sender.address === extra.businessNumber)
      return { outcome: 'ignored', reason: 'own-address' };
    if (extra.rating) {
      const link = await rateResolutionIn(
        trx,
        { token: extra.rating.reference, valor: extra.rating.value, comentario: '' },
        now,
      );
      const incident =
        link.status === 'not-found'
          ? undefined
          : await trx
              .selectFrom('incidents')
              .select('id')
              .where('numeroIncidencia', '=', link.numeroIncidencia)
              .executeTakeFirst();
      const incidentId = incident ? { incidentId: incident.id } : {};
      // A pick of a list already used, expired or unknown changes nothing either.
      return link.status === 'open'
        ? { outcome: 'report', reason: 'rating', ...incidentId }
        : { outcome: 'ignored', reason: `rating-${link.status}`, ...incidentId };
    }
    return null;
  },

  async match(trx, message): Promise<ChannelMatch | null> {
    const quoted = message.threadKeys[0];
    if (quoted) {
      const notice = await trx
        .selectFrom('customerNotices')
        .innerJoin('incidents', 'incidents.id', 'customerNotices.incidentId')
        .select('customerNotices.incidentId')
        .where('customerNotices.externalId', '=', quoted)
        .where('incidents.channel', '=', WHATSAPP_CHANNEL)
        .executeTakeFirst();
      if (notice) return { incidentId: notice.incidentId, unverified: false };
    }
    if (!message.sender) return null;
    // Two messages of one number at once (two POSTs, two processes) must not each open an incident:
    // on PostgreSQL the second waits here until the first commits, then finds its incident. SQLite
    // runs one transaction at a time.
    if (isPostgres(trx))
      await sql`select pg_advisory_xact_lock(${NUMBER_LOCK_KEY}, hashtext(${message.sender.address}))`.execute(
        trx,
      );
    const open = await trx
      .selectFrom('incidents')
      .select('id')
      .where('channel', '=', WHATSAPP_CHANNEL)
      .where('channelAddress', '=', message.sender.address)
      .where('estado', '!=', 'Resuelto')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return open ? { incidentId: open.id, unverified: false } : null;
  },

  newIncident(message, sender) {
    return {
      problema: message.text.trim() || message.subject,
      nombre: sender.name,
      telefono: formatWhatsappNumber(sender.address),
      email: '',
      channelAddress: sender.address,
      inReplyTo: null,
    };
  },

  deliver: whatsappDelivery.deliver,

  receipt: recordWhatsAppReceipt,
};
