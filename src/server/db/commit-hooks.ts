/**
 * What runs once a transaction has committed (src/server/db/notify.ts's in-process wake-ups). Kysely has
 * no such hook, so every connection {@link openDatabase} opens goes through {@link withCommitHooks}: its
 * driver runs, after COMMIT succeeded, the callbacks the transaction registered with {@link afterCommit},
 * and drops them on ROLLBACK (or on a rollback to a savepoint taken before them). A callback of a
 * rolled-back transaction therefore never runs, and one of a committed transaction never runs before
 * the commit, on either engine.
 *
 * The pending callbacks and the databases' scopes live on `globalThis` (docs/decisions/0001): the
 * bundled server registers callbacks on a connection that the start script's copy of this module
 * opened, and its driver must find them.
 *
 * @see openDatabase in src/server/db/index.ts
 */
import type { DatabaseConnection, Dialect, Driver, Kysely } from 'kysely';
import { getLogger } from '../log.ts';

/** A transaction's pending callbacks, by key (one per key: a second registration is a no-op). */
interface Pending {
  callbacks: Map<string, () => void>;
  /** Savepoint name → how many callbacks were pending when it was taken. */
  savepoints: Array<{ name: string; size: number }>;
}

interface HooksHolder {
  /** The connection a transaction runs on → its callbacks. */
  pending: WeakMap<DatabaseConnection, Pending>;
  /** The connection → the scope of its database (see {@link scopeOf}). */
  connectionScopes: WeakMap<DatabaseConnection, string>;
  /** A database opened by openDatabase → its scope. */
  dbScopes: WeakMap<Kysely<any>, string>;
}

const HOOKS_KEY = Symbol.for('vertice.db.commitHooks');

function hooks(): HooksHolder {
  const holder = globalThis as { [HOOKS_KEY]?: HooksHolder };
  holder[HOOKS_KEY] ??= { pending: new WeakMap(), connectionScopes: new WeakMap(), dbScopes: new WeakMap() };
  return holder[HOOKS_KEY];
}

/** Runs (or drops) what was pending on the connection; a callback that throws never stops the others. */
function settle(connection: DatabaseConnection, run: boolean): void {
  const pending = hooks().pending.get(connection);
  hooks().pending.delete(connection);
  if (!run || !pending) return;
  for (const callback of pending.callbacks.values()) {
    try {
      callback();
    } catch (error) {
      getLogger().error({ err: error }, 'after-commit callback failed');
    }
  }
}

/** The driver of {@link withCommitHooks}: the inner driver's work, with the callbacks around COMMIT. */
class HookedDriver implements Driver {
  readonly #inner: Driver;
  readonly #scope: string;

  constructor(inner: Driver, scope: string) {
    this.#inner = inner;
    this.#scope = scope;
  }

  init(...args: Parameters<Driver['init']>) {
    return this.#inner.init(...args);
  }

  async acquireConnection(...args: Parameters<Driver['acquireConnection']>) {
    const connection = await this.#inner.acquireConnection(...args);
    hooks().connectionScopes.set(connection, this.#scope);
    return connection;
  }

  async beginTransaction(
    connection: DatabaseConnection,
    ...rest: [Parameters<Driver['beginTransaction']>[1]]
  ) {
    // A transaction Kysely found aborted gets no rollback call: what it left must not reach the next one.
    settle(connection, false);
    await this.#inner.beginTransaction(connection, ...rest);
  }

  async commitTransaction(connection: DatabaseConnection) {
    try {
      await this.#inner.commitTransaction(connection);
    } catch (error) {
      settle(connection, false);
      throw error;
    }
    settle(connection, true);
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    settle(connection, false);
    await this.#inner.rollbackTransaction(connection);
  }

  async savepoint(...args: Parameters<NonNullable<Driver['savepoint']>>) {
    const [connection, name] = args;
    const pending = hooks().pending.get(connection);
    pending?.savepoints.push({ name, size: pending.callbacks.size });
    if (!pending) hooks().pending.set(connection, { callbacks: new Map(), savepoints: [{ name, size: 0 }] });
    if (!this.#inner.savepoint) throw new Error('Este motor no admite puntos de guardado');
    await this.#inner.savepoint(...args);
  }

  async rollbackToSavepoint(...args: Parameters<NonNullable<Driver['rollbackToSavepoint']>>) {
    const [connection, name] = args;
    await this.#inner.rollbackToSavepoint?.(...args);
    const pending = hooks().pending.get(connection);
    const mark = pending?.savepoints.findLast((savepoint) => savepoint.name === name);
    if (pending && mark) {
      // Maps keep their insertion order: what came after the savepoint is the tail.
      for (const key of [...pending.callbacks.keys()].slice(mark.size)) pending.callbacks.delete(key);
    }
  }

  async releaseSavepoint(...args: Parameters<NonNullable<Driver['releaseSavepoint']>>) {
    const [connection, name] = args;
    await this.#inner.releaseSavepoint?.(...args);
    const pending = hooks().pending.get(connection);
    if (pending) {
      const at = pending.savepoints.findLastIndex((savepoint) => savepoint.name === name);
      if (at >= 0) pending.savepoints.splice(at);
    }
  }

  releaseConnection(...args: Parameters<Driver['releaseConnection']>) {
    return this.#inner.releaseConnection(...args);
  }

  destroy(...args: Parameters<Driver['destroy']>) {
    return this.#inner.destroy(...args);
  }
}

/**
 * `dialect` whose transactions run their {@link afterCommit} callbacks. `scope` names the data the
 * connections reach (one PostgreSQL database and schema, one SQLite file): in-process wake-ups go to
 * the listeners of the same scope only.
 */
export function withCommitHooks(dialect: Dialect, scope: string): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new HookedDriver(dialect.createDriver(), scope),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

/** Records the scope of a database opened over {@link withCommitHooks} (openDatabase does). */
export function rememberScope(db: Kysely<any>, scope: string): void {
  hooks().dbScopes.set(db, scope);
}

/** The scope of a database (not a transaction) as openDatabase recorded it ('' when it did not open it). */
export function scopeOfDatabase(db: Kysely<any>): string {
  return hooks().dbScopes.get(db) ?? '';
}

/** The connection a transaction runs on (Kysely's executor hands it out; the same object the driver sees). */
function connectionOf(trx: Kysely<any>): Promise<DatabaseConnection> {
  return trx.getExecutor().provideConnection(async (connection) => connection);
}

/**
 * Calls `callback` with the database's scope once `trx` commits (never, if it rolls back); outside a
 * transaction, now, before this returns its promise. `key` makes it once per transaction: a second
 * call with the same key adds nothing (`first` is false).
 */
export async function afterCommit(
  trx: Kysely<any>,
  key: string,
  callback: (scope: string) => void,
): Promise<{ first: boolean; scope: string }> {
  if (!trx.isTransaction) {
    const scope = scopeOfDatabase(trx);
    callback(scope);
    return { first: true, scope };
  }
  const connection = await connectionOf(trx);
  const scope = hooks().connectionScopes.get(connection) ?? '';
  const pending = hooks().pending.get(connection) ?? { callbacks: new Map(), savepoints: [] };
  hooks().pending.set(connection, pending);
  if (pending.callbacks.has(key)) return { first: false, scope };
  pending.callbacks.set(key, () => callback(scope));
  return { first: true, scope };
}
