/**
 * The test harness's own promise (tests/support/db.ts): every test gets a PostgreSQL database in the
 * template's state, even though a file's databases are reused between its tests. A used one comes
 * back empty, with its sequences restarted; one whose shape a test changed is dropped, never reused.
 */
import pg from 'pg';
import { expect, it } from 'vitest';
import { createTestDatabase, postgresAvailable, TEST_DATABASE_URL } from '../support/db.ts';
import { insertIncident, insertStaffAccount } from '../support/factories.ts';

const exists = async (name: string) => {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  } finally {
    await client.end();
  }
};
const nameOf = (url: string) => new URL(url).pathname.slice(1);

it.skipIf(!postgresAvailable)(
  'hands a used PostgreSQL database to the next test empty, its ids starting again at 1',
  async () => {
    const first = await createTestDatabase('postgres');
    const incident = await insertIncident(first.db, { numeroIncidencia: 'INC-20250101-1001' });
    await insertStaffAccount(first.db, { id: 'user-ana', email: 'ana@vertice.example' });
    await first.db
      .insertInto('auditEvents')
      .values({
        action: 'signout',
        at: '2025-01-01T00:00:00Z',
        network: '203.0.113.0/24',
        actorId: null,
        actorEmail: null,
        subject: null,
        detail: null,
      })
      .execute();
    expect(incident.id).toBe(1);
    await first.cleanup();

    const second = await createTestDatabase('postgres');
    try {
      // The same database, reused.
      expect(nameOf(second.url)).toBe(nameOf(first.url));
      for (const table of [
        'incidents',
        'incidentEvents',
        'user',
        'auditEvents',
        'incidentStateCounts',
        'mailOutbox',
      ] as const)
        expect(await second.db.selectFrom(table).selectAll().execute(), table).toEqual([]);
      expect((await insertIncident(second.db, { numeroIncidencia: 'INC-20250101-1002' })).id).toBe(1);
      // The migrations stay recorded.
      expect(
        (
          await second.db
            .withoutPlugins()
            .selectFrom('kysely_migration' as never)
            .selectAll()
            .execute()
        ).length,
      ).toBeGreaterThan(20);
    } finally {
      await second.cleanup();
    }
  },
);

it.skipIf(!postgresAvailable)(
  'drops a database whose shape a test changed, and gives the next test another',
  async () => {
    const changed = await createTestDatabase('postgres');
    await changed.db.schema.createTable('left_behind').addColumn('id', 'integer').execute();
    await changed.cleanup();
    expect(await exists(nameOf(changed.url))).toBe(false);

    const next = await createTestDatabase('postgres');
    try {
      expect(nameOf(next.url)).not.toBe(nameOf(changed.url));
      const tables = await next.db.introspection.getTables();
      expect(tables.map((table) => table.name)).not.toContain('left_behind');
    } finally {
      await next.cleanup();
    }
  },
);
