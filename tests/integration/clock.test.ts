/**
 * The business-hours clock (issue 22, src/server/incidents/clock.ts) on both engines: due times across
 * a weekend and a Dominican holiday, the pause while the incident waits for the customer and its end
 * with the customer's answer, the first reply, the overdue mail sent once (several rounds at once,
 * through the real outbox and an SMTP peer), 'Tiempos de respuesta' saved and applied, the list's
 * 'Vence' filters and the dashboard's '% dentro del plazo'.
 */
import { expect, it } from 'vitest';
import { ANSWERED_BY_CUSTOMER } from '../../src/domain/incidents.ts';
import { DEFAULT_RESPONSE_TIMES } from '../../src/domain/response-times.ts';
import type { Db } from '../../src/server/db/index.ts';
import { createIncident } from '../../src/server/incidents/index.ts';
import { answerFromCustomer, replyToCustomer } from '../../src/server/incidents/conversation.ts';
import {
  incidentClocks,
  loadResponseTimes,
  onTimeSummary,
  queueOverdueAlerts,
  saveResponseTimes,
} from '../../src/server/incidents/clock.ts';
import { issueFollowUpToken } from '../../src/server/incidents/follow-up.ts';
import { setIncidentPriority } from '../../src/server/incidents/priority.ts';
import { listIncidents } from '../../src/server/incidents/search.ts';
import { setIncidentState } from '../../src/server/incidents/state.ts';
import { startMailWorker } from '../../src/server/mail/outbox.ts';
import { smtpTransport } from '../../src/server/mail/transports.ts';
import { migrateToLatest, migrator } from '../../src/server/db/index.ts';
import { describeEachEngine } from '../support/db.ts';
import { insertIncident, insertStaffAccount } from '../support/factories.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';
import { startSmtpPeer } from '../support/smtp.ts';

const STAFF_INBOX = 'soporte@vertice.example';
const LUIS = { id: 'u-luis', email: 'luis@vertice.example', name: 'Luis Gómez' };
const overdue = { brand, staffInbox: STAFF_INBOX, staffEmails: [LUIS.email] };
/** Santo Domingo local time (UTC−4). */
const sd = (local: string) => new Date(`${local}-04:00`);
const iso = (local: string) => sd(local).toISOString();
const fields = {
  problema: 'La impresora fiscal no imprime.',
  nombre: 'Ana Pérez',
  telefono: '',
  email: 'ana@cliente.example',
  rnc: '',
};

async function clockOf(db: Db, id: number) {
  return db
    .selectFrom('incidents')
    .select([
      'estado',
      'dueAt',
      'firstReplyDueAt',
      'resolutionDueAt',
      'clockSince',
      'firstReplyAt',
      'firstReplyMet',
      'resolutionMet',
      'firstReplyUsedS',
      'resolutionUsedS',
    ])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describeEachEngine('business-hours clock', (database) => {
  it('migration 0031 clocks the incidents that existed, resolved ones of the last 60 days included, and mails none of the old ones', async () => {
    const { db } = database();
    const DAY = 24 * 3_600_000;
    const start = Date.now();
    const ago = (days: number, hours = 0) => new Date(start - days * DAY + hours * 3_600_000).toISOString();
    const open = await insertIncident(db, { estado: 'En Proceso', fecha: ago(12) }, [
      { estado: 'Registrado', fecha: ago(12), actor: null },
      { estado: 'En Proceso', fecha: ago(11), actor: LUIS.email },
    ]);
    await db
      .insertInto('incidentEntries')
      .values({
        incidentId: open.id,
        kind: 'reply',
        authorId: LUIS.id,
        authorEmail: LUIS.email,
        body: 'Hola',
        createdAt: ago(11),
      })
      .execute();
    const recent = await insertIncident(db, { estado: 'Resuelto', fecha: ago(10) }, [
      { estado: 'Registrado', fecha: ago(10), actor: null },
      { estado: 'Resuelto', fecha: ago(10, 1), actor: LUIS.email },
    ]);
    const old = await insertIncident(db, { estado: 'Resuelto', fecha: ago(200) }, [
      { estado: 'Registrado', fecha: ago(200), actor: null },
      { estado: 'Resuelto', fecha: ago(199), actor: LUIS.email },
    ]);
    const down = await migrator(db).migrateTo('0029_incident_priority');
    expect(down.error).toBeUndefined();
    await migrateToLatest(db);

    const clock = async (id: number) =>
      db
        .selectFrom('incidents')
        .select(['clockStarted', 'clockSince', 'firstReplyAt', 'dueAt', 'resolutionMet', 'clockResolvedAt'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const opened = await clock(open.id);
    expect(Boolean(opened.clockStarted)).toBe(true);
    expect(opened.clockSince).not.toBeNull();
    expect(opened.firstReplyAt).toBe(ago(11));
    // Twelve days open: 'Normal' resolution (5 días) is long past, and recorded as alerted.
    expect(opened.dueAt! < new Date().toISOString()).toBe(true);
    const alerts = await db.selectFrom('incidentClockAlerts').select(['incidentId', 'target']).execute();
    expect(alerts).toEqual([{ incidentId: open.id, target: 'resolucion' }]);
    expect(await queueOverdueAlerts(db, overdue)).toBe(0);
    const resolved = await clock(recent.id);
    expect(resolved).toMatchObject({ clockSince: null, dueAt: null, clockResolvedAt: ago(10, 1) });
    expect(resolved.resolutionMet).not.toBeNull();
    const older = await clock(old.id);
    expect(Boolean(older.clockStarted)).toBe(true);
    expect(older).toMatchObject({ resolutionMet: null, clockResolvedAt: null, dueAt: null });
  });

  it('counts across a weekend and a Dominican holiday, pauses while waiting for the customer and restarts with the answer', async () => {
    const { db } = database();
    // Thursday 26 February 2026, 17:00; Friday 27 is Independencia (a public holiday).
    const created = await createIncident(db, fields, {
      brand,
      staffInbox: STAFF_INBOX,
      now: sd('2026-02-26T17:00:00'),
    });
    // Normal: first reply 8 h → 1 h Thursday, 4 h Saturday, 3 h Monday; resolution 5 días (50 h: Friday 6 March 13:00).
    expect(await clockOf(db, created.id)).toMatchObject({
      firstReplyDueAt: iso('2026-03-02T11:00:00'),
      resolutionDueAt: iso('2026-03-06T13:00:00'),
      dueAt: iso('2026-03-02T11:00:00'),
    });

    // Urgente: 1 h / 8 h from the same start (the time counted so far stays).
    await setIncidentPriority(
      db,
      { incidentId: created.id, prioridad: 'Urgente', actor: LUIS },
      sd('2026-02-26T17:30:00'),
    );
    expect(await clockOf(db, created.id)).toMatchObject({
      firstReplyDueAt: iso('2026-02-26T18:00:00'),
      resolutionDueAt: iso('2026-03-02T11:00:00'),
    });

    // The first staff reply, Monday 8:30: 1 h + 4 h + 0.5 h = 5.5 h, past its 1 h.
    await replyToCustomer(
      db,
      { incidentId: created.id, author: LUIS, body: '¿Qué modelo es?', brand },
      sd('2026-03-02T08:30:00'),
    );
    const replied = await clockOf(db, created.id);
    expect(replied).toMatchObject({
      firstReplyAt: iso('2026-03-02T08:30:00'),
      firstReplyDueAt: null,
      resolutionDueAt: iso('2026-03-02T11:00:00'),
    });
    expect(Boolean(replied.firstReplyMet)).toBe(false);
    expect(Number(replied.firstReplyUsedS)).toBe(5.5 * 3600);

    // Waiting for the customer from Monday 9:00: the clock stops (6 h counted), nothing is due.
    await setIncidentState(
      db,
      { id: created.id, estado: 'Esperando al cliente', actor: LUIS.email },
      sd('2026-03-02T09:00:00'),
    );
    expect(await clockOf(db, created.id)).toMatchObject({
      clockSince: null,
      dueAt: null,
      firstReplyDueAt: null,
      resolutionDueAt: null,
    });
    expect(Number((await clockOf(db, created.id)).resolutionUsedS)).toBe(6 * 3600);
    const paused = await incidentClocks(db, created.id, sd('2026-03-04T12:00:00'));
    expect(paused!.clocks.map((clock) => [clock.target, clock.status, clock.usedMs / 3_600_000])).toEqual([
      ['primera-respuesta', 'missed', 5.5],
      ['resolucion', 'paused', 6],
    ]);
    // Paused, nothing comes due, however long it waits (the first reply was reached, late, before any round ran).
    expect(await queueOverdueAlerts(db, overdue, sd('2026-03-04T12:00:00'))).toBe(0);

    // The customer answers Wednesday 4 March 15:00: 'En Proceso' again, 2 h left → due 17:00.
    const token = await issueFollowUpToken(db, created.id, sd('2026-02-26T17:00:00'));
    await answerFromCustomer(
      db,
      { token, body: 'Es una Bixolon SRP-350.', brand, staffInbox: STAFF_INBOX, staffEmails: [LUIS.email] },
      sd('2026-03-04T15:00:00'),
    );
    const resumed = await clockOf(db, created.id);
    expect(resumed).toMatchObject({
      estado: 'En Proceso',
      resolutionDueAt: iso('2026-03-04T17:00:00'),
      dueAt: iso('2026-03-04T17:00:00'),
    });
    const history = await db
      .selectFrom('incidentEvents')
      .select(['estado', 'actor'])
      .where('incidentId', '=', created.id)
      .orderBy('id')
      .execute();
    expect(history.at(-1)).toEqual({ estado: 'En Proceso', actor: ANSWERED_BY_CUSTOMER });
    const answerMail = await db
      .selectFrom('mailOutbox')
      .select('textBody')
      .where('kind', '=', 'incident.answer')
      .executeTakeFirstOrThrow();
    expect(answerMail.textBody).toContain('esperaba al cliente y volvió a «En Proceso»');

    // Resolved Wednesday 16:00: 7 h of 8, within the target.
    await setIncidentState(
      db,
      { id: created.id, estado: 'Resuelto', actor: LUIS.email },
      sd('2026-03-04T16:00:00'),
    );
    const resolved = await clockOf(db, created.id);
    expect(resolved).toMatchObject({ dueAt: null, clockSince: null });
    expect(Boolean(resolved.resolutionMet)).toBe(true);
    // One of the two targets met in the last 30 days.
    expect(await onTimeSummary(db, sd('2026-03-05T12:00:00'))).toEqual({
      current: { met: 1, total: 2 },
      previous: { met: 0, total: 0 },
    });
  });

  it('mails the assignee once per incident and target, however many rounds run at once', async () => {
    const { db } = database();
    await insertStaffAccount(db, LUIS);
    const created = await createIncident(db, fields, {
      brand,
      staffInbox: STAFF_INBOX,
      now: sd('2026-03-09T08:00:00'),
    });
    await setIncidentPriority(
      db,
      { incidentId: created.id, prioridad: 'Urgente', actor: LUIS },
      sd('2026-03-09T08:00:00'),
    );
    await db.updateTable('incidents').set({ assignedTo: LUIS.id }).where('id', '=', created.id).execute();
    // Monday 8:00 + 1 h: due 9:00. At 8:59 nothing is due.
    expect(await queueOverdueAlerts(db, overdue, sd('2026-03-09T08:59:00'))).toBe(0);
    // A round that fails between recording the alert and queueing its mail (here the mail cannot be
    // written: no site URL to link to) leaves neither: the next round still sends it.
    await expect(
      queueOverdueAlerts(
        db,
        { ...overdue, brand: { ...brand, siteUrl: 'no es una dirección' } },
        sd('2026-03-09T09:01:00'),
      ),
    ).rejects.toThrow();
    expect(await db.selectFrom('incidentClockAlerts').selectAll().execute()).toEqual([]);
    expect(
      await db.selectFrom('mailOutbox').select('id').where('kind', '=', 'incident.overdue').execute(),
    ).toEqual([]);
    // Five processes' rounds at once at 9:01, then later ones: one mail.
    const rounds = await Promise.all(
      Array.from({ length: 5 }, () => queueOverdueAlerts(db, overdue, sd('2026-03-09T09:01:00'))),
    );
    expect(rounds.reduce((sum, count) => sum + count, 0)).toBe(1);
    expect(await queueOverdueAlerts(db, overdue, sd('2026-03-09T12:00:00'))).toBe(0);
    // Resolution (8 h): due 16:00; its own mail, once.
    const late = await Promise.all(
      [0, 1, 2].map(() => queueOverdueAlerts(db, overdue, sd('2026-03-09T16:30:00'))),
    );
    expect(late.reduce((sum, count) => sum + count, 0)).toBe(1);
    // Paused and resumed past its due time: no second mail for the same target.
    await setIncidentState(
      db,
      { id: created.id, estado: 'Esperando al cliente', actor: LUIS.email },
      sd('2026-03-09T17:00:00'),
    );
    await setIncidentState(
      db,
      { id: created.id, estado: 'En Proceso', actor: LUIS.email },
      sd('2026-03-10T09:00:00'),
    );
    expect(await queueOverdueAlerts(db, overdue, sd('2026-03-10T10:00:00'))).toBe(0);

    const peer = await startSmtpPeer();
    const worker = startMailWorker({
      db,
      transport: smtpTransport(peer.url, 'Vértice <no-reply@vertice.example>'),
      poll: false,
      now: () => sd('2026-03-10T10:00:00'),
    });
    try {
      while ((await worker.runOnce()) > 0);
      const mails = peer.messages.filter((mail) => mail.subject?.startsWith('Venció el plazo'));
      const to = (mail: (typeof mails)[number]) =>
        mail.to && 'value' in mail.to ? mail.to.value[0] : undefined;
      expect(mails.map((mail) => [mail.subject, to(mail)?.name, to(mail)?.address])).toEqual([
        [`Venció el plazo de la primera respuesta: ${created.numeroIncidencia}`, LUIS.name, LUIS.email],
        [`Venció el plazo de la resolución: ${created.numeroIncidencia}`, LUIS.name, LUIS.email],
      ]);
      expect(mails[0]!.text).toContain('pasó el plazo de la primera respuesta');
      expect(mails[0]!.text).toContain('9 de marzo de 2026 a las 9:00');
    } finally {
      await worker.stop();
      await peer.stop();
    }

    // An assignee no longer on ADMIN_EMAILS: the staff inbox gets it.
    const other = await createIncident(db, fields, {
      brand,
      staffInbox: STAFF_INBOX,
      now: sd('2026-03-10T08:00:00'),
    });
    await db.updateTable('incidents').set({ assignedTo: LUIS.id }).where('id', '=', other.id).execute();
    expect(await queueOverdueAlerts(db, { ...overdue, staffEmails: [] }, sd('2026-03-10T17:00:00'))).toBe(1);
    const last = await db
      .selectFrom('mailOutbox')
      .select('toAddress')
      .where('kind', '=', 'incident.overdue')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(last.toAddress).toBe(STAFF_INBOX);
  });

  it("saves 'Tiempos de respuesta', recounts the running clocks and filters the list by 'Vencidas' and 'Vencen hoy'", async () => {
    const { db } = database();
    const early = await createIncident(db, fields, {
      brand,
      staffInbox: STAFF_INBOX,
      now: sd('2026-03-09T08:00:00'),
    });
    const later = await createIncident(db, fields, {
      brand,
      staffInbox: STAFF_INBOX,
      now: sd('2026-03-09T15:00:00'),
    });
    const waiting = await createIncident(db, fields, {
      brand,
      staffInbox: STAFF_INBOX,
      now: sd('2026-03-09T08:00:00'),
    });
    await setIncidentState(
      db,
      { id: waiting.id, estado: 'Esperando al cliente', actor: LUIS.email },
      sd('2026-03-09T08:30:00'),
    );
    // Normal, 8 h: early due 16:00 Monday, later due Tuesday 13:00.
    const now = sd('2026-03-09T16:30:00');
    const ids = async (plazo: 'vencidas' | 'hoy') =>
      (await listIncidents(db, { plazo }, 1, 20, undefined, now)).items.map((item) => item.id);
    expect(await ids('vencidas')).toEqual([early.id]);
    expect(await ids('hoy')).toEqual([]);
    const listed = await listIncidents(db, {}, 1, 20, undefined, now);
    expect(listed.items.find((item) => item.id === early.id)).toMatchObject({
      vence: iso('2026-03-09T16:00:00'),
    });
    expect(listed.items.find((item) => item.id === waiting.id)).toMatchObject({ vence: null });

    // Normal's first reply to 2 h, and Monday open until 20:00: later (15:00) is due 17:00 today.
    const times = structuredClone(DEFAULT_RESPONSE_TIMES);
    times.targets.Normal['primera-respuesta'] = { amount: 2, unit: 'h' };
    times.week[1] = { from: '08:00', to: '20:00' };
    expect(
      await saveResponseTimes(
        db,
        times,
        { actorId: 'u-luis', actorEmail: LUIS.email, network: '127.0.0.1' },
        now,
      ),
    ).toBe(2);
    expect(await loadResponseTimes(db)).toEqual(times);
    expect(await ids('hoy')).toEqual([later.id]);
    expect((await clockOf(db, later.id)).firstReplyDueAt).toBe(iso('2026-03-09T17:00:00'));
    const event = await db
      .selectFrom('auditEvents')
      .select(['action', 'actorEmail'])
      .where('action', '=', 'response-times.changed')
      .executeTakeFirstOrThrow();
    expect(event.actorEmail).toBe(LUIS.email);
  });
});
