/**
 * The face of src/server/channels: what other modules may use of it (issue 37's import rule).
 */

export { recordCustomerNotice, wakeDelivery, type CustomerNotice, type NoticeOutcome } from './delivery.ts';
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
export { discardRefused, openIncidentFromRefused, refusedMessages } from './refused.ts';
export { mailboxPollStatus, receivedToday } from './status.ts';
