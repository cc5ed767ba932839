import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toCsv } from '../../src/server/csv.ts';
import {
  collectRecords,
  exportCsv,
  exportData,
  importData,
  toIsoTime,
} from '../../src/server/data/transfer.ts';
import { describeEachEngine } from '../support/db.ts';
import { ROOT } from '../support/server.ts';

/** Shaped like the original site's document exports: a map of document id → document. */
const original = {
  incidencias: {
    a1: {
      numeroIncidencia: 'INC-20250310-4821',
      problema: 'No imprime la factura con NCF',
      nombre: 'José Núñez',
      telefono: '809-555-0101',
      email: 'jose@example.com',
      rnc: '131-00000-1',
      estado: 'En Proceso',
      fecha: { _seconds: 1741600000, _nanoseconds: 500000000 },
      historial: [
        { estado: 'Registrado', fecha: { seconds: 1741600000, nanoseconds: 0 } },
        { estado: 'En Proceso', fecha: '2025-03-11T14:00:00.000Z' },
      ],
    },
    a2: {
      numeroIncidencia: 'INC-20250312-1000',
      problema: '',
      nombre: '',
      telefono: '',
      email: '',
      rnc: '',
      estado: 'Registrado',
      fecha: 1741780800000,
      historial: [],
    },
    bad1: { numeroIncidencia: 'INC-2025-1', estado: 'Registrado', fecha: 1741780800000 },
    bad2: { numeroIncidencia: 'INC-20250312-2000', estado: 'Cerrado', fecha: 1741780800000 },
    bad3: { numeroIncidencia: 'INC-20250312-3000', estado: 'Registrado', fecha: 'ayer' },
  },
  clientes: [
    {
      razonSocial: 'Farmacia Los Prados SRL',
      nombreRepresentante: 'Ana Pérez',
      telefono: '8295550123',
      email: 'ana@farmacialosprados.do',
      rnc: '101010101',
      tipoProyecto: 'Implementación AdmCloud',
      estadoProyecto: 'pendiente',
      fechaRegistro: { seconds: 1741000000, nanoseconds: 0 },
      correoBienvenidaEnviado: true,
    },
    { razonSocial: '', fechaRegistro: 1741000000000 },
  ],
};

describe('toIsoTime', () => {
  it.each([
    ['2025-03-11T14:00:00.000Z', '2025-03-11T14:00:00.000Z'],
    [1741780800000, '2025-03-12T12:00:00.000Z'],
    ['1741780800000', '2025-03-12T12:00:00.000Z'],
    [{ seconds: 1741600000, nanoseconds: 500000000 }, '2025-03-10T09:46:40.500Z'],
    [{ _seconds: 1741600000, _nanoseconds: 0 }, '2025-03-10T09:46:40.000Z'],
  ])('reads %j', (input, expected) => {
    expect(toIsoTime(input)).toBe(expected);
  });

  it.each([['ayer'], [null], [{}], [Number.NaN], ['']])('rejects %j', (input) => {
    expect(toIsoTime(input)).toBeNull();
  });
});

describe('collectRecords', () => {
  it('accepts arrays of mixed documents and maps keyed by document id', () => {
    const fromMap = collectRecords(original);
    expect(fromMap.incidents).toHaveLength(5);
    expect(fromMap.clients).toHaveLength(2);
    const fromArray = collectRecords([
      ...Object.values(original.incidencias),
      ...original.clientes,
      { name: 'x', email: 'x@x.do', message: 'hola', createdAt: 1 },
    ]);
    expect(fromArray.incidents).toHaveLength(5);
    expect(fromArray.clients).toHaveLength(2);
    expect(fromArray.contactMessages).toHaveLength(1);
  });
});

describe('toCsv', () => {
  it('starts with a BOM, quotes what needs it and neutralises formulas', () => {
    const csv = toCsv(
      ['a', 'b'],
      [
        ['=HYPERLINK("x")', 'dice "hola", ¿sí?'],
        ['+1 809', '@SUM(A1)'],
      ],
    );
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    expect(csv).toContain('"dice ""hola"", ¿sí?"');
    expect(csv).toContain(`"'+1 809","'@SUM(A1)"`);
  });
});

describeEachEngine('import and export', (database) => {
  it('imports the original exports, counting invalid rows, and keeps the history', async () => {
    const { db } = database();
    const summary = await importData(db, original);
    expect(summary.incidents).toEqual({ imported: 2, skipped: 0, invalid: 3 });
    expect(summary.clients).toEqual({ imported: 1, skipped: 0, invalid: 1 });

    const incident = await db
      .selectFrom('incidents')
      .selectAll()
      .where('numeroIncidencia', '=', 'INC-20250310-4821')
      .executeTakeFirstOrThrow();
    expect(incident.fecha).toBe('2025-03-10T09:46:40.500Z');
    expect(incident.nombreNorm).toBe('jose nunez');
    const history = await db
      .selectFrom('incidentEvents')
      .select(['estado', 'fecha'])
      .where('incidentId', '=', incident.id)
      .orderBy('fecha')
      .execute();
    expect(history).toEqual([
      { estado: 'Registrado', fecha: '2025-03-10T09:46:40.000Z' },
      { estado: 'En Proceso', fecha: '2025-03-11T14:00:00.000Z' },
    ]);
    // An incident exported without history gets its creation entry.
    const bare = await db
      .selectFrom('incidents')
      .select('id')
      .where('numeroIncidencia', '=', 'INC-20250312-1000')
      .executeTakeFirstOrThrow();
    expect(
      await db.selectFrom('incidentEvents').select('estado').where('incidentId', '=', bare.id).execute(),
    ).toEqual([{ estado: 'Registrado' }]);
  });

  it('adds nothing when the same file is imported again', async () => {
    const { db } = database();
    await importData(db, original);
    const summary = await importData(db, original);
    expect(summary.incidents).toEqual({ imported: 0, skipped: 2, invalid: 3 });
    expect(summary.clients).toEqual({ imported: 0, skipped: 1, invalid: 1 });
  });

  it('keeps nothing of an import that fails part-way', async () => {
    const { db } = database();
    await importData(db, original);
    const before = await db.selectFrom('incidents').select('id').execute();
    const fresh = {
      incidencias: [
        { numeroIncidencia: 'INC-20250401-5555', estado: 'Registrado', fecha: 1743500000000 },
        { numeroIncidencia: 'INC-20250401-6666', estado: 'Registrado', fecha: 1743500000000 },
      ],
    };
    await expect(
      importData(db, fresh, {
        onProgress: (done) => {
          if (done === 2) throw new Error('interrumpido');
        },
      }),
    ).rejects.toThrow('interrumpido');
    expect(await db.selectFrom('incidents').select('id').execute()).toHaveLength(before.length);
  });

  it('exports what it imported, with CSV for spreadsheets', async () => {
    const { db } = database();
    await importData(db, original);
    const data = await exportData(db);
    const incident = data.incidents.find((item) => item.numeroIncidencia === 'INC-20250310-4821');
    expect(incident?.historial.map((entry) => entry.estado)).toEqual(['Registrado', 'En Proceso']);
    expect(data.clients[0]?.correoBienvenidaEnviado).toBe(true);
    const csv = exportCsv(data);
    expect(csv.incidents).toContain('José Núñez');
    expect(csv.clients).toContain('Farmacia Los Prados SRL');
  });
});

describe('npm run data (command line)', () => {
  it('exports, then imports the export into another database idempotently', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vertice-data-'));
    try {
      const source = join(dir, 'a.db');
      const target = join(dir, 'b.db');
      const file = join(dir, 'original.json');
      writeFileSync(file, JSON.stringify(original));
      const run = (database: string, ...args: string[]) =>
        execFileSync(process.execPath, ['scripts/data.ts', ...args], {
          cwd: ROOT,
          env: { ...process.env, DATABASE_URL: database, LOG_LEVEL: 'silent' },
          encoding: 'utf8',
        });
      expect(run(source, 'import', file)).toMatch(/Incidencias\s+2\s+0\s+3/);
      expect(run(source, 'export', join(dir, 'out'))).toMatch(/Exportados 2 incidencias, 1 clientes/);
      const exported = join(dir, 'out', 'export.json');
      expect(readFileSync(join(dir, 'out', 'incidents.csv'), 'utf8')).toContain('INC-20250310-4821');
      expect(run(target, 'import', exported)).toMatch(/Incidencias\s+2\s+0\s+0/);
      expect(run(target, 'import', exported)).toMatch(/Incidencias\s+0\s+2\s+0/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
