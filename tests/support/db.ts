/**
 * Integration tests of the data layer run against both engines: a fresh SQLite file, and a
 * PostgreSQL database of their own (so concurrent runs never collide), each a copy of the run's
 * migrated template (on PostgreSQL, a copy another test of the same file used and left emptied, when
 * its shape is still the template's: see resetPgDatabase). When PostgreSQL is unreachable
 * the PostgreSQL half is skipped with a loud notice, except under CI, where that is a failure.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, inject } from 'vitest';
import {
  createPgSchema,
  dropPgSchema,
  migrateToLatest,
  openDatabase,
  type Db,
  type DbEngine,
  withSearchPath,
} from '../../src/server/db/index.ts';
import {
  copySqliteTemplate,
  createPgDatabaseFrom,
  dropPgDatabase,
  rememberTemplateShape,
  resetPgDatabase,
  postgresProblem,
  TEST_DATABASE_URL,
  withDatabase,
} from './templates.ts';

export { TEST_DATABASE_URL };

const pgProblem = await postgresProblem(TEST_DATABASE_URL);
if (pgProblem) {
  const message = `PostgreSQL no responde en ${TEST_DATABASE_URL} (${pgProblem}).`;
  if (process.env.CI) throw new Error(`${message} En CI las pruebas de PostgreSQL son obligatorias.`);
  console.warn(
    `\n${'!'.repeat(78)}\n!! ${message}\n!! SE OMITEN las pruebas de integración con PostgreSQL.\n${'!'.repeat(78)}\n`,
  );
}

export const postgresAvailable = pgProblem === null;

export interface TestDatabase {
  engine: DbEngine;
  db: Db;
  /** A DATABASE_URL that points a server process at this same database. */
  url: string;
  cleanup(): Promise<void>;
}

/**
 * This worker's PostgreSQL databases between two tests: each a copy of the template, emptied after the
 * test that used it (see resetPgDatabase) and handed to the next, in the same file or in the worker's
 * next one (the unit project runs a worker's files in one process), with the connection pool the last
 * test used when it is still open: a new connection is a new PostgreSQL backend, whose start and cold
 * catalog caches cost more CPU than most tests' own queries. The reset ends any connection a test left
 * in a transaction or holding an advisory lock, so the next test finds the pool as a new one. The
 * run's global teardown drops what is left (tests/support/unit-global-setup.ts).
 */
const idlePgDatabases: Array<{ name: string; db?: Db }> = [];

async function newPgDatabase(template: string): Promise<string> {
  const name = await createPgDatabaseFrom(TEST_DATABASE_URL, template);
  try {
    await rememberTemplateShape(TEST_DATABASE_URL, name, template);
  } catch (error) {
    await dropPgDatabase(TEST_DATABASE_URL, name);
    throw error;
  }
  return name;
}

/** Whether a test left its database handle open (a test may close it to play an outage). */
async function stillOpen(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/**
 * After a test: the database back to the template's state for the next test, with its pool when the
 * test left it open, or dropped (and its pool closed) when it cannot be.
 */
async function recyclePgDatabase(name: string, template: string, db: Db): Promise<void> {
  const open = await stillOpen(db);
  const reset = await resetPgDatabase(TEST_DATABASE_URL, name, template);
  if (!(open && reset)) await db.destroy().catch(() => {});
  if (reset) idlePgDatabases.push({ name, db: open ? db : undefined });
  else await dropPgDatabase(TEST_DATABASE_URL, name);
}

/**
 * A new, migrated database of the given engine: a copy of the run's migrated template (see
 * tests/support/templates.ts), or migrated here when the run has none (a file run outside `vitest`'s
 * projects). SQLite: a file in a folder of its own; PostgreSQL: a database of its own on the shared
 * server, dropped by `cleanup`.
 */
export async function createTestDatabase(engine: DbEngine): Promise<TestDatabase> {
  /** The handle of a database at `url`; `cleanup` closes it, then removes what `remove` names. */
  const opened = (
    url: string,
    remove: () => void | Promise<void>,
    db = openDatabase(url).db,
  ): TestDatabase => ({
    engine,
    db,
    url,
    async cleanup() {
      await db.destroy();
      await remove();
    },
  });
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'vertice-db-'));
    const url = join(dir, 'site.db');
    const template = inject('sqliteTemplate');
    if (template) copySqliteTemplate(template, url);
    const database = opened(url, () => rmSync(dir, { recursive: true, force: true }));
    if (!template) await migrateToLatest(database.db);
    return database;
  }
  const template = inject('pgTemplate');
  if (template) {
    const idle = idlePgDatabases.pop();
    const name = idle?.name ?? (await newPgDatabase(template));
    const url = withDatabase(TEST_DATABASE_URL, name);
    const db = idle?.db ?? openDatabase(url).db;
    return { engine, db, url, cleanup: () => recyclePgDatabase(name, template, db) };
  }
  const schema = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await createPgSchema(TEST_DATABASE_URL, schema);
  const database = opened(
    withSearchPath(TEST_DATABASE_URL, schema),
    () => dropPgSchema(TEST_DATABASE_URL, schema),
    openDatabase(TEST_DATABASE_URL, { schema }).db,
  );
  await migrateToLatest(database.db);
  return database;
}

/**
 * Declares the same suite once per engine. `body` receives a getter for that engine's database: a
 * new one for every test, removed after it, so that no test depends on what another left behind and
 * each can run alone (`vitest run -t '…'`). A test seeds what it needs (see factories.ts).
 */
export function describeEachEngine(name: string, body: (database: () => TestDatabase) => void): void {
  for (const engine of ['sqlite', 'postgres'] as const) describeEngine(engine, name, body);
}

/**
 * {@link describeEachEngine}'s suite on one engine: for a long suite whose two halves run from two
 * files, so that two workers take them side by side.
 */
export function describeEngine(
  engine: DbEngine,
  name: string,
  body: (database: () => TestDatabase) => void,
): void {
  describe.skipIf(engine === 'postgres' && !postgresAvailable)(`${name} [${engine}]`, () => {
    let current: TestDatabase | undefined;
    beforeEach(async () => {
      current = await createTestDatabase(engine);
    });
    afterEach(async () => {
      await current?.cleanup();
      current = undefined;
    });
    body(() => {
      if (!current) throw new Error('La base de datos de prueba no está lista');
      return current;
    });
  });
}
