/**
 * Times as a person reads them (issue 39, polish): the client CSV's 'Fecha de registro' was UTC in ISO
 * ('2026-12-07T03:30:00.000Z', the evening before in Santo Domingo); now it is Santo Domingo time as
 * the staff pages show it, and its header says so, as every CSV's time column does.
 * `npm run admin -- list`: tests/e2e/second-day-left.test.ts.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { ClientRecord } from '../../src/domain/forms/client.ts';
import { clientsCsv } from '../../src/server/clients/csv.ts';
import { ALAMOS_FORM } from '../support/factories.ts';

const client: ClientRecord = {
  ...ALAMOS_FORM,
  id: 7,
  estadoProyecto: 'pendiente',
  version: 1,
  archivedAt: '2027-01-02T13:05:00.000Z',
  fechaRegistro: '2026-12-07T03:30:00.000Z',
  correoBienvenidaEnviado: false,
};

describe("the client CSV's dates", () => {
  it('are Santo Domingo time, said in their headers', () => {
    const [header, row] = parse(clientsCsv([client]).replace(/^\uFEFF/, '')) as string[][];
    const at = (name: string) => row![header!.indexOf(name)];
    expect(at('Fecha de registro (hora de Santo Domingo)')).toBe('06/12/2026 23:30');
    expect(at('Fecha de archivo (hora de Santo Domingo)')).toBe('02/01/2027 09:05');
    expect(header!.filter((name) => name.startsWith('Fecha'))).toEqual([
      'Fecha de registro (hora de Santo Domingo)',
      'Fecha de archivo (hora de Santo Domingo)',
    ]);
  });
});
