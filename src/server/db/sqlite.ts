/**
 * Kysely on Node's built-in `node:sqlite`.
 *
 * Kysely's `SqliteDialect` expects the better-sqlite3 interface; `DatabaseSync` is close to it but
 * lacks `statement.reader`. A statement that returns columns is a reader (`columns()` is non-empty),
 * which also routes `insert … returning` correctly. Kysely serialises every query of a single-connection
 * dialect through its own mutex, so one connection per process is all we need.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type SqliteStatement,
} from 'kysely';
import { indexTerms } from '../search-terms.ts';

/** Opens (creating when needed) a SQLite file with the settings every connection of ours uses. */
export function openSqlite(path: string): DatabaseSync {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new DatabaseSync(path, { timeout: 5000, enableForeignKeyConstraints: true });
  // WAL lets readers work while a write is in progress; FULL syncs the WAL on every commit, so a
  // submission we acknowledged survives a power cut or `kill -9` (see docs/decisions/0002).
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = FULL');
  database.exec('PRAGMA foreign_keys = ON');
  database.exec('PRAGMA busy_timeout = 5000');
  // The staff search's stemmed terms (src/server/search-terms.ts), called by the triggers of migration
  // 0030 that keep its FTS5 tables in step with the texts: every connection that writes those texts
  // must have it, and every connection of ours is opened here.
  database.function('search_terms', { deterministic: true }, (text) =>
    indexTerms(typeof text === 'string' ? text : text == null ? '' : String(text)),
  );
  return database;
}

function toParams(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map((value) => {
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (value instanceof Date) return value.toISOString();
    if (value === undefined) return null;
    return value as SQLInputValue;
  });
}

class NodeSqliteStatement implements SqliteStatement {
  readonly reader: boolean;
  readonly #statement: ReturnType<DatabaseSync['prepare']>;

  constructor(statement: ReturnType<DatabaseSync['prepare']>) {
    this.#statement = statement;
    this.reader = statement.columns().length > 0;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.#statement.all(...toParams(parameters));
  }

  run(parameters: ReadonlyArray<unknown>) {
    return this.#statement.run(...toParams(parameters));
  }

  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    return this.#statement.iterate(...toParams(parameters));
  }
}

/** Distinct statements kept prepared; the site issues a few dozen, so this bound is never reached in practice. */
const STATEMENT_CACHE_SIZE = 500;

class NodeSqliteDatabase implements SqliteDatabase {
  readonly #database: DatabaseSync;
  // Kysely prepares every query it runs; compiling the same SQL again cost ~5% of the CPU of an
  // incident submission. Reuse is safe: queries run one at a time on this connection (Kysely's mutex)
  // and each call runs its statement to completion (the site streams no results).
  readonly #statements = new Map<string, NodeSqliteStatement>();

  constructor(database: DatabaseSync) {
    this.#database = database;
  }

  prepare(sql: string): SqliteStatement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = new NodeSqliteStatement(this.#database.prepare(sql));
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.clear();
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  close(): void {
    if (this.#database.isOpen) this.#database.close();
  }
}

/**
 * Kysely's driver opens a transaction with a plain `begin`, which takes the write lock only at the
 * transaction's first write. Under WAL, if another connection (a second process, `npm run admin`, a
 * test seeding the server's file) commits between this transaction's first read and its first write,
 * SQLite refuses the write at once with SQLITE_BUSY_SNAPSHOT ('database is locked'): `busy_timeout`
 * cannot help, since waiting would not make the transaction's snapshot current. `begin immediate`
 * takes the write lock first, so a second writer waits its turn (up to `busy_timeout`) instead.
 * Readers are never blocked under WAL, and inside one process Kysely's mutex already runs one query at
 * a time, so nothing else changes.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

/** A Kysely dialect over one `node:sqlite` connection, whose transactions begin immediate. */
export function createSqliteDialect(database: DatabaseSync): SqliteDialect {
  return new ImmediateSqliteDialect({ database: new NodeSqliteDatabase(database) });
}
