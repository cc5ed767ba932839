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
  await withAdminClient(url, (admin) => admin.query(`drop database if exists ${name} with (force)`));
}
