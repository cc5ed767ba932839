/**
 * A mail streamed to the reader's worker (MailStream, src/server/inbound/mime-worker.ts) reads exactly
 * as the same bytes read whole by postal-mime: the worker splits the chunks into lines itself, so a line
 * (or a CRLF) cut by a chunk's end, a last line without its line break, and every fixture must come out
 * the same, with the same SHA-256 and, stored, the same original.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '../../src/server/db/index.ts';
import { MailStream, parseMime } from '../../src/server/inbound/mime-worker.ts';
import { originalGzip } from '../../src/server/inbound/original.ts';
import { inboundFixture } from '../support/inbound.ts';

const fixtures = readdirSync(new URL('../fixtures/inbound/', import.meta.url)).map((name) => name.replace(/\.eml$/, ''));

/** A mail with a base64 file, a quoted-printable part, an 8bit part and a message/rfc822 part. */
function mixedMail(lastLineBreak: boolean): Buffer {
  const file = Buffer.alloc(6_000);
  for (let index = 0; index < file.length; index += 1) file[index] = (index * 7919) % 251;
  const base64 = file.toString('base64').replace(/.{76}/g, '$&\r\n');
  const text = [
    'From: "Gómez, Luis" <luis@ferreteria.example>',
    'To: soporte+abc123@vertice.example',
    'Subject: =?UTF-8?Q?Factura_y_m=C3=A1s?=',
    'Message-ID: <mixta-1@ferreteria.example>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="limite"',
    '',
    '--limite',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    'La impresora no imprime desde el lunes. Ya prob=C3=A9 reiniciarla y sigue igu=',
    'al.',
    '--limite',
    'Content-Type: text/csv; charset=utf-8; name="lista.csv"',
    'Content-Disposition: attachment; filename="lista.csv"',
    'Content-Transfer-Encoding: 8bit',
    '',
    'código;cantidad',
    'A-1;2',
    '--limite',
    'Content-Type: application/pdf; name="factura.pdf"',
    'Content-Disposition: attachment; filename="factura.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    base64,
    '--limite',
    'Content-Type: message/rfc822',
    '',
    'From: ana@cliente.example',
    'Subject: Reenviado',
    '',
    'Hola.',
    '--limite--',
  ].join('\r\n');
  return Buffer.from(lastLineBreak ? `${text}\r\n` : text, 'utf8');
}

const comparable = (email: Awaited<ReturnType<typeof parseMime>>['email']) => ({
  ...email,
  attachments: email.attachments.map((part) => ({
    ...part,
    content: Buffer.from(part.content as ArrayBuffer).toString('base64'),
  })),
});

async function streamed(raw: Buffer, chunkBytes: number, pieceBytes: number) {
  const stream = new MailStream(chunkBytes);
  for (let offset = 0; offset < raw.byteLength; offset += pieceBytes)
    await stream.push(raw.subarray(offset, offset + pieceBytes));
  return stream.finish();
}

describe('a mail streamed to the reader', () => {
  const cases: Array<[string, Buffer]> = [
    ...fixtures.map((name): [string, Buffer] => [name, inboundFixture(name)]),
    ['mixed, ending in CRLF', mixedMail(true)],
    ['mixed, without a last line break', mixedMail(false)],
    ['LF only', Buffer.from(mixedMail(true).toString('utf8').replace(/\r\n/g, '\n'))],
  ];
  it.each(cases)('%s reads as the whole bytes do, cut anywhere', async (_name, raw) => {
    const whole = await parseMime(raw);
    const sha256 = createHash('sha256').update(raw).digest('hex');
    for (const [chunkBytes, pieceBytes] of [
      [1, 1],
      [2, 3],
      [7, 1000],
      [4096, 333],
      [256 * 1024, raw.byteLength],
    ] as const) {
      const read = await streamed(raw, chunkBytes, pieceBytes);
      read.original!.release();
      expect(read.sha256).toBe(sha256);
      expect(comparable(read.email)).toEqual(comparable(whole.email));
    }
  });

  it('keeps the original, gzipped, until it is stored; a dropped stream leaves nothing to store', async () => {
    const raw = mixedMail(true);
    const { db } = openDatabase(':memory:');
    try {
      await migrateToLatest(db);
      const { id } = await db
        .insertInto('inboundMessages')
        .values({
          channel: 'correo',
          dedupKey: 'message-id:mixta-1@ferreteria.example',
          messageId: 'mixta-1@ferreteria.example',
          sender: 'luis@ferreteria.example',
          subject: 'Factura',
          outcome: 'ignored',
          reason: null,
          incidentId: null,
          receivedAt: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const read = await streamed(raw, 1000, 777);
      await read.original!.store(db, id);
      expect(Buffer.from(gunzipSync((await originalGzip(db, id))!)).equals(raw)).toBe(true);

      const dropped = new MailStream(1000);
      await dropped.push(raw.subarray(0, 5000));
      dropped.abort();
      await expect(dropped.finish()).rejects.toThrow();
    } finally {
      await db.destroy();
    }
  });
});
