/**
 * The three ways a mail leaves the server: SMTP (nodemailer), `.eml` files (development default) and
 * EmailJS's REST API (called from the server, never from the browser, so the private key stays here).
 * The first two carry the mail's files; EmailJS's API cannot, and its mails say so.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import { loadNodemailer } from '../on-first-use.ts';
import { MailDeliveryError, type MailMessage, type MailTransport } from './types.ts';

const SEND_TIMEOUT_MS = 30_000;

function toNodemailer(from: string, mail: MailMessage) {
  const files = mail.attachments ?? [];
  // One calendar file with a method is the mail's invitation: nodemailer sends it both as a
  // `text/calendar; method=…` alternative (what Gmail and Outlook read as an invitation) and as an
  // `.ics` attachment. Any other file is an ordinary attachment.
  const invitation = files.find((file) => file.method && file.contentType.startsWith('text/calendar'));
  const others = files.filter((file) => file !== invitation);
  return {
    from,
    to: mail.to,
    replyTo: mail.replyTo ?? undefined,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    ...(mail.messageId ? { messageId: `<${mail.messageId}>` } : {}),
    ...(mail.headers ? { headers: mail.headers } : {}),
    ...(invitation
      ? {
          icalEvent: {
            method: invitation.method,
            filename: invitation.filename,
            content: String(invitation.content),
          },
        }
      : {}),
    ...(others.length
      ? {
          attachments: others.map((file) => ({
            filename: file.filename,
            contentType: file.contentType,
            content: typeof file.content === 'string' ? file.content : Buffer.from(file.content),
          })),
        }
      : {}),
  };
}

/** SMTP through nodemailer. 5xx answers are final (the server refused this mail); everything else is retried. */
export function smtpTransport(smtpUrl: string, from: string): MailTransport {
  // Made on the first mail (nodemailer loads then, see on-first-use.ts); kept for the next ones.
  let transporter: Transporter | undefined;
  return {
    kind: 'smtp',
    async send(mail) {
      try {
        transporter ??= (await loadNodemailer()).createTransport(smtpUrl, {
          connectionTimeout: SEND_TIMEOUT_MS,
          greetingTimeout: SEND_TIMEOUT_MS,
          socketTimeout: SEND_TIMEOUT_MS,
        } as never);
        await transporter.sendMail(toNodemailer(from, mail));
      } catch (error) {
        const code = (error as { responseCode?: number }).responseCode;
        const message = error instanceof Error ? error.message : String(error);
        throw new MailDeliveryError(
          `SMTP: ${message}`,
          !(typeof code === 'number' && code >= 500 && code < 600),
          code,
        );
      }
    },
    close() {
      transporter?.close();
    },
  };
}

/** Writes each mail as an `.eml` file (open it with any mail client). Written then renamed: never half a file. */
export function fileTransport(dir: string, from: string): MailTransport {
  let composer: Transporter | undefined;
  return {
    kind: 'file',
    async send(mail) {
      try {
        composer ??= (await loadNodemailer()).createTransport({
          streamTransport: true,
          buffer: true,
          newline: 'unix',
        });
        const info = (await composer.sendMail(toNodemailer(from, mail))) as unknown as { message: Buffer };
        await mkdir(dir, { recursive: true });
        const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
        const temporary = join(dir, `.${name}.tmp`);
        await writeFile(temporary, info.message);
        await rename(temporary, join(dir, name));
      } catch (error) {
        throw new MailDeliveryError(
          `Archivo: ${error instanceof Error ? error.message : String(error)}`,
          true,
        );
      }
    },
  };
}

export interface EmailJsSettings {
  apiUrl: string;
  serviceId?: string;
  templateId?: string;
  publicKey?: string;
  privateKey?: string;
  /** Name shown as sender when the mail has no named Reply-To (the company's name). */
  defaultFromName: string;
  /** Address replies go to when the mail has no Reply-To. */
  defaultReplyTo: string;
}

/** The EmailJS SDK's error texts by status (spec §8); 0 is a network failure. */
export const EMAILJS_STATUS_TEXT: Record<number, string> = {
  0: 'Network Error',
  403: 'Forbidden',
  429: 'Too Many Requests',
  451: 'Unavailable For Headless Browser',
};

/** Network errors, throttling and server errors are worth retrying; refusals (403, 451, other 4xx) are not. */
export function emailJsRetriable(status: number): boolean {
  return status === 0 || status === 429 || status >= 500;
}

function splitAddress(value: string): { name: string; address: string } {
  const match = /^\s*"?([^"<]*)"?\s*<([^>]+)>\s*$/.exec(value);
  return match
    ? { name: (match[1] ?? '').trim(), address: (match[2] ?? '').trim() }
    : { name: '', address: value.trim() };
}

const EMAILJS_LIB_VERSION = '4.4.1';

/**
 * EmailJS's send API takes a template's parameters, not files (a file there is a template setting made
 * in EmailJS's dashboard, with a size cap far under a reply's 20 MB): a mail with files says, in its
 * text, that they did not come, naming them, instead of claiming them attached. An incident reply's
 * files are on its conversation page (its text says so); a meeting invitation needs SMTP.
 */
export function emailJsFilesNotice(files: readonly { filename: string }[]): string {
  const names = files.map((file) => file.filename).join(', ');
  return files.length === 1
    ? `Este correo no lleva el archivo ${names}: nuestro envío de correo no adjunta archivos.`
    : `Este correo no lleva los archivos ${names}: nuestro envío de correo no adjunta archivos.`;
}

export function emailJsTransport(settings: EmailJsSettings): MailTransport {
  const missing = [
    ['EMAILJS_PUBLIC_KEY', settings.publicKey],
    ['EMAILJS_SERVICE_ID', settings.serviceId],
    ['EMAILJS_TEMPLATE_ID', settings.templateId],
  ]
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missing.length) {
    throw new Error(`MAIL_TRANSPORT=emailjs necesita ${missing.join(', ')}.`);
  }
  const endpoint = new URL('/api/v1.0/email/send', settings.apiUrl).href;
  return {
    kind: 'emailjs',
    async send(mail) {
      const reply = mail.replyTo ? splitAddress(mail.replyTo) : null;
      const files = mail.attachments ?? [];
      const body = {
        lib_version: EMAILJS_LIB_VERSION,
        user_id: settings.publicKey,
        service_id: settings.serviceId,
        template_id: settings.templateId,
        template_params: {
          from_name: reply?.name || settings.defaultFromName,
          reply_to: reply?.address || settings.defaultReplyTo,
          message: files.length ? `${mail.text}\n\n${emailJsFilesNotice(files)}` : mail.text,
          // Beyond the spec's three: a template can address visitor confirmations with {{to_email}}.
          to_email: mail.to,
          subject: mail.subject,
        },
        ...(settings.privateKey ? { accessToken: settings.privateKey } : {}),
      };
      let status = 0;
      let text = EMAILJS_STATUS_TEXT[0] ?? 'Network Error';
      try {
        const response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        });
        if (response.ok) return;
        status = response.status;
        text = (await response.text().catch(() => '')) || EMAILJS_STATUS_TEXT[status] || response.statusText;
      } catch {
        // Connection refused, DNS, time-out: the SDK's status 0 'Network Error'.
      }
      throw new MailDeliveryError(
        `EmailJS ${status}: ${text.slice(0, 200)}`,
        emailJsRetriable(status),
        status,
      );
    },
  };
}
