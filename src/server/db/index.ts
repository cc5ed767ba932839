/**
 * The database connection: SQLite (built-in `node:sqlite`) by default, PostgreSQL when
 * `DATABASE_URL` is a `postgres://` URL. One Kysely instance per process, shared through
 * `globalThis` so that the bundled server and the start script (which runs the migrations and the
 * mail worker from the sources) use the same connection.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CamelCasePlugin, Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator, type MigrationResultSet } from 'kysely/migration';
import pg from 'pg';
import { getConfig, isPostgresUrl } from '../config.ts';
import { rememberScope, withCommitHooks } from './commit-hooks.ts';
import { rememberPostgresTarget } from './engine.ts';
import { migrations } from './migrations/index.ts';
import { backendEnded } from './notify.ts';
import type { Database } from './schema.ts';
import { createSqliteDialect, openSqlite } from './sqlite.ts';

export type Db = Kysely<Database>;
export type DbEngine = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Db;
  engine: DbEngine;
  /** A human-readable description without credentials, for logs. */
  describe: string;
}

export interface OpenOptions {
  /** PostgreSQL only: the schema to put on the search path (see {@link createPgSchema}); tests use one per run. */
  schema?: string;
  /**
   * PostgreSQL only: how long a query waits for a connection of the pool (all ten busy) or for a new
   * one before it fails, in ms (default 5000: a request fails fast rather than queue behind a burst).
   */
  connectionTimeoutMs?: number;
}

const PG_TIMESTAMPTZ = 1184;
const PG_TIMESTAMP = 1114;
const PG_INT8 = 20;

function pgTypes() {
  return {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === PG_TIMESTAMPTZ || oid === PG_TIMESTAMP) {
        return (value: string) => new Date(oid === PG_TIMESTAMP ? `${value}Z` : value).toISOString();
      }
      // Counts come back as int8; they fit a JS number comfortably.
      if (oid === PG_INT8) return (value: string) => Number(value);
      return pg.types.getTypeParser(oid, format);
    },
  } as pg.CustomTypesConfig;
}

/** Turns `DATABASE_URL` into a SQLite file path (plain path or `file:` URL, relative to the cwd). */
export function sqlitePath(url: string): string {
  if (url === ':memory:') return url;
  if (url.startsWith('file:')) return url.startsWith('file://') ? fileURLToPath(url) : resolve(url.slice(5));
  return resolve(url);
}

/**
 * The PostgreSQL schema each connection works in, when it is not the default. Kysely's migrator must
 * be told: it looks for its own tables across every schema, so beside another schema's migration
 * tables (parallel test runs) it would think its own already exist.
 */
const schemaOf = new WeakMap<Kysely<any>, string>();

/** `-c search_path=NAME` in a postgres:// URL's `options` parameter, if any. */
export function searchPathOf(url: URL): string | undefined {
  return /search_path=([a-z_][a-z0-9_]*)/i.exec(url.searchParams.get('options') ?? '')?.[1];
}

// On globalThis, like the shared connection below: the start script (sources) opens it, the bundled
// server asks.
const sqliteFiles: WeakMap<Kysely<any>, string> = ((globalThis as Record<symbol, unknown>)[
  Symbol.for('vertice.sqliteFiles')
] ??= new WeakMap()) as WeakMap<Kysely<any>, string>;

/** The file a SQLite connection opened by {@link openDatabase} works on; undefined for PostgreSQL and `:memory:`. */
export function sqliteFileOf(db: Kysely<any>): string | undefined {
  return sqliteFiles.get(db);
}

/** A postgres:// URL whose connections work in `schema` (its `options` parameter, read by {@link searchPathOf}). */
export function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.href;
}

/** Opens a new connection (pool on PostgreSQL). Most code wants {@link getDb} instead. */
export function openDatabase(url: string, options: OpenOptions = {}): DbHandle {
  const plugins = [new CamelCasePlugin()];
  if (isPostgresUrl(url)) {
    const parsed = new URL(url);
    options = { ...options, schema: options.schema ?? searchPathOf(parsed) };
    const pool = new pg.Pool({
      connectionString: url,
      max: 10,
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 5000,
      idleTimeoutMillis: 30_000,
      types: pgTypes(),
      options: options.schema ? `-c search_path=${options.schema}` : undefined,
    });
    // A dropped connection (e.g. the server restarting) must not crash the process. The pool handles
    // idle ones; a connection checked out at that moment (between two statements of a transaction)
    // emits 'error' on its client, and an unhandled 'error' event would end the process. Its pending
    // statement fails on its own, the pool discards the dead client on release, and the next query
    // reconnects.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const schema = options.schema;
    // The scope of in-process wake-ups (src/server/db/notify.ts): the same database and schema.
    const scope = `postgres://${parsed.host}${parsed.pathname}#${schema ?? ''}`;
    pool.on('remove', (client) => backendEnded(scope, (client as { processID?: number }).processID));
    const dialect = withCommitHooks(new PostgresDialect({ pool }), scope);
    const db = new Kysely<Database>({ dialect, plugins });
    if (schema) schemaOf.set(db, schema);
    rememberPostgresTarget(db, { url, schema });
    rememberScope(db, scope);
    return {
      db,
      engine: 'postgres',
      describe: `postgres://${parsed.host}${parsed.pathname}${schema ? ` (schema ${schema})` : ''}`,
    };
  }
  const path = sqlitePath(url);
  // Each in-memory database is data of its own; a file is the same data however often it is opened.
  const scope = path === ':memory:' ? `sqlite::memory:#${randomUUID()}` : `sqlite:${path}`;
  const db = new Kysely<Database>({
    dialect: withCommitHooks(createSqliteDialect(openSqlite(path)), scope),
    plugins,
  });
  if (path !== ':memory:') sqliteFiles.set(db, path);
  rememberScope(db, scope);
  return {
    db,
    engine: 'sqlite',
    describe: `sqlite:${path}`,
  };
}

/** Creates a PostgreSQL schema (for a test run's own namespace). */
export async function createPgSchema(url: string, schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Nombre de esquema no válido: ${schema}`);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(`create schema if not exists ${schema}`);
  } finally {
    await client.end();
  }
}

/** Drops a PostgreSQL schema and everything in it. */
export async function dropPgSchema(url: string, schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Nombre de esquema no válido: ${schema}`);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}

/** Kysely's migrator over our migrations, keeping its bookkeeping in the database's own schema. */
export function migrator(db: Kysely<any>): Migrator {
  const schema = schemaOf.get(db);
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

/** Applies every pending migration; throws with the failing migration's name on error. */
export async function migrateToLatest(db: Kysely<any>): Promise<MigrationResultSet> {
  const result = await migrator(db).migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((item) => item.status === 'Error');
    const cause = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`La migración ${failed?.migrationName ?? '(desconocida)'} falló: ${cause}`, {
      cause: result.error,
    });
  }
  return result;
}

/** `select 1`: true when the database answers within the pool's time-out. */
export async function ping(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

const DB_KEY = Symbol.for('vertice.db');
type DbHolder = { [DB_KEY]?: DbHandle };

/** The process's shared connection, opened from `DATABASE_URL` on first use. */
export function getDbHandle(): DbHandle {
  const holder = globalThis as DbHolder;
  holder[DB_KEY] ??= openDatabase(getConfig().DATABASE_URL);
  return holder[DB_KEY];
}

export function getDb(): Db {
  return getDbHandle().db;
}

/** Closes the shared connection (graceful shutdown, end of a script). */
export async function closeDb(): Promise<void> {
  const holder = globalThis as DbHolder;
  const handle = holder[DB_KEY];
  holder[DB_KEY] = undefined;
  await handle?.db.destroy();
}

export { backupFileName, backupSqlite, postgresBackupCommands } from './backup.ts';
export { shownToCustomer } from './entries.ts';
export { isPostgres, postgresTargetOf, type PostgresTarget } from './engine.ts';
export { listen, notifyAfterCommit, type Heard, type Listener } from './notify.ts';
export { startPollingWorker, type PollingWorker, type PollingWorkerOptions } from './polling-worker.ts';
export { LIKE_WILDCARDS, likeContains } from './like.ts';
export { EMAIL_KEY_SQL, RNC_KEY_SQL } from './migrations/0018_client_match_indexes.ts';
export { clientEditRow, clientRow, contactMessageRow, incidentRow } from './rows.ts';
export {
  type AnnouncementsTable,
  type ArticleRevisionRow,
  type ArticleRow,
  type AuditEvent,
  type Client,
  type ClientEvent,
  type ClientMeeting,
  type ContactMessage,
  type CustomerNoticeRow,
  type Database,
  type InboundOutcome,
  type Incident,
  type IncidentAssignment,
  type IncidentEntry,
  type IncidentEntryKind,
  type IncidentPriorityChange,
  type OutboxMail,
  type SavedReply,
  type WhatsAppDeliveryStatus,
} from './schema.ts';
