import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, auditActionLabel } from '../../src/domain/audit.ts';
import {
  describeEvents,
  exportEventsCsv,
  purgeOldEvents,
  purgeOldEventsIfDue,
  recentEvents,
  recordEvent,
} from '../../src/server/audit/index.ts';
import { createClient } from '../../src/server/clients/index.ts';
import { sendWelcome } from '../../src/server/clients/welcome.ts';
import { IncidentNotFoundError } from '../../src/server/incidents/index.ts';
import { setIncidentState } from '../../src/server/incidents/state.ts';
import { describeEachEngine } from '../support/db.ts';
import { insertIncident } from '../support/factories.ts';

const DAY = 24 * 60 * 60 * 1000;
const staff = { actorId: 'user-1', actorEmail: 'admin@example.com', network: '203.0.113.5' };

describeEachEngine('audit log', (database) => {
  it('records events and lists them newest first, with a limit', async () => {
    const { db } = database();
    const base = Date.parse('2026-01-10T12:00:00.000Z');
    await recordEvent(db, { ...staff, action: 'signin.ok' }, new Date(base));
    await recordEvent(
      db,
      { ...staff, action: 'incident.state', subject: 'INC-20260110-1001', detail: 'en_proceso' },
      new Date(base + 1000),
    );
    await recordEvent(
      db,
      { actorEmail: 'nadie@example.com', network: '2001:db8:1:2::/64', action: 'signin.failed' },
      new Date(base + 2000),
    );
    await recordEvent(
      db,
      { ...staff, action: 'client.created', subject: 42, detail: 'x'.repeat(2000) },
      new Date(base + 3000),
    );

    const events = await recentEvents(db);
    expect(events.map((event) => event.action)).toEqual([
      'client.created',
      'signin.failed',
      'incident.state',
      'signin.ok',
    ]);
    expect(events[0]).toMatchObject({
      actorId: 'user-1',
      actorEmail: 'admin@example.com',
      subject: '42',
      network: '203.0.113.5',
    });
    expect(events[0]!.detail).toHaveLength(500);
    expect(new Date(events[0]!.at).toISOString()).toBe(new Date(base + 3000).toISOString());
    expect(events[1]).toMatchObject({
      actorId: null,
      actorEmail: 'nadie@example.com',
      subject: null,
      detail: null,
    });
    expect(events[2]).toMatchObject({ subject: 'INC-20260110-1001', detail: 'en_proceso' });
    expect((await recentEvents(db, 2)).map((event) => event.action)).toEqual([
      'client.created',
      'signin.failed',
    ]);
  });

  it('purges only the events older than the retention', async () => {
    const { db } = database();
    const now = new Date('2026-06-01T00:00:00.000Z');
    await recordEvent(
      db,
      { ...staff, action: 'signin.ok', subject: 'old' },
      new Date(now.getTime() - 31 * DAY),
    );
    await recordEvent(
      db,
      { ...staff, action: 'signin.ok', subject: 'edge' },
      new Date(now.getTime() - 30 * DAY + 1000),
    );
    await recordEvent(db, { ...staff, action: 'signout', subject: 'new' }, new Date(now.getTime() - DAY));

    expect(await purgeOldEvents(db, 30, now)).toBe(1);
    expect((await recentEvents(db)).map((event) => event.subject)).toEqual(['new', 'edge']);
    expect(await purgeOldEvents(db, 30, now)).toBe(0);
    expect(await purgeOldEvents(db, 1, now)).toBe(1);
    expect((await recentEvents(db)).map((event) => event.subject)).toEqual(['new']);
  });

  it('exports the log as formula-safe CSV with a BOM and Spanish labels', async () => {
    const { db } = database();
    await recordEvent(
      db,
      { actorEmail: '=HYPERLINK("http://evil")@x.com', network: '198.51.100.1', action: 'signin.failed' },
      new Date('2026-03-01T15:30:00.000Z'),
    );
    await recordEvent(
      db,
      { ...staff, action: 'client.created', subject: 7, detail: '+1 "Colmado", -2 @3' },
      new Date('2026-03-01T16:00:00.000Z'),
    );

    const csv = await exportEventsCsv(db);
    expect(
      csv.startsWith('\uFEFF"Fecha (hora de Santo Domingo)","Acción","Usuario","Sobre","Detalle","Red"\r\n'),
    ).toBe(true);
    const lines = csv.slice(1).trimEnd().split('\r\n');
    expect(lines).toHaveLength(3);
    // No client 7: the record is named as gone, never by its id.
    expect(lines[1]).toBe(
      '"01/03/2026 12:00","Cliente agregado","admin@example.com","Cliente eliminado","\'+1 ""Colmado"", -2 @3","203.0.113.5"',
    );
    expect(lines[2]).toBe(
      '"01/03/2026 11:30","Intento de inicio de sesión fallido","\'=HYPERLINK(""http://evil"")@x.com","","","198.51.100.1"',
    );
  });

  it('describes events in words: field labels, project states as shown, the record by name or number, Santo Domingo time (issue 25 §10)', async () => {
    const { db } = database();
    const { client } = await createClient(
      db,
      {
        razonSocial: 'Colmado Doña Rosa',
        nombreRepresentante: 'Rosa',
        telefono: '8095550101',
        email: 'rosa@example.com',
        rnc: '101850043',
        tipoProyecto: 'Implementación AdmCloud',
      },
      new Date('2026-03-01T12:00:00.000Z'),
      staff,
    );
    const at = new Date('2026-03-02T12:00:00.000Z');
    await recordEvent(
      db,
      { ...staff, action: 'client.edited', subject: client.id, detail: 'razonSocial, telefono' },
      at,
    );
    await recordEvent(
      db,
      { ...staff, action: 'client.state', subject: client.id, detail: 'pendiente → en curso' },
      at,
    );
    await recordEvent(
      db,
      { ...staff, action: 'client.meeting', subject: client.id, detail: '2026-12-05T14:30:00.000Z' },
      at,
    );
    await recordEvent(
      db,
      { ...staff, action: 'incident.state', subject: 'INC-20260302-1001', detail: 'Resuelto' },
      at,
    );
    await recordEvent(
      db,
      { ...staff, action: 'contact.handled', subject: 12, detail: 'ana@example.com' },
      at,
    );
    const rows = await describeEvents(db, await recentEvents(db));
    const by = (action: string) => rows.find((row) => row.action === action)!;
    const clientLink = { text: 'Colmado Doña Rosa', href: `/admin/clientes/${client.id}` };
    expect(by('client.edited')).toMatchObject({
      label: 'Cliente editado',
      subject: clientLink,
      detail: 'Razón social, Teléfono',
      when: '02/03/2026 08:00',
    });
    expect(by('client.state')).toMatchObject({ subject: clientLink, detail: 'Pendiente → En curso' });
    expect(by('client.meeting')).toMatchObject({ subject: clientLink, detail: '05/12/2026 10:30' });
    // Added under the name it still has: the name is said once.
    expect(by('client.created')).toMatchObject({ subject: clientLink, detail: null });
    expect(by('incident.state')).toMatchObject({
      subject: { text: 'INC-20260302-1001', href: '/admin/incidencias/INC-20260302-1001' },
      detail: 'Resuelto',
    });
    expect(by('contact.handled')).toMatchObject({
      subject: { text: 'Mensaje n.º 12', href: '/admin/mensajes' },
      detail: 'ana@example.com',
    });
  });

  it('records the staff changes with them, and nothing when the change fails', async () => {
    const { db } = database();
    const incident = await insertIncident(db, { numeroIncidencia: 'INC-20260102-5151' });
    await setIncidentState(db, {
      id: incident.id,
      estado: 'Resuelto',
      actor: staff.actorEmail,
      audit: staff,
    });
    await expect(
      setIncidentState(db, { id: 99_999, estado: 'Resuelto', actor: staff.actorEmail, audit: staff }),
    ).rejects.toBeInstanceOf(IncidentNotFoundError);
    const { client } = await createClient(
      db,
      {
        razonSocial: 'Colmado Don Pepe',
        nombreRepresentante: 'Pepe',
        telefono: '8095550100',
        email: 'pepe@example.com',
        rnc: '101850043',
        tipoProyecto: 'Implementación AdmCloud',
      },
      new Date(),
      staff,
    );
    const sent: string[] = [];
    const deliver = async ({ email }: { email: string }) => void sent.push(email);
    await sendWelcome(db, client.id, deliver, staff);
    await sendWelcome(db, client.id, deliver, staff); // already sent: no mail, no event
    await expect(sendWelcome(db, client.id + 1, deliver, staff)).rejects.toThrow();
    expect(sent).toEqual(['pepe@example.com']);
    const events = (await recentEvents(db)).reverse();
    expect(
      events.map(({ action, subject, detail, actorEmail, network }) => ({
        action,
        subject,
        detail,
        actorEmail,
        network,
      })),
    ).toEqual([
      {
        action: 'incident.state',
        subject: 'INC-20260102-5151',
        detail: 'Resuelto',
        actorEmail: staff.actorEmail,
        network: staff.network,
      },
      {
        action: 'client.created',
        subject: String(client.id),
        detail: 'Colmado Don Pepe',
        actorEmail: staff.actorEmail,
        network: staff.network,
      },
      {
        action: 'client.welcome',
        subject: String(client.id),
        detail: null,
        actorEmail: staff.actorEmail,
        network: staff.network,
      },
    ]);
  });
});

describe('audit actions', () => {
  it('has a Spanish label for every code, and shows an unknown code as is', () => {
    expect(AUDIT_ACTIONS['signin.ok']).toBe('Inicio de sesión');
    expect(AUDIT_ACTIONS['incident.state']).toBe('Cambio de estado de incidencia');
    expect(auditActionLabel('client.welcome')).toBe('Correo de bienvenida enviado');
    expect(auditActionLabel('algo.nuevo')).toBe('algo.nuevo');
    expect(auditActionLabel('toString')).toBe('toString');
  });

  it('purges at most once an hour in a process', async () => {
    const calls: number[] = [];
    const fake = {
      deleteFrom: () => ({
        where: () => ({ executeTakeFirst: async () => (calls.push(1), { numDeletedRows: 0n }) }),
      }),
    };
    const db = fake as unknown as Parameters<typeof purgeOldEventsIfDue>[0];
    const start = Date.parse('2030-01-01T00:00:00.000Z');
    expect(await purgeOldEventsIfDue(db, 365, new Date(start))).toBe(0);
    expect(await purgeOldEventsIfDue(db, 365, new Date(start + 59 * 60 * 1000))).toBeNull();
    expect(await purgeOldEventsIfDue(db, 365, new Date(start + 60 * 60 * 1000))).toBe(0);
    expect(calls).toHaveLength(2);
  });
});
