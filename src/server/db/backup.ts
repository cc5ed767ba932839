/**
 * Online backups. SQLite: `VACUUM INTO` writes a consistent, compacted copy while the site keeps
 * serving (readers and writers are not blocked for long: it is one read transaction). PostgreSQL:
 * backups belong to `pg_dump`; we print the command rather than reimplement it.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { sql } from 'kysely';
import type { Db } from './index.ts';

/** `site-20261122-041500.db`: sortable, one per second at most. */
export function backupFileName(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `site-${stamp}.db`;
}

/** Writes a consistent copy of the SQLite database to `destination` (which must not exist). */
export async function backupSqlite(db: Db, destination: string): Promise<string> {
  const target = resolve(destination);
  if (existsSync(target)) throw new Error(`Ya existe ${target}; elige otro nombre.`);
  mkdirSync(dirname(target), { recursive: true });
  await sql`vacuum into ${target}`.execute(db);
  return target;
}

/** The documented PostgreSQL backup and restore commands for a DATABASE_URL (credentials hidden). */
export function postgresBackupCommands(
  url: string,
  dir = 'data/backups',
): { backup: string; restore: string } {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  const file = join(dir, backupFileName().replace(/\.db$/, '.dump'));
  return {
    backup: `pg_dump --format=custom --no-owner --file=${file} '${parsed.href}'`,
    restore: `pg_restore --clean --if-exists --no-owner --dbname='${parsed.href}' ${file}`,
  };
}
