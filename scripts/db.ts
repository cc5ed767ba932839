/**
 * `npm run db:migrate`: apply pending migrations to DATABASE_URL and report what was applied.
 * `npm run db:backup [-- FILE]`: SQLite: an online, consistent copy (VACUUM INTO) under
 * data/backups/ (or FILE); PostgreSQL: prints the pg_dump / pg_restore commands to use.
 */
import { join } from 'node:path';
import { ConfigError, getConfig } from '../src/server/config.ts';
import { backupFileName, backupSqlite, postgresBackupCommands } from '../src/server/db/index.ts';
import { closeDb, getDbHandle, migrateToLatest } from '../src/server/db/index.ts';

const [command, argument] = process.argv.slice(2);

async function backup(): Promise<void> {
  const handle = getDbHandle();
  if (handle.engine === 'postgres') {
    const { backup: dump, restore } = postgresBackupCommands(getConfig().DATABASE_URL);
    console.log(
      `PostgreSQL: haz la copia con pg_dump (el servidor puede seguir en marcha):\n  ${dump}\nRestaurar:\n  ${restore}`,
    );
    return;
  }
  const target = await backupSqlite(handle.db, argument ?? join('data', 'backups', backupFileName()));
  console.log(
    `Copia de seguridad escrita en ${target}\nRestaurar: detén el servidor y copia ese archivo sobre ${handle.describe.replace(/^sqlite:/, '')} (borra los archivos -wal y -shm que queden junto a él).`,
  );
}

async function main(): Promise<void> {
  if (command === 'backup') return backup();
  if (command !== 'migrate') {
    console.error('Uso: npm run db:migrate | npm run db:backup [-- ARCHIVO]');
    process.exitCode = 2;
    return;
  }
  const handle = getDbHandle();
  const result = await migrateToLatest(handle.db);
  const applied = result.results?.filter((item) => item.status === 'Success') ?? [];
  console.log(
    applied.length
      ? `${handle.describe}: aplicadas ${applied.map((item) => item.migrationName).join(', ')}`
      : `${handle.describe}: sin migraciones pendientes`,
  );
}

main()
  .catch((error: unknown) => {
    console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
    process.exitCode = 1;
  })
  .finally(() => closeDb());
