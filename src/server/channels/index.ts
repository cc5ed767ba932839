/**
 * The face of src/server/channels: what other modules may use of it (issue 37's import rule).
 */

export {
  markIncidentSeen,
  recordCustomerNotice,
  type CustomerNotice,
  type NoticeOutcome,
} from './delivery.ts';
export {
  DELIVERY_RETRY_BASE_MS,
  attemptNotice,
  claimDueNotice,
  claimDueNotices,
  deliveryRetryDelayMs,
  startDeliveryWorker,
  type DeliveryWorker,
  type NoticeSender,
} from './delivery-worker.ts';
export { registerChannel } from './registry.ts';
export { NoticeSendError, type SendContext, type SendResult } from './channel.ts';
export {
  SENT_AS,
  describeWhatsAppSendError,
  lastCustomerMessageAt,
  whatsappDelivery,
  whatsappNoticeSender,
  whatsappReplyWindow,
  whatsappSender,
} from './whatsapp/outbound.ts';
export {
  TEMPLATE_SENT_TEXT,
  WINDOW_CLOSED_TEXT,
  windowLeft,
  windowOpen,
  windowText,
} from './whatsapp/window.ts';
export { inboundSettings } from './intake.ts';
export { imapTarget, startMailboxPoller } from './mail/imap.ts';
export { inboundOriginal, originalGzip, purgeOldOriginalsIfDue, writeOriginal } from './mail/original.ts';
export {
  WEBHOOK_ANSWERS,
  authorizedBearer,
  inboundMailHandler,
  storeWebhookMail,
  streamLimited,
  type WebhookAnswer,
} from './mail/webhook.ts';
export { blockSender, blockedSenders, senderBlock, unblockSender, type BlockedSender } from './blocked.ts';
export { discardRefused, openIncidentFromRefused, refusedMessages } from './refused.ts';
export { mailboxPollStatus, receivedToday } from './status.ts';
export { whatsappChannel, whatsappMessage } from './whatsapp/channel.ts';
export { drainWhatsAppMedia, startWhatsAppMedia, whatsappMediaSettled } from './whatsapp/media.ts';
export { whatsappPanelStatus, type WhatsAppPanelStatus } from './whatsapp/panel.ts';
export { whatsappSettings, type WhatsAppSettings } from './whatsapp/settings.ts';
export {
  WHATSAPP_ANSWERS,
  WHATSAPP_MAX_BODY_BYTES,
  answerWhatsAppGet,
  answerWhatsAppPost,
  whatsappHandler,
  type WhatsAppAnswer,
} from './whatsapp/webhook.ts';
export { noticeDelivery, replyDeliveries } from './notice-state.ts';
export { exportInboundMessages, inboundImport, type ExportedInboundMessage } from './transfer.ts';
