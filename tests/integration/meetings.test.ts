/**
 * 'Reunión' (issue 12) on both engines: the meeting stored with its invitation and the staff copy
 * queued in the same transaction, the .ics read back by a calendar parser, the cancellation (same UID,
 * SEQUENCE + 1, METHOD:CANCEL), 'Próximas reuniones', the client's timeline, the outbox's files sent
 * through a real SMTP peer while rows from before migration 0016 still go out as they were.
 */
import { expect, it } from 'vitest';
import { checkMeetingForm } from '../../src/domain/forms/meeting.ts';
import { clientTimeline, createClient, setClientArchived } from '../../src/server/clients/index.ts';
import { migrateToLatest, migrator, type Db } from '../../src/server/db/index.ts';
import { enqueueMail, startMailWorker } from '../../src/server/mail/outbox.ts';
import { smtpTransport } from '../../src/server/mail/transports.ts';
import type { MailAttachment } from '../../src/server/mail/types.ts';
import { cancelMeeting, scheduleMeeting, upcomingMeetings } from '../../src/server/meetings/index.ts';
import { describeEachEngine } from '../support/db.ts';
import { ALAMOS_FORM } from '../support/factories.ts';
import { parseInvitation } from '../support/ical.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';
import { startSmtpPeer } from '../support/smtp.ts';

const input = ALAMOS_FORM;
const ana = { id: 'u1', email: 'ana@vertice.example', name: 'Ana Pérez' };
const luis = { id: 'u2', email: 'luis@vertice.example', name: 'Luis Gómez' };
const audit = (staff: typeof ana) => ({
  actorId: staff.id,
  actorEmail: staff.email,
  network: '198.51.100.1',
});
// 11:00 in Santo Domingo (UTC−4).
const NOW = new Date('2026-11-23T15:00:00.000Z');

function meeting(fields: Record<string, string>) {
  const checked = checkMeetingForm(
    {
      duracion: '90',
      lugar: 'https://meet.example.com/abc',
      nota: 'Revisar el plan de migración.',
      ...fields,
    },
    NOW,
  );
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return checked.meeting;
}

async function outbox(db: Db) {
  const rows = await db.selectFrom('mailOutbox').selectAll().orderBy('id').execute();
  return rows.map((row) => ({
    ...row,
    files: row.attachments ? (JSON.parse(row.attachments) as MailAttachment[]) : [],
  }));
}

describeEachEngine('client meetings', (database) => {
  it('stores the meeting and queues the invitation and the staff copy with a real iCalendar file', async () => {
    const { db } = database();
    const { client } = await createClient(db, input, new Date('2026-11-01T10:00:00.000Z'));
    const outcome = await scheduleMeeting(
      db,
      {
        clientId: client.id,
        organizer: ana,
        meeting: meeting({ fecha: '2026-12-01', hora: '10:30' }),
        brand,
        audit: audit(ana),
      },
      NOW,
    );
    expect(outcome.kind).toBe('sent');
    if (outcome.kind !== 'sent') return;
    const stored = await db.selectFrom('clientMeetings').selectAll().executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      clientId: client.id,
      organizerEmail: ana.email,
      organizerName: ana.name,
      startsAt: '2026-12-01T14:30:00.000Z',
      endsAt: '2026-12-01T16:00:00.000Z',
      durationMinutes: 90,
      place: 'https://meet.example.com/abc',
      note: 'Revisar el plan de migración.',
      sequence: 0,
      cancelledAt: null,
    });
    expect(stored.uid).toMatch(/^[0-9a-f-]{36}@vertice\.example$/);

    const mails = await outbox(db);
    expect(mails.map((mail) => [mail.kind, mail.toAddress])).toEqual([
      ['client.meeting', input.email],
      ['client.meeting.copy', ana.email],
    ]);
    expect(mails[0]!.replyTo).toBe(`"${ana.name}" <${ana.email}>`);
    expect(mails[0]!.subject).toBe(
      'Invitación: reunión con Vértice Consultores el martes, 1 de diciembre de 2026 a las 10:30',
    );
    expect(mails[0]!.textBody).toContain('Revisar el plan de migración.');
    for (const mail of mails) {
      expect(mail.files).toHaveLength(1);
      expect(mail.files[0]).toMatchObject({ method: 'REQUEST', filename: 'invitacion.ics' });
      const ics = parseInvitation(String(mail.files[0]!.content));
      expect(ics).toMatchObject({
        method: 'REQUEST',
        version: '2.0',
        uid: stored.uid,
        sequence: 0,
        status: 'CONFIRMED',
        startTzid: 'America/Santo_Domingo',
        startLocal: '2026-12-01T10:30:00',
        startUtc: '2026-12-01T14:30:00.000Z',
        durationMinutes: 90,
        location: 'https://meet.example.com/abc',
        timezones: ['America/Santo_Domingo'],
        organizer: { value: `mailto:${ana.email}`, cn: ana.name },
      });
      expect(ics.summary).toBe('Reunión Vértice Consultores – Farmacia Los Álamos SRL');
      expect(ics.attendees).toEqual([
        {
          value: `MAILTO:${input.email}`,
          cn: 'Carmen Rodríguez',
          rsvp: 'TRUE',
          role: 'REQ-PARTICIPANT',
          partstat: 'NEEDS-ACTION',
        },
      ]);
    }

    const timeline = await clientTimeline(db, client.id);
    expect(timeline[0]).toMatchObject({ kind: 'meeting', actorEmail: ana.email, at: NOW.toISOString() });
    expect(timeline[0]!.meeting).toEqual({
      startsAt: '2026-12-01T14:30:00.000Z',
      durationMinutes: 90,
      place: 'https://meet.example.com/abc',
    });
    const events = await db
      .selectFrom('auditEvents')
      .selectAll()
      .where('action', '=', 'client.meeting')
      .execute();
    expect(events).toHaveLength(1);
  });

  it('sends one invitation for a form sent twice (the same request id), even at once on two connections', async () => {
    const { db } = database();
    const { client } = await createClient(db, input, new Date('2026-11-01T10:00:00.000Z'));
    const other = (
      await createClient(db, { ...input, rnc: '131246753' }, new Date('2026-11-01T11:00:00.000Z'))
    ).client;
    const requestId = '6f1c2a4e-8b3d-4c5e-9f7a-1b2c3d4e5f60';
    const data = {
      clientId: client.id,
      organizer: ana,
      meeting: meeting({ fecha: '2026-12-01', hora: '10:30' }),
      brand,
      requestId,
    };
    const outcomes = await Promise.all([scheduleMeeting(db, data, NOW), scheduleMeeting(db, data, NOW)]);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['sent', 'sent']);
    expect(outcomes.filter((outcome) => outcome.kind === 'sent' && outcome.repeated)).toHaveLength(1);
    const stored = await db.selectFrom('clientMeetings').selectAll().execute();
    expect(stored.map((row) => row.uid)).toEqual([`${requestId}@${new URL(brand.siteUrl).hostname}`]);
    // The invitation and the staff copy, once.
    expect(await outbox(db)).toHaveLength(2);
    // The same id for another client finds nothing of its own; a new form is a new meeting.
    expect((await scheduleMeeting(db, { ...data, clientId: other.id }, NOW)).kind).toBe('not-found');
    const next = await scheduleMeeting(
      db,
      { ...data, requestId: '7a1c2a4e-8b3d-4c5e-9f7a-1b2c3d4e5f61' },
      NOW,
    );
    expect(next.kind === 'sent' && !next.repeated).toBe(true);
    // Anything else is not taken as an id: a fresh one is made.
    const odd = await scheduleMeeting(db, { ...data, requestId: 'x@evil.example' }, NOW);
    expect(odd.kind === 'sent' && /^[0-9a-f-]{36}@/.test(odd.meeting.uid)).toBe(true);
    expect(await db.selectFrom('clientMeetings').selectAll().execute()).toHaveLength(3);
    expect(await outbox(db)).toHaveLength(6);
  });

  it('sends nothing for an archived or unknown client', async () => {
    const { db } = database();
    const { client } = await createClient(db, input, new Date('2026-11-01T10:00:00.000Z'));
    await setClientArchived(db, client.id, true);
    const data = { organizer: ana, meeting: meeting({ fecha: '2026-12-01', hora: '10:30' }), brand };
    expect((await scheduleMeeting(db, { clientId: client.id, ...data }, NOW)).kind).toBe('archived');
    expect((await scheduleMeeting(db, { clientId: client.id + 100, ...data }, NOW)).kind).toBe('not-found');
    expect(await db.selectFrom('clientMeetings').selectAll().execute()).toEqual([]);
    expect(await outbox(db)).toEqual([]);
  });

  it('cancels with the same UID and SEQUENCE + 1, once; the meeting leaves the coming ones', async () => {
    const { db } = database();
    const alamos = (await createClient(db, input, new Date('2026-11-01T10:00:00.000Z'))).client;
    const pepe = (
      await createClient(
        db,
        { ...input, razonSocial: 'Colmado Don Pepe', email: 'pepe@example.com' },
        new Date('2026-11-02T10:00:00.000Z'),
      )
    ).client;
    const first = await scheduleMeeting(
      db,
      {
        clientId: alamos.id,
        organizer: ana,
        meeting: meeting({ fecha: '2026-12-01', hora: '10:30' }),
        brand,
      },
      NOW,
    );
    const second = await scheduleMeeting(
      db,
      {
        clientId: pepe.id,
        organizer: ana,
        meeting: meeting({
          fecha: '2026-11-24',
          hora: '09:00',
          lugar: 'Oficina de Vértice, Av. Winston Churchill 1099',
        }),
        brand,
      },
      NOW,
    );
    // Today at 11:30, half an hour away; over at 13:00 (17:00 UTC).
    const today = await scheduleMeeting(
      db,
      { clientId: pepe.id, organizer: ana, meeting: meeting({ fecha: '2026-11-23', hora: '11:30' }), brand },
      NOW,
    );
    if (first.kind !== 'sent' || second.kind !== 'sent' || today.kind !== 'sent') throw new Error('not sent');

    const coming = await upcomingMeetings(db, NOW);
    expect(coming.map((item) => [item.razonSocial, item.startsAt])).toEqual([
      ['Colmado Don Pepe', '2026-11-23T15:30:00.000Z'],
      ['Colmado Don Pepe', '2026-11-24T13:00:00.000Z'],
      ['Farmacia Los Álamos SRL', '2026-12-01T14:30:00.000Z'],
    ]);
    // Once over, it leaves the list.
    expect((await upcomingMeetings(db, new Date('2026-11-23T17:00:00.000Z'))).map((item) => item.id)).toEqual(
      [second.meeting.id, first.meeting.id],
    );

    const before = (await outbox(db)).length;
    const later = new Date(NOW.getTime() + 60_000);
    // Another client's id does not reach it.
    expect(
      (await cancelMeeting(db, { clientId: pepe.id, meetingId: first.meeting.id, staff: luis, brand }, later))
        .kind,
    ).toBe('not-found');
    const cancelled = await cancelMeeting(
      db,
      { clientId: alamos.id, meetingId: first.meeting.id, staff: luis, brand, audit: audit(luis) },
      later,
    );
    expect(cancelled.kind).toBe('cancelled');
    const row = await db
      .selectFrom('clientMeetings')
      .selectAll()
      .where('id', '=', first.meeting.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ sequence: 1, cancelledAt: later.toISOString(), cancelledBy: luis.email });

    const mails = (await outbox(db)).slice(before);
    expect(mails.map((mail) => [mail.kind, mail.toAddress])).toEqual([
      ['client.meeting-cancelled', input.email],
      ['client.meeting-cancelled.copy', ana.email],
      ['client.meeting-cancelled.copy', luis.email],
    ]);
    expect(mails[0]!.subject).toMatch(/^Cancelada: reunión con Vértice Consultores/);
    const ics = parseInvitation(String(mails[0]!.files[0]!.content));
    expect(mails[0]!.files[0]!.method).toBe('CANCEL');
    expect(ics).toMatchObject({
      method: 'CANCEL',
      uid: first.meeting.uid,
      sequence: 1,
      status: 'CANCELLED',
      startUtc: '2026-12-01T14:30:00.000Z',
    });
    expect(ics.attendees.map((attendee) => attendee.value)).toEqual([`MAILTO:${input.email}`]);
    expect(ics.organizer.value).toBe(`mailto:${ana.email}`);

    expect((await upcomingMeetings(db, later)).map((item) => item.id)).toEqual([
      today.meeting.id,
      second.meeting.id,
    ]);
    // A second cancellation sends nothing; nor does cancelling a meeting that is over.
    expect(
      (
        await cancelMeeting(
          db,
          { clientId: alamos.id, meetingId: first.meeting.id, staff: ana, brand },
          later,
        )
      ).kind,
    ).toBe('not-upcoming');
    expect(
      (
        await cancelMeeting(
          db,
          { clientId: pepe.id, meetingId: today.meeting.id, staff: ana, brand },
          new Date('2026-11-23T17:00:00.000Z'),
        )
      ).kind,
    ).toBe('not-upcoming');
    expect((await outbox(db)).length).toBe(before + 3);

    const timeline = await clientTimeline(db, alamos.id);
    expect(timeline.slice(0, 2).map((entry) => [entry.kind, entry.actorEmail])).toEqual([
      ['meeting-cancelled', luis.email],
      ['meeting', ana.email],
    ]);
  });

  it('sends the invitation as a text/calendar part and an .ics attachment; rows without files still go out', async () => {
    const { db } = database();
    const peer = await startSmtpPeer();
    const worker = startMailWorker({
      db,
      transport: smtpTransport(peer.url, 'Vértice <no-reply@vertice.example>'),
      now: () => NOW,
      poll: false,
    });
    try {
      // A row as queued before migration 0016: no attachments column value.
      await enqueueMail(
        db,
        {
          kind: 'contact.received',
          to: 'soporte@vertice.example',
          subject: 'Sin archivos',
          text: 'Hola',
          html: '<p>Hola</p>',
        },
        NOW,
      );
      const { client } = await createClient(db, input, new Date('2026-11-01T10:00:00.000Z'));
      await scheduleMeeting(
        db,
        {
          clientId: client.id,
          organizer: ana,
          meeting: meeting({ fecha: '2026-12-01', hora: '10:30' }),
          brand,
        },
        NOW,
      );
      expect(await worker.runOnce()).toBe(3);
      const plain = await peer.waitFor((mail) => mail.subject === 'Sin archivos');
      expect(plain.text?.trim()).toBe('Hola');
      expect(plain.attachments).toEqual([]);
      const invitation = await peer.waitFor(
        (mail) => (mail.to && 'text' in mail.to ? mail.to.text : '') === input.email,
      );
      const calendars = invitation.attachments.filter(
        (file) => file.contentType === 'text/calendar' || file.contentType === 'application/ics',
      );
      expect(calendars.map((file) => file.contentType).sort()).toEqual(['application/ics', 'text/calendar']);
      const alternative = calendars.find((file) => file.contentType === 'text/calendar')!;
      expect(alternative.headers.get('content-type')).toMatchObject({
        params: { method: 'REQUEST', charset: 'utf-8' },
      });
      const file = calendars.find((item) => item.contentType === 'application/ics')!;
      expect(file.filename).toBe('invitacion.ics');
      expect(parseInvitation(file.content.toString('utf8'))).toMatchObject({
        method: 'REQUEST',
        startUtc: '2026-12-01T14:30:00.000Z',
      });
      expect(
        await db.selectFrom('mailOutbox').select('status').where('status', '!=', 'sent').execute(),
      ).toEqual([]);
    } finally {
      await worker.stop();
      await peer.stop();
    }
  });

  it('migration 0016 goes down and up again, keeping the outbox', async () => {
    const { db } = database();
    await enqueueMail(db, { kind: 'x', to: 'a@vertice.example', subject: 'S', text: 'T', html: 'H' }, NOW);
    const down = await migrator(db).migrateTo('0015_contact_inbox');
    expect(down.error).toBeUndefined();
    expect(down.results?.map((result) => result.migrationName)).toContain('0016_client_meetings');
    await migrateToLatest(db);
    expect(await db.selectFrom('mailOutbox').select(['subject', 'attachments']).execute()).toEqual([
      { subject: 'S', attachments: null },
    ]);
  });
});
