/**
 * The WhatsApp channel's side of a customer notice (src/server/channels/delivery.ts). Meta's API is an
 * outside service: nothing is sent inside the desk's transaction. `deliver` takes the notice there (and
 * issues its links' tokens in that transaction, as the mail channel does) and leaves it `pending` in
 * `customer_notices`, which is this channel's outbox; the delivery worker (../delivery-worker.ts) sends
 * it after the commit through `send`, retried with back-off, so that a crash or an outage of Meta loses
 * nothing.
 *
 * What each notice says follows the mail's (mail/notices.ts): the confirmation with the incident's number
 * and its follow-up link, a state change, a staff reply as text and its files as media, and 'Resuelto'
 * asking for the rating: a list of five rows inside the 24-hour window (ratings.ts), the rating link
 * otherwise. Past the window every free text is replaced by the approved template
 * (`WHATSAPP_TEMPLATE_REPLY`) with the link as its one parameter; if Meta answers 131047 anyway (its
 * clock and ours disagree), the template goes instead and the notice records it.
 */
import { WHATSAPP_CHANNEL } from '../../../domain/channels.ts';
import { mailAttachmentsOfEntry } from '../../attachments/index.ts';
import type { Db } from '../../db/index.ts';
import { issueFollowUpToken, issueRatingToken } from '../../incidents/index.ts';
import { followUpUrl, ratingUrl, type MailBrand } from '../../mail/index.ts';
import type { NoticeSender } from '../delivery-worker.ts';
import { NoticeSendError, type Channel, type SendContext, type SendResult } from '../channel.ts';
import {
  createGraphClient,
  describeWhatsAppError,
  GraphError,
  isReengagementError,
  type GraphClient,
} from './graph.ts';
import type { OutboundMediaKind } from './graph.ts';
import { RATING_BUTTON, RATING_SECTION_TITLE, ratingBody, ratingRows } from './ratings.ts';
import type { WhatsAppSettings } from './settings.ts';
import { noteSentWamid } from './statuses.ts';
import { windowLeft, windowOpen, windowText } from './window.ts';

/** What `customer_notices.outcome` says of a sent notice: how it went. */
export const SENT_AS = {
  text: 'text',
  list: 'list',
  /** Past the window by our clock: the template went instead of free text. */
  template: 'template',
  /** Meta refused the free text (131047): the template went instead. */
  templateAfterRefusal: 'template-131047',
  /** A customer's message marked read (a `receipt` notice). */
  read: 'read',
} as const;

export const whatsappDelivery: Pick<Channel, 'deliver'> = {
  // The customer's number (its wa_id) is the incident's address on the channel; without one, nothing goes.
  // The links' tokens are issued here, in the desk's transaction, and kept with the notice until it is
  // sent (the mail outbox keeps its links in the queued mail the same way): a retry sends the same links.
  async deliver(notice, { trx, incident, now }) {
    if (!incident.channelAddress) return { outcome: 'no-address' };
    const prepared: Record<string, string> = {
      followUp: await issueFollowUpToken(trx, incident.id, now),
    };
    if (notice.kind === 'state' && notice.estado === 'Resuelto')
      prepared.rating = await issueRatingToken(trx, incident.id, now, notice.wasResolved);
    return { outcome: 'queued', deferred: true, prepared };
  },
};

/**
 * When the customer last wrote on this incident by WhatsApp: the latest of its stored inbound messages
 * of the channel that joined or opened it, and of its timeline's answers that came by WhatsApp. Null when
 * they never did (the window is closed).
 */
export async function lastCustomerMessageAt(db: Db, incidentId: number): Promise<Date | null> {
  const [inbound, entry] = await Promise.all([
    db
      .selectFrom('inboundMessages')
      .select((eb) => eb.fn.max('receivedAt').as('at'))
      .where('incidentId', '=', incidentId)
      .where('channel', '=', WHATSAPP_CHANNEL)
      .where('outcome', 'in', ['answer', 'unverified', 'new-incident'])
      .executeTakeFirst(),
    db
      .selectFrom('incidentEntries')
      .select((eb) => eb.fn.max('createdAt').as('at'))
      .where('incidentId', '=', incidentId)
      .where('kind', '=', 'answer')
      .where('via', '=', WHATSAPP_CHANNEL)
      .executeTakeFirst(),
  ]);
  const times = [inbound?.at, entry?.at]
    .filter((value) => value !== null && value !== undefined)
    .map((value) => new Date(value as unknown as string | Date))
    .filter((date) => !Number.isNaN(date.getTime()));
  return times.length ? new Date(Math.max(...times.map((date) => date.getTime()))) : null;
}

/**
 * The reply box of a WhatsApp incident (issue 37): how long free text may still go ('Puedes responder
 * por WhatsApp durante 3 h más'), or that the reply goes as the approved template; null for an incident
 * of another channel.
 */
export async function whatsappReplyWindow(
  db: Db,
  incidentId: number,
  now: Date,
): Promise<{ numero: string; abierta: boolean; texto: string } | null> {
  const incident = await db
    .selectFrom('incidents')
    .select(['channel', 'channelAddress'])
    .where('id', '=', incidentId)
    .executeTakeFirst();
  if (incident?.channel !== WHATSAPP_CHANNEL) return null;
  const left = windowLeft(await lastCustomerMessageAt(db, incidentId), now);
  return { numero: incident.channelAddress ?? '', abierta: left > 0, texto: windowText(left) };
}

/** The WhatsApp kind a file goes as: the types Meta shows inline, else a document (with its name). */
export function mediaKindOf(contentType: string): OutboundMediaKind {
  const type = contentType.toLowerCase().split(';')[0]!.trim();
  if (type === 'image/jpeg' || type === 'image/png') return 'image';
  if (type === 'video/mp4' || type === 'video/3gpp') return 'video';
  if (['audio/aac', 'audio/mp4', 'audio/mpeg', 'audio/amr', 'audio/ogg'].includes(type)) return 'audio';
  return 'document';
}

const STATE_TEXT: Record<string, string> = {
  Registrado: 'está registrada y en cola para que nuestro equipo la atienda',
  'En Proceso': 'ya la está atendiendo un consultor; si necesitamos más datos, te escribimos por aquí',
  'Esperando al cliente': 'espera tu respuesta para continuar: respóndenos por aquí',
  Resuelto: 'quedó resuelta; si el problema sigue, respóndenos por aquí y la reabrimos',
};

/** The free text of a notice (not the rating list, not the template). */
export function noticeText(
  context: Pick<SendContext, 'notice' | 'incident'>,
  links: { followUp: string; rating?: string },
): string {
  const { notice, incident } = context;
  const numero = incident.numeroIncidencia;
  switch (notice.kind) {
    case 'confirmation':
      return (
        `Recibimos tu incidencia ${numero}. Te responderemos por este chat.\n` +
        `Puedes consultar su estado aquí: ${links.followUp}`
      );
    case 'state':
      return (
        `Tu incidencia ${numero} pasó a «${notice.estado}»: ${STATE_TEXT[notice.estado] ?? ''}.\n` +
        (links.rating
          ? `¿Cómo te atendimos? Califícanos aquí: ${links.rating}`
          : `Consulta su estado aquí: ${links.followUp}`)
      );
    case 'reply':
      return `${notice.body}\n\n— ${notice.authorName}`;
    case 'receipt':
      return '';
  }
}

/** The progress key of a notice's main message (its text or list); a reply's files are `file:<n>`. */
const PART_TEXT = 'text';

/**
 * The channel's send for the delivery worker: the wamid of the notice's main message (its text, the
 * rating list or the template), which Meta's status webhooks name.
 */
export function whatsappSender(options: {
  settings: WhatsAppSettings;
  brand: MailBrand;
  /** Default: a client over `settings`. */
  graph?: GraphClient;
}): NonNullable<Channel['send']> {
  const { settings, brand } = options;
  const graph = options.graph ?? createGraphClient(settings);
  return async (context: SendContext): Promise<SendResult> => {
    const { db, notice, incident, now, prepared, progress, record } = context;
    // A read receipt (receipts.ts): no message of ours, nothing to do with the window.
    if (notice.kind === 'receipt') {
      await graph.markRead(notice.messageId);
      return { externalId: null, sentAs: SENT_AS.read };
    }
    const to = incident.channelAddress;
    if (!to) throw new NoticeSendError('La incidencia no tiene número de WhatsApp', false);
    const followUp = prepared.followUp ? followUpUrl(brand, prepared.followUp) : '';
    // Without `valor` the rating page opens with no option chosen.
    const rating = prepared.rating
      ? ratingUrl(brand, prepared.rating, 5).replace(/&valor=5$/, '')
      : undefined;
    const templateLink = rating ?? followUp;
    const template = async (as: string): Promise<SendResult> => {
      const wamid = await graph.sendTemplate(to, settings.replyTemplate, settings.templateLanguage, [
        templateLink,
      ]);
      await noteSentWamid(db, context.noticeId, wamid);
      return { externalId: wamid, sentAs: as };
    };

    // An earlier attempt that died after its first message went: that message stands.
    const done = progress[PART_TEXT];
    const open = windowOpen(await lastCustomerMessageAt(db, incident.id), now);
    if (!done && !open) return template(SENT_AS.template);

    let main: SendResult;
    if (done) main = { externalId: done, sentAs: progress.sentAs ?? SENT_AS.text };
    else {
      try {
        if (notice.kind === 'state' && prepared.rating) {
          main = {
            externalId: await graph.sendList(
              to,
              ratingBody(incident.numeroIncidencia),
              RATING_BUTTON,
              ratingRows(prepared.rating),
              { sectionTitle: RATING_SECTION_TITLE },
            ),
            sentAs: SENT_AS.list,
          };
        } else
          main = {
            externalId: await graph.sendText(to, noticeText(context, { followUp, rating })),
            sentAs: SENT_AS.text,
          };
      } catch (error) {
        // Meta's clock says the window closed: the template carries the link instead, and nothing else goes.
        if (error instanceof GraphError && isReengagementError(error))
          return template(SENT_AS.templateAfterRefusal);
        throw error;
      }
      // Known at once: a status of it that came ahead of this answer is applied now (statuses.ts).
      await noteSentWamid(db, context.noticeId, main.externalId!);
      await record({ [PART_TEXT]: main.externalId!, sentAs: main.sentAs! });
    }

    // A reply's files, each uploaded and sent as media after its text; each recorded once sent.
    if (notice.kind === 'reply') {
      const files = await mailAttachmentsOfEntry(db, notice.entryId);
      for (const [index, file] of files.entries()) {
        const part = `file:${index}`;
        if (progress[part]) continue;
        const blob = await db
          .selectFrom('blobs')
          .select('data')
          .where('sha256', '=', file.blob!)
          .executeTakeFirst();
        if (!blob) throw new NoticeSendError(`Falta el archivo adjunto ${file.filename}`, false);
        const data = blob.data as Uint8Array;
        const mediaId = await graph.uploadMedia(data, file.contentType, file.filename);
        const kind = mediaKindOf(file.contentType);
        const wamid = await graph.sendMedia(to, kind, mediaId, {
          ...(kind === 'document' ? { filename: file.filename } : {}),
        });
        await record({ [part]: wamid });
      }
    }
    return main;
  };
}

/** The staff's words for a failed attempt: 'No se pudo entregar: …'. */
export function describeWhatsAppSendError(error: unknown): string {
  if (error instanceof GraphError) return describeWhatsAppError(error);
  return `No se pudo entregar: ${error instanceof Error ? error.message : String(error)}`;
}

/** The delivery worker's WhatsApp channel: its send over `settings`, and its words for a failure. */
export function whatsappNoticeSender(options: Parameters<typeof whatsappSender>[0]): NoticeSender {
  return { id: WHATSAPP_CHANNEL, send: whatsappSender(options), describeError: describeWhatsAppSendError };
}
