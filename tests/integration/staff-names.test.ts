/**
 * Staff accounts' names (issue 25 §12) on both engines: the rules of 'Nombre', the rename with its
 * audit event, the names looked up by e-mail (records keep the e-mail they were written with), and
 * the mails that name staff: the assignee's (addressed and greeted by name, the assigner by name) and
 * the visitor's reply (signed by the name, never the staff e-mail).
 */
import { expect, it } from 'vitest';
import { describeEvents, recentEvents } from '../../src/server/audit/index.ts';
import {
  nameByEmail,
  namedHistory,
  STAFF_NAME_MAX,
  STAFF_NAME_MESSAGES,
  staffDisplayName,
  staffNameProblem,
  staffNames,
} from '../../src/server/staff-names.ts';
import { renameStaff } from '../../src/server/auth/settings.ts';
import { assignIncident } from '../../src/server/incidents/assignment.ts';
import { replyToCustomer } from '../../src/server/incidents/conversation.ts';
import { describeEachEngine } from '../support/db.ts';
import { insertIncident, insertStaffAccount } from '../support/factories.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';

const ANA = { id: 'user-ana', email: 'ana@vertice.example' };
const LUIS = { id: 'user-luis', email: 'luis@vertice.example' };
const STAFF = [ANA.email, LUIS.email];
const audit = { actorId: ANA.id, actorEmail: ANA.email, network: '203.0.113.0/24' };

it('checks a name: required, one line, at most STAFF_NAME_MAX characters (counted as people count them)', () => {
  expect(staffNameProblem('')).toBe(STAFF_NAME_MESSAGES.empty);
  expect(staffNameProblem('   ')).toBe(STAFF_NAME_MESSAGES.empty);
  expect(staffNameProblem('Ana\nPérez')).toBe(STAFF_NAME_MESSAGES.control);
  expect(staffNameProblem('Ana\u0000')).toBe(STAFF_NAME_MESSAGES.control);
  expect(staffNameProblem('  Ana Pérez  ')).toBeNull();
  expect(staffNameProblem('ñ'.repeat(STAFF_NAME_MAX))).toBeNull();
  expect(staffNameProblem('ñ'.repeat(STAFF_NAME_MAX + 1))).toBe(STAFF_NAME_MESSAGES.long);
  expect(staffDisplayName({ name: '  ', email: ANA.email })).toBe(ANA.email);
  expect(staffDisplayName({ name: 'Ana', email: ANA.email })).toBe('Ana');
});

describeEachEngine('staff names', (database) => {
  it('renames an account (spaces folded, an audit event) and names its records by e-mail at display time', async () => {
    const { db } = database();
    await insertStaffAccount(db, ANA);
    await insertStaffAccount(db, LUIS);
    expect((await staffNames(db)).size).toBe(0);

    await renameStaff(
      db,
      { staffId: ANA.id, name: '  Ana   Pérez ', audit },
      new Date('2025-02-01T12:00:00Z'),
    );
    const names = await staffNames(db);
    expect([...names]).toEqual([[ANA.email, 'Ana Pérez']]);
    // Case of the stored e-mail does not matter; an e-mail without a name, or of no account, stays itself.
    expect(nameByEmail(names, 'ANA@vertice.example')).toBe('Ana Pérez');
    expect(nameByEmail(names, LUIS.email)).toBe(LUIS.email);
    expect(nameByEmail(names, null)).toBeNull();
    expect(
      namedHistory(names, [
        { estado: 'Registrado', fecha: '2025-01-01T00:00:00Z', actor: null },
        { estado: 'En Proceso', fecha: '2025-01-02T00:00:00Z', actor: ANA.email },
      ]).map((entry) => entry.actor),
    ).toEqual([null, 'Ana Pérez']);

    const [event] = await describeEvents(db, await recentEvents(db));
    expect(event).toMatchObject({
      action: 'account.renamed',
      label: 'Cambio de nombre',
      actorEmail: ANA.email,
      actorName: 'Ana Pérez',
      detail: 'Ana Pérez',
    });
  });

  it('mails the assignee by name from the assigner by name, and signs the visitor reply by name without the staff e-mail', async () => {
    const { db } = database();
    await insertStaffAccount(db, { ...ANA, name: 'Ana Pérez' });
    await insertStaffAccount(db, { ...LUIS, name: 'Luis Gómez' });
    const incident = await insertIncident(db, {
      numeroIncidencia: 'INC-20250102-4321',
      email: 'jose@cliente.example',
    });

    await assignIncident(db, {
      incidentId: incident.id,
      assigneeId: LUIS.id,
      actor: { ...ANA, name: 'Ana Pérez' },
      brand,
      staffEmails: STAFF,
    });
    await replyToCustomer(db, {
      incidentId: incident.id,
      author: { ...ANA, name: 'Ana Pérez' },
      body: 'Ya quedó instalada la impresora.',
      brand,
    });
    const mails = await db
      .selectFrom('mailOutbox')
      .select(['toAddress', 'subject', 'textBody'])
      .orderBy('id')
      .execute();
    expect(mails.map((mail) => mail.subject)).toEqual([
      'Te asignaron la incidencia INC-20250102-4321',
      'Respuesta a tu incidencia INC-20250102-4321',
    ]);
    const [assigned, reply] = mails;
    expect(assigned!.toAddress).toBe('"Luis Gómez" <luis@vertice.example>');
    expect(assigned!.textBody).toContain('Hola, Luis Gómez:');
    expect(assigned!.textBody).toContain('Ana Pérez te asignó la incidencia INC-20250102-4321.');
    expect(assigned!.textBody).not.toContain(ANA.email);
    expect(reply!.toAddress).toBe('jose@cliente.example');
    expect(reply!.textBody).toContain(
      'Ana Pérez, de nuestro equipo de soporte, respondió a tu incidencia INC-20250102-4321.',
    );
    expect(reply!.textBody).not.toContain(ANA.email);
  });
});
