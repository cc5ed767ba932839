/**
 * 'Importar CSV' and 'Exportar CSV' of the clients, and the matching of clients with incidents
 * (issue 12), on both engines: parsing (BOM, quotes, CRLF, ';'), the per-row errors and warnings,
 * duplicates against the database and within the file by normalised RNC, the limits, the one
 * transaction, the round trip, and the index-backed lookups.
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { clientTimeline, createClient, listClients } from '../../src/server/clients/index.ts';
import {
  CLIENT_CSV_HEADER,
  clientsCsv,
  IMPORT_MAX_ROWS,
  importClients,
  ImportRefusal,
  IMPORT_ALREADY_DONE,
  previewImport,
  RNC_WITHOUT_NUMBER,
  signUpload,
  uploadNonce,
  verifyUpload,
} from '../../src/server/clients/csv.ts';
import {
  clientIncidents,
  clientIncidentsQuery,
  incidentClients,
  incidentClientsQuery,
  rncKeySql,
} from '../../src/server/clients/match.ts';
import { isPostgres } from '../../src/server/db/engine.ts';
import type { Db } from '../../src/server/db/index.ts';
import { describeEachEngine } from '../support/db.ts';
import { insertIncident } from '../support/factories.ts';

const HEADER =
  'Razón social,Nombre del representante,Teléfono,Correo electrónico,RNC o cédula,Tipo de proyecto';
const bytes = (text: string) => new TextEncoder().encode(text);
const ana = { actorId: 'u1', actorEmail: 'ana@vertice.example', network: '198.51.100.1' };
const base = {
  nombreRepresentante: 'Carmen Rodríguez',
  telefono: '8095550142',
  tipoProyecto: 'Implementación AdmCloud',
};

async function clientCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('clients')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const importAudit = (db: Db) =>
  db.selectFrom('auditEvents').selectAll().where('action', '=', 'client.imported').execute();

describeEachEngine('client CSV import', (database) => {
  it('reads a BOM, quoted fields with commas, quotes and line breaks, and CRLF line ends', async () => {
    const { db } = database();
    const csv =
      `\uFEFF${HEADER}\r\n` +
      `"Farmacia ""El Sol"", SRL","José Núñez","809 555 0101","Jose@Sol.DO","101850019","Restaurant.pe"\r\n` +
      `"Colmado\r\nDon Pepe",Pepe,8295550102,pepe@example.com,101-85002-7,Tiendao\r\n`;
    const preview = await previewImport(db, bytes(csv));
    expect(preview).toMatchObject({ valid: 2, invalid: 0, duplicate: 0 });
    expect(preview.rows[0]!.values).toEqual({
      razonSocial: 'Farmacia "El Sol", SRL',
      nombreRepresentante: 'José Núñez',
      telefono: '809 555 0101',
      email: 'Jose@Sol.DO',
      rnc: '101850019',
      tipoProyecto: 'Restaurant.pe',
    });
    expect(preview.rows.map((row) => row.line)).toEqual([2, 3]);
    expect(preview.rows[1]!.values.razonSocial).toBe('Colmado\r\nDon Pepe');
    // Nothing is written by a preview.
    expect(await clientCount(db)).toBe(0);
  });

  it('reads the semicolons of a spreadsheet saved in Spanish', async () => {
    const { db } = database();
    const csv = `${HEADER.replaceAll(',', ';')}\n"Botica Núñez, SRL";Luis;8095550103;luis@botica.do;101850035;Otro\n`;
    const preview = await previewImport(db, bytes(csv));
    expect(preview.valid).toBe(1);
    expect(preview.rows[0]!.values.razonSocial).toBe('Botica Núñez, SRL');
  });

  it('gives each bad row its Spanish errors, keeps RNC warnings as warnings, and skips duplicates', async () => {
    const { db } = database();
    await createClient(db, {
      ...base,
      razonSocial: 'Cliente Existente SRL',
      email: 'existe@example.com',
      rnc: '101-85000-2',
    });
    const csv = [
      HEADER,
      ',Sin Razón,8095550104,sinrazon@example.com,101850051,AdmCloud',
      'Correo Malo SRL,Rosa,8095550105,rosa-at-example.com,101850061,AdmCloud',
      'Aviso RNC SRL,Pedro,8095550106,pedro@example.com,101850042,AdmCloud',
      'Ya Existe SRL,Marta,8095550107,marta@example.com,101 850 002,AdmCloud',
      'Primera SRL,Juan,8095550108,juan@example.com,101850078,AdmCloud',
      'Repetida SRL,Juana,8095550109,juana@example.com,101-85007-8,AdmCloud',
      'Estado Raro SRL,Raúl,8095550110,raul@example.com,101850043,AdmCloud',
    ].join('\n');
    const withState = csv
      .replace(HEADER, `${HEADER},Estado del proyecto`)
      .replace('AdmCloud\nPrimera', 'AdmCloud,en curso\nPrimera')
      .replace(/AdmCloud$/, 'AdmCloud,cerrado');
    const preview = await previewImport(db, bytes(withState));
    const byLine = (line: number) => preview.rows.find((row) => row.line === line)!;
    expect(byLine(2)).toMatchObject({
      status: 'invalid',
      errors: ['Razón social: Este campo es obligatorio.'],
    });
    expect(byLine(3)).toMatchObject({
      status: 'invalid',
      errors: ['Correo electrónico: Correo electrónico no válido.'],
    });
    expect(byLine(4)).toMatchObject({ status: 'valid', errors: [] });
    expect(byLine(4).warnings[0]).toMatch(/dígito verificador/);
    expect(byLine(5)).toMatchObject({ status: 'duplicate', estadoProyecto: 'en curso' });
    expect(byLine(5).errors[0]).toContain('Cliente Existente SRL');
    expect(byLine(6).status).toBe('valid');
    expect(byLine(7)).toMatchObject({
      status: 'duplicate',
      errors: ['Repite el RNC de la fila de la línea 6 de este archivo. Se omite.'],
    });
    expect(byLine(8).status).toBe('invalid');
    expect(byLine(8).errors[0]).toMatch(/^Estado del proyecto: «cerrado» no es un estado válido/);
    expect(preview).toMatchObject({ valid: 2, invalid: 3, duplicate: 2 });

    const outcome = await importClients(db, bytes(withState), ana, new Date('2025-05-01T12:00:00.000Z'));
    expect(outcome).toEqual({ imported: 2, skipped: 5 });
    const names = (await listClients(db)).map((client) => client.razonSocial).sort();
    expect(names).toEqual(['Aviso RNC SRL', 'Cliente Existente SRL', 'Primera SRL']);
    const primera = (await listClients(db, 'Primera'))[0]!;
    expect(primera).toMatchObject({
      telefono: '+1 809-555-0108',
      estadoProyecto: 'pendiente',
      correoBienvenidaEnviado: false,
    });
    const timeline = await clientTimeline(db, primera.id);
    expect(timeline).toEqual([
      expect.objectContaining({ kind: 'created', imported: true, actorEmail: ana.actorEmail }),
    ]);
    const audit = await importAudit(db);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorEmail: ana.actorEmail,
      detail: '2 clientes importados; 5 filas omitidas',
    });

    // The same file again: every row is now invalid or a duplicate, and nothing is written.
    expect(await importClients(db, bytes(withState), ana)).toEqual({ imported: 0, skipped: 7 });
    expect(await clientCount(db)).toBe(3);
  });

  it('writes all the valid rows or none: a failure on the last batch leaves no client behind', async () => {
    const { db } = database();
    const rows = Array.from(
      { length: 450 },
      (_, index) => `Empresa ${index} SRL,Rep,8095550100,e${index}@example.com,${200000000 + index},AdmCloud`,
    );
    // A statement inside the same transaction fails after the first batch of 400 was inserted: a
    // trigger refuses the 401st row (SQLite raise(), PostgreSQL a CHECK added for the test).
    if (isPostgres(db)) {
      await sql`alter table clients add constraint test_no_empresa_449 check (razon_social <> 'Empresa 449 SRL')`.execute(
        db,
      );
    } else {
      await sql`create trigger test_no_empresa_449 before insert on clients when new.razon_social = 'Empresa 449 SRL' begin select raise(abort, 'refused'); end`.execute(
        db,
      );
    }
    try {
      await expect(importClients(db, bytes([HEADER, ...rows].join('\n')), ana)).rejects.toThrow();
      expect(await clientCount(db)).toBe(0);
      expect(await db.selectFrom('clientEvents').selectAll().execute()).toEqual([]);
      expect(await importAudit(db)).toEqual([]);
    } finally {
      if (isPostgres(db)) await sql`alter table clients drop constraint test_no_empresa_449`.execute(db);
      else await sql`drop trigger test_no_empresa_449`.execute(db);
    }
    expect(await importClients(db, bytes([HEADER, ...rows].join('\n')), ana)).toEqual({
      imported: 450,
      skipped: 0,
    });
  });

  it('imports a file once when it is confirmed twice at the same time (a double submit)', async () => {
    const { db } = database();
    const file = bytes(
      [
        HEADER,
        ...Array.from(
          { length: 50 },
          (_, index) =>
            `Doble ${index} SRL,Rep,8095550100,d${index}@example.com,${400000000 + index},AdmCloud`,
        ),
      ].join('\n'),
    );
    const outcomes = await Promise.all([importClients(db, file, ana), importClients(db, file, ana)]);
    expect(outcomes.map((outcome) => outcome.imported).sort()).toEqual([0, 50]);
    expect(await clientCount(db)).toBe(50);
  });

  it('refuses, in Spanish, a file over the limits, with missing columns, not UTF-8, or malformed', async () => {
    const { db } = database();
    const refusal = (data: Uint8Array) =>
      previewImport(db, data).then(
        () => 'accepted',
        (error: unknown) => (error instanceof ImportRefusal ? error.message : `other: ${String(error)}`),
      );
    const row = (index: number) => `E${index},R,8095550100,e${index}@x.do,${300000000 + index},T`;
    const atLimit = [HEADER, ...Array.from({ length: IMPORT_MAX_ROWS }, (_, index) => row(index))].join('\n');
    expect((await previewImport(db, bytes(atLimit))).valid).toBe(IMPORT_MAX_ROWS);
    expect(await refusal(bytes(`${atLimit}\n${row(IMPORT_MAX_ROWS)}`))).toMatch(/más de 5.000 filas/);
    const big = new Uint8Array(2 * 1024 * 1024 + 1).fill(0x61);
    expect(await refusal(big)).toMatch(/el máximo es 2 MB/);
    expect(await refusal(bytes('Razón social,Teléfono\nA,1\n'))).toMatch(
      /^Faltan las columnas «Nombre del representante», «Correo electrónico»/,
    );
    expect(await refusal(new Uint8Array([0x52, 0xe1, 0x7a, 0x0a]))).toMatch(/no está en UTF-8/);
    expect(await refusal(bytes(`${HEADER}\n"Sin cerrar,R,1,a@b.do,1,T\n`))).toMatch(/comillas/);
    expect(await refusal(bytes(`${HEADER}\n`))).toMatch(/solo los encabezados/);
  });

  it('round-trips: the export of a database imports into an empty one as the same clients', async () => {
    const { db } = database();
    const tricky = [
      {
        razonSocial: '=HYPERLINK("http://evil.example","x")',
        email: 'formula@example.com',
        rnc: '101850002',
      },
      { razonSocial: '<img src=x onerror=alert(1)>, "SRL"', email: 'xss@example.com', rnc: '101850019' },
      { razonSocial: 'Línea uno\nLínea dos', email: 'lineas@example.com', rnc: '-101850027' },
      { razonSocial: '@Arroba; Punto y coma', email: 'arroba@example.com', rnc: '+101850035' },
    ];
    for (const [index, client] of tricky.entries())
      await createClient(db, { ...base, ...client, tipoProyecto: index % 2 ? 'Tiendao' : '+ AdmCloud' });
    const exported = clientsCsv(await listClients(db, { limit: null }));
    expect(exported.startsWith(`\uFEFF"${CLIENT_CSV_HEADER.join('","')}"\r\n`)).toBe(true);
    expect(exported).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(exported).toContain(`"'@Arroba; Punto y coma"`);
    expect(exported).not.toMatch(/(^|,)"[=+\-@]/m);

    // "Into an empty database": the rows are deleted, then the file is imported back.
    const before = (await listClients(db, { limit: null })).map(
      ({ id: _id, fechaRegistro: _f, version: _v, ...client }) => client,
    );
    await db.deleteFrom('clientEvents').execute();
    await db.deleteFrom('clients').execute();
    expect(await importClients(db, bytes(exported), ana)).toEqual({ imported: 4, skipped: 0 });
    const after = (await listClients(db, { limit: null })).map(
      ({ id: _id, fechaRegistro: _f, version: _v, ...client }) => client,
    );
    expect(after.sort((a, b) => a.email.localeCompare(b.email))).toEqual(
      before.sort((a, b) => a.email.localeCompare(b.email)),
    );
  });

  it('signs the carried upload for one staff member and one file, for an hour', () => {
    const file = bytes('a,b\n');
    const now = Date.parse('2025-05-01T12:00:00Z');
    const signature = signUpload('u1', file, now, 'secreto-de-prueba-0123456789abcdefghij');
    const verify = (staff: string, data: Uint8Array, at: number) =>
      verifyUpload(staff, data, signature, at, 'secreto-de-prueba-0123456789abcdefghij');
    expect(verify('u1', file, now + 1000)).toBe(true);
    expect(verify('u2', file, now)).toBe(false);
    expect(verify('u1', bytes('a,c\n'), now)).toBe(false);
    expect(verify('u1', file, now + 61 * 60 * 1000)).toBe(false);
    expect(verifyUpload('u1', file, 'x.y', now, 'secreto-de-prueba-0123456789abcdefghij')).toBe(false);
  });
});

describeEachEngine('client CSV import: a confirmation imports once (issue 24, finding 6)', (database) => {
  const SECRET = 'secreto-de-prueba-0123456789abcdefghij';
  const file = bytes(
    [
      HEADER,
      'Guion SRL,Rosa,8095550105,rosa@guion.example,-,AdmCloud',
      'Punto SRL,Luis,8095550106,luis@punto.example,.,AdmCloud',
      'Buena SRL,Ana,8095550107,ana@buena.example,101850078,AdmCloud',
    ].join('\n'),
  );

  it('refuses a row whose RNC is only a dash or a dot: it could never be found a duplicate', async () => {
    const { db } = database();
    const preview = await previewImport(db, file);
    expect(preview.rows.map((row) => [row.status, row.errors])).toEqual([
      ['invalid', [`RNC o cédula: ${RNC_WITHOUT_NUMBER}`]],
      ['invalid', [`RNC o cédula: ${RNC_WITHOUT_NUMBER}`]],
      ['valid', []],
    ]);
  });

  it('imports nothing when the same signed confirmation is posted again within its hour', async () => {
    const { db } = database();
    const now = Date.now();
    const signature = signUpload('u1', file, now, SECRET);
    expect(verifyUpload('u1', file, signature, now, SECRET)).toBe(true);
    const nonce = uploadNonce(signature);
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await importClients(db, file, ana, new Date(now), nonce)).toEqual({ imported: 1, skipped: 2 });
    // The same confirmation again: still valid as a signature, refused as used; nothing is written.
    expect(verifyUpload('u1', file, signature, now + 1000, SECRET)).toBe(true);
    await expect(importClients(db, file, ana, new Date(now + 1000), nonce)).rejects.toThrow(
      new ImportRefusal(IMPORT_ALREADY_DONE),
    );
    expect(await listClients(db, { limit: null })).toHaveLength(1);
    // A new preview of the same file signs a new nonce: importing it again is a deliberate act (its rows are duplicates now).
    const again = signUpload('u1', file, now, SECRET);
    expect(uploadNonce(again)).not.toBe(nonce);
    expect(await importClients(db, file, ana, new Date(now + 2000), uploadNonce(again))).toEqual({
      imported: 0,
      skipped: 3,
    });
  });
});

describeEachEngine('clients and incidents matched by RNC or e-mail', (database) => {
  it("lists a client's incidents newest first and links an incident to its clients", async () => {
    const { db } = database();
    const { client } = await createClient(db, {
      ...base,
      razonSocial: 'Farmacia Los Álamos SRL',
      email: 'carmen@losalamos.com.do',
      rnc: '101-85004-3',
    });
    await createClient(db, {
      ...base,
      razonSocial: 'Otra Empresa SRL',
      email: 'otra@example.com',
      rnc: '101850051',
    });
    await insertIncident(db, {
      numeroIncidencia: 'INC-20250101-1001',
      rnc: '101850043',
      email: 'alguien@example.com',
      fecha: '2025-01-01T10:00:00.000Z',
    });
    await insertIncident(db, {
      numeroIncidencia: 'INC-20250102-1002',
      rnc: '',
      email: '  Carmen@LosAlamos.com.do ',
      fecha: '2025-01-02T10:00:00.000Z',
    });
    await insertIncident(db, {
      numeroIncidencia: 'INC-20250103-1003',
      rnc: '101 850 043',
      email: 'carmen@losalamos.com.do',
      fecha: '2025-01-03T10:00:00.000Z',
    });
    await insertIncident(db, {
      numeroIncidencia: 'INC-20250104-1004',
      rnc: '101850051',
      email: 'nadie@example.com',
      fecha: '2025-01-04T10:00:00.000Z',
    });
    await insertIncident(db, {
      numeroIncidencia: 'INC-20250105-1005',
      rnc: '',
      email: '',
      fecha: '2025-01-05T10:00:00.000Z',
    });

    const incidents = await clientIncidents(db, client);
    expect(incidents.map((incident) => [incident.numeroIncidencia, incident.matchedBy])).toEqual([
      ['INC-20250103-1003', 'ambos'],
      ['INC-20250102-1002', 'email'],
      ['INC-20250101-1001', 'rnc'],
    ]);
    expect(await incidentClients(db, { rnc: '101850043', email: '' })).toEqual([
      { id: client.id, razonSocial: 'Farmacia Los Álamos SRL', archived: false },
    ]);
    expect(await incidentClients(db, { rnc: '', email: 'CARMEN@losalamos.com.do' })).toHaveLength(1);
    // An incident with neither an RNC nor an e-mail matches no client (empty keys never match).
    await createClient(db, { ...base, razonSocial: 'Sin Datos', email: 'x@example.com', rnc: '---' });
    expect(await incidentClients(db, { rnc: '', email: '' })).toEqual([]);
    expect(await clientIncidents(db, { rnc: '---', email: '' })).toEqual([]);
  });

  it('answers both lookups and the duplicate check from the indexes of migration 0018', async () => {
    const { db } = database();
    const plan = async (query: { compile(): { sql: string; parameters: readonly unknown[] } }) => {
      const compiled = query.compile();
      if (isPostgres(db)) {
        // On a handful of rows PostgreSQL would rightly read the table: forbid that, then see what it uses.
        // A walk of another index in the list's order (filtering every row) is forbidden too: on a
        // handful of rows its cost ties with the lookup's, so the table's history (a database reused
        // after a DELETE keeps its pages) would pick the plan. Left with bitmap scans only, the plan
        // can only use indexes whose expressions match the query's, which is what this test asks.
        return db.transaction().execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          await sql`set local enable_indexscan = off`.execute(trx);
          const result = await trx.executeQuery<{ 'QUERY PLAN': string }>({
            ...compiled,
            sql: `explain ${compiled.sql}`,
            query: undefined as never,
            queryId: undefined as never,
          });
          return result.rows.map((row) => Object.values(row).join(' ')).join('\n');
        });
      }
      const result = await db.executeQuery<{ detail: string }>({
        ...compiled,
        sql: `explain query plan ${compiled.sql}`,
        query: undefined as never,
        queryId: undefined as never,
      });
      return result.rows.map((row) => row.detail).join('\n');
    };
    const keys = { rnc: '101-85004-3', email: 'Carmen@LosAlamos.com.do' };
    const incidentsPlan = await plan(clientIncidentsQuery(db, keys)!);
    expect(incidentsPlan).toContain('incidents_rnc_key_idx');
    expect(incidentsPlan).toContain('incidents_email_key_idx');
    const clientsPlan = await plan(incidentClientsQuery(db, keys)!);
    expect(clientsPlan).toContain('clients_rnc_key_idx');
    expect(clientsPlan).toContain('clients_email_key_idx');
    // The import's duplicate check.
    const clientsByRnc = db
      .selectFrom('clients')
      .select('id')
      .where(rncKeySql, 'in', ['101850043', '101850051']);
    expect(await plan(clientsByRnc)).toContain('clients_rnc_key_idx');
  });
});
