/**
 * 'Prioridad' (issue 22) on both engines: set with its timeline entry (from, to, who, when: named by
 * the staff member's name), its audit event and the activity; the same priority again records
 * nothing; an unknown value is refused with a Spanish message; the list filters by it (the URL keeps
 * it) and its CSV carries it; `npm run data` carries it and its changes, and an older file without it
 * imports as 'Normal'.
 */
import { expect, it } from 'vitest';
import {
  DEFAULT_PRIORITY,
  incidentPrioritySchema,
  INCIDENT_PRIORITIES,
  PRIORITY_MESSAGE,
} from '../../src/domain/incidents.ts';
import { describeEvents, recentEvents } from '../../src/server/audit/index.ts';
import { exportData } from '../../src/server/data/export.ts';
import { importData } from '../../src/server/data/import.ts';
import { incidentByNumber, staffTimeline } from '../../src/server/incidents/conversation.ts';
import { exportIncidentsCsv } from '../../src/server/incidents/csv.ts';
import { IncidentNotFoundError } from '../../src/server/incidents/index.ts';
import { setIncidentPriority } from '../../src/server/incidents/priority.ts';
import { incidentQueryString, parseIncidentQuery } from '../../src/server/incidents/query.ts';
import { listIncidents } from '../../src/server/incidents/search.ts';
import { createTestDatabase, describeEachEngine } from '../support/db.ts';
import { insertIncident, insertStaffAccount } from '../support/factories.ts';

const ANA = { id: 'user-ana', email: 'ana@vertice.example', name: 'Ana Pérez' };
const audit = { actorId: ANA.id, actorEmail: ANA.email, network: '203.0.113.0/24' };

it("knows the four priorities, 'Normal' by default, and refuses anything else in Spanish", () => {
  expect(INCIDENT_PRIORITIES).toEqual(['Baja', 'Normal', 'Alta', 'Urgente']);
  expect(DEFAULT_PRIORITY).toBe('Normal');
  expect(incidentPrioritySchema.safeParse('Urgente').success).toBe(true);
  for (const value of ['Crítica', 'urgente', '', null]) {
    const parsed = incidentPrioritySchema.safeParse(value);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(PRIORITY_MESSAGE);
  }
  expect(PRIORITY_MESSAGE).toBe('Elige una prioridad de la lista: Baja, Normal, Alta o Urgente.');
  // The list's URL keeps a known priority and drops junk.
  expect(parseIncidentQuery(new URLSearchParams('prioridad=Alta')).filters.prioridad).toBe('Alta');
  expect(parseIncidentQuery(new URLSearchParams('prioridad=Crítica')).filters.prioridad).toBeUndefined();
  expect(incidentQueryString({ estado: 'Registrado', prioridad: 'Urgente' })).toBe(
    '?estado=Registrado&prioridad=Urgente',
  );
});

describeEachEngine('incident priority', (database) => {
  it('sets the priority with a timeline entry naming who, an audit event and the activity; the same one again records nothing', async () => {
    const { db } = database();
    await insertStaffAccount(db, ANA);
    const incident = await insertIncident(db, {
      numeroIncidencia: 'INC-20250301-1001',
      fecha: '2025-03-01T10:00:00.000Z',
    });
    expect((await incidentByNumber(db, incident.numeroIncidencia))?.prioridad).toBe('Normal');

    const at = new Date('2025-03-02T09:30:00.000Z');
    const first = await setIncidentPriority(
      db,
      { incidentId: incident.id, prioridad: 'Alta', actor: ANA, audit },
      at,
    );
    expect(first).toEqual({ changed: true, numeroIncidencia: incident.numeroIncidencia, prioridad: 'Alta' });
    const again = await setIncidentPriority(
      db,
      { incidentId: incident.id, prioridad: 'Alta', actor: ANA, audit },
      new Date('2025-03-03T00:00:00.000Z'),
    );
    expect(again.changed).toBe(false);

    const stored = (await incidentByNumber(db, incident.numeroIncidencia))!;
    expect(stored.prioridad).toBe('Alta');
    const timeline = await staffTimeline(db, stored);
    expect(timeline.filter((entry) => entry.kind === 'priority')).toEqual([
      { kind: 'priority', fecha: at.toISOString(), autor: ANA.email, desde: 'Normal', hasta: 'Alta' },
    ]);
    const row = await db
      .selectFrom('incidents')
      .select('lastActivityAt')
      .where('id', '=', incident.id)
      .executeTakeFirstOrThrow();
    expect(row.lastActivityAt).toBe(at.toISOString());

    const events = await describeEvents(db, await recentEvents(db));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'incident.priority',
      label: 'Cambio de prioridad de una incidencia',
      actorEmail: ANA.email,
      actorName: 'Ana Pérez',
      subject: { text: incident.numeroIncidencia, href: `/admin/incidencias/${incident.numeroIncidencia}` },
      detail: 'Normal → Alta',
    });

    await expect(
      setIncidentPriority(db, { incidentId: 999_999, prioridad: 'Baja', actor: ANA, audit }),
    ).rejects.toBeInstanceOf(IncidentNotFoundError);
    // The database refuses a value the domain does not know, too.
    await expect(
      db
        .updateTable('incidents')
        .set({ prioridad: 'Crítica' as never })
        .where('id', '=', incident.id)
        .execute(),
    ).rejects.toThrow();
  });

  it('filters the list by priority, alone and with the state, and the CSV carries the column', async () => {
    const { db } = database();
    await insertStaffAccount(db, ANA);
    const low = await insertIncident(db, {
      numeroIncidencia: 'INC-20250301-1001',
      fecha: '2025-03-01T10:00:00.000Z',
    });
    const urgent = await insertIncident(db, {
      numeroIncidencia: 'INC-20250302-2002',
      fecha: '2025-03-02T10:00:00.000Z',
    });
    await insertIncident(db, { numeroIncidencia: 'INC-20250303-3003', fecha: '2025-03-03T10:00:00.000Z' });
    await setIncidentPriority(db, { incidentId: low.id, prioridad: 'Baja', actor: ANA });
    await setIncidentPriority(db, { incidentId: urgent.id, prioridad: 'Urgente', actor: ANA });

    const numbers = async (prioridad: (typeof INCIDENT_PRIORITIES)[number], extra = {}) =>
      (await listIncidents(db, { prioridad, ...extra })).items.map((item) => [
        item.numeroIncidencia,
        item.prioridad,
      ]);
    expect(await numbers('Urgente')).toEqual([['INC-20250302-2002', 'Urgente']]);
    expect(await numbers('Normal')).toEqual([['INC-20250303-3003', 'Normal']]);
    expect(await numbers('Baja', { orden: 'actividad' })).toEqual([['INC-20250301-1001', 'Baja']]);
    expect(await numbers('Urgente', { estado: 'Resuelto' })).toEqual([]);
    // A text filter goes the other ways to a page (decision 0007): the priority still applies.
    expect(await numbers('Urgente', { numero: 'INC-2025' })).toEqual([['INC-20250302-2002', 'Urgente']]);

    const csv = await exportIncidentsCsv(db, { prioridad: 'Urgente' });
    const [header, line, ...rest] = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(header).toContain('"Estado","Prioridad","Nombre"');
    expect(line).toContain('"INC-20250302-2002"');
    expect(line).toContain('"Registrado","Urgente"');
    expect(rest).toEqual([]);
  });

  it("carries the priority and its changes through npm run data; an older file without them imports as 'Normal'", async () => {
    const { db, engine } = database();
    await insertStaffAccount(db, ANA);
    const incident = await insertIncident(db, {
      numeroIncidencia: 'INC-20250301-1001',
      fecha: '2025-03-01T10:00:00.000Z',
    });
    await setIncidentPriority(
      db,
      { incidentId: incident.id, prioridad: 'Urgente', actor: ANA },
      new Date('2025-03-02T09:30:00.000Z'),
    );
    const file = JSON.parse(JSON.stringify(await exportData(db))) as {
      incidents: Array<Record<string, unknown>>;
    };
    expect(file.incidents[0]).toMatchObject({
      prioridad: 'Urgente',
      priorityChanges: [
        {
          desde: 'Normal',
          hasta: 'Urgente',
          changedByEmail: ANA.email,
          createdAt: '2025-03-02T09:30:00.000Z',
        },
      ],
    });

    const target = await createTestDatabase(engine);
    try {
      const to = target.db;
      await insertStaffAccount(to, { ...ANA, id: 'target-ana' });
      // An older file: the same incident under another number, without the priority fields.
      const { prioridad: _p, priorityChanges: _c, ...older } = file.incidents[0]!;
      const summary = await importData(to, {
        incidents: [file.incidents[0], { ...older, numeroIncidencia: 'INC-20250301-1002' }],
      });
      expect(summary.incidents).toEqual({ imported: 2, skipped: 0, invalid: 0 });

      const imported = (await incidentByNumber(to, 'INC-20250301-1001'))!;
      expect(imported.prioridad).toBe('Urgente');
      expect((await staffTimeline(to, imported)).filter((entry) => entry.kind === 'priority')).toEqual([
        {
          kind: 'priority',
          fecha: '2025-03-02T09:30:00.000Z',
          autor: ANA.email,
          desde: 'Normal',
          hasta: 'Urgente',
        },
      ]);
      const change = await to
        .selectFrom('incidentPriorityChanges')
        .select('changedById')
        .executeTakeFirstOrThrow();
      expect(change.changedById).toBe('target-ana');
      const old = (await incidentByNumber(to, 'INC-20250301-1002'))!;
      expect(old.prioridad).toBe('Normal');
      expect((await staffTimeline(to, old)).some((entry) => entry.kind === 'priority')).toBe(false);

      // A priority the site does not know is refused, like an unknown state.
      const refused: string[] = [];
      const again = await importData(
        to,
        { incidents: [{ ...older, numeroIncidencia: 'INC-20250301-1003', prioridad: 'Crítica' }] },
        { onRefused: (refusal) => refused.push(refusal.reason) },
      );
      expect(again.incidents).toEqual({ imported: 0, skipped: 0, invalid: 1 });
      expect(refused.join(' ')).toContain('la prioridad «Crítica» no existe');
    } finally {
      await target.cleanup();
    }
  });
});
