/**
 * Issue 21, "Attachments", on both engines: every allowed type is accepted by its content and an
 * executable renamed .pdf is refused; an image is re-encoded without its metadata (GPS) and with its
 * orientation applied, with a thumbnail; the same file is stored once; a file is served to staff and to
 * the holder of its incident's follow-up link only (another incident's token, and an internal note's
 * files, refused) with the serving headers; a staff reply's files reach the customer as attachments
 * through a real SMTP peer; a mail with an inline image and a PDF lands with its files, and a refused
 * file is dropped and named; `npm run data` and `npm run db:backup` carry the files.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import nodemailer from 'nodemailer';
import sharp from 'sharp';
import { afterEach, expect, it } from 'vitest';
import {
  attachmentForStaff,
  attachmentHeaders,
  attachmentsByEntry,
  prepareFiles,
} from '../../src/server/attachments/index.ts';
import { attachmentForToken } from '../../src/server/incidents/index.ts';
import { publicUploadFits, reservePublicUpload } from '../../src/server/attachments/budget.ts';
import { keepFiles, keptFilesOf, purgeUnusedBlobs } from '../../src/server/attachments/kept.ts';
import { backupSqlite } from '../../src/server/db/backup.ts';
import { migrateToLatest, migrator, openDatabase, type Db } from '../../src/server/db/index.ts';
import { exportData } from '../../src/server/data/export.ts';
import { importData } from '../../src/server/data/import.ts';
import {
  addNote,
  answerFromCustomer,
  incidentByNumber,
  replyToCustomer,
  staffTimeline,
} from '../../src/server/incidents/conversation.ts';
import { followUpByToken, issueFollowUpToken } from '../../src/server/incidents/follow-up.ts';
import { createIncident } from '../../src/server/incidents/index.ts';
import type { InboundSettings } from '../../src/server/channels/intake.ts';
import { receiveMail } from '../../src/server/channels/mail/read.ts';
import {
  inboundOriginal,
  originalBytes,
  originalGzip,
  ORIGINAL_PART_BYTES,
} from '../../src/server/channels/mail/original.ts';
import { startMailWorker } from '../../src/server/mail/outbox.ts';
import { smtpTransport } from '../../src/server/mail/transports.ts';
import {
  allowedSamples,
  jpegWithGps,
  hasGpsPointer,
  PDF,
  renamedExecutable,
} from '../support/attachments.ts';
import { createTestDatabase, describeEachEngine } from '../support/db.ts';
import { MAIL_BRAND } from '../support/mail-brand.ts';
import { startSmtpPeer } from '../support/smtp.ts';

const STAFF_INBOX = 'equipo@vertice.example';
const INBOUND = 'soporte@vertice.example';
const brand = { ...MAIL_BRAND, inboundAddress: INBOUND, staffInbox: STAFF_INBOX };
const ana = { id: 'user-ana', email: 'ana@vertice.example', name: 'Ana Pérez' };
const at = (hour: number) => new Date(Date.UTC(2025, 2, 3, hour));
const settings: InboundSettings = {
  brand,
  staffInbox: STAFF_INBOX,
  ownAddresses: ['no-reply@vertice.example', INBOUND, STAFF_INBOX],
  staffEmails: [ana.email],
};

async function openIncident(
  db: Db,
  email = 'maria@cliente.example',
  files: Awaited<ReturnType<typeof prepareFiles>>['prepared'] = [],
) {
  const created = await createIncident(
    db,
    { problema: 'La impresora fiscal no imprime', nombre: 'María Rodríguez', telefono: '', email, rnc: '' },
    { brand, staffInbox: STAFF_INBOX, now: at(14), files },
  );
  const token = await issueFollowUpToken(db, created.id, at(14));
  return { ...created, token };
}

const temporary: string[] = [];
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describeEachEngine('attachments', (database) => {
  it('accepts every allowed type by its content, refuses an executable renamed .pdf, and stores them with the problem', async () => {
    const { db } = database();
    const samples = await allowedSamples();
    const exe = renamedExecutable();
    const { prepared, refused } = await prepareFiles([...samples, exe]);
    const storedName = (name: string) => name.replace(/\.heic$/, '.jpg');
    expect(prepared.map((file) => [file.filename, file.contentType])).toEqual(
      samples.map((sample) => [storedName(sample.filename), sample.contentType]),
    );
    expect(refused).toEqual([
      expect.objectContaining({
        filename: 'factura.pdf',
        reason: 'type',
        message: expect.stringContaining('«factura.pdf» no es un tipo de archivo admitido'),
      }),
    ]);
    // Images get a thumbnail, the HEIC photo (now a JPEG) too.
    expect(prepared.filter((file) => file.thumb).map((file) => file.filename)).toEqual([
      'captura.png',
      'foto.jpg',
      'pantalla.webp',
      'animacion.gif',
      'foto-iphone.jpg',
    ]);

    const incident = await openIncident(db, undefined, prepared);
    const record = (await incidentByNumber(db, incident.numeroIncidencia))!;
    const [problem] = await staffTimeline(db, record);
    expect(problem).toMatchObject({ kind: 'problem' });
    const views = (problem as { adjuntos: Array<{ nombre: string; tipo: string; miniatura: boolean }> })
      .adjuntos;
    expect(views.map((view) => view.nombre)).toEqual(samples.map((sample) => storedName(sample.filename)));
    expect(views.find((view) => view.nombre === 'captura.png')).toMatchObject({
      tipo: 'image/png',
      miniatura: true,
    });
    const followUp = await followUpByToken(db, incident.token);
    expect(followUp!.adjuntos).toHaveLength(samples.length);
  });

  it('re-encodes a JPEG without its GPS metadata, orientation applied, and keeps that clean copy for download', async () => {
    const { db } = database();
    const original = await jpegWithGps();
    const before = await sharp(original).metadata();
    expect(before.orientation).toBe(6);
    expect(hasGpsPointer(before.exif!)).toBe(true);

    const { prepared } = await prepareFiles([{ filename: 'foto-del-local.jpg', data: original }]);
    const incident = await openIncident(db, undefined, prepared);
    const [view] = (await attachmentsByEntry(db, incident.id)).problem;
    const stored = await attachmentForStaff(db, view!.id);
    expect(stored!.contentType).toBe('image/jpeg');
    const after = await sharp(Buffer.from(stored!.data)).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    // Turned as the camera said (64×32 taken sideways): 32 wide, 64 high.
    expect([after.width, after.height]).toEqual([32, 64]);
    const thumb = await attachmentForStaff(db, view!.id, true);
    expect(thumb!.contentType).toBe('image/webp');
    expect((await sharp(Buffer.from(thumb!.data)).metadata()).exif).toBeUndefined();
  });

  it('stores the same file once, whichever incident it comes with', async () => {
    const { db } = database();
    const { prepared } = await prepareFiles([{ filename: 'factura.pdf', data: PDF }]);
    await openIncident(db, 'a@cliente.example', prepared);
    await openIncident(db, 'b@cliente.example', prepared);
    expect(await db.selectFrom('incidentAttachments').select('id').execute()).toHaveLength(2);
    expect(await db.selectFrom('blobs').select('sha256').execute()).toHaveLength(1);
  });

  it('serves a file to its incident token only: not to another incident token, never a note file; with the serving headers', async () => {
    const { db } = database();
    const { prepared } = await prepareFiles([{ filename: 'factura.pdf', data: PDF }]);
    const mine = await openIncident(db, 'maria@cliente.example', prepared);
    const other = await openIncident(db, 'pedro@cliente.example');
    const [pdf] = (await attachmentsByEntry(db, mine.id)).problem;

    const served = await attachmentForToken(db, pdf!.id, mine.token);
    expect(Buffer.from(served!.data).equals(PDF)).toBe(true);
    expect(await attachmentForToken(db, pdf!.id, other.token)).toBeNull();
    expect(await attachmentForToken(db, pdf!.id, 'x'.repeat(24))).toBeNull();

    const { prepared: noteFiles } = await prepareFiles([
      { filename: 'interno.txt', data: Buffer.from('solo para el equipo\n') },
    ]);
    const note = await addNote(
      db,
      { incidentId: mine.id, author: ana, body: 'Revisar el contrato', files: noteFiles },
      at(15),
    );
    const noteFile = (await attachmentsByEntry(db, mine.id)).byEntry.get(note.id)![0]!;
    expect(await attachmentForStaff(db, noteFile.id)).not.toBeNull();
    expect(await attachmentForToken(db, noteFile.id, mine.token)).toBeNull();
    expect((await followUpByToken(db, mine.token))!.respuestas).toEqual([]);

    expect(attachmentHeaders(served!, served!.data)).toMatchObject({
      'Content-Type': 'application/pdf',
      'Content-Disposition': `inline; filename="factura.pdf"; filename*=UTF-8''factura.pdf`,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "sandbox; default-src 'none'",
      'Cache-Control': 'private, no-store',
    });
    const text = { filename: 'registro del día.log', contentType: 'text/plain; charset=utf-8' };
    expect(attachmentHeaders(text, new Uint8Array(3))['Content-Disposition']).toBe(
      `attachment; filename="registro del d_a.log"; filename*=UTF-8''registro%20del%20d%C3%ADa.log`,
    );
    expect(
      attachmentHeaders({ filename: 'a.png', contentType: 'image/png' }, new Uint8Array(1))[
        'Content-Disposition'
      ],
    ).toMatch(/^inline;/);
  });

  it('a visitor answer keeps its files, shown on the follow-up page', async () => {
    const { db } = database();
    const incident = await openIncident(db);
    const { prepared } = await prepareFiles([
      { filename: 'error.png', data: (await allowedSamples())[0]!.data },
    ]);
    await answerFromCustomer(
      db,
      {
        token: incident.token,
        body: 'Adjunto la captura',
        brand,
        staffInbox: STAFF_INBOX,
        staffEmails: [],
        files: prepared,
      },
      at(15),
    );
    // The staff's notice says a file came, and where to open it.
    const notice = await db
      .selectFrom('mailOutbox')
      .select('textBody')
      .where('kind', '=', 'incident.answer')
      .executeTakeFirstOrThrow();
    expect(notice.textBody).toContain('Trae adjunto: error.png. Ábrelo en la página de la incidencia.');
    const followUp = await followUpByToken(db, incident.token);
    expect(followUp!.respuestas).toEqual([
      expect.objectContaining({
        de: 'cliente',
        adjuntos: [expect.objectContaining({ nombre: 'error.png', miniatura: true })],
      }),
    ]);
  });

  it("queues a staff reply's files with it and sends them to the customer as attachments (real SMTP peer)", async () => {
    const { db } = database();
    const incident = await openIncident(db);
    const { prepared } = await prepareFiles([
      { filename: 'manual.pdf', data: PDF },
      { filename: 'pasos.txt', data: Buffer.from('1. Apague la impresora\n2. Enciéndala\n') },
    ]);
    await replyToCustomer(
      db,
      { incidentId: incident.id, author: ana, body: 'Te envío el manual.', brand, files: prepared },
      at(15),
    );
    const row = await db
      .selectFrom('mailOutbox')
      .selectAll()
      .where('kind', '=', 'incident.reply')
      .executeTakeFirstOrThrow();
    // The row names the stored files; their bytes are read when the mail is sent.
    expect(JSON.parse(row.attachments!)).toEqual([
      expect.objectContaining({
        filename: 'manual.pdf',
        contentType: 'application/pdf',
        blob: expect.stringMatching(/^[0-9a-f]{64}$/),
      }),
      expect.objectContaining({ filename: 'pasos.txt', blob: expect.stringMatching(/^[0-9a-f]{64}$/) }),
    ]);

    const peer = await startSmtpPeer();
    const worker = startMailWorker({
      db,
      transport: smtpTransport(peer.url, 'Vértice <no-reply@vertice.example>'),
      poll: false,
      now: () => at(15),
    });
    try {
      await worker.runOnce();
      const mail = await peer.waitFor(
        (message) => message.subject?.startsWith('Respuesta a tu incidencia') ?? false,
      );
      expect(mail.attachments.map((file) => [file.filename, file.contentType])).toEqual([
        ['manual.pdf', 'application/pdf'],
        ['pasos.txt', 'text/plain'],
      ]);
      expect(mail.attachments[0]!.content.equals(PDF)).toBe(true);
      expect(mail.attachments[1]!.content.toString('utf8')).toContain('Enciéndala');
      expect(mail.text).toContain(
        'Te enviamos adjuntos 2 archivos: manual.pdf, pasos.txt. También están en la conversación.',
      );
    } finally {
      await worker.stop();
      await peer.stop();
    }
  });

  it('a mail with an inline image and a PDF lands with its files; an executable in it is dropped and named', async () => {
    const { db } = database();
    const png = (await allowedSamples())[0]!.data;
    const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
    const { message } = (await composer.sendMail({
      from: 'Luis Gómez <luis@ferreteria.example>',
      to: INBOUND,
      subject: 'La balanza no conecta',
      messageId: '<balanza-1@ferreteria.example>',
      text: 'Adjunto la captura y la factura.',
      html: '<p>Adjunto la captura y la factura.</p><img src="cid:captura@ferreteria">',
      attachments: [
        { filename: 'captura.png', content: png, cid: 'captura@ferreteria', contentDisposition: 'inline' },
        { filename: 'factura.pdf', content: PDF, contentType: 'application/pdf' },
        { filename: 'programa.pdf', content: renamedExecutable().data, contentType: 'application/pdf' },
      ],
    })) as unknown as { message: Buffer };
    const result = await receiveMail(db, message, settings, at(16));
    expect(result.outcome).toBe('new-incident');
    const files = (await attachmentsByEntry(db, result.incidentId!)).problem;
    expect(files.map((file) => [file.nombre, file.tipo, file.miniatura, file.descartado])).toEqual([
      ['captura.png', 'image/png', true, undefined],
      ['factura.pdf', 'application/pdf', false, undefined],
      ['programa.pdf', 'application/octet-stream', false, 'tipo de archivo no admitido'],
    ]);
    expect(await attachmentForStaff(db, files[2]!.id)).toBeNull();

    // A reply by mail joins the incident with its file, on the answer.
    const numero = result.numeroIncidencia!;
    const reply = await composer.sendMail({
      from: 'luis@ferreteria.example',
      to: INBOUND,
      subject: `Re: Incidencia ${numero}`,
      text: 'Otra captura.',
      attachments: [{ filename: 'otra.png', content: png }],
    });
    const answered = await receiveMail(
      db,
      (reply as unknown as { message: Buffer }).message,
      settings,
      at(17),
    );
    expect(answered.outcome).toBe('unverified');
    const timeline = await staffTimeline(db, (await incidentByNumber(db, numero))!);
    expect(timeline.at(-1)).toMatchObject({
      kind: 'answer',
      adjuntos: [expect.objectContaining({ nombre: 'otra.png' })],
    });
  });

  it('a mail received through the reader that stores it (its original and two files written by its worker) keeps each once: redelivered after a crash that left its row without the original, it fills that in and doubles nothing', async () => {
    const { db } = database();
    // Two files of 300 kB each, larger than Node's pool of small Buffers: moved to the worker and back.
    const pdf = (seed: number) => {
      const data = Buffer.alloc(300_000, seed);
      PDF.copy(data);
      return data;
    };
    const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
    const { message } = (await composer.sendMail({
      from: 'Luis Gómez <luis@ferreteria.example>',
      to: INBOUND,
      subject: 'Las facturas del mes',
      messageId: '<facturas-1@ferreteria.example>',
      text: 'Adjunto las dos facturas.',
      attachments: [
        { filename: 'factura-1.pdf', content: pdf(1), contentType: 'application/pdf' },
        { filename: 'factura-2.pdf', content: pdf(2), contentType: 'application/pdf' },
      ],
    })) as unknown as { message: Buffer };
    const raw = Buffer.from(message);
    // As a channel hands it over: streamed to the reader's worker, which keeps the original.
    const first = await receiveMail(db, new Uint8Array(message), settings, at(16));
    expect(first.outcome).toBe('new-incident');

    const stateOf = async () => {
      const files = (await attachmentsByEntry(db, first.incidentId!)).problem;
      const contents = await Promise.all(files.map((file) => attachmentForStaff(db, file.id)));
      const blobs = await db.selectFrom('blobs').select(['sha256', 'size']).orderBy('sha256').execute();
      const inbound = await Promise.all(
        (await db.selectFrom('inboundMessages').select(['id', 'originalParts']).execute()).map(
          async (row) => ({
            ...row,
            rawGzip: await originalGzip(db, row.id),
          }),
        ),
      );
      return { files, contents, blobs, inbound };
    };
    const stored = await stateOf();
    expect(stored.files.map((file) => file.nombre)).toEqual(['factura-1.pdf', 'factura-2.pdf']);
    expect(stored.contents.map((file, index) => Buffer.from(file!.data).equals(pdf(index + 1)))).toEqual([
      true,
      true,
    ]);
    expect(stored.blobs.filter((blob) => Number(blob.size) === 300_000)).toHaveLength(2);
    expect(stored.inbound).toHaveLength(1);
    expect(Buffer.from(gunzipSync(stored.inbound[0]!.rawGzip!)).equals(raw)).toBe(true);

    // A crash after the commit and before the worker wrote the original: the row has none.
    await db.deleteFrom('inboundOriginalParts').execute();
    await db.updateTable('inboundMessages').set({ originalParts: null }).execute();
    const again = await receiveMail(db, new Uint8Array(raw), settings, at(16));
    expect(again).toMatchObject({
      outcome: 'duplicate',
      firstOutcome: 'new-incident',
      inboundId: first.inboundId,
    });
    const refilled = await stateOf();
    expect(Buffer.from(gunzipSync(refilled.inbound[0]!.rawGzip!)).equals(raw)).toBe(true);
    expect(refilled.files.map((file) => file.id)).toEqual(stored.files.map((file) => file.id));
    expect(refilled.blobs).toEqual(stored.blobs);
    expect(await db.selectFrom('incidents').select('id').execute()).toHaveLength(1);

    // Delivered once more: still one of everything, the original as it was.
    expect((await receiveMail(db, raw, settings, at(17))).outcome).toBe('duplicate');
    const last = await stateOf();
    expect(last.blobs).toEqual(stored.blobs);
    expect(last.inbound).toHaveLength(1);
    expect(last.files).toHaveLength(2);
    expect(Buffer.from(gunzipSync(last.inbound[0]!.rawGzip!)).equals(raw)).toBe(true);
  });

  it('keeps an original larger than one part in parts of at most 1 MiB, reads it back byte for byte, and a redelivery repairs one left unfinished (a part missing, or its count unset)', async () => {
    const { db } = database();
    // 3 MiB of random bytes, base64 in the mail: its gzip is about 3 MiB too, four parts.
    const noise = randomBytes(3 * 1024 * 1024);
    const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
    const { message } = (await composer.sendMail({
      from: 'Luis Gómez <luis@ferreteria.example>',
      to: INBOUND,
      subject: 'El respaldo',
      messageId: '<respaldo-1@ferreteria.example>',
      text: 'Adjunto el respaldo.',
      attachments: [
        { filename: 'respaldo.pdf', content: Buffer.concat([PDF, noise]), contentType: 'application/pdf' },
      ],
    })) as unknown as { message: Buffer };
    const raw = Buffer.from(message);
    const first = await receiveMail(db, new Uint8Array(raw), settings, at(16));
    expect(first.inboundId).toBeDefined();
    const id = first.inboundId!;

    const partsOf = () =>
      db
        .selectFrom('inboundOriginalParts')
        .select(['part', 'data'])
        .where('inboundId', '=', id)
        .orderBy('part')
        .execute();
    const stored = await partsOf();
    const gzip = Buffer.concat(stored.map((part) => part.data));
    expect(stored.length).toBe(Math.ceil(gzip.length / ORIGINAL_PART_BYTES));
    expect(stored.length).toBeGreaterThanOrEqual(4);
    expect(stored.map((part) => part.part)).toEqual(stored.map((_, index) => index));
    expect(stored.every((part) => part.data.byteLength <= ORIGINAL_PART_BYTES)).toBe(true);
    expect(stored.slice(0, -1).every((part) => part.data.byteLength === ORIGINAL_PART_BYTES)).toBe(true);
    const count = async () =>
      (
        await db
          .selectFrom('inboundMessages')
          .select('originalParts')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).originalParts;
    expect(await count()).toBe(stored.length);
    expect(Buffer.from(gunzipSync(gzip)).equals(raw)).toBe(true);
    expect((await originalBytes(db, id))!.equals(raw)).toBe(true);
    expect(await inboundOriginal(db, id)).toBe(raw.toString('utf8'));

    // A crash between two parts: the last one missing (the count, set last, unset too), then a count
    // without its last part. Either reads as no original, and a redelivery writes it again.
    await db
      .deleteFrom('inboundOriginalParts')
      .where('inboundId', '=', id)
      .where('part', '=', stored.length - 1)
      .execute();
    await db.updateTable('inboundMessages').set({ originalParts: null }).where('id', '=', id).execute();
    expect(await originalBytes(db, id)).toBeNull();
    expect(await receiveMail(db, new Uint8Array(raw), settings, at(17))).toMatchObject({
      outcome: 'duplicate',
      inboundId: id,
    });
    expect(await count()).toBe(stored.length);
    expect((await partsOf()).map((part) => part.part)).toEqual(stored.map((part) => part.part));
    expect((await originalBytes(db, id))!.equals(raw)).toBe(true);

    await db.updateTable('inboundMessages').set({ originalParts: null }).where('id', '=', id).execute();
    expect(await originalBytes(db, id)).toBeNull();
    expect(await receiveMail(db, new Uint8Array(raw), settings, at(18))).toMatchObject({
      outcome: 'duplicate',
      inboundId: id,
    });
    expect(await count()).toBe(stored.length);
    expect(Buffer.concat((await partsOf()).map((part) => part.data)).equals(gzip)).toBe(true);
    expect((await originalBytes(db, id))!.equals(raw)).toBe(true);

    // A complete original is left as it is by a redelivery.
    expect((await receiveMail(db, new Uint8Array(raw), settings, at(19))).outcome).toBe('duplicate');
    expect(await partsOf()).toHaveLength(stored.length);
  });

  it('migration 0034 splits the originals already stored into parts, and joins them back on the way down', async () => {
    const { db } = database();
    const raw = Buffer.concat([
      Buffer.from('Subject: respaldo\r\n\r\n'),
      Buffer.from(randomBytes(2 * 1024 * 1024 + 5000).toString('base64')),
    ]);
    const gzip = gzipSync(raw);
    const small = gzipSync(Buffer.from('Subject: corto\r\n\r\nHola.\r\n'));
    const down = await migrator(db).migrateTo('0033_articles');
    expect(down.error).toBeUndefined();
    const row = (key: string, value: Buffer | null) =>
      sql`insert into inbound_messages (channel, dedup_key, sender, subject, outcome, raw_gzip, received_at)
          values ('correo', ${key}, 'luis@ferreteria.example', '', 'ignored', ${value}, ${at(10).toISOString()})`.execute(
        db,
      );
    await row('message-id:grande@ferreteria.example', gzip);
    await row('message-id:corto@ferreteria.example', small);
    await row('message-id:sin@ferreteria.example', null);
    await migrateToLatest(db);
    const ids = await db
      .selectFrom('inboundMessages')
      .select(['id', 'dedupKey', 'originalParts'])
      .orderBy('id')
      .execute();
    expect(ids.map((item) => item.originalParts)).toEqual([
      Math.ceil(gzip.length / ORIGINAL_PART_BYTES),
      1,
      null,
    ]);
    expect(ids[0]!.originalParts).toBeGreaterThanOrEqual(3);
    expect((await originalBytes(db, ids[0]!.id))!.equals(raw)).toBe(true);
    expect((await originalGzip(db, ids[1]!.id))!.equals(small)).toBe(true);
    expect(await originalBytes(db, ids[2]!.id)).toBeNull();

    // Down again: one value each, as before.
    expect((await migrator(db).migrateTo('0033_articles')).error).toBeUndefined();
    const back = await sql<{
      gzip: Uint8Array | null;
    }>`select raw_gzip as gzip from inbound_messages order by id`.execute(db);
    expect(
      back.rows.map((item) =>
        item.gzip ? Buffer.from(item.gzip).equals(item === back.rows[0] ? gzip : small) : null,
      ),
    ).toEqual([true, true, null]);
    await migrateToLatest(db);
    expect((await originalBytes(db, ids[0]!.id))!.equals(raw)).toBe(true);
  });

  it('keeps the good files of a refused try for a day, for that action only, and purges blobs nobody uses', async () => {
    const { db } = database();
    const secret = 'x'.repeat(40);
    const { prepared } = await prepareFiles([
      { filename: 'factura.pdf', data: PDF },
      { filename: 'captura.png', data: (await allowedSamples())[0]!.data },
    ]);
    const kept = await keepFiles(db, prepared, 'incidents.create', secret, at(10));
    expect(kept.map((file) => [file.nombre, file.tamano])).toEqual(
      prepared.map((file) => [file.filename, file.data.byteLength]),
    );

    const back = await keptFilesOf(
      db,
      kept.map((file) => file.ref),
      'incidents.create',
      secret,
      at(11),
    );
    expect(back.map((file) => [file.filename, file.contentType, file.thumb !== null])).toEqual([
      ['factura.pdf', 'application/pdf', false],
      ['captura.png', 'image/png', true],
    ]);
    expect(Buffer.from(back[0]!.data).equals(PDF)).toBe(true);
    // Another action, another secret, a day later, a forged name: nothing.
    expect(await keptFilesOf(db, [kept[0]!.ref], 'incidents.answer', secret, at(11))).toEqual([]);
    expect(await keptFilesOf(db, [kept[0]!.ref], 'incidents.create', 'y'.repeat(40), at(11))).toEqual([]);
    expect(
      await keptFilesOf(
        db,
        [kept[0]!.ref],
        'incidents.create',
        secret,
        new Date(at(10).getTime() + 25 * 3600_000),
      ),
    ).toEqual([]);
    const [body, mac] = kept[0]!.ref.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), n: 'otro.exe' }),
    ).toString('base64url');
    expect(await keptFilesOf(db, [`${forged}.${mac}`], 'incidents.create', secret, at(11))).toEqual([]);

    // Sent back: stored with the incident. Two days on, only the blobs nobody names go.
    await openIncident(db, undefined, [back[0]!]);
    expect(await purgeUnusedBlobs(db, new Date(at(10).getTime() + 49 * 3600_000))).toBe(2);
    expect(await db.selectFrom('blobs').select('sha256').execute()).toEqual([
      { sha256: kept.length ? expect.stringMatching(/^[0-9a-f]{64}$/) : '' },
    ]);
    expect(await keptFilesOf(db, [kept[1]!.ref], 'incidents.create', secret, at(11))).toEqual([]);
  });

  it('counts public uploads against the daily total', async () => {
    const { db } = database();
    const mb = 1024 * 1024;
    expect(await publicUploadFits(db, 900 * 1024, 1, at(10))).toBe(true);
    expect(await reservePublicUpload(db, 900 * 1024, 1, at(10))).toBe(true);
    expect(await publicUploadFits(db, 200 * 1024, 1, at(11))).toBe(false);
    expect(await reservePublicUpload(db, 200 * 1024, 1, at(11))).toBe(false);
    expect(await reservePublicUpload(db, 100 * 1024, 1, at(11))).toBe(true);
    // The next UTC day starts again; 0 is no total.
    expect(await reservePublicUpload(db, mb, 1, new Date(Date.UTC(2025, 2, 4, 1)))).toBe(true);
    expect(await reservePublicUpload(db, 50 * mb, 0, at(12))).toBe(true);
  });

  it('npm run data carries the files (each blob once) and a second import adds nothing', async () => {
    const { db } = database();
    const { prepared } = await prepareFiles([
      { filename: 'factura.pdf', data: PDF },
      { filename: 'foto.jpg', data: await jpegWithGps() },
    ]);
    const incident = await openIncident(db, undefined, prepared);
    const { prepared: replyFiles } = await prepareFiles([{ filename: 'factura.pdf', data: PDF }]);
    await replyToCustomer(
      db,
      { incidentId: incident.id, author: ana, body: 'Revisada.', brand, files: replyFiles },
      at(15),
    );
    const exported = await exportData(db);
    expect(Object.keys(exported.blobs ?? {})).toHaveLength(3);
    expect(exported.incidents[0]!.attachments).toHaveLength(3);

    const destination = await createTestDatabase('sqlite');
    const target = destination.db;
    try {
      await importData(target, JSON.parse(JSON.stringify(exported)));
      await importData(target, JSON.parse(JSON.stringify(exported)));
      const [copy] = await target.selectFrom('incidents').select('id').execute();
      const files = await attachmentsByEntry(target, copy!.id);
      expect(files.problem.map((file) => file.nombre)).toEqual(['factura.pdf', 'foto.jpg']);
      expect([...files.byEntry.values()].flat().map((file) => file.nombre)).toEqual(['factura.pdf']);
      expect(Buffer.from((await attachmentForStaff(target, files.problem[0]!.id))!.data).equals(PDF)).toBe(
        true,
      );
      expect(await target.selectFrom('blobs').select('sha256').execute()).toHaveLength(3);
      expect(await target.selectFrom('incidentAttachments').select('id').execute()).toHaveLength(3);
    } finally {
      await destination.cleanup();
    }
  });
});

it('npm run db:backup (SQLite) carries the files', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'adjuntos-copia-'));
  temporary.push(dir);
  const database = await createTestDatabase('sqlite');
  const db = database.db;
  try {
    const { prepared } = await prepareFiles([{ filename: 'factura.pdf', data: PDF }]);
    const incident = await openIncident(db, undefined, prepared);
    const copyPath = await backupSqlite(db, `${dir}/copia.db`);
    const copy = openDatabase(copyPath).db;
    try {
      const [file] = (await attachmentsByEntry(copy, incident.id)).problem;
      expect(Buffer.from((await attachmentForStaff(copy, file!.id))!.data).equals(PDF)).toBe(true);
    } finally {
      await copy.destroy();
    }
  } finally {
    await database.cleanup();
  }
});
