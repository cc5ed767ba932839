/**
 * `npm run db:migrate`: apply pending migrations to DATABASE_URL and report what was applied.
 */
import { ConfigError } from '../src/server/config.ts';
import { closeDb, getDbHandle, migrateToLatest } from '../src/server/db/index.ts';

const [command] = process.argv.slice(2);

async function main(): Promise<void> {
  if (command !== 'migrate') {
    console.error('Uso: npm run db:migrate');
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
