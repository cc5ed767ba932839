/**
 * Which engine a connection talks to, for the few places (queries and migrations) that must say
 * different things to SQLite and PostgreSQL; and, for PostgreSQL, where it works, for the code that
 * needs a connection of its own (a worker thread, the LISTEN connection of src/server/db/notify.ts).
 */
import { PostgresAdapter, type Kysely } from 'kysely';

/** Where a PostgreSQL connection opened by openDatabase works: for a connection of its own. */
export interface PostgresTarget {
  url: string;
  schema?: string;
}

// On globalThis, like the shared connection (docs/decisions/0001): the start script (sources) opens
// it, the bundled server asks.
const postgresTargets: WeakMap<Kysely<any>, PostgresTarget> = ((globalThis as Record<symbol, unknown>)[
  Symbol.for('vertice.postgresTargets')
] ??= new WeakMap()) as WeakMap<Kysely<any>, PostgresTarget>;

/** The URL and schema of a PostgreSQL connection opened by openDatabase; undefined for SQLite. */
export function postgresTargetOf(db: Kysely<any>): PostgresTarget | undefined {
  return postgresTargets.get(db);
}

/** Records where a PostgreSQL connection works (openDatabase does, for {@link postgresTargetOf}). */
export function rememberPostgresTarget(db: Kysely<any>, target: PostgresTarget): void {
  postgresTargets.set(db, target);
}

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
