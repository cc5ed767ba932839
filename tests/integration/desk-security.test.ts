/**
 * Issue 24 on the support desk, both engines:
 * - finding 1: only current staff (ADMIN_EMAILS) are offered in 'Asignar a' and can be assigned; an
 *   answer on an incident whose assignee left goes to STAFF_INBOX; the page is told the assignee has
 *   no access;
 * - finding 3: at most 10 answer notices per incident per hour (past that the answer is stored and
 *   the incident waits for the staff digest); a follow-up link stops taking answers 30 days after the
 *   incident was resolved, and still shows the history.
 */
import { expect, it } from 'vitest';
import type { Db } from '../../src/server/db/index.ts';
import {
  AssigneeNotFoundError,
  assigneeOf,
  assignIncident,
  listAssignableStaff,
} from '../../src/server/incidents/assignment.ts';
import {
  answerFromCustomer,
  FollowUpClosedError,
  replyToCustomer,
} from '../../src/server/incidents/conversation.ts';
import { followUpByToken } from '../../src/server/incidents/follow-up.ts';
import { sendStaffDigestIfDue } from '../../src/server/incidents/notices.ts';
import { describeEachEngine } from '../support/db.ts';
import { insertIncident, insertStaffAccount } from '../support/factories.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';

const ANA = { id: 'user-ana', email: 'ana@vertice.example' };
const LUIS = { id: 'user-luis', email: 'luis@vertice.example' };
/** ADMIN_EMAILS after Luis left: his account is still in the database. */
const STAFF_NOW = [ANA.email];
const STAFF_INBOX = 'soporte@vertice.example';
const TOKEN_IN_LINK = /seguimiento\?token=([A-Za-z0-9_-]{24})/;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const T = Date.UTC(2025, 2, 3, 10);
const at = (ms: number) => new Date(T + ms);

/** A token for the incident, as a reply mail carries it. */
async function tokenFor(db: Db, incidentId: number, when: Date): Promise<string> {
  await replyToCustomer(db, { incidentId, author: ANA, body: 'Hola', brand }, when);
  const mail = await db
    .selectFrom('mailOutbox')
    .select('textBody')
    .where('kind', '=', 'incident.reply')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return TOKEN_IN_LINK.exec(mail.textBody)![1]!;
}

const answerMails = (db: Db) =>
  db
    .selectFrom('mailOutbox')
    .select(['toAddress', 'textBody'])
    .where('kind', '=', 'incident.answer')
    .orderBy('id')
    .execute();

describeEachEngine('desk security (issue 24)', (database) => {
  it('offers and accepts only current staff for Asignar a, and names an assignee who left', async () => {
    const { db } = database();
    await insertStaffAccount(db, ANA);
    await insertStaffAccount(db, LUIS);
    expect((await listAssignableStaff(db, STAFF_NOW)).map((account) => account.email)).toEqual([ANA.email]);
    expect((await listAssignableStaff(db, [ANA.email, LUIS.email])).map((account) => account.email)).toEqual([
      ANA.email,
      LUIS.email,
    ]);

    const incident = await insertIncident(db, { numeroIncidencia: 'INC-20250303-2411' });
    await expect(
      assignIncident(
        db,
        { incidentId: incident.id, assigneeId: LUIS.id, actor: ANA, brand, staffEmails: STAFF_NOW },
        at(1),
      ),
    ).rejects.toThrow(AssigneeNotFoundError);
    const row = await db
      .selectFrom('incidents')
      .select('assignedTo')
      .where('id', '=', incident.id)
      .executeTakeFirstOrThrow();
    expect(row.assignedTo).toBeNull();
    expect(await db.selectFrom('incidentAssignments').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('mailOutbox').select('id').execute()).toEqual([]);

    // Assigned while Luis was staff; then he left.
    await assignIncident(
      db,
      {
        incidentId: incident.id,
        assigneeId: LUIS.id,
        actor: ANA,
        brand,
        staffEmails: [ANA.email, LUIS.email],
      },
      at(2),
    );
    expect(await assigneeOf(db, LUIS.id, [ANA.email, LUIS.email])).toMatchObject({
      kind: 'staff',
      account: { email: LUIS.email },
    });
    expect(await assigneeOf(db, LUIS.id, STAFF_NOW)).toEqual({
      kind: 'no-access',
      account: { id: LUIS.id, email: LUIS.email, name: '' },
    });
    expect(await assigneeOf(db, 'borrada', STAFF_NOW)).toEqual({ kind: 'deleted' });
    expect(await assigneeOf(db, null, STAFF_NOW)).toEqual({ kind: 'none' });
    // Still assignable away from him, and to nobody.
    expect(
      (
        await assignIncident(
          db,
          { incidentId: incident.id, assigneeId: null, actor: ANA, brand, staffEmails: STAFF_NOW },
          at(3),
        )
      ).outcome,
    ).toBe('unassigned');
  });

  it('mails an answer on an incident whose assignee left to the staff inbox, not to them', async () => {
    const { db } = database();
    await insertStaffAccount(db, ANA);
    await insertStaffAccount(db, LUIS);
    const incident = await insertIncident(db, { numeroIncidencia: 'INC-20250303-2412' });
    await assignIncident(
      db,
      {
        incidentId: incident.id,
        assigneeId: LUIS.id,
        actor: ANA,
        brand,
        staffEmails: [ANA.email, LUIS.email],
      },
      at(1),
    );
    const token = await tokenFor(db, incident.id, at(2));

    const stored = await answerFromCustomer(
      db,
      { token, body: 'Mi clave es 1234', brand, staffInbox: STAFF_INBOX, staffEmails: STAFF_NOW },
      at(3),
    );
    expect(stored?.notified).toBe('staff-inbox');
    expect((await answerMails(db)).map((mail) => mail.toAddress)).toEqual([STAFF_INBOX]);

    // While he is staff, he gets it.
    await answerFromCustomer(
      db,
      { token, body: 'Otra cosa', brand, staffInbox: STAFF_INBOX, staffEmails: [ANA.email, LUIS.email] },
      at(4),
    );
    expect((await answerMails(db)).map((mail) => mail.toAddress)).toEqual([STAFF_INBOX, LUIS.email]);
  });

  it('mails at most 10 answers per incident per hour; the rest are stored and go to the staff digest', async () => {
    const { db } = database();
    await insertStaffAccount(db, ANA);
    const incident = await insertIncident(db, { numeroIncidencia: 'INC-20250303-2413', nombre: 'Pedro' });
    const token = await tokenFor(db, incident.id, at(0));
    const answer = (n: number, when: Date) =>
      answerFromCustomer(
        db,
        { token, body: `Respuesta ${n}`, brand, staffInbox: STAFF_INBOX, staffEmails: STAFF_NOW },
        when,
      );

    // 3 networks × 5 answers within a few minutes: 15 answers.
    for (let n = 1; n <= 15; n++) {
      const stored = await answer(n, at(n * 10_000));
      expect(stored?.notified, `respuesta ${n}`).toBe(n <= 10 ? 'staff-inbox' : 'digest');
    }
    expect(await answerMails(db)).toHaveLength(10);
    const entries = await db
      .selectFrom('incidentEntries')
      .select('body')
      .where('kind', '=', 'answer')
      .execute();
    expect(entries).toHaveLength(15);
    const held = await db
      .selectFrom('incidents')
      .select('staffNoticePending')
      .where('id', '=', incident.id)
      .executeTakeFirstOrThrow();
    expect(Boolean(held.staffNoticePending)).toBe(true);

    // The next digest lists the incident once.
    expect(
      await sendStaffDigestIfDue(db, { brand, staffInbox: STAFF_INBOX, intervalMs: 0, now: at(200_000) }),
    ).toBe(1);
    const digest = await db
      .selectFrom('mailOutbox')
      .select(['toAddress', 'subject', 'textBody'])
      .where('kind', '=', 'incident.staff-digest')
      .executeTakeFirstOrThrow();
    expect(digest.toAddress).toBe(STAFF_INBOX);
    expect(digest.textBody).toContain('INC-20250303-2413');
    // Listed for its answers, with the last one, not as a new incident.
    expect(digest.subject).toBe('1 incidencia con respuestas del cliente (resumen)');
    expect(digest.textBody).toContain('Pedro respondió: Respuesta 15');
    expect(digest.textBody).not.toMatch(/incidencias? nuevas?/);

    // An hour after the first ones, answers are mailed again.
    expect((await answer(16, at(HOUR_MS + 100_000)))?.notified).toBe('staff-inbox');
    expect(await answerMails(db)).toHaveLength(11);
  });

  it('stops taking answers 30 days after the incident was resolved, and still shows its history', async () => {
    const { db } = database();
    await insertStaffAccount(db, ANA);
    const opened = at(0).toISOString();
    const resolved = at(DAY_MS).toISOString();
    const incident = await insertIncident(
      db,
      { numeroIncidencia: 'INC-20250303-2414', estado: 'Resuelto', fecha: opened },
      [
        { estado: 'Registrado', fecha: opened, actor: null },
        { estado: 'Resuelto', fecha: resolved, actor: ANA.email },
      ],
    );
    const token = await tokenFor(db, incident.id, at(2 * DAY_MS));
    const answer = (when: Date) =>
      answerFromCustomer(
        db,
        { token, body: 'Volvió a fallar', brand, staffInbox: STAFF_INBOX, staffEmails: STAFF_NOW },
        when,
      );

    // 29 days after the resolution: open.
    const open = await followUpByToken(db, token, at(30 * DAY_MS));
    expect(open?.admiteRespuestas).toBe(true);

    // 30 days after it: closed, with the history and the conversation still shown.
    const closed = await followUpByToken(db, token, at(31 * DAY_MS));
    expect(closed).toMatchObject({
      numeroIncidencia: 'INC-20250303-2414',
      estado: 'Resuelto',
      admiteRespuestas: false,
    });
    expect(closed!.historial.map((entry) => entry.estado)).toEqual(['Registrado', 'Resuelto']);
    expect(closed!.respuestas.map((entry) => entry.texto)).toEqual(['Hola']);
    await expect(answer(at(31 * DAY_MS))).rejects.toThrow(FollowUpClosedError);
    const after = await db
      .selectFrom('incidents')
      .select('estado')
      .where('id', '=', incident.id)
      .executeTakeFirstOrThrow();
    expect(after.estado).toBe('Resuelto');
    expect(await answerMails(db)).toEqual([]);
    expect(
      await db.selectFrom('incidentEntries').select('id').where('kind', '=', 'answer').execute(),
    ).toEqual([]);

    // Within the 30 days the answer reopens it, and then the link stays open while it is not resolved.
    const reopened = await answer(at(30 * DAY_MS));
    expect(reopened?.reopened).toBe(true);
    expect((await followUpByToken(db, token, at(400 * DAY_MS)))?.admiteRespuestas).toBe(true);
  });
});
