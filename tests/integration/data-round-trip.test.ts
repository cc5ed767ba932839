/**
 * `npm run data` keeps its file (issue 40, 'One writer per table'): each area now exports and imports
 * its own rows through its own module, and the file must not change. A file exported before that move
 * (tests/fixtures/data-export-before-issue-40.json, made by tests/support/data-file.ts) imports, and
 * exports back byte for byte as scripts/data.ts writes it; export → import → export gives the same
 * file again; and the same file imported twice adds nothing. On both engines.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { exportData, type ExportData } from '../../src/server/data/export.ts';
import { importData } from '../../src/server/data/import.ts';
import { isPostgres } from '../../src/server/db/engine.ts';
import type { Db } from '../../src/server/db/index.ts';
import { STAFF } from '../support/data-file.ts';
import { createTestDatabase, describeEachEngine } from '../support/db.ts';

const FIXTURE = new URL('../fixtures/data-export-before-issue-40.json', import.meta.url);

/** The file as scripts/data.ts writes it, its time of export set to `stamp`. */
const asFile = (data: ExportData, stamp: string) =>
  `${JSON.stringify({ ...data, exportedAt: stamp }, null, 2)}\n`;

async function addStaff(db: Db): Promise<void> {
  for (const account of STAFF)
    await db
      .withoutPlugins()
      .insertInto('user')
      .values({
        ...account,
        emailVerified: isPostgres(db) ? true : 1,
        image: null,
        createdAt: '2026-03-02T13:00:00.000Z',
        updatedAt: '2026-03-02T13:00:00.000Z',
        mustChangePassword: isPostgres(db) ? false : 0,
        twoFactorEnabled: null,
      })
      .execute();
}

const EVERY_KIND = [
  'incidents',
  'clients',
  'contactMessages',
  'inboundMessages',
  'savedReplies',
  'articles',
  'announcements',
  'clientLogos',
] as const;

describeEachEngine('a data file moved and moved back (issue 40)', (database) => {
  it('imports a file exported before issue 40 and exports it back byte for byte, twice over', async () => {
    const { db, engine } = database();
    await addStaff(db);
    const file = JSON.parse(readFileSync(FIXTURE, 'utf8')) as ExportData;
    // As scripts/data.ts wrote it (the fixture itself is laid out by Prettier).
    const before = asFile(file, file.exportedAt);
    const refused: unknown[] = [];
    const summary = await importData(db, file, { onRefused: (refusal) => refused.push(refusal) });
    expect(refused).toEqual([]);
    for (const kind of EVERY_KIND) expect(summary[kind].imported, kind).toBeGreaterThan(0);
    const first = asFile(await exportData(db), file.exportedAt);
    expect(first).toBe(before);

    const target = await createTestDatabase(engine);
    try {
      await addStaff(target.db);
      await importData(target.db, JSON.parse(first));
      expect(asFile(await exportData(target.db), file.exportedAt)).toBe(before);
      // The same file again: every record is skipped, and the export is unchanged.
      const again = await importData(target.db, JSON.parse(first));
      for (const kind of EVERY_KIND)
        expect(again[kind], kind).toEqual({ imported: 0, skipped: summary[kind].imported, invalid: 0 });
      expect(asFile(await exportData(target.db), file.exportedAt)).toBe(before);
    } finally {
      await target.cleanup();
    }
  });
});
