/**
 * The support desk's incident list (issue 11) on both engines: 'Asignadas a mí' and 'Sin asignar',
 * alone and with the other filters, the sort by last activity, the assignee's name, 'Última actividad'
 * and the 'Respuesta del cliente' mark, as they follow the writers (activity.ts); and, beyond the
 * recent window, the same pages as a plain filter and sort in JavaScript.
 */
import { expect, it } from 'vitest';
import type { IncidentState } from '../../src/domain/incidents.ts';
import type { Db } from '../../src/server/db/index.ts';
import { touchIncident } from '../../src/server/incidents/activity.ts';
import { addNote } from '../../src/server/incidents/conversation.ts';
import { exportIncidentsCsv } from '../../src/server/incidents/csv.ts';
import {
  incidentQueryString,
  parseIncidentQuery,
  type IncidentFilters,
} from '../../src/server/incidents/query.ts';
import { listIncidents, PAGE_SIZE, RECENT_WINDOW } from '../../src/server/incidents/search.ts';
import { setIncidentState } from '../../src/server/incidents/state.ts';
import { normalizeForSearch } from '../../src/server/text.ts';
import { describeEachEngine } from '../support/db.ts';
import { insertIncidents } from '../support/factories.ts';

const ANA = 'user-ana';
const LUIS = 'user-luis';

/** Two staff accounts as Better Auth stores them: Ana has a name, Luis only an e-mail. */
async function insertStaff(db: Db): Promise<void> {
  const now = new Date('2025-01-01T00:00:00.000Z').toISOString();
  await db
    .withoutPlugins()
    .insertInto('user')
    .values([
      {
        id: ANA,
        name: 'Ana Soporte',
        email: 'ana@vertice.example',
        emailVerified: 1,
        image: null,
        createdAt: now,
        updatedAt: now,
        mustChangePassword: 0,
        twoFactorEnabled: 0,
      },
      {
        id: LUIS,
        name: '',
        email: 'luis@vertice.example',
        emailVerified: 1,
        image: null,
        createdAt: now,
        updatedAt: now,
        mustChangePassword: 0,
        twoFactorEnabled: 0,
      },
    ])
    .execute();
}

// number, name, state, created, assignee, last activity, customer waiting
const ROWS: [string, string, IncidentState, string, string | null, string, boolean][] = [
  [
    'INC-20250101-1001',
    'José Pérez',
    'Registrado',
    '2025-01-01T10:00:00.000Z',
    ANA,
    '2025-01-10T10:00:00.000Z',
    false,
  ],
  [
    'INC-20250102-2002',
    'María Gómez',
    'En Proceso',
    '2025-01-02T10:00:00.000Z',
    null,
    '2025-01-02T10:00:00.000Z',
    false,
  ],
  [
    'INC-20250103-3003',
    'Ana Pérez',
    'Registrado',
    '2025-01-03T10:00:00.000Z',
    LUIS,
    '2025-01-08T10:00:00.000Z',
    true,
  ],
  [
    'INC-20250104-4004',
    'Pedro Núñez',
    'Resuelto',
    '2025-01-04T10:00:00.000Z',
    ANA,
    '2025-01-04T12:00:00.000Z',
    false,
  ],
  [
    'INC-20250105-5005',
    'Luisa Pérez',
    'Registrado',
    '2025-01-05T10:00:00.000Z',
    null,
    '2025-01-06T10:00:00.000Z',
    false,
  ],
];

async function seedRows(db: Db): Promise<Map<string, number>> {
  await insertStaff(db);
  const ids = await insertIncidents(
    db,
    ROWS.map(([numeroIncidencia, nombre, estado, fecha, assignedTo, lastActivityAt, customerWaiting]) => ({
      numeroIncidencia,
      problema: `Problema de ${nombre}`,
      nombre,
      telefono: '',
      email: '',
      rnc: '',
      estado,
      fecha,
      assignedTo,
      lastActivityAt,
      customerWaiting,
    })),
  );
  return new Map(ROWS.map(([numero], index) => [numero, ids[index]!]));
}

describeEachEngine('support desk incident list', (database) => {
  const numbers = (items: { numeroIncidencia: string }[]) =>
    items.map((item) => item.numeroIncidencia.slice(-4));
  const ana = { staffId: ANA };

  it('filters by assignment, sorts by last activity, combines both with the other filters and pages', async () => {
    const { db } = database();
    await seedRows(db);
    const list = async (filters: IncidentFilters, page = 1, pageSize = PAGE_SIZE) =>
      numbers((await listIncidents(db, filters, page, pageSize, ana)).items);

    expect(await list({})).toEqual(['5005', '4004', '3003', '2002', '1001']);
    expect(await list({ orden: 'actividad' })).toEqual(['1001', '3003', '5005', '4004', '2002']);
    expect(await list({ asignacion: 'mias' })).toEqual(['4004', '1001']);
    expect(await list({ asignacion: 'mias', orden: 'actividad' })).toEqual(['1001', '4004']);
    expect(await list({ asignacion: 'sin-asignar' })).toEqual(['5005', '2002']);
    expect(await list({ asignacion: 'sin-asignar', estado: 'Registrado' })).toEqual(['5005']);
    expect(await list({ asignacion: 'mias', estado: 'Registrado', orden: 'actividad' })).toEqual(['1001']);
    expect(await list({ estado: 'Registrado', orden: 'actividad' })).toEqual(['1001', '3003', '5005']);
    // With the text filters too (the window's path on both engines).
    expect(await list({ nombre: 'perez', asignacion: 'sin-asignar' })).toEqual(['5005']);
    expect(await list({ nombre: 'perez', orden: 'actividad' })).toEqual(['1001', '3003', '5005']);
    expect(await list({ nombre: 'perez', asignacion: 'mias', orden: 'actividad' })).toEqual(['1001']);
    // Pages keep the filter and the order.
    expect(await list({ orden: 'actividad', asignacion: 'mias' }, 2, 1)).toEqual(['4004']);
    const first = await listIncidents(db, { orden: 'actividad' }, 1, 2, ana);
    expect([numbers(first.items), first.hasNext]).toEqual([['1001', '3003'], true]);
    // 'Asignadas a mí' for nobody in particular matches nothing; another viewer sees their own.
    expect(numbers((await listIncidents(db, { asignacion: 'mias' })).items)).toEqual([]);
    expect(
      numbers((await listIncidents(db, { asignacion: 'mias' }, 1, PAGE_SIZE, { staffId: LUIS })).items),
    ).toEqual(['3003']);

    // The CSV link's export follows the same filters and order.
    const csv = await exportIncidentsCsv(db, { asignacion: 'mias', orden: 'actividad' }, ana);
    expect([...csv.matchAll(/INC-\d{8}-(\d{4})/g)].map((match) => match[1])).toEqual(['1001', '4004']);
  });

  it('names the assignee, shows the last activity and marks customer answers as the writers change them', async () => {
    const { db } = database();
    const ids = await seedRows(db);
    const byNumber = async () =>
      new Map(
        (await listIncidents(db, {}, 1, PAGE_SIZE, ana)).items.map((item) => [
          item.numeroIncidencia.slice(-4),
          item,
        ]),
      );
    let items = await byNumber();
    expect(items.get('1001')).toMatchObject({
      asignadaA: 'Ana Soporte',
      ultimaActividad: '2025-01-10T10:00:00.000Z',
      respuestaDelCliente: false,
    });
    expect(items.get('3003')).toMatchObject({ asignadaA: 'luis@vertice.example', respuestaDelCliente: true });
    expect(items.get('2002')).toMatchObject({ asignadaA: null, respuestaDelCliente: false });
    // Only the record's own fields reach the page (no search columns, no raw flags).
    expect(Object.keys(items.get('1001')!).sort()).toEqual(
      [
        'asignadaA',
        'email',
        'estado',
        'fecha',
        'historial',
        'id',
        'nombre',
        'numeroIncidencia',
        'origen',
        'prioridad',
        'problema',
        'respuestaDelCliente',
        'rnc',
        'telefono',
        'ultimaActividad',
        'vence',
      ].sort(),
    );

    // A state change moves 2002 to the top of the sort by activity.
    const changed = new Date('2025-02-01T09:00:00.000Z');
    await setIncidentState(
      db,
      { id: ids.get('INC-20250102-2002')!, estado: 'Resuelto', actor: 'ana@vertice.example' },
      changed,
    );
    expect(numbers((await listIncidents(db, { orden: 'actividad' }, 1, 2, ana)).items)).toEqual([
      '2002',
      '1001',
    ]);
    // A visitor's answer marks it; a note does not clear the mark, a reply would (activity.ts).
    await db
      .transaction()
      .execute((trx) =>
        touchIncident(trx, ids.get('INC-20250102-2002')!, 'answer', new Date('2025-02-02T09:00:00.000Z')),
      );
    await addNote(
      db,
      {
        incidentId: ids.get('INC-20250102-2002')!,
        author: { id: ANA, email: 'ana@vertice.example' },
        body: 'Llamar mañana.',
      },
      new Date('2025-02-03T09:00:00.000Z'),
    );
    items = await byNumber();
    expect(items.get('2002')).toMatchObject({
      respuestaDelCliente: true,
      ultimaActividad: '2025-02-03T09:00:00.000Z',
    });
    await db
      .transaction()
      .execute((trx) =>
        touchIncident(trx, ids.get('INC-20250102-2002')!, 'reply', new Date('2025-02-04T09:00:00.000Z')),
      );
    expect((await byNumber()).get('2002')).toMatchObject({ respuestaDelCliente: false });

    // An assignee whose account is gone still reads as assigned.
    await db
      .updateTable('incidents')
      .set({ assignedTo: 'user-gone' })
      .where('id', '=', ids.get('INC-20250105-5005')!)
      .execute();
    expect((await byNumber()).get('5005')).toMatchObject({ asignadaA: 'Cuenta eliminada' });
  });

  it('reads the filters and the sort from the URL and writes them back', () => {
    const { filters } = parseIncidentQuery(
      new URLSearchParams('asignacion=mias&orden=actividad&estado=Resuelto'),
    );
    expect(filters).toMatchObject({ asignacion: 'mias', orden: 'actividad', estado: 'Resuelto' });
    expect(incidentQueryString(filters, 2)).toBe('?estado=Resuelto&asignacion=mias&orden=actividad&pagina=2');
    expect(parseIncidentQuery(new URLSearchParams('asignacion=todas&orden=fecha')).filters).toMatchObject({
      asignacion: undefined,
      orden: undefined,
    });
    expect(
      incidentQueryString(parseIncidentQuery(new URLSearchParams('asignacion=sin-asignar')).filters),
    ).toBe('?asignacion=sin-asignar');
  });
});

describeEachEngine('support desk incident list beyond the recent window', (database) => {
  // 1,300 incidents, created two per minute; their activity runs the other way (the oldest created
  // has the newest activity), with equal instants across the window's edge. A common name (1 in 3),
  // a name only on the 300 with the oldest activity (more than the index probe, none in the window),
  // and a fifth of them assigned to Ana, a fifth to nobody.
  const total = RECENT_WINDOW + 300;
  const rows = Array.from({ length: total }, (_, i) => ({
    numeroIncidencia: `INC-20250101-${String(100_000 + i)}`,
    problema: '',
    nombre: i >= total - 300 ? `Medio Antiguo ${i}` : i % 3 === 0 ? 'Común Núñez' : `Otro ${i}`,
    telefono: '',
    email: '',
    rnc: '',
    estado: (['Registrado', 'En Proceso', 'Resuelto'] as const)[i % 3]!,
    fecha: new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 2) * 60_000).toISOString(),
    lastActivityAt: new Date(Date.UTC(2025, 6, 1) - Math.floor(i / 2) * 60_000).toISOString(),
    assignedTo: i % 5 === 0 ? ANA : i % 5 === 1 ? null : LUIS,
  }));

  function reference(filters: IncidentFilters, ids: Map<string, number>) {
    const sorted = filters.orden === 'actividad' ? 'lastActivityAt' : 'fecha';
    return rows
      .filter(
        (row) =>
          (!filters.nombre || normalizeForSearch(row.nombre).includes(normalizeForSearch(filters.nombre))) &&
          (!filters.estado || row.estado === filters.estado) &&
          (filters.asignacion !== 'mias' || row.assignedTo === ANA) &&
          (filters.asignacion !== 'sin-asignar' || row.assignedTo === null),
      )
      .sort(
        (a, b) =>
          b[sorted].localeCompare(a[sorted]) || ids.get(b.numeroIncidencia)! - ids.get(a.numeroIncidencia)!,
      )
      .map((row) => row.numeroIncidencia);
  }

  it('gives the same pages as a plain filter and sort, for every filter and order', async () => {
    const { db } = database();
    await insertIncidents(db, rows, () => []);
    const ids = new Map(
      (await db.selectFrom('incidents').select(['id', 'numeroIncidencia']).execute()).map((row) => [
        row.numeroIncidencia,
        row.id,
      ]),
    );
    const cases: IncidentFilters[] = [
      { orden: 'actividad' },
      { asignacion: 'mias' },
      { asignacion: 'sin-asignar', orden: 'actividad' },
      { asignacion: 'mias', estado: 'Resuelto', orden: 'actividad' },
      { nombre: 'comun nunez', orden: 'actividad' },
      { nombre: 'comun nunez', asignacion: 'mias' },
      { nombre: 'medio antiguo', orden: 'actividad' }, // all outside the window by activity
      { nombre: 'medio antiguo', asignacion: 'sin-asignar', orden: 'actividad' },
      { nombre: 'MEDIO', estado: 'Resuelto', orden: 'actividad' },
    ];
    for (const filters of cases) {
      const expected = reference(filters, ids);
      expect(expected.length, JSON.stringify(filters)).toBeGreaterThan(PAGE_SIZE);
      const pages = Math.ceil(expected.length / PAGE_SIZE);
      for (const page of new Set([1, 2, pages])) {
        const result = await listIncidents(db, filters, page, PAGE_SIZE, { staffId: ANA });
        expect({
          filters,
          page,
          items: result.items.map((item) => item.numeroIncidencia),
          hasNext: result.hasNext,
        }).toEqual({
          filters,
          page,
          items: expected.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
          hasNext: expected.length > page * PAGE_SIZE,
        });
      }
    }
  });
});
