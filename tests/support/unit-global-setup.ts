/**
 * Before the unit and integration tests: the migrated template databases that
 * {@link describeEachEngine} copies for every test (tests/support/templates.ts). When PostgreSQL does
 * not answer, there is no PostgreSQL template; tests/support/db.ts says so (and fails under CI). After
 * them, the test databases the workers kept are dropped.
 */
import type { TestProject } from 'vitest/node';
import {
  buildPgTemplate,
  buildSqliteTemplate,
  dropOrphanPgDatabases,
  TEST_DATABASE_URL,
} from './templates.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  project.provide('sqliteTemplate', await buildSqliteTemplate());
  let pgTemplate = '';
  try {
    pgTemplate = await buildPgTemplate(TEST_DATABASE_URL);
    // Test databases a crashed or killed run left behind.
    await dropOrphanPgDatabases(TEST_DATABASE_URL);
  } catch (error) {
    console.warn(
      `No se pudo preparar la plantilla de PostgreSQL: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  project.provide('pgTemplate', pgTemplate);
  // The copies the workers kept for a next test (tests/support/db.ts): every test has run.
  return async () => {
    if (pgTemplate) await dropOrphanPgDatabases(TEST_DATABASE_URL, true);
  };
}
