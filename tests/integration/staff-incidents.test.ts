import { expect, it } from 'vitest';
import type { IncidentState } from '../../src/domain/incidents.ts';
import { incidentSearchColumns } from '../../src/server/db/rows.ts';
import { exportIncidentsCsv } from '../../src/server/incidents/csv.ts';
import { IncidentNotFoundError } from '../../src/server/incidents/index.ts';
import {
  countIncidentsByState,
  listIncidents,
  PAGE_SIZE,
  RECENT_WINDOW,
} from '../../src/server/incidents/search.ts';
import { setIncidentState } from '../../src/server/incidents/state.ts';
import { normalizeForSearch } from '../../src/server/text.ts';
import type { Db } from '../../src/server/db/index.ts';
import { describeEachEngine } from '../support/db.ts';
import { insertIncident, insertIncidents } from '../support/factories.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';

const ROWS: [string, string, string, IncidentState, string][] = [
  ['INC-20250101-1001', 'José Pérez', '101850043', 'Registrado', '2025-01-01T10:00:00.000Z'],
  ['INC-20250102-2002', 'MARÍA GÓMEZ', '131-24675-7', 'En Proceso', '2025-01-02T10:00:00.000Z'],
  ['INC-20250103-3003', 'Ana Pérez 50%_off', '40212345678', 'Resuelto', '2025-01-03T10:00:00.000Z'],
  ['INC-20250104-4004', 'Pedro Núñez', '101850043', 'Registrado', '2025-01-04T10:00:00.000Z'],
];

/** The four incidents of ROWS, each with its creation entry. */
async function seedRows(db: Db): Promise<void> {
  await insertIncidents(
    db,
    ROWS.map(([numeroIncidencia, nombre, rnc, estado, fecha]) => ({
      numeroIncidencia,
      problema: `Problema de ${nombre}`,
      nombre,
      telefono: '',
      email: '',
      rnc,
      estado,
      fecha,
    })),
  );
}

describeEachEngine('staff incident queries', (database) => {
  const numbers = (items: { numeroIncidencia: string }[]) => items.map((item) => item.numeroIncidencia);

  it('lists newest first with each filter, combined filters and pages, in the database', async () => {
    const { db } = database();
    await seedRows(db);
    expect(numbers((await listIncidents(db, {})).items)).toEqual([
      'INC-20250104-4004',
      'INC-20250103-3003',
      'INC-20250102-2002',
      'INC-20250101-1001',
    ]);
    expect(numbers((await listIncidents(db, { nombre: 'perez' })).items)).toEqual([
      'INC-20250103-3003',
      'INC-20250101-1001',
    ]);
    expect(numbers((await listIncidents(db, { nombre: 'maría gómez' })).items)).toEqual([
      'INC-20250102-2002',
    ]);
    expect(numbers((await listIncidents(db, { numero: 'inc-20250102' })).items)).toEqual([
      'INC-20250102-2002',
    ]);
    expect(numbers((await listIncidents(db, { rnc: '24675' })).items)).toEqual(['INC-20250102-2002']);
    expect(numbers((await listIncidents(db, { estado: 'Registrado' })).items)).toEqual([
      'INC-20250104-4004',
      'INC-20250101-1001',
    ]);
    expect(
      numbers((await listIncidents(db, { rnc: '101850043', estado: 'Registrado', nombre: 'nunez' })).items),
    ).toEqual(['INC-20250104-4004']);
    // LIKE wildcards are literal.
    expect(numbers((await listIncidents(db, { nombre: '50%_' })).items)).toEqual(['INC-20250103-3003']);
    expect(numbers((await listIncidents(db, { nombre: '%' })).items)).toEqual(['INC-20250103-3003']);
    expect((await listIncidents(db, { nombre: "'; drop table incidents; --" })).items).toEqual([]);
    const first = await listIncidents(db, {}, 1, 3);
    const second = await listIncidents(db, {}, 2, 3);
    expect([first.hasNext, second.hasNext]).toEqual([true, false]);
    expect(numbers(second.items)).toEqual(['INC-20250101-1001']);
    expect(first.items[0]!.historial).toEqual([
      { estado: 'Registrado', fecha: '2025-01-04T10:00:00.000Z', actor: null },
    ]);
  });

  it('sets the state with a history entry (server time, actor) and counts per state', async () => {
    const { db } = database();
    await seedRows(db);
    const [target] = (await listIncidents(db, { numero: '1001' })).items;
    const now = new Date('2025-02-01T12:00:00.000Z');
    const { incident: updated, notified } = await setIncidentState(
      db,
      { id: target!.id, estado: 'Resuelto', actor: 'soporte@verticeconsultores.com.do' },
      now,
    );
    expect(notified).toEqual({ queued: false, reason: 'not-requested' });
    expect(updated.estado).toBe('Resuelto');
    expect(updated.historial.at(-1)).toEqual({
      estado: 'Resuelto',
      fecha: now.toISOString(),
      actor: 'soporte@verticeconsultores.com.do',
    });
    await setIncidentState(db, {
      id: target!.id,
      estado: 'Registrado',
      actor: 'admin@verticeconsultores.com.do',
    });
    expect(
      (await listIncidents(db, { numero: '1001' })).items[0]!.historial.map((entry) => entry.estado),
    ).toEqual(['Registrado', 'Resuelto', 'Registrado']);
    await expect(setIncidentState(db, { id: 999_999, estado: 'Resuelto', actor: 'x' })).rejects.toThrow(
      IncidentNotFoundError,
    );
    expect(await countIncidentsByState(db)).toEqual({
      Registrado: 2,
      'En Proceso': 1,
      'Esperando al cliente': 0,
      Resuelto: 1,
    });
  });

  it('queues the Spanish notice in the transaction of the history entry: both or neither', async () => {
    const { db } = database();
    const { id } = await insertIncident(db, {
      numeroIncidencia: 'INC-20250105-5005',
      problema: 'No imprime',
      nombre: '<img src=x onerror=alert(1)>',
      telefono: '',
      email: 'visita@cliente.example',
      rnc: '',
      fecha: '2025-01-05T10:00:00.000Z',
    });
    const outbox = () =>
      db
        .selectFrom('mailOutbox')
        .selectAll()
        .where('kind', '=', 'incident.state')
        .where('toAddress', '=', 'visita@cliente.example')
        .execute();
    const history = async () =>
      (
        await db
          .selectFrom('incidentEvents')
          .select('estado')
          .where('incidentId', '=', id)
          .orderBy('id')
          .execute()
      ).map((row) => row.estado);

    // The notice cannot be composed (a broken site URL): the state, the history entry and the mail all roll back.
    await expect(
      setIncidentState(db, {
        id,
        estado: 'En Proceso',
        actor: 'soporte@verticeconsultores.com.do',
        notify: { ...brand, siteUrl: 'no es una url' },
      }),
    ).rejects.toThrow();
    expect(await history()).toEqual(['Registrado']);
    expect(
      (await db.selectFrom('incidents').select('estado').where('id', '=', id).executeTakeFirstOrThrow())
        .estado,
    ).toBe('Registrado');
    expect(await outbox()).toEqual([]);

    const now = new Date('2025-02-02T15:30:00.000Z');
    const { notified } = await setIncidentState(
      db,
      { id, estado: 'En Proceso', actor: 'soporte@verticeconsultores.com.do', notify: brand },
      now,
    );
    expect(notified).toEqual({ queued: true });
    expect(await history()).toEqual(['Registrado', 'En Proceso']);
    const [mail] = await outbox();
    expect(mail).toMatchObject({
      status: 'pending',
      subject: 'Incidencia INC-20250105-5005: En Proceso',
      createdAt: now.toISOString(),
    });
    expect(mail!.textBody).toContain('cambió a «En Proceso»');
    // A mail to the visitor carries nothing the visitor typed, the name included (issue 13).
    expect(mail!.textBody).toContain('Hola:');
    expect(mail!.textBody).not.toContain('onerror');
    expect(mail!.htmlBody).not.toContain('<img');
    expect(mail!.htmlBody).not.toContain('onerror');
    expect(mail!.htmlBody).toContain('https://vertice.example/soporte/seguimiento');

    // Without an e-mail there is nobody to tell: the change is stored, no mail.
    await db.updateTable('incidents').set({ email: '' }).where('id', '=', id).execute();
    expect(
      (
        await setIncidentState(db, {
          id,
          estado: 'Resuelto',
          actor: 'soporte@verticeconsultores.com.do',
          notify: brand,
        })
      ).notified,
    ).toEqual({ queued: false, reason: 'no-email' });
    expect(await outbox()).toHaveLength(1);
    await db.deleteFrom('incidents').where('id', '=', id).execute();
  });

  it('keeps the trigram search in step with updates and deletes', async () => {
    const { db } = database();
    await seedRows(db);
    const [target] = (await listIncidents(db, { numero: '2002' })).items;
    const changed = { nombre: 'Altagracia Báez', rnc: target!.rnc };
    await db
      .updateTable('incidents')
      .set({ ...changed, ...incidentSearchColumns(changed) })
      .where('id', '=', target!.id)
      .execute();
    expect(numbers((await listIncidents(db, { nombre: 'baez' })).items)).toEqual(['INC-20250102-2002']);
    expect((await listIncidents(db, { nombre: 'gomez' })).items).toEqual([]);
    await db.deleteFrom('incidents').where('id', '=', target!.id).execute();
    expect((await listIncidents(db, { nombre: 'baez' })).items).toEqual([]);
    expect((await listIncidents(db, { numero: '2002' })).items).toEqual([]);
  });

  it('exports the filtered list as CSV', async () => {
    const { db } = database();
    await seedRows(db);
    const [target] = (await listIncidents(db, { numero: '1001' })).items;
    await setIncidentState(
      db,
      { id: target!.id, estado: 'Resuelto', actor: 'soporte@verticeconsultores.com.do' },
      new Date('2025-02-01T12:00:00.000Z'),
    );
    const csv = await exportIncidentsCsv(db, { nombre: 'pérez' });
    expect(csv.startsWith('\uFEFF"Número"')).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      '\uFEFF"Número","Fecha (hora de Santo Domingo)","Estado","Prioridad","Nombre","Teléfono","Correo","RNC","Problema","Historial (hora de Santo Domingo)"',
    );
    expect(lines[2]).toContain('"Problema de José Pérez"');
    expect(lines[2]).toContain('(soporte@verticeconsultores.com.do)');
    // Santo Domingo time (UTC-4), the history in one cell.
    expect(lines[2]).toBe(
      '"INC-20250101-1001","01/01/2025 06:00","Resuelto","Normal","José Pérez","","","101850043","Problema de José Pérez","01/01/2025 06:00 Registrado | 01/02/2025 08:00 Resuelto (soporte@verticeconsultores.com.do)"',
    );
  });
});

describeEachEngine('staff incident list beyond the recent window', (database) => {
  // 1,300 incidents, two per minute (equal dates across the window's edge): a common name (1 in 3),
  // a name only on the 300 oldest (more than the index probe, none among the newest), a rare one.
  const rows = Array.from({ length: RECENT_WINDOW + 300 }, (_, i) => {
    const nombre =
      i < 300 ? `Medio Antiguo ${i}` : i % 97 === 0 ? 'Raúl Raro' : i % 3 === 0 ? 'Común Núñez' : `Otro ${i}`;
    return {
      numeroIncidencia: `INC-20250101-${String(100_000 + i)}`,
      problema: '',
      nombre,
      telefono: '',
      email: '',
      rnc: String(100_000_000 + i * 7),
      estado: (['Registrado', 'En Proceso', 'Resuelto'] as const)[i % 3]!,
      fecha: new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 2) * 60_000).toISOString(),
    };
  });

  /** What the list must show: the same filters in plain JavaScript, newest first. */
  function reference(
    filters: { nombre?: string; rnc?: string; numero?: string; estado?: IncidentState },
    ids: Map<string, number>,
  ) {
    const has = (value: string, term?: string) =>
      !term || normalizeForSearch(value).includes(normalizeForSearch(term));
    return rows
      .filter(
        (row) =>
          has(row.nombre, filters.nombre) &&
          has(row.rnc, filters.rnc) &&
          has(row.numeroIncidencia, filters.numero) &&
          (!filters.estado || row.estado === filters.estado),
      )
      .sort(
        (a, b) =>
          b.fecha.localeCompare(a.fecha) || ids.get(b.numeroIncidencia)! - ids.get(a.numeroIncidencia)!,
      )
      .map((row) => row.numeroIncidencia);
  }

  it('gives the same pages as a plain filter and sort, whichever way it finds them', async () => {
    const { db } = database();
    await insertIncidents(db, rows, () => []);
    const ids = new Map(
      (await db.selectFrom('incidents').select(['id', 'numeroIncidencia']).execute()).map((row) => [
        row.numeroIncidencia,
        row.id,
      ]),
    );
    const cases = [
      { nombre: 'comun nunez' }, // common: the newest rows fill the page
      { nombre: 'medio antiguo' }, // 300 matches, all older than the window
      { nombre: 'MEDIO', estado: 'Resuelto' as const },
      { nombre: 'raro' }, // 14 matches: the index probe has them all
      { nombre: 'ra' }, // two letters: no trigram, scanned
      { rnc: '1000000' },
      { numero: '-1012' },
      { numero: 'INC-20250101-100005' }, // a whole number, older than the window
      { numero: '01-1000' },
      { nombre: 'nadie' },
    ];
    for (const filters of cases) {
      const expected = reference(filters, ids);
      const pages = Math.max(1, Math.ceil(expected.length / PAGE_SIZE));
      for (const page of new Set([1, 2, pages])) {
        const result = await listIncidents(db, filters, page);
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
