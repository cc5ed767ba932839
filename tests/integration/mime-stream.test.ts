/**
 * A mail streamed to the reader's worker (MailStream, src/server/channels/mail/mime-worker.ts) reads exactly
 * as the same bytes read whole by postal-mime: the worker splits the chunks into lines itself, so a line
 * (or a CRLF) cut by a chunk's end, a last line without its line break, and every fixture must come out
 * the same, with the same SHA-256 and, stored, the same original.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../../src/server/db/index.ts';
import { MailStream, parseMime } from '../../src/server/channels/mail/mime-worker.ts';
import { originalGzip } from '../../src/server/channels/mail/original.ts';
import { inboundFixture } from '../support/inbound.ts';

const fixtures = readdirSync(new URL('../fixtures/inbound/', import.meta.url)).map((name) =>
  name.replace(/\.eml$/, ''),
);

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

/**
 * The mail spools of process `pid` (the gzip of a mail being received, src/server/channels/mail/mime-worker.ts):
 * the files it holds open, and those left in the temporary folder.
 */
function spools(pid: number): { open: string[]; left: string[] } {
  const prefix = `vertice-correo-${pid}-`;
  const fds = existsSync(`/proc/${pid}/fd`) ? readdirSync(`/proc/${pid}/fd`) : [];
  const open = fds.flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      return target.includes(prefix) ? [target] : [];
    } catch {
      return [];
    }
  });
  return { open, left: readdirSync(tmpdir()).filter((name) => name.startsWith(prefix)) };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let tries = 0; !check(); tries += 1) {
    if (tries > 200) throw new Error(`No ocurrió: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
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

/** The stored row of the mixed mail, whose original the tests then write (its id). */
async function storedMailRow(db: Db): Promise<number> {
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
  return Number(id);
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
      const id = await storedMailRow(db);
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

  it('spools the gzip to a file no one can open, closed once stored or dropped', async () => {
    const raw = mixedMail(true);
    const dir = mkdtempSync(join(tmpdir(), 'vertice-spool-'));
    const { db } = openDatabase(join(dir, 'db.sqlite'));
    try {
      await migrateToLatest(db);
      const id = await storedMailRow(db);
      // The earlier tests' streams, released without waiting, closed first.
      await until(() => spools(process.pid).open.length === 0, 'los correos anteriores se cierran');
      // Staged: the gzip is in a file the worker holds open, already removed from the folder.
      const kept = await streamed(raw, 1000, 777);
      const dropped = await streamed(raw, 4096, 4096);
      expect(spools(process.pid).open).toHaveLength(2);
      expect(spools(process.pid).open.every((target) => target.endsWith('(deleted)'))).toBe(true);
      expect(spools(process.pid).left).toEqual([]);
      // Written in parts from that file (through the worker's own connection), then closed.
      await kept.original!.store(db, id);
      expect(Buffer.from(gunzipSync((await originalGzip(db, id))!)).equals(raw)).toBe(true);
      expect(spools(process.pid).open).toHaveLength(1);
      dropped.original!.release();
      await until(() => spools(process.pid).open.length === 0, 'el original soltado se cierra');
      // A stream dropped midway closes its spool too.
      const stream = new MailStream(1000);
      await stream.push(raw.subarray(0, 5000));
      // push() does not wait for the worker to read what fits in its window.
      await until(() => spools(process.pid).open.length === 1, 'el correo a medias tiene su archivo');
      stream.abort();
      await until(() => spools(process.pid).open.length === 0, 'el correo abandonado se cierra');
      expect(spools(process.pid).left).toEqual([]);
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves no spool behind when the process is killed while a mail is staged', async () => {
    // Another process receives a mail and stops with its gzip staged (as between the commit of its
    // row and the write of its original), then is killed: the redelivery writes the original again
    // (attachments.test.ts); here, nothing of it may be left on the disk.
    const module = new URL('../../src/server/channels/mail/mime-worker.ts', import.meta.url).href;
    const dir = mkdtempSync(join(tmpdir(), 'vertice-spool-'));
    const script = join(dir, 'staged.mjs');
    writeFileSync(
      script,
      [
        `import { MailStream } from ${JSON.stringify(module)};`,
        'const stream = new MailStream(4096);',
        "await stream.push(Buffer.from(process.argv[2], 'base64'));",
        'globalThis.kept = await stream.finish();',
        "process.stdout.write('staged\\n');",
        'setInterval(() => {}, 1000);',
      ].join('\n'),
    );
    const child = spawn(process.execPath, [script, mixedMail(true).toString('base64')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (data: Buffer) => {
          if (data.toString().includes('staged')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`el proceso terminó antes (${code})`)));
      });
      const pid = child.pid!;
      expect(spools(pid).open).toHaveLength(1);
      expect(spools(pid).left).toEqual([]);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      expect(spools(pid)).toEqual({ open: [], left: [] });
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
