/**
 * Outgoing mail: the transport chosen by the settings, the outbox and the templates.
 *
 * - `enqueueMail(trx, mail)`: in the transaction that causes the mail; the worker sends it.
 * - `sendNow(mail)`: send immediately and throw on failure (the staff welcome mail, whose button
 *   reports the outcome at once).
 */
import { getConfig, mailTransportKind, type Config } from '../config.ts';
import { getLogger } from '../log.ts';
import type { MailBrand } from './templates.ts';
import { emailJsTransport, fileTransport, smtpTransport } from './transports.ts';
import type { MailMessage, MailTransport } from './types.ts';

export { enqueueMail, MAIL_CHANNEL, startMailWorker, type MailWorker } from './outbox.ts';
export { MailDeliveryError, type MailMessage, type MailTransport, type QueuedMail } from './types.ts';

function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from;
}

/** The transport the settings select (`MAIL_TRANSPORT`, else SMTP when `SMTP_URL` is set, else files). */
export function createMailTransport(config: Config = getConfig()): MailTransport {
  const kind = mailTransportKind(config);
  if (kind === 'smtp') {
    if (!config.SMTP_URL) throw new Error('MAIL_TRANSPORT=smtp necesita SMTP_URL.');
    return smtpTransport(config.SMTP_URL, config.MAIL_FROM);
  }
  if (kind === 'emailjs') {
    return emailJsTransport({
      apiUrl: config.EMAILJS_API_URL,
      serviceId: config.EMAILJS_SERVICE_ID,
      templateId: config.EMAILJS_TEMPLATE_ID,
      publicKey: config.EMAILJS_PUBLIC_KEY,
      privateKey: config.EMAILJS_PRIVATE_KEY,
      defaultFromName: config.COMPANY_NAME,
      defaultReplyTo: addressOf(config.MAIL_FROM),
    });
  }
  return fileTransport(config.MAIL_DIR, config.MAIL_FROM);
}

const TRANSPORT_KEY = Symbol.for('vertice.mail.transport');
type TransportHolder = { [TRANSPORT_KEY]?: MailTransport };

/** The process's shared transport. */
export function getMailTransport(): MailTransport {
  const holder = globalThis as TransportHolder;
  holder[TRANSPORT_KEY] ??= createMailTransport();
  return holder[TRANSPORT_KEY];
}

/**
 * Sends one mail now through the configured transport; throws `MailDeliveryError` on failure. Logged
 * by kind, never by subject (it carries names typed by visitors and staff).
 */
export async function sendNow(mail: MailMessage, kind: string): Promise<void> {
  const transport = getMailTransport();
  try {
    await transport.send(mail);
  } catch (error) {
    getLogger().error(
      { kind, transport: transport.kind, error: error instanceof Error ? error.message : String(error) },
      'mail failed',
    );
    throw error;
  }
  getLogger().info({ kind, transport: transport.kind }, 'mail sent');
}

/** Company details every template shows, from the settings. */
export function mailBrand(config: Config = getConfig()): MailBrand {
  return {
    companyName: config.COMPANY_NAME,
    siteUrl: config.SITE_URL,
    phone: config.COMPANY_PHONE,
    email: config.COMPANY_EMAIL,
    whatsappNumber: config.WHATSAPP_NUMBER,
    inboundAddress: config.INBOUND_ADDRESS ?? null,
    staffInbox: config.STAFF_INBOX,
  };
}

export { passwordChangedMail } from './account-mails.ts';
export { contactConfirmationMail, contactStaffNoticeMail } from './contact-mails.ts';
export {
  filesLine,
  followUpUrl,
  incidentAnswerMail,
  incidentAssignedMail,
  incidentComplaintMail,
  incidentDigestMail,
  incidentOverdueMail,
  incidentStaffNoticeMail,
  ratingUrl,
  type DigestIncident,
  type IncidentMailData,
} from './incident-mails.ts';
export { meetingMail, type MeetingMailData } from './meeting-mails.ts';
export { absoluteUrl, formatDominicanTime, renderMail, type MailBrand } from './templates.ts';
export { autoSubmitted, type MailAttachment } from './types.ts';
export { welcomeMail, type WelcomeMailData } from './welcome-mail.ts';
