/**
 * Issue 41, item 3: reports on our mails that are not bounces, each built as its sender writes it
 * (tests/support/client-mails.ts), by the webhook and by the mailbox (a private Dovecot), on both
 * engines. Only a permanent failure marks a mail 'rebotado'; a delay and a read receipt are a line of
 * the staff timeline and change nothing else; a spam complaint stops automatic mail to the address
 * (the confirmation, the state notices) and tells the staff, while a staff member's reply still goes.
 */
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/index.ts';
import { createIncident } from '../../src/server/incidents/index.ts';
import { incidentByNumber, replyToCustomer, staffTimeline } from '../../src/server/incidents/conversation.ts';
import { setIncidentState } from '../../src/server/incidents/state.ts';
import { describeEachEngine, type TestDatabase } from '../support/db.ts';
import { dovecotProblem } from '../support/dovecot.ts';
import { inboundBrand as brand, inboundFixture, openFormIncident, STAFF_INBOX } from '../support/inbound.ts';
import { throughMailbox, useWebhook } from '../support/inbound-channels.ts';
import { useDovecot } from '../support/imap-poller.ts';
import { reportMail } from '../support/client-mails.ts';

const at = new Date(Date.UTC(2026, 11, 7, 14));
const later = (minutes: number) => new Date(at.getTime() + minutes * 60_000);
const ana = { id: 'user-ana', email: 'ana@vertice.example', name: 'Ana Pérez' };

type Send = (db: Db, raws: Buffer[]) => Promise<unknown>;

const withId = (raw: Buffer, id: string) =>
  Buffer.from(raw.toString('utf8').replace(/^Message-I[Dd]: <[^>]+>/m, `Message-ID: <${id}>`));

async function state(db: Db) {
  const [incidents, entries, outbox, inbound, mails, complaints] = await Promise.all([
    db.selectFrom('incidents').select(['id', 'estado', 'customerWaiting']).orderBy('id').execute(),
    db.selectFrom('incidentEntries').select('id').execute(),
    db.selectFrom('mailOutbox').select(['kind', 'toAddress']).orderBy('id').execute(),
    db.selectFrom('inboundMessages').select(['outcome', 'reason']).orderBy('id').execute(),
    db
      .selectFrom('incidentMails')
      .select(['bouncedAt', 'delayedAt', 'readAt', 'complainedAt'])
      .orderBy('id')
      .execute(),
    db.selectFrom('mailComplaints').select(['address', 'incidentId']).execute(),
  ]);
  return {
    incidents: incidents.map((row) => ({ ...row, customerWaiting: Boolean(row.customerWaiting) })),
    entries: entries.length,
    outbox,
    inbound,
    mails: mails.map((mail) =>
      Object.fromEntries(Object.entries(mail).map(([key, value]) => [key, Boolean(value)])),
    ),
    complaints,
  };
}

const reportKinds = async (db: Db, numero: string) =>
  (await staffTimeline(db, (await incidentByNumber(db, numero))!))
    .map((entry) => entry.kind)
    .filter((kind) => ['bounce', 'delay', 'read', 'complaint'].includes(kind));

function reportSuite(database: () => TestDatabase, send: Send) {
  it('a delay and a read receipt are lines of the staff timeline, once each, and change nothing else; a receipt of a mail deleted unread and a permanent failure are what they say', async () => {
    const { db } = database();
    const incident = await openFormIncident(db, at);
    const before = await state(db);
    await send(db, [
      reportMail('delay', incident),
      // Postfix warns again some hours later: the same line, not two.
      withId(reportMail('delay', incident), 'segundo-aviso@mx.vertice.example'),
      reportMail('read', incident),
      reportMail('deletedUnread', incident),
    ]);
    const after = await state(db);
    expect(after.inbound).toEqual([
      { outcome: 'report', reason: 'delayed' },
      { outcome: 'report', reason: 'delayed' },
      { outcome: 'report', reason: 'read' },
      { outcome: 'ignored', reason: 'report-other' },
    ]);
    expect(after.mails).toEqual([{ bouncedAt: false, delayedAt: true, readAt: true, complainedAt: false }]);
    // Nothing else: the state, the entries, the mails queued, no complaint.
    expect({ ...after, inbound: [], mails: [] }).toEqual({ ...before, inbound: [], mails: [] });
    expect(await reportKinds(db, incident.numero)).toEqual(['delay', 'read']);

    // A permanent failure (Action: failed, 5.1.1) is still a bounce.
    await send(db, [inboundFixture('bounce', incident)]);
    expect((await state(db)).inbound.at(-1)).toEqual({ outcome: 'bounce', reason: null });
    expect(await reportKinds(db, incident.numero)).toEqual(['delay', 'read', 'bounce']);
  });

  it('a spam complaint stops automatic mail to the address and tells the staff; a staff reply still goes', async () => {
    const { db } = database();
    const incident = await openFormIncident(db, at);
    await send(db, [reportMail('complaint', incident), reportMail('complaintHeadersOnly', incident)]);
    const after = await state(db);
    expect(after.inbound).toEqual([
      { outcome: 'report', reason: 'complaint' },
      { outcome: 'report', reason: 'complaint' },
    ]);
    expect(after.mails).toEqual([{ bouncedAt: false, delayedAt: false, readAt: false, complainedAt: true }]);
    expect(after.complaints).toEqual([{ address: 'maria@cliente.example', incidentId: incident.id }]);
    // The staff told once (nobody assigned: the staff inbox).
    const notices = await db
      .selectFrom('mailOutbox')
      .select(['toAddress', 'subject', 'textBody'])
      .where('kind', '=', 'incident.complaint')
      .execute();
    expect(notices).toHaveLength(1);
    expect(notices[0]!.toAddress).toBe(STAFF_INBOX);
    expect(notices[0]!.subject).toBe(
      `El cliente marcó como spam un correo de la incidencia ${incident.numero}`,
    );
    expect(notices[0]!.textBody).toContain(
      'Tus respuestas desde la página de la incidencia sí llegan al cliente',
    );
    expect(await reportKinds(db, incident.numero)).toEqual(['complaint']);

    // No state notice to that address any more…
    const changed = await setIncidentState(
      db,
      { id: incident.id, estado: 'Resuelto', actor: ana.email, notify: brand },
      later(60),
    );
    expect(changed.notified).toEqual({ queued: false, reason: 'complained' });
    // …nor the confirmation of a new incident with it (in any case of the address)…
    const again = await createIncident(
      db,
      {
        problema: 'Otra vez la impresora',
        nombre: 'María',
        telefono: '',
        email: 'Maria@Cliente.example',
        rnc: '',
      },
      { brand, staffInbox: STAFF_INBOX, now: later(70) },
    );
    expect(again.customerMail).toBe('complained');
    // …while a staff member's own reply goes (a person wrote it, and the staff were told).
    await replyToCustomer(
      db,
      { incidentId: incident.id, author: ana, body: 'Te escribimos solo para confirmar el arreglo.', brand },
      later(80),
    );
    const toCustomer = await db
      .selectFrom('mailOutbox')
      .select('kind')
      .where('toAddress', 'in', ['maria@cliente.example', 'Maria@Cliente.example'])
      .orderBy('id')
      .execute();
    expect(toCustomer.map((row) => row.kind)).toEqual(['incident.confirmation', 'incident.reply']);
  });
}

describeEachEngine('reports that are not bounces (issue 41)', (database) => {
  describe('by the webhook', () => {
    const post = useWebhook();
    reportSuite(database, async (db, raws) => {
      const answers = await post(db, raws);
      expect(answers.every((answer) => answer.status === 202)).toBe(true);
    });
  });

  describe.skipIf(dovecotProblem !== null)('by the mailbox', () => {
    useDovecot();
    let minute = 0;
    reportSuite(database, async (db, raws) => {
      minute += 1;
      const round = await throughMailbox(db, raws, later(minute));
      expect(round).toMatchObject({ status: 'done', rejected: 0 });
    });
  });
});
