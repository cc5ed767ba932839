import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupFileName, backupSqlite, postgresBackupCommands } from '../../src/server/db/backup.ts';
import { openDatabase } from '../../src/server/db/index.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { buildContactMessage, insertContactMessage } from '../support/factories.ts';

describe('SQLite backup', () => {
  let database: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    dir = mkdtempSync(join(tmpdir(), 'vertice-backup-'));
  });

  afterAll(async () => {
    await database.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes a consistent copy while the database stays open, and refuses to overwrite', async () => {
    const now = new Date().toISOString();
    await database.db
      .insertInto('contactMessages')
      .values(
        Array.from({ length: 25 }, (_, i) =>
          buildContactMessage({
            name: `Visitante ${i}`,
            email: `v${i}@example.com`,
            message: 'Hola',
            createdAt: now,
          }),
        ),
      )
      .execute();
    const target = await backupSqlite(database.db, join(dir, 'copia.db'));
    // The original keeps working after the copy.
    await insertContactMessage(database.db, {
      name: 'Después',
      email: 'd@example.com',
      message: 'x',
      createdAt: now,
    });

    const copy = openDatabase(target);
    try {
      const rows = await copy.db.selectFrom('contactMessages').select(['name']).execute();
      expect(rows).toHaveLength(25);
      const migrations = await copy.db
        .selectFrom('kysely_migration' as never)
        .selectAll()
        .execute();
      expect(migrations.length).toBeGreaterThan(0);
    } finally {
      await copy.db.destroy();
    }
    await expect(backupSqlite(database.db, target)).rejects.toThrow(/Ya existe/);
  });

  it('names backups so they sort by time', () => {
    expect(backupFileName(new Date('2026-11-22T04:15:09.123Z'))).toBe('site-20261122-041509.db');
  });
});

describe('PostgreSQL backup commands', () => {
  it('use pg_dump/pg_restore and never print the password', () => {
    const { backup, restore } = postgresBackupCommands('postgres://site:s3cret@db.internal:5432/site');
    expect(backup).toMatch(/^pg_dump --format=custom/);
    expect(restore).toMatch(/^pg_restore /);
    expect(backup + restore).not.toContain('s3cret');
  });
});
