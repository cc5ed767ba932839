/**
 * Issue 38, F3, on both engines: a mail matched only by the incident number in its subject (a From
 * header anyone can write) is stored 'Remitente sin verificar' and neither it nor its file reaches the
 * customer's follow-up page or file route until a staff member accepts it ('Aceptar como del cliente':
 * once, in the timeline and the audit log, carried by `npm run data`); and a sender's mails joined by
 * the subject are limited per UTC day, past which such a mail opens an incident of its own.
 */
import nodemailer from 'nodemailer';
import { expect, it } from 'vitest';
import { SUBJECT_MATCHES_PER_SENDER_PER_DAY } from '../../src/domain/inbound.ts';
import { attachmentForStaff, attachmentsByEntry } from '../../src/server/attachments/index.ts';
import { attachmentForToken } from '../../src/server/incidents/index.ts';
import { exportData } from '../../src/server/data/export.ts';
import { importData } from '../../src/server/data/import.ts';
import type { Db } from '../../src/server/db/index.ts';
import {
  acceptUnverifiedAnswer,
  AnswerNotFoundError,
  incidentByNumber,
  staffTimeline,
} from '../../src/server/incidents/conversation.ts';
import { followUpByToken, issueFollowUpToken } from '../../src/server/incidents/follow-up.ts';
import { receiveMail } from '../../src/server/channels/mail/read.ts';
import { PDF } from '../support/attachments.ts';
import { createTestDatabase, describeEachEngine } from '../support/db.ts';
import {
  INBOUND,
  openFormIncident,
  testInboundSettings,
  withMessageId,
  inboundFixture,
} from '../support/inbound.ts';

const settings = testInboundSettings(['ana@vertice.example']);
const ana = { id: 'user-ana', email: 'ana@vertice.example', name: 'Ana Pérez' };
const audit = { actorId: ana.id, actorEmail: ana.email, network: '127.0.0.0/24' };
const at = (day: number, hour: number, minute = 0) => new Date(Date.UTC(2025, 2, day, hour, minute));

/** A mail From the incident's own address naming its number in the subject only, with a PDF. */
async function forged(numero: string, messageId: string): Promise<Buffer> {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const { message } = (await composer.sendMail({
    from: 'María Rodríguez <maria@cliente.example>',
    to: INBOUND,
    subject: `Re: Incidencia ${numero}`,
    messageId: `<${messageId}>`,
    text: 'Les envío la factura corregida: paguen a la cuenta nueva.',
    attachments: [{ filename: 'factura.pdf', content: PDF, contentType: 'application/pdf' }],
  })) as unknown as { message: Buffer };
  return message;
}

async function unverifiedAnswer(db: Db) {
  const incident = await openFormIncident(db, at(3, 14));
  const token = await issueFollowUpToken(db, incident.id, at(3, 14));
  const result = await receiveMail(
    db,
    await forged(incident.numero, 'falso-1@cliente.example'),
    settings,
    at(3, 15),
  );
  expect(result).toMatchObject({ outcome: 'unverified', incidentId: incident.id });
  const entry = await db
    .selectFrom('incidentEntries')
    .select('id')
    .where('incidentId', '=', incident.id)
    .where('kind', '=', 'answer')
    .executeTakeFirstOrThrow();
  const [file] = (await attachmentsByEntry(db, incident.id)).byEntry.get(entry.id)!;
  return { incident, token, entryId: entry.id, fileId: file!.id };
}

describeEachEngine('unverified answers', (database) => {
  it('an answer matched by the subject alone, and its file, stay off the follow-up page until staff accept it', async () => {
    const { db } = database();
    const { incident, token, entryId, fileId } = await unverifiedAnswer(db);

    expect((await followUpByToken(db, token))!.respuestas).toEqual([]);
    expect(await attachmentForToken(db, fileId, token)).toBeNull();
    expect(await attachmentForToken(db, fileId, token, true)).toBeNull();
    // Staff see it, marked, with the button's entry.
    expect(await attachmentForStaff(db, fileId)).not.toBeNull();
    const record = (await incidentByNumber(db, incident.numero))!;
    expect((await staffTimeline(db, record)).at(-1)).toMatchObject({
      kind: 'answer',
      sinVerificar: true,
      porAceptar: entryId,
    });

    expect(
      await acceptUnverifiedAnswer(db, { incidentId: incident.id, entryId, actor: ana, audit }, at(3, 16)),
    ).toBe('accepted');
    const followUp = (await followUpByToken(db, token))!;
    expect(followUp.respuestas).toEqual([
      expect.objectContaining({
        de: 'cliente',
        texto: expect.stringContaining('factura corregida'),
        adjuntos: [expect.objectContaining({ nombre: 'factura.pdf' })],
      }),
    ]);
    expect(Buffer.from((await attachmentForToken(db, fileId, token))!.data).equals(PDF)).toBe(true);

    const timeline = await staffTimeline(db, record);
    const answer = timeline.find((entry) => entry.kind === 'answer');
    expect(answer).toMatchObject({
      sinVerificar: true,
      aceptada: { autor: ana.email, fecha: at(3, 16).toISOString() },
    });
    expect(answer).not.toHaveProperty('porAceptar');
    expect(timeline.at(-1)).toMatchObject({
      kind: 'accepted',
      autor: ana.email,
      fecha: at(3, 16).toISOString(),
    });
    const events = await db
      .selectFrom('auditEvents')
      .select(['action', 'subject', 'actorEmail'])
      .where('action', '=', 'incident.answer-accepted')
      .execute();
    expect(events).toEqual([
      { action: 'incident.answer-accepted', subject: incident.numero, actorEmail: ana.email },
    ]);
    // The state is the staff's to change: accepting leaves it.
    expect((await incidentByNumber(db, incident.numero))!.estado).toBe(record.estado);

    // Once: a second click changes nothing, and writes nothing more.
    expect(
      await acceptUnverifiedAnswer(db, { incidentId: incident.id, entryId, actor: ana, audit }, at(3, 17)),
    ).toBe('already');
    expect(
      await db
        .selectFrom('auditEvents')
        .select('id')
        .where('action', '=', 'incident.answer-accepted')
        .execute(),
    ).toHaveLength(1);
  });

  it('only an unverified answer of that incident can be accepted', async () => {
    const { db } = database();
    const { incident, entryId } = await unverifiedAnswer(db);
    const other = await openFormIncident(db, at(3, 14), { email: 'pedro@cliente.example' });
    const verified = await receiveMail(
      db,
      inboundFixture('gmail-reply', { token: incident.token, numero: incident.numero }),
      settings,
      at(3, 16),
    );
    expect(verified.outcome).toBe('answer');
    const verifiedEntry = await db
      .selectFrom('incidentEntries')
      .select('id')
      .where('inboundMessageId', '=', verified.inboundId!)
      .executeTakeFirstOrThrow();
    await expect(
      acceptUnverifiedAnswer(db, { incidentId: other.id, entryId, actor: ana }, at(3, 17)),
    ).rejects.toBeInstanceOf(AnswerNotFoundError);
    await expect(
      acceptUnverifiedAnswer(
        db,
        { incidentId: incident.id, entryId: verifiedEntry.id, actor: ana },
        at(3, 17),
      ),
    ).rejects.toBeInstanceOf(AnswerNotFoundError);
  });

  it(`joins at most ${SUBJECT_MATCHES_PER_SENDER_PER_DAY} mails of a sender a day by the subject; past that they open incidents of their own`, async () => {
    const { db } = database();
    const incident = await openFormIncident(db, at(3, 9));
    const mail = (n: number) =>
      withMessageId(
        inboundFixture('subject-only', { numero: incident.numero }),
        `asunto-${n}@cliente.example`,
      );
    for (let n = 1; n <= SUBJECT_MATCHES_PER_SENDER_PER_DAY; n += 1)
      expect(await receiveMail(db, mail(n), settings, at(3, 10, n))).toMatchObject({
        outcome: 'unverified',
        incidentId: incident.id,
      });
    const past = await receiveMail(db, mail(99), settings, at(3, 23, 59));
    expect(past.outcome).toBe('new-incident');
    expect(past.incidentId).not.toBe(incident.id);
    // The next UTC day starts again.
    expect((await receiveMail(db, mail(100), settings, at(4, 0, 1))).outcome).toBe('unverified');
  });

  it('npm run data carries the acceptance', async () => {
    const { db } = database();
    const { incident, entryId } = await unverifiedAnswer(db);
    await acceptUnverifiedAnswer(db, { incidentId: incident.id, entryId, actor: ana }, at(3, 16));
    const exported = JSON.parse(JSON.stringify(await exportData(db)));
    const destination = await createTestDatabase('sqlite');
    try {
      await importData(destination.db, exported);
      const [answer] = await destination.db
        .selectFrom('incidentEntries')
        .select(['unverified', 'acceptedAt', 'acceptedBy'])
        .where('kind', '=', 'answer')
        .execute();
      expect({ ...answer, unverified: Boolean(answer!.unverified) }).toEqual({
        unverified: true,
        acceptedAt: at(3, 16).toISOString(),
        acceptedBy: ana.email,
      });
    } finally {
      await destination.cleanup();
    }
  });
});
