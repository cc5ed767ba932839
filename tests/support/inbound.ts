/**
 * Raw mails for the inbound tests: the fixtures under tests/fixtures/inbound are real messages (a Gmail
 * and an Outlook reply in Spanish, an HTML-only webmail reply, an out-of-office, a bounce…) whose
 * incident-specific parts are placeholders: `{{TOKEN}}` (the reply address's token), `{{MESSAGE_ID}}`
 * (a Message-ID we sent) and `{{NUMERO}}` (the incident number). Lines end in CRLF, as on the wire.
 *
 * Also the set-up the inbound tests share: the support address and staff inbox, the path's settings, an
 * incident opened on the form with what a reply to it names, and a client of a private Dovecot.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ImapFlow } from 'imapflow';
import type { Db } from '../../src/server/db/index.ts';
import type { InboundSettings } from '../../src/server/channels/intake.ts';
import { createIncident } from '../../src/server/incidents/index.ts';
import type { MailBrand } from '../../src/server/mail/templates.ts';
import type { PrivateDovecot } from './dovecot.ts';
import { MAIL_BRAND } from './mail-brand.ts';

const DIR = fileURLToPath(new URL('../fixtures/inbound/', import.meta.url));

export interface FixtureValues {
  token?: string;
  messageId?: string;
  numero?: string;
}

export function inboundFixture(name: string, values: FixtureValues = {}): Buffer {
  const text = readFileSync(`${DIR}${name}.eml`, 'utf8')
    .replaceAll('{{TOKEN}}', values.token ?? '00000000000000000000000000000000')
    .replaceAll('{{MESSAGE_ID}}', values.messageId ?? 'desconocido@otro.example')
    .replaceAll('{{NUMERO}}', values.numero ?? 'INC-20990101-1000')
    .replace(/\r?\n/g, '\r\n');
  return Buffer.from(text, 'utf8');
}

/** The same raw mail with its Message-ID header replaced (a distinct message of the same content). */
export function withMessageId(raw: Buffer, messageId: string | null): Buffer {
  const text = raw
    .toString('utf8')
    .replace(
      /^Message-I[Dd]:[^\r\n]*(?:\r\n[ \t][^\r\n]*)*\r\n/m,
      messageId ? `Message-ID: <${messageId}>\r\n` : '',
    );
  return Buffer.from(text, 'utf8');
}

/** The support address and the staff inbox of the inbound tests, and the mail brand that carries them. */
export const INBOUND = 'soporte@vertice.example';
export const STAFF_INBOX = 'equipo@vertice.example';
export const inboundBrand: MailBrand = { ...MAIL_BRAND, inboundAddress: INBOUND, staffInbox: STAFF_INBOX };

/** The inbound path's settings as the server builds them (`inboundSettings`), with these staff e-mails. */
export function testInboundSettings(staffEmails: readonly string[] = []): InboundSettings {
  return {
    brand: inboundBrand,
    staffInbox: STAFF_INBOX,
    ownAddresses: ['no-reply@vertice.example', INBOUND, STAFF_INBOX],
    staffEmails,
  };
}

/** The newest customer mail of an incident: the reply address's token, its Message-ID and the number a reply names. */
export async function lastCustomerMail(
  db: Db,
  incidentId: number,
): Promise<Required<Pick<FixtureValues, 'token' | 'messageId' | 'numero'>>> {
  const incident = await db
    .selectFrom('incidents')
    .select(['numeroIncidencia', 'email'])
    .where('id', '=', incidentId)
    .executeTakeFirstOrThrow();
  const row = await db
    .selectFrom('mailOutbox')
    .select(['replyTo', 'messageId'])
    .where('toAddress', '=', incident.email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const token = /^soporte\+([0-9a-f]{32})@/.exec(row.replyTo ?? '')?.[1];
  if (!token || !row.messageId) throw new Error('el correo al cliente no trae dirección de respuesta');
  return { token, messageId: row.messageId, numero: incident.numeroIncidencia };
}

/** An incident opened on the form, with its confirmation queued: its id, number, reply token and Message-ID. */
export async function openFormIncident(
  db: Db,
  at: Date,
  fields: { problema?: string; nombre?: string; email?: string } = {},
) {
  const created = await createIncident(
    db,
    {
      problema: fields.problema ?? 'La impresora fiscal no imprime',
      nombre: fields.nombre ?? 'María Rodríguez',
      telefono: '',
      email: fields.email ?? 'maria@cliente.example',
      rnc: '',
    },
    { brand: inboundBrand, staffInbox: STAFF_INBOX, now: at },
  );
  return { ...created, ...(await lastCustomerMail(db, created.id)) };
}

/** A client of the test's own on a private Dovecot, to append mail and look at the folders as a person would. */
export function testMailbox(imap: () => PrivateDovecot) {
  async function mailbox<T>(run: (client: ImapFlow) => Promise<T>): Promise<T> {
    const server = imap();
    const client = new ImapFlow({
      host: server.host,
      port: server.port,
      secure: false,
      auth: { user: server.user, pass: server.password },
      logger: false,
    });
    await client.connect();
    try {
      return await run(client);
    } finally {
      await client.logout();
    }
  }

  /** Every folder with each message's Message-ID and whether it is \Seen. */
  const folders = (): Promise<Record<string, Array<[string, boolean]>>> =>
    mailbox(async (client) => {
      const result: Record<string, Array<[string, boolean]>> = {};
      for (const { path } of await client.list()) {
        const lock = await client.getMailboxLock(path);
        try {
          const status = await client.status(path, { messages: true });
          const messages =
            status && status.messages ? await client.fetchAll('1:*', { envelope: true, flags: true }) : [];
          result[path] = messages.map((message) => [
            message.envelope?.messageId ?? '',
            message.flags?.has('\\Seen') ?? false,
          ]);
        } finally {
          lock.release();
        }
      }
      return result;
    });

  const append = (raws: Buffer[]) =>
    mailbox(async (client) => {
      for (const raw of raws) await client.append('INBOX', raw);
    });

  return { mailbox, folders, append };
}

/** Hostile mails of the security review (issue 38, F1 and F2), built here: CRLF lines, as on the wire. */
const hostileHead = (messageId: string, subject: string, contentType: string) =>
  [
    'From: Carmen Peña <carmen@panaderia.example>',
    'To: soporte@vertice.example',
    `Subject: ${subject}`,
    `Message-ID: <${messageId}>`,
    'Date: Mon, 03 Mar 2025 11:00:00 -0400',
    'MIME-Version: 1.0',
    `Content-Type: ${contentType}`,
    '',
    '',
  ].join('\r\n');

/** `depth` levels of `multipart/mixed`, one inside the other, around one line of text. */
export function nestedMultipartMail(depth: number, messageId = 'anidado@panaderia.example'): Buffer {
  const open: string[] = [];
  const close: string[] = [];
  for (let level = 1; level < depth; level += 1) {
    open.push(`--b${level - 1}\r\nContent-Type: multipart/mixed; boundary="b${level}"\r\n\r\n`);
    close.unshift(`--b${level - 1}--\r\n`);
  }
  const inner = `--b${depth - 1}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nNo imprime la factura.\r\n--b${depth - 1}--\r\n`;
  return Buffer.from(
    hostileHead(messageId, 'Factura anidada', 'multipart/mixed; boundary="b0"') +
      open.join('') +
      inner +
      close.join(''),
  );
}

/** An HTML-only mail: one paragraph, then `<div>` nested `depth` deep around a word. */
export function deepHtmlMail(depth: number, messageId = 'profundo@panaderia.example'): Buffer {
  const html = `<p>La impresora fiscal no imprime.</p>${'<div>'.repeat(depth)}hondo${'</div>'.repeat(depth)}`;
  return Buffer.from(hostileHead(messageId, 'HTML profundo', 'text/html; charset=utf-8') + html + '\r\n');
}

/** An HTML-only mail of about `bytes` bytes: `<p>palabra <b>x</b></p>` repeated after a first paragraph. */
export function largeHtmlMail(bytes: number, messageId = 'grande-html@panaderia.example'): Buffer {
  const unit = '<p>palabra <b>x</b></p>\r\n';
  const html = `<p>No abre el sistema.</p>\r\n${unit.repeat(Math.ceil(bytes / unit.length))}`;
  return Buffer.from(hostileHead(messageId, 'HTML grande', 'text/html; charset=utf-8') + html);
}
