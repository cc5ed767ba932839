/**
 * The two places where one migration must say different things to SQLite and PostgreSQL.
 */
import type { CreateTableBuilder, Kysely } from 'kysely';
import { isPostgres } from '../engine.ts';

/** An auto-numbered integer primary key `id`. */
export function idColumn<T extends string>(
  db: Kysely<any>,
  table: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, 'id'> {
  return isPostgres(db)
    ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** `timestamptz` on PostgreSQL; ISO 8601 text on SQLite (which orders correctly as text). */
export function timestampType(db: Kysely<any>): 'timestamptz' | 'text' {
  return isPostgres(db) ? 'timestamptz' : 'text';
}
