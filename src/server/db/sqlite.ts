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
import { SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';

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

class NodeSqliteDatabase implements SqliteDatabase {
  readonly #database: DatabaseSync;

  constructor(database: DatabaseSync) {
    this.#database = database;
  }

  prepare(sql: string): SqliteStatement {
    return new NodeSqliteStatement(this.#database.prepare(sql));
  }

  close(): void {
    if (this.#database.isOpen) this.#database.close();
  }
}

/** A Kysely dialect over one `node:sqlite` connection. */
export function createSqliteDialect(database: DatabaseSync): SqliteDialect {
  return new SqliteDialect({ database: new NodeSqliteDatabase(database) });
}
