/**
 * Which engine a connection talks to, for the few places (queries and migrations) that must say
 * different things to SQLite and PostgreSQL.
 */
import { PostgresAdapter, type Kysely } from 'kysely';

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
