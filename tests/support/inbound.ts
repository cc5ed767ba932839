/**
 * Raw mails for the inbound tests: the fixtures under tests/fixtures/inbound are real messages (a Gmail
 * and an Outlook reply in Spanish, an HTML-only webmail reply, an out-of-office, a bounce…) whose
 * incident-specific parts are placeholders: `{{TOKEN}}` (the reply address's token), `{{MESSAGE_ID}}`
 * (a Message-ID we sent) and `{{NUMERO}}` (the incident number). Lines end in CRLF, as on the wire.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
