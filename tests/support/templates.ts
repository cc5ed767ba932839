/**
 * Migrated template databases, made once per run and copied for every test and every test server
 * (Epic Stack's way): a copy is what a fresh migration would give, at a fraction of its cost (a
 * SQLite file copy; PostgreSQL's `CREATE DATABASE … TEMPLATE`). Each template is named by a hash of
 * the migrations, so a changed migration makes a new one and two checkouts never share the wrong one.
 *
 * The global setup ({@link buildTemplates}) makes them and hands their names to the test files
 * through Vitest's `provide`; {@link sqliteTemplate} and {@link pgTemplate} read them there.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { migrateToLatest, openDatabase } from '../../src/server/db/index.ts';

const DB_DIR = resolve(import.meta.dirname, '../../src/server/db');

/** The shared PostgreSQL server of the integration tests (and the maintenance database to connect to). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the migrated SQLite template file. */
    sqliteTemplate: string;
    /** Name of the migrated PostgreSQL template database, or '' when PostgreSQL does not answer. */
    pgTemplate: string;
  }
}

/** A hash of everything that shapes a freshly migrated database: the migrations and the connection code. */
function schemaHash(): string {
  const hash = createHash('sha256');
  const files = [
    ...readdirSync(join(DB_DIR, 'migrations')).map((name) => join(DB_DIR, 'migrations', name)),
    join(DB_DIR, 'index.ts'),
    join(DB_DIR, 'sqlite.ts'),
  ].sort();
  for (const file of files) hash.update(file.slice(DB_DIR.length)).update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

const uniqueSuffix = () => `${process.pid}_${randomBytes(4).toString('hex')}`;

/** The migrated SQLite template of these migrations: made on first use, then kept in the temp folder. */
export async function buildSqliteTemplate(): Promise<string> {
  const dir = join(tmpdir(), 'vertice-test-templates');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `sqlite-${schemaHash()}.db`);
  if (existsSync(path)) return path;
  // Migrated under a name of its own, then renamed into place: a concurrent run or a crash never
  // leaves a half-migrated template behind the final name.
  const building = `${path}.${uniqueSuffix()}`;
  const { db } = openDatabase(building);
  try {
    await migrateToLatest(db);
  } finally {
    // Closing the last connection checkpoints the WAL into the file and removes it.
    await db.destroy();
  }
  renameSync(building, path);
  for (const extra of ['-wal', '-shm']) rmSync(`${building}${extra}`, { force: true });
  return path;
}

async function withAdminClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Why PostgreSQL at `url` cannot be used (the error's message), or null when it answers a query. */
export async function postgresProblem(url: string): Promise<string | null> {
  try {
    await withAdminClient(url, (client) => client.query('select 1'));
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** `url` with its database name replaced (and no schema option). */
export function withDatabase(url: string, database: string): string {
  const target = new URL(url);
  target.pathname = `/${database}`;
  target.searchParams.delete('options');
  return target.href;
}

/**
 * The migrated PostgreSQL template database of these migrations on the server of `url`: made on
 * first use (in a database of its own, renamed into place once migrated), then kept. Nobody connects
 * to it afterwards (connections are refused), which `CREATE DATABASE … TEMPLATE` requires.
 */
export async function buildPgTemplate(url: string): Promise<string> {
  const name = `vertice_tmpl_${schemaHash()}`;
  return withAdminClient(url, async (admin) => {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return name;
    const building = `${name}_${uniqueSuffix()}`;
    await admin.query(`create database ${building}`);
    try {
      const { db } = openDatabase(withDatabase(url, building));
      try {
        await migrateToLatest(db);
      } finally {
        await db.destroy();
      }
      await admin.query(`alter database ${building} rename to ${name}`);
      await admin.query(`alter database ${name} with allow_connections false`);
    } catch (error) {
      await admin.query(`drop database if exists ${building} with (force)`);
      // Another run made the same template meanwhile: use it.
      if ((error as { code?: string }).code === '42P04') return name;
      throw error;
    }
    return name;
  });
}

/** Copies the SQLite template to `path` (a new database file, migrated). */
export function copySqliteTemplate(template: string, path: string): void {
  copyFileSync(template, path);
}

/** Creates a new PostgreSQL database from the template; returns its name. */
export async function createPgDatabaseFrom(url: string, template: string): Promise<string> {
  const name = `vertice_t_${uniqueSuffix()}`;
  await withAdminClient(url, (admin) => admin.query(`create database ${name} template ${template}`));
  return name;
}

/** Drops a database made by {@link createPgDatabaseFrom}, ending any connection left to it. */
export async function dropPgDatabase(url: string, name: string): Promise<void> {
  if (!/^vertice_t_[a-z0-9_]+$/.test(name)) throw new Error(`Nombre de base de datos no válido: ${name}`);
  await forgetResetClient(withDatabase(url, name));
  await withAdminClient(url, (admin) => admin.query(`drop database if exists ${name} with (force)`));
}

/**
 * What a test could change about a database beyond its rows: the tables, columns, indexes,
 * constraints, triggers, views, functions and schemas, and the migrations recorded. Equal to the
 * template's, the database is the template's again once its rows are gone.
 */
const SHAPE_QUERY = `
  select md5(coalesce(string_agg(item, ',' order by item), '')) as shape from (
    select 'c:' || table_name || '.' || column_name || ':' || data_type || ':' || coalesce(column_default, '') || ':' || is_nullable as item
      from information_schema.columns where table_schema = 'public'
    union all select 'i:' || indexname || ':' || indexdef from pg_indexes where schemaname = 'public'
    union all select 'k:' || conrelid::regclass::text || ':' || conname || ':' || pg_get_constraintdef(oid)
      from pg_constraint where connamespace = 'public'::regnamespace
    union all select 't:' || tgrelid::regclass::text || ':' || tgname || ':' || tgenabled::text from pg_trigger where not tgisinternal
    union all select 'v:' || viewname || ':' || definition from pg_views where schemaname = 'public'
    union all select 'f:' || p.oid::regprocedure::text || ':' || md5(p.prosrc)
      from pg_proc p where p.pronamespace = 'public'::regnamespace
    union all select 'n:' || nspname from pg_namespace where nspname not like 'pg\\_%' and nspname <> 'information_schema'
    union all select 'm:' || name from kysely_migration
  ) as shape_items`;

/** The tables whose rows a test leaves (all but the migrations' own, which the shape covers). */
const TABLES_QUERY = `
  select quote_ident(tablename) as name from pg_tables
  where schemaname = 'public' and tablename not in ('kysely_migration', 'kysely_migration_lock')`;

/**
 * One connection per test database, kept open between the resets of the worker's databases: a new
 * connection is a new PostgreSQL backend whose catalog caches start cold, and the shape query then costs
 * four times what it costs on a connection that ran it before (about 80 ms of CPU against 20 ms). Its
 * socket does not keep the worker alive; {@link dropPgDatabase} closes it first.
 */
const resetClients = new Map<string, Promise<pg.Client>>();

function resetClient(url: string): Promise<pg.Client> {
  let client = resetClients.get(url);
  if (!client) {
    client = (async () => {
      const opened = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
      // A backend ended under it (the database dropped by another path) must not throw in the worker.
      opened.on('error', () => resetClients.delete(url));
      await opened.connect();
      (opened as unknown as { connection: { stream: { unref(): void } } }).connection.stream.unref();
      return opened;
    })();
    resetClients.set(url, client);
    client.catch(() => resetClients.delete(url));
  }
  return client;
}

async function forgetResetClient(url: string): Promise<void> {
  const client = resetClients.get(url);
  if (!client) return;
  resetClients.delete(url);
  await client.then((opened) => opened.end()).catch(() => {});
}

/** Ends the other connections to this database that are not idle or hold an advisory lock. */
const LEFTOVER_CONNECTIONS_QUERY = `
  select pg_terminate_backend(activity.pid) from pg_stat_activity activity
  where activity.datname = current_database() and activity.pid <> pg_backend_pid() and activity.backend_type = 'client backend'
    and (activity.state is distinct from 'idle'
      or exists (select 1 from pg_locks lock where lock.pid = activity.pid and lock.locktype = 'advisory'))`;

const templateShapes = new Map<string, string>();

/**
 * Makes a database copied from `template` the template's copy again for the next test, instead of
 * dropping it and copying anew (`CREATE DATABASE` costs about half a second, a truncate a few
 * milliseconds): its shape must still be the template's (else false), then every table is emptied
 * and every sequence restarted (the template holds no rows but the migrations' own). False when it cannot be reused: drop it.
 */
export async function resetPgDatabase(url: string, name: string, template: string): Promise<boolean> {
  const target = withDatabase(url, name);
  try {
    const client = await resetClient(target);
    // The test's connections are kept for the next test (tests/support/db.ts): one left in a
    // transaction or holding an advisory lock is ended, so the next test never inherits either.
    await client.query(LEFTOVER_CONNECTIONS_QUERY);
    const shape = (await client.query<{ shape: string }>(SHAPE_QUERY)).rows[0]!.shape;
    // The first database of the template, checked before any test used it, gives the template's shape.
    const expected = templateShapes.get(template);
    if (expected === undefined || shape !== expected) return false;
    const tables = (await client.query<{ name: string }>(TABLES_QUERY)).rows.map((row) => row.name);
    // A connection a test left open would hold locks: give up on this database rather than wait.
    await client.query(`set lock_timeout = '2s'`);
    // DELETE, with triggers and foreign keys off for it (session_replication_role), costs a few
    // milliseconds where TRUNCATE, which makes new files for every table, costs 150 ms or more.
    await client.query('begin');
    await client.query(`set local session_replication_role = replica`);
    for (const table of tables) await client.query(`delete from ${table}`);
    await client.query(
      `select setval(format('%I', sequencename)::regclass, start_value, false) from pg_sequences where schemaname = 'public'`,
    );
    await client.query('commit');
    return true;
  } catch {
    // The connection may be left in a failed transaction: the next reset opens a new one.
    await forgetResetClient(target);
    return false;
  }
}

/** Records the shape of a fresh copy of `template` (once), the reference {@link resetPgDatabase} compares with. */
export async function rememberTemplateShape(url: string, name: string, template: string): Promise<void> {
  if (templateShapes.has(template)) return;
  // On the connection the database's resets will use (see resetClient).
  const client = await resetClient(withDatabase(url, name));
  templateShapes.set(template, (await client.query<{ shape: string }>(SHAPE_QUERY)).rows[0]!.shape);
}

/** The parent of a live process, or null when it is gone (Linux's /proc). */
function parentOf(pid: number): number | null {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
  } catch {
    return null;
  }
}

/**
 * Drops the test databases of test processes that are gone (a crash, a killed run): each is named
 * `vertice_t_<pid>_…` by the process that made it. Those of live processes (another run) stay, but with
 * `runDone`, those of this process's own workers go too: the run's tests are over.
 */
export async function dropOrphanPgDatabases(url: string, runDone = false): Promise<number> {
  return withAdminClient(url, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname ~ '^vertice_t_[0-9]+_[a-z0-9]+$'`,
    );
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'EPERM';
      }
    };
    const ours = (pid: number) => runDone && (pid === process.pid || parentOf(pid) === process.pid);
    const orphans = rows
      .map((row) => row.datname)
      .filter((name) => {
        const pid = Number(name.split('_')[2]);
        return !alive(pid) || ours(pid);
      });
    for (const name of orphans) await admin.query(`drop database if exists ${name} with (force)`);
    return orphans.length;
  });
}
