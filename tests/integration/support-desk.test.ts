/**
 * The support desk's conversation side (issue 11) on both engines: 'Asignar a' (timeline, audit, the
 * assignee's mail, none on self-assignment), and the visitor's answer from the follow-up page
 * (stored, shown on the follow-up page, reopening a resolved incident with "reabierta por el
 * cliente", notifying the assignee or the staff inbox), with hostile text escaped in the mails.
 */
import { expect, it } from 'vitest';
import { REOPENED_BY_CUSTOMER } from '../../src/domain/incidents.ts';
import type { Db } from '../../src/server/db/index.ts';
import {
  AssigneeNotFoundError,
  assignIncident,
  listAssignableStaff,
} from '../../src/server/incidents/assignment.ts';
import {
  answerFromCustomer,
  EntryTextError,
  incidentByNumber,
  replyToCustomer,
  staffTimeline,
} from '../../src/server/incidents/conversation.ts';
import { followUpByToken } from '../../src/server/incidents/follow-up.ts';
import { exportIncidentsCsv } from '../../src/server/incidents/csv.ts';
import { setIncidentState } from '../../src/server/incidents/state.ts';
import { describeEachEngine } from '../support/db.ts';
import { insertIncident, insertStaffAccount } from '../support/factories.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';

const ANA = { id: 'user-ana', email: 'ana@vertice.example' };
const LUIS = { id: 'user-luis', email: 'luis@vertice.example' };
const STAFF_INBOX = 'soporte@vertice.example';
/** ADMIN_EMAILS of these tests: both accounts are staff. */
const STAFF_EMAILS = [ANA.email, LUIS.email];
const SCRIPT = '<script>alert(1)</script>';
const IMG = '"><img src=x onerror=alert(1)>';
const at = (minute: number) => new Date(Date.UTC(2025, 0, 2, 10, minute));
const TOKEN_IN_LINK = /seguimiento\?token=([A-Za-z0-9_-]{24})/;
const network = '203.0.113.0';
/** A stored time as ISO text: PostgreSQL's driver may hand back a Date. */
const iso = (value: unknown) =>
  new Date(String(value instanceof Date ? value.toISOString() : value)).toISOString();

/** A Better Auth user row, as `npm run admin -- create` leaves it. */
/** A token for the incident, as its reply mail carries it. */
async function tokenFor(db: Db, incidentId: number): Promise<string> {
  await replyToCustomer(db, { incidentId, author: ANA, body: 'Hola', brand }, at(1));
  const mail = await db
    .selectFrom('mailOutbox')
    .select('textBody')
    .where('kind', '=', 'incident.reply')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return TOKEN_IN_LINK.exec(mail.textBody)![1]!;
}

describeEachEngine('support desk: assignment and the visitor answer', (database) => {
  it('assigns: timeline, audit and the assignee mail with the link; no mail on self-assignment', async () => {
    const { db } = database();
    await insertStaffAccount(db, { ...ANA, name: 'Ana Gómez' });
    await insertStaffAccount(db, LUIS);
    expect((await listAssignableStaff(db, STAFF_EMAILS)).map((account) => account.email)).toEqual([
      ANA.email,
      LUIS.email,
    ]);
    const incident = await insertIncident(db, { numeroIncidencia: 'INC-20250102-1111', nombre: 'José' });
    const audit = { actorId: ANA.id, actorEmail: ANA.email, network };

    const toLuis = await assignIncident(
      db,
      { incidentId: incident.id, assigneeId: LUIS.id, actor: ANA, brand, audit, staffEmails: STAFF_EMAILS },
      at(2),
    );
    expect(toLuis.outcome).toBe('mailed');
    const mails = await db.selectFrom('mailOutbox').selectAll().execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      kind: 'incident.assigned',
      toAddress: LUIS.email,
      subject: 'Te asignaron la incidencia INC-20250102-1111',
    });
    expect(mails[0]!.textBody).toContain('https://vertice.example/admin/incidencias/INC-20250102-1111');
    expect(mails[0]!.textBody).toContain(ANA.email);

    // The same again: nothing recorded, nothing mailed.
    expect(
      (
        await assignIncident(
          db,
          {
            incidentId: incident.id,
            assigneeId: LUIS.id,
            actor: ANA,
            brand,
            audit,
            staffEmails: STAFF_EMAILS,
          },
          at(3),
        )
      ).outcome,
    ).toBe('unchanged');
    // To oneself: recorded, not mailed.
    expect(
      (
        await assignIncident(
          db,
          {
            incidentId: incident.id,
            assigneeId: ANA.id,
            actor: ANA,
            brand,
            audit,
            staffEmails: STAFF_EMAILS,
          },
          at(4),
        )
      ).outcome,
    ).toBe('self');
    // Nobody.
    expect(
      (
        await assignIncident(
          db,
          { incidentId: incident.id, assigneeId: null, actor: ANA, brand, audit, staffEmails: STAFF_EMAILS },
          at(5),
        )
      ).outcome,
    ).toBe('unassigned');
    expect(await db.selectFrom('mailOutbox').selectAll().execute()).toHaveLength(1);
    await expect(
      assignIncident(
        db,
        { incidentId: incident.id, assigneeId: 'nadie', actor: ANA, brand, staffEmails: STAFF_EMAILS },
        at(6),
      ),
    ).rejects.toThrow(AssigneeNotFoundError);

    const timeline = await staffTimeline(db, (await incidentByNumber(db, 'INC-20250102-1111'))!);
    expect(timeline.filter((entry) => entry.kind === 'assignment')).toEqual([
      { kind: 'assignment', fecha: at(2).toISOString(), autor: ANA.email, asignado: LUIS.email },
      { kind: 'assignment', fecha: at(4).toISOString(), autor: ANA.email, asignado: ANA.email },
      { kind: 'assignment', fecha: at(5).toISOString(), autor: ANA.email, asignado: null },
    ]);
    const events = await db
      .selectFrom('auditEvents')
      .select(['action', 'actorEmail', 'subject', 'detail'])
      .orderBy('id')
      .execute();
    expect(events).toEqual([
      {
        action: 'incident.assigned',
        actorEmail: ANA.email,
        subject: 'INC-20250102-1111',
        detail: LUIS.email,
      },
      { action: 'incident.assigned', actorEmail: ANA.email, subject: 'INC-20250102-1111', detail: ANA.email },
      {
        action: 'incident.assigned',
        actorEmail: ANA.email,
        subject: 'INC-20250102-1111',
        detail: 'Sin asignar',
      },
    ]);
    const row = await db
      .selectFrom('incidents')
      .select(['assignedTo', 'lastActivityAt'])
      .where('id', '=', incident.id)
      .executeTakeFirstOrThrow();
    expect(row.assignedTo).toBeNull();
    expect(iso(row.lastActivityAt)).toBe(at(5).toISOString());
  });

  it("stores the visitor's answer, reopens a resolved incident and notifies the assignee; escaped in the mail", async () => {
    const { db } = database();
    await insertStaffAccount(db, ANA);
    await insertStaffAccount(db, LUIS);
    const incident = await insertIncident(db, {
      numeroIncidencia: 'INC-20250102-2222',
      nombre: 'José',
      email: 'jose@cliente.example',
    });
    await assignIncident(
      db,
      { incidentId: incident.id, assigneeId: LUIS.id, actor: ANA, brand, staffEmails: STAFF_EMAILS },
      at(1),
    );
    const token = await tokenFor(db, incident.id);
    await setIncidentState(db, { id: incident.id, estado: 'Resuelto', actor: ANA.email }, at(3));

    const body = `Sigue fallando ${SCRIPT}\nSegunda línea ${IMG}`;
    const stored = await answerFromCustomer(
      db,
      { token, body, brand, staffInbox: STAFF_INBOX, staffEmails: STAFF_EMAILS },
      at(7),
    );
    expect(stored).toMatchObject({
      reopened: true,
      notified: 'assignee',
      numeroIncidencia: 'INC-20250102-2222',
    });
    expect(stored!.entry).toMatchObject({ kind: 'answer', body, authorId: null, authorEmail: null });

    const record = (await incidentByNumber(db, 'INC-20250102-2222'))!;
    expect(record.estado).toBe('En Proceso');
    expect(record.historial.map((entry) => [entry.estado, entry.actor])).toEqual([
      ['Registrado', null],
      ['Resuelto', ANA.email],
      ['En Proceso', REOPENED_BY_CUSTOMER],
    ]);
    const flags = await db
      .selectFrom('incidents')
      .select('customerWaiting')
      .where('id', '=', incident.id)
      .executeTakeFirstOrThrow();
    expect(Boolean(flags.customerWaiting)).toBe(true);

    const mail = await db
      .selectFrom('mailOutbox')
      .selectAll()
      .where('kind', '=', 'incident.answer')
      .executeTakeFirstOrThrow();
    expect(mail.toAddress).toBe(LUIS.email);
    expect(mail.subject).toBe('Respuesta del cliente en la incidencia INC-20250102-2222');
    expect(mail.textBody).toContain(body);
    expect(mail.textBody).toContain('reabierta por el cliente');
    expect(mail.htmlBody).not.toContain('<script>');
    expect(mail.htmlBody).not.toContain('<img src=x');
    expect(mail.htmlBody).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.htmlBody).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');

    // The follow-up page shows it as the visitor's; the staff timeline as the customer's answer.
    expect((await followUpByToken(db, token))?.respuestas.map((item) => [item.de, item.texto])).toEqual([
      ['equipo', 'Hola'],
      ['cliente', body],
    ]);
    const timeline = await staffTimeline(db, record);
    expect(timeline.slice(-2).map((entry) => [entry.kind, entry.autor])).toEqual([
      ['state', REOPENED_BY_CUSTOMER],
      ['answer', null],
    ]);

    // The staff CSV carries no conversation text: only the problem and the states, with who.
    const csv = await exportIncidentsCsv(db, {});
    expect(csv).not.toContain('Sigue fallando');
    expect(csv).toContain(`En Proceso (${REOPENED_BY_CUSTOMER})`);
  });

  it('notifies the staff inbox when nobody is assigned, leaves an open incident in its state, refuses bad tokens and texts', async () => {
    const { db } = database();
    const incident = await insertIncident(db, { email: 'ana@cliente.example' });
    const token = await tokenFor(db, incident.id);
    const stored = await answerFromCustomer(
      db,
      { token, body: 'Gracias, funciona.', brand, staffInbox: STAFF_INBOX, staffEmails: STAFF_EMAILS },
      at(5),
    );
    expect(stored).toMatchObject({ reopened: false, notified: 'staff-inbox' });
    expect(
      (
        await db
          .selectFrom('incidents')
          .select('estado')
          .where('id', '=', incident.id)
          .executeTakeFirstOrThrow()
      ).estado,
    ).toBe('Registrado');
    const mail = await db
      .selectFrom('mailOutbox')
      .selectAll()
      .where('kind', '=', 'incident.answer')
      .executeTakeFirstOrThrow();
    expect(mail.toAddress).toBe(STAFF_INBOX);
    expect(mail.textBody).not.toContain('reabierta');

    expect(
      await answerFromCustomer(db, {
        token: 'A'.repeat(24),
        body: 'hola',
        brand,
        staffInbox: STAFF_INBOX,
        staffEmails: STAFF_EMAILS,
      }),
    ).toBeNull();
    expect(
      await answerFromCustomer(db, {
        token: 'corto',
        body: 'hola',
        brand,
        staffInbox: STAFF_INBOX,
        staffEmails: STAFF_EMAILS,
      }),
    ).toBeNull();
    await expect(
      answerFromCustomer(db, {
        token,
        body: ' \n ',
        brand,
        staffInbox: STAFF_INBOX,
        staffEmails: STAFF_EMAILS,
      }),
    ).rejects.toThrow(EntryTextError);
    await expect(
      answerFromCustomer(db, {
        token,
        body: 'x'.repeat(5001),
        brand,
        staffInbox: STAFF_INBOX,
        staffEmails: STAFF_EMAILS,
      }),
    ).rejects.toThrow(/5\.000 caracteres/);
    expect(
      await db.selectFrom('incidentEntries').select('kind').where('kind', '=', 'answer').execute(),
    ).toHaveLength(1);
  });
});
