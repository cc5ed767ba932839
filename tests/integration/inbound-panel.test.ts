/**
 * 'Correo entrante' in Configuración (issue 21), on both engines: the refused messages ('Rechazados')
 * not dealt with, newest first; 'Crear incidencia' opens an incident from the stored message through
 * the one inbound path (the confirmation threaded under the customer's mail, origin 'Correo', the
 * timeline's 'por correo' and 'Ver original'), once however often it is clicked; 'Descartar' takes it off
 * the list and keeps the record; both audited. What came in today is counted by Santo Domingo's day.
 */
import nodemailer from 'nodemailer';
import { expect, it } from 'vitest';
import { attachmentsByEntry } from '../../src/server/attachments/index.ts';
import type { Db } from '../../src/server/db/index.ts';
import { ingestMessage } from '../../src/server/channels/intake.ts';
import { receiveMail } from '../../src/server/channels/mail/read.ts';
import {
  discardRefused,
  NO_ORIGINAL_TEXT,
  openIncidentFromRefused,
  refusedMessages,
} from '../../src/server/channels/refused.ts';
import { receivedToday, startOfLocalDay } from '../../src/server/channels/status.ts';
import { incidentByNumber, staffTimeline } from '../../src/server/incidents/conversation.ts';
import { describeEachEngine } from '../support/db.ts';
import { PDF } from '../support/attachments.ts';
import { INBOUND, inboundFixture, testInboundSettings, withMessageId } from '../support/inbound.ts';

const settings = testInboundSettings();
const ana = { actorId: 'user-ana', actorEmail: 'ana@vertice.example', network: '203.0.113.5' };
const at = (hour: number, minute = 0) => new Date(Date.UTC(2025, 2, 13, hour, minute));

const SPAM_ID = '9f8e7d6c5b4a@oferta.example';
const NEW_ID = 'CAH7uXq4Zr9t1nE0bQf2W3vX5yZ6aB7cD8eF9gH0iJ1kL2mN3oP@mail.gmail.com';

/** Six new mails from one sender within the hour: the sixth is refused (`rate-limit`). */
async function floodFromOneSender(db: Db) {
  let last;
  for (let index = 1; index <= 6; index += 1)
    last = await receiveMail(
      db,
      withMessageId(inboundFixture('new-incident'), `aviso-${index}@panaderia.example`),
      settings,
      at(14, index),
    );
  return last!;
}

/** A customer's new mail that the mailbox's filter wrongly marked as spam. */
const spamFlagged = () =>
  Buffer.from(
    inboundFixture('new-incident')
      .toString('utf8')
      .replace('MIME-Version: 1.0\r\n', 'MIME-Version: 1.0\r\nX-Spam-Flag: YES\r\n'),
  );

const auditOf = (db: Db) =>
  db.selectFrom('auditEvents').select(['action', 'actorEmail', 'subject', 'detail']).orderBy('id').execute();

describeEachEngine('Correo entrante', (database) => {
  it('lists the refused messages not dealt with, newest first, with their reason and whether the original is kept', async () => {
    const { db } = database();
    const spam = await receiveMail(db, inboundFixture('spam'), settings, at(13));
    const limited = await floodFromOneSender(db);
    expect(limited).toMatchObject({ outcome: 'rejected', reason: 'rate-limit' });
    // What was only read in the envelope (too large to download): no original.
    const large = await ingestMessage(
      db,
      {
        channel: 'correo',
        dedupKey: 'message-id:grande@panaderia.example',
        messageId: 'grande@panaderia.example',
        sender: { address: 'carmen@panaderia.example', name: '' },
        recipients: [],
        threadKeys: [],
        subject: 'Fotos del error',
        text: '',
        files: [],
        raw: null,
        refusal: { outcome: 'rejected', reason: 'too-large' },
      },
      settings,
      at(15),
    );
    // Answers, new incidents and automatic mail are not on the list.
    await receiveMail(db, inboundFixture('out-of-office'), settings, at(16));

    const list = await refusedMessages(db);
    expect(list.total).toBe(3);
    expect(list.items).toEqual([
      {
        id: large.inboundId,
        sender: 'carmen@panaderia.example',
        subject: 'Fotos del error',
        reason: 'too-large',
        receivedAt: at(15).toISOString(),
        hasOriginal: false,
      },
      {
        id: limited.inboundId,
        sender: 'carmen@panaderia.example',
        subject: 'No puedo entrar a Restaurant.pe',
        reason: 'rate-limit',
        receivedAt: at(14, 6).toISOString(),
        hasOriginal: true,
      },
      {
        id: spam.inboundId,
        sender: 'ganador@oferta.example',
        subject: '¡Ganaste un iPhone!',
        reason: 'spam',
        receivedAt: at(13).toISOString(),
        hasOriginal: true,
      },
    ]);
    expect((await refusedMessages(db, 1)).items).toHaveLength(1);
  });

  it('Crear incidencia opens an incident from the stored mail through the one path, once, and audits it', async () => {
    const { db } = database();
    const limited = await receiveMail(db, spamFlagged(), settings, at(14));
    expect(limited).toMatchObject({ outcome: 'rejected', reason: 'spam' });
    const before = await db.selectFrom('incidents').select('id').execute();

    const opened = await openIncidentFromRefused(db, limited.inboundId!, settings, ana, at(17));
    expect(opened).toMatchObject({ status: 'opened' });
    if (opened.status !== 'opened') throw new Error('no se abrió');
    expect(await db.selectFrom('incidents').select('id').execute()).toHaveLength(before.length + 1);

    const incident = (await incidentByNumber(db, opened.numeroIncidencia))!;
    expect(incident).toMatchObject({
      origen: 'Correo',
      nombre: 'Carmen Peralta',
      email: 'carmen@panaderia.example',
    });
    expect(incident.problema).toMatch(/^No puedo entrar a Restaurant\.pe\n\nBuenos días:/);
    // The confirmation goes to the sender, threaded under their own mail, as rule 4's would.
    const confirmation = await db
      .selectFrom('mailOutbox')
      .select(['toAddress', 'headers'])
      .where('kind', '=', 'incident.confirmation')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(confirmation.toAddress).toBe('carmen@panaderia.example');
    expect(JSON.parse(confirmation.headers!)).toMatchObject({ 'In-Reply-To': `<${NEW_ID}>` });

    const row = await db
      .selectFrom('inboundMessages')
      .select(['outcome', 'reason', 'incidentId', 'reviewedBy'])
      .where('id', '=', limited.inboundId!)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      outcome: 'new-incident',
      reason: 'spam',
      incidentId: opened.incidentId,
      reviewedBy: ana.actorEmail,
    });
    expect((await refusedMessages(db)).total).toBe(0);
    expect(await auditOf(db)).toEqual([
      {
        action: 'incident.from-refused',
        actorEmail: ana.actorEmail,
        subject: opened.numeroIncidencia,
        detail: 'carmen@panaderia.example · No puedo entrar a Restaurant.pe',
      },
    ]);
    // The timeline's first entry came by mail, with its original.
    const [problem] = await staffTimeline(db, incident);
    expect(problem).toMatchObject({ kind: 'problem', via: 'correo', original: limited.inboundId });

    // A second click (or a colleague's): nothing more.
    expect(await openIncidentFromRefused(db, limited.inboundId!, settings, ana, at(17, 1))).toEqual({
      status: 'gone',
    });
    expect(await db.selectFrom('incidents').select('id').execute()).toHaveLength(before.length + 1);
    expect(await auditOf(db)).toHaveLength(1);
  });

  it('Crear incidencia carries the files of the refused mail to the incident, as rule 4 would', async () => {
    const { db } = database();
    const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
    const { message } = (await composer.sendMail({
      from: 'Luis Gómez <luis@ferreteria.example>',
      to: INBOUND,
      subject: 'La factura no cuadra',
      messageId: '<factura-1@ferreteria.example>',
      headers: { 'X-Spam-Flag': 'YES' },
      text: 'Adjunto la factura.',
      attachments: [{ filename: 'factura.pdf', content: PDF, contentType: 'application/pdf' }],
    })) as unknown as { message: Buffer };
    const refused = await receiveMail(db, message, settings, at(14));
    expect(refused).toMatchObject({ outcome: 'rejected', reason: 'spam' });
    const opened = await openIncidentFromRefused(db, refused.inboundId!, settings, ana, at(15));
    if (opened.status !== 'opened') throw new Error('no se abrió');
    const files = (await attachmentsByEntry(db, opened.incidentId)).problem;
    expect(files.map((file) => [file.nombre, file.tipo])).toEqual([['factura.pdf', 'application/pdf']]);
  });

  it('Crear incidencia on a mail too large to download opens it from the envelope; without a sender it refuses', async () => {
    const { db } = database();
    const base = {
      channel: 'correo',
      messageId: null,
      recipients: [],
      threadKeys: [],
      text: '',
      files: [],
      raw: null,
      refusal: { outcome: 'rejected' as const, reason: 'too-large' },
    };
    const large = await ingestMessage(
      db,
      {
        ...base,
        dedupKey: 'imap-too-large:7:Fotos',
        sender: { address: 'carmen@panaderia.example', name: '' },
        subject: 'Fotos',
      },
      settings,
      at(15),
    );
    const opened = await openIncidentFromRefused(db, large.inboundId!, settings, ana, at(16));
    if (opened.status !== 'opened') throw new Error('no se abrió');
    const incident = (await incidentByNumber(db, opened.numeroIncidencia))!;
    expect(incident.problema).toBe(`Fotos\n\n${NO_ORIGINAL_TEXT}`);
    const [problem] = await staffTimeline(db, incident);
    expect(problem).toMatchObject({ via: 'correo', original: large.inboundId });

    const anonymous = await ingestMessage(
      db,
      { ...base, dedupKey: 'sha256:sin-remitente', sender: null, subject: 'Hola' },
      settings,
      at(15),
    );
    expect(anonymous).toMatchObject({ outcome: 'rejected', reason: 'no-sender' });
    expect(await openIncidentFromRefused(db, anonymous.inboundId!, settings, ana, at(16))).toEqual({
      status: 'no-sender',
    });
    expect((await refusedMessages(db)).items.map((item) => item.id)).toEqual([anonymous.inboundId]);
  });

  it('Descartar takes it off the list, keeps the record and audits it; a second time does nothing', async () => {
    const { db } = database();
    const spam = await receiveMail(db, inboundFixture('spam'), settings, at(13));
    expect(await discardRefused(db, spam.inboundId!, ana, at(14))).toBe('discarded');
    expect((await refusedMessages(db)).total).toBe(0);
    expect(
      await db
        .selectFrom('inboundMessages')
        .select(['messageId', 'outcome', 'reason', 'reviewedBy', 'incidentId'])
        .execute(),
    ).toEqual([
      {
        messageId: SPAM_ID,
        outcome: 'rejected',
        reason: 'spam',
        reviewedBy: ana.actorEmail,
        incidentId: null,
      },
    ]);
    expect(await auditOf(db)).toEqual([
      {
        action: 'inbound.discarded',
        actorEmail: ana.actorEmail,
        subject: 'ganador@oferta.example',
        detail: '¡Ganaste un iPhone!',
      },
    ]);
    expect(await discardRefused(db, spam.inboundId!, ana, at(15))).toBe('gone');
    // Only a refused message can be discarded or admitted.
    const answer = await receiveMail(db, inboundFixture('new-incident'), settings, at(13));
    expect(await discardRefused(db, answer.inboundId!, ana, at(15))).toBe('gone');
    expect(await openIncidentFromRefused(db, answer.inboundId!, settings, ana, at(15))).toEqual({
      status: 'gone',
    });
    // The same mail delivered again is still a duplicate: it does not come back to the list.
    expect((await receiveMail(db, inboundFixture('spam'), settings, at(16))).outcome).toBe('duplicate');
    expect((await refusedMessages(db)).total).toBe(0);
  });

  it('counts what came in today by Santo Domingo day, by outcome', async () => {
    const { db } = database();
    // 03:30 UTC on the 13th is still the 12th in Santo Domingo (UTC-4).
    await receiveMail(db, inboundFixture('spam'), settings, at(3, 30));
    await receiveMail(db, inboundFixture('new-incident'), settings, at(4, 30));
    await receiveMail(db, inboundFixture('out-of-office'), settings, at(12));
    await receiveMail(db, withMessageId(inboundFixture('spam'), 'otro@oferta.example'), settings, at(13));
    expect(startOfLocalDay(at(20)).toISOString()).toBe('2025-03-13T04:00:00.000Z');
    expect(await receivedToday(db, at(20))).toEqual({
      total: 3,
      byOutcome: { 'new-incident': 1, ignored: 1, rejected: 1 },
    });
    // 03:59 UTC on the 14th is still the 13th there.
    expect((await receivedToday(db, new Date(Date.UTC(2025, 2, 14, 3, 59)))).total).toBe(3);
    expect((await receivedToday(db, new Date(Date.UTC(2025, 2, 14, 4)))).total).toBe(0);
  });
});
