/** A mail as the site composes it; the sender (`MAIL_FROM`) is added by the transport. */
export interface MailMessage {
  to: string;
  /** `Name <address>` or a bare address; where a reply should go. */
  replyTo?: string | null;
  subject: string;
  text: string;
  html: string;
  /** Files sent with the mail (none when absent). */
  attachments?: MailAttachment[];
  /** Its `Message-ID`, without angle brackets, when the site records it (incident mails); absent: the transport's own. */
  messageId?: string | null;
  /**
   * Extra headers: `In-Reply-To` and `References` (threading) and `Auto-Submitted` (RFC 3834: every
   * automatic mail says so, so that two help desks cannot answer each other forever).
   */
  headers?: Record<string, string> | null;
}

/** RFC 3834 `Auto-Submitted` of an automatic mail: `auto-replied` answers a message, `auto-generated` anything else. */
export function autoSubmitted(value: 'auto-generated' | 'auto-replied'): Record<string, string> {
  return { 'Auto-Submitted': value };
}

/**
 * A mail no person wrote, marked `Auto-Submitted: auto-generated` (RFC 3834): notices to staff, the
 * visitors' confirmations, account notices. A staff member's reply, a meeting invitation and the welcome
 * mail a staff member chose to send are not.
 */
export function automatic(mail: MailMessage): MailMessage {
  return { ...mail, headers: { ...mail.headers, ...autoSubmitted('auto-generated') } };
}

/**
 * A file of a mail, its content as text (UTF-8). A `text/calendar` file with a `method` is sent the way
 * calendar clients recognise an invitation: as a `text/calendar; method=…` alternative of the body and
 * as an `.ics` attachment (nodemailer's `icalEvent`).
 */
export interface MailAttachment {
  filename: string;
  contentType: string;
  /** Text (UTF-8), or bytes once a `blob` reference has been read (src/server/attachments). */
  content: string | Uint8Array;
  /**
   * A stored file (the SHA-256 of `blobs`): the outbox row carries only this reference, and the worker
   * reads the bytes when it sends the mail, so a 20 MB reply does not sit in the outbox twice.
   */
  blob?: string;
  /** iCalendar METHOD of a calendar file: REQUEST (an invitation) or CANCEL. */
  method?: 'REQUEST' | 'CANCEL';
}

/** A mail for the outbox: `kind` says what caused it (`incident.created`, `contact.received`…). */
export interface QueuedMail extends MailMessage {
  kind: string;
}

/** Thrown by a transport. `retriable` false means trying again cannot help (rejected address, bad keys). */
export class MailDeliveryError extends Error {
  override name = 'MailDeliveryError';
  readonly retriable: boolean;
  readonly status: number | undefined;

  constructor(message: string, retriable: boolean, status?: number) {
    super(message);
    this.retriable = retriable;
    this.status = status;
  }
}

export interface MailTransport {
  readonly kind: 'smtp' | 'file' | 'emailjs';
  send(mail: MailMessage): Promise<void>;
  close?(): void;
}
