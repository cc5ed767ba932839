import { sql, type Kysely } from 'kysely';
import { SQLITE_SEARCH } from './0003_staff_auth.ts';
import { isPostgres } from '../engine.ts';

const TRIGRAM_INDEXES = ['incidents_numero_trgm', 'incidents_nombre_trgm', 'incidents_rnc_trgm'];

/** SQLite: one FTS5 trigram table per searched column, named `incidents_fts_<column>`. */
export const FTS_COLUMNS = ['numero_incidencia', 'nombre_norm', 'rnc_norm'] as const;

function ftsStatements(column: string): string[] {
  const table = `incidents_fts_${column}`;
  return [
    `create virtual table ${table} using fts5(${column}, content='incidents', content_rowid='id', tokenize='trigram')`,
    `create trigger ${table}_ai after insert on incidents begin
       insert into ${table}(rowid, ${column}) values (new.id, new.${column});
     end`,
    `create trigger ${table}_ad after delete on incidents begin
       insert into ${table}(${table}, rowid, ${column}) values ('delete', old.id, old.${column});
     end`,
    `create trigger ${table}_au after update of ${column} on incidents begin
       insert into ${table}(${table}, rowid, ${column}) values ('delete', old.id, old.${column});
       insert into ${table}(rowid, ${column}) values (new.id, new.${column});
     end`,
    `insert into ${table}(${table}) values ('rebuild')`,
  ];
}

const OLD_SQLITE_SEARCH = ['incidents_search_ai', 'incidents_search_ad', 'incidents_search_au'];

/**
 * The staff incident list at 100,000 incidents (see `listIncidents` and `npm run bench:admin`):
 *
 * - the state filter walks `(estado, fecha desc, id desc)`, the list's whole order, so a page of one
 *   state is read straight from the index with no sort of equal dates;
 * - PostgreSQL: the pg_trgm GIN indexes without `fastupdate`. With it, new rows wait in a pending
 *   list that every search reads in full until a VACUUM merges it (a manual ANALYZE does not): at
 *   100,000 incidents that list made a number search take 4 ms instead of 0.1 ms. The site writes a
 *   few incidents a minute, so updating the index on each insert costs nothing noticeable;
 * - SQLite: one FTS5 trigram table per column instead of one for all three. FTS5 keeps one list of
 *   rows per trigram whatever the column, so an RNC search for "4021" read the list of "402", which
 *   every February number (INC-202402…) also holds: ~40,000 rows to find 65.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('incidents_estado_fecha_idx').ifExists().execute();
  await db.schema
    .createIndex('incidents_estado_fecha_id_idx')
    .on('incidents')
    .columns(['estado', 'fecha desc', 'id desc'])
    .execute();
  if (!isPostgres(db)) {
    for (const trigger of OLD_SQLITE_SEARCH) await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
    await sql.raw('drop table if exists incidents_search').execute(db);
    for (const column of FTS_COLUMNS)
      for (const statement of ftsStatements(column)) await sql.raw(statement).execute(db);
  } else {
    for (const index of TRIGRAM_INDEXES) {
      // The indexes exist only where pg_trgm could be installed (migration 0003).
      if (
        (await sql<{ found: string | null }>`select to_regclass(${index})::text as found`.execute(db)).rows[0]
          ?.found
      ) {
        await sql.raw(`alter index ${index} set (fastupdate = off)`).execute(db);
        await sql`select gin_clean_pending_list(to_regclass(${index}))`.execute(db);
      }
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) {
    for (const column of FTS_COLUMNS) {
      for (const suffix of ['ai', 'ad', 'au'])
        await sql.raw(`drop trigger if exists incidents_fts_${column}_${suffix}`).execute(db);
      await sql.raw(`drop table if exists incidents_fts_${column}`).execute(db);
    }
    // Migration 0003's down() drops the combined table and its triggers; recreate them for it.
    for (const statement of SQLITE_SEARCH) await sql.raw(statement).execute(db);
  }
  if (isPostgres(db)) {
    for (const index of TRIGRAM_INDEXES)
      await sql.raw(`alter index if exists ${index} reset (fastupdate)`).execute(db);
  }
  await db.schema.dropIndex('incidents_estado_fecha_id_idx').ifExists().execute();
  await db.schema
    .createIndex('incidents_estado_fecha_idx')
    .on('incidents')
    .columns(['estado', 'fecha desc'])
    .execute();
}
