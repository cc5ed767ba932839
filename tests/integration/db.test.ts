import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, ping, sqlitePath, type Db } from '../../src/server/db/index.ts';
import { describeEachEngine } from '../support/db.ts';
import { buildClient, buildIncident, insertClient } from '../support/factories.ts';

describeEachEngine('database layer', (database) => {
  it('answers select 1', async () => {
    expect(await ping(database().db)).toBe(true);
  });

  it('has applied every migration, and applying again does nothing', async () => {
    const result = await migrateToLatest(database().db);
    expect(result.results).toEqual([]);
  });

  it('round-trips times as ISO strings and booleans as booleans', async () => {
    const { db, engine } = database();
    const fecha = '2026-03-04T05:06:07.089Z';
    // No estadoProyecto nor correoBienvenidaEnviado: the database's defaults apply.
    const inserted = await insertClient(db, { telefono: '+1 809 555 0100', fechaRegistro: fecha });
    const row = await db
      .selectFrom('clients')
      .selectAll()
      .where('id', '=', inserted.id)
      .executeTakeFirstOrThrow();
    expect(row.fechaRegistro).toBe(fecha);
    expect(row.estadoProyecto).toBe('pendiente');
    // SQLite stores booleans as 0/1 (the data layer converts where it reads them); PostgreSQL as booleans.
    expect(row.correoBienvenidaEnviado).toBe(engine === 'postgres' ? false : 0);
  });

  it('enforces the unique incident number and cascades history on delete', async () => {
    const { db } = database();
    const values = buildIncident({ numeroIncidencia: 'INC-20260304-1234', fecha: new Date().toISOString() });
    const incident = await db
      .insertInto('incidents')
      .values(values)
      .returning('id')
      .executeTakeFirstOrThrow();
    await expect(db.insertInto('incidents').values(values).execute()).rejects.toThrow(/unique|duplicate/i);
    await db
      .insertInto('incidentEvents')
      .values({ incidentId: incident.id, estado: 'Registrado', fecha: values.fecha, actor: null })
      .execute();
    await expect(
      db
        .insertInto('incidentEvents')
        .values({ incidentId: incident.id + 1000, estado: 'Registrado', fecha: values.fecha, actor: null })
        .execute(),
    ).rejects.toThrow(/foreign key/i);
    await db.deleteFrom('incidents').where('id', '=', incident.id).execute();
    const left = await db
      .selectFrom('incidentEvents')
      .select(sql<number>`count(*)`.as('n'))
      .where('incidentId', '=', incident.id)
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
  });
});

describe('search columns', () => {
  it('must be derived by the row writers: an insert that forgets them does not compile', () => {
    // Type-checked (npm run check), never run: the @ts-expect-error fails the check if the schema
    // ever lets the search columns default again.
    const forgetful = (db: Db) =>
      db
        .insertInto('incidents')
        // @ts-expect-error nombreNorm and rncNorm are missing
        .values({
          numeroIncidencia: 'INC-20250101-1000',
          problema: '',
          nombre: 'Ana',
          telefono: '',
          email: '',
          rnc: '',
          estado: 'Registrado',
          fecha: '',
        });
    expect(forgetful).toBeTypeOf('function');
    expect(buildIncident({ nombre: 'Ana  Núñez', rnc: ' 1-01 ' })).toMatchObject({
      nombreNorm: 'ana nunez',
      rncNorm: '1-01',
    });
    expect(buildClient({ razonSocial: 'Café Montaña', email: 'Ana@Cafe.DO', rnc: '1 01' })).toMatchObject({
      razonSocialNorm: 'cafe montana',
      emailNorm: 'ana@cafe.do',
      rncNorm: '1 01',
    });
  });
});

describe('SQLite transactions beside a second connection', () => {
  // A second process (npm run admin, a test seeding the server's file) writing while a transaction of
  // ours has read but not yet written: with a plain `begin`, its commit made our first write fail at
  // once with SQLITE_BUSY_SNAPSHOT. Our transactions begin immediate, so the other writer is the one
  // that waits (here refused at once, with no busy timeout), and ours commits.
  it('holds the write lock from the start, so a concurrent commit cannot invalidate its snapshot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vertice-immediate-'));
    const { db } = openDatabase(join(dir, 'site.db'));
    const other = new DatabaseSync(join(dir, 'site.db'), { timeout: 0 });
    try {
      await sql`create table counters (id integer primary key, value integer not null)`.execute(db);
      await sql`insert into counters (id, value) values (1, 0)`.execute(db);
      let refused: unknown;
      await db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ value: number }>`select value from counters where id = 1`.execute(trx);
        try {
          other.exec('update counters set value = 100 where id = 1');
        } catch (error) {
          refused = error;
        }
        await sql`update counters set value = ${rows[0]!.value + 1} where id = 1`.execute(trx);
      });
      expect(String(refused)).toMatch(/database is locked/);
      other.exec('update counters set value = value + 10 where id = 1');
      const { rows } = await sql<{ value: number }>`select value from counters where id = 1`.execute(db);
      expect(rows[0]!.value).toBe(11);
    } finally {
      other.close();
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('connection helpers', () => {
  it('reads SQLite locations from paths and file: URLs', () => {
    expect(sqlitePath('file:///tmp/x.db')).toBe('/tmp/x.db');
    expect(sqlitePath('/tmp/y.db')).toBe('/tmp/y.db');
    expect(sqlitePath('file:data/z.db')).toMatch(/\/data\/z\.db$/);
  });

  it('reports an unreachable PostgreSQL server as unhealthy instead of throwing', async () => {
    const { db } = openDatabase('postgres://postgres@127.0.0.1:1/test');
    try {
      expect(await ping(db)).toBe(false);
    } finally {
      await db.destroy();
    }
  });
});
