/**
 * The in-memory first line in front of the database limiters (src/server/limits/first-line.ts): once
 * this process has seen a key used up in its window, further requests are refused with no database
 * statement at all, and it never refuses what the database would still accept.
 */
import { sql, type KyselyPlugin } from 'kysely';
import { expect, it } from 'vitest';
import { withinCounterLimit, withinRateLimit } from '../../src/server/limits/first-line.ts';
import { MemoryLimiter } from '../../src/server/limits/memory.ts';
import { hitRateLimit, RATE_WINDOW_MS, reserveHit } from '../../src/server/limits/counters.ts';
import { migrateToLatest, migrator, type Db } from '../../src/server/db/index.ts';
import { migrations } from '../../src/server/db/migrations/index.ts';
import { describeEachEngine } from '../support/db.ts';

const HOUR_MS = 60 * 60 * 1000;

/** The database with every statement it runs counted, reads and writes alike. */
function counted(db: Db): { db: Db; statements: () => number } {
  let statements = 0;
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      statements += 1;
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { db: db.withPlugin(plugin), statements: () => statements };
}

describeEachEngine('first line before the database limiters', (database) => {
  it('refuses a used-up public-form key from memory: no statement, and the stored count stops at the limit', async () => {
    const { db, statements } = counted(database().db);
    const memory = new MemoryLimiter();
    const key = 'contact.send:203.0.113.40';
    const now = Date.UTC(2025, 0, 1, 10, 1);
    const first = [];
    for (let hit = 0; hit < 5; hit += 1) first.push(await withinRateLimit(db, key, 5, { memory, now }));
    expect(first.map((result) => result.allowed)).toEqual([true, true, true, true, true]);
    const before = statements();

    const refused = [];
    for (let hit = 0; hit < 50; hit += 1)
      refused.push(await withinRateLimit(db, key, 5, { memory, now: now + hit * 1000 }));
    expect(refused.every((result) => !result.allowed && result.remembered)).toBe(true);
    expect(statements()).toBe(before);
    const rows = await database()
      .db.selectFrom('limitCounters')
      .select('count')
      .where('key', '=', key)
      .execute();
    expect(rows.map((row) => Number(row.count))).toEqual([5]);

    // Another key, and the next window, go to the database again.
    expect((await withinRateLimit(db, 'contact.send:203.0.113.41', 5, { memory, now })).allowed).toBe(true);
    const nextWindow = (Math.floor(now / RATE_WINDOW_MS) + 1) * RATE_WINDOW_MS;
    const next = await withinRateLimit(db, key, 5, { memory, now: nextWindow });
    expect(next).toMatchObject({ allowed: true, remembered: false, hits: 1 });
  });

  it('refuses a used-up e-mail (limit_counters) key from memory, the stored count never past limit + 1', async () => {
    const { db, statements } = counted(database().db);
    const key = 'incidents.track:email:cliente@objetivo.test';
    const now = Date.UTC(2025, 0, 1, 10, 0);
    // Two processes: the second learns only from the database's refusal, then stops asking it too.
    const [one, two] = [new MemoryLimiter(), new MemoryLimiter()];
    for (let hit = 0; hit < 4; hit += 1)
      expect((await withinCounterLimit(db, key, 5, HOUR_MS, { memory: one, now })).allowed).toBe(true);
    expect((await withinCounterLimit(db, key, 5, HOUR_MS, { memory: two, now })).allowed).toBe(true);
    const refusedByDb = await withinCounterLimit(db, key, 5, HOUR_MS, { memory: one, now });
    expect(refusedByDb).toMatchObject({ allowed: false, remembered: false, hits: 6 });
    const before = statements();
    for (let hit = 0; hit < 30; hit += 1) {
      const memory = hit % 2 ? one : two;
      expect(
        await withinCounterLimit(db, key, 5, HOUR_MS, { memory, now: now + hit * 60_000 }),
      ).toMatchObject({ allowed: false, remembered: true });
    }
    expect(statements()).toBe(before);
    const row = await database()
      .db.selectFrom('limitCounters')
      .select('count')
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    expect(Number(row.count)).toBe(6);
  });

  it('never refuses what the database accepts: it keeps the window the database began, not its own', async () => {
    const { db } = database();
    const key = 'signin-net:198.51.100.60';
    const start = Date.UTC(2025, 0, 1, 9, 0);
    // Another process opened the database's window at 9:00; this one uses it up at 9:50.
    await withinCounterLimit(db, key, 3, HOUR_MS, { memory: new MemoryLimiter(), now: start });
    const memory = new MemoryLimiter();
    const late = start + 50 * 60_000;
    expect((await withinCounterLimit(db, key, 3, HOUR_MS, { memory, now: late })).allowed).toBe(true);
    expect((await withinCounterLimit(db, key, 3, HOUR_MS, { memory, now: late })).allowed).toBe(true);
    expect(await withinCounterLimit(db, key, 3, HOUR_MS, { memory, now: late + 1000 })).toMatchObject({
      allowed: false,
      remembered: true,
    });
    // 10:00:01: the database's window is over, so memory lets the request through to it.
    expect(
      await withinCounterLimit(db, key, 3, HOUR_MS, { memory, now: start + HOUR_MS + 1000 }),
    ).toMatchObject({ allowed: true, remembered: false, hits: 1 });
  });

  it('counts nothing anywhere with the limit off', async () => {
    const { db, statements } = counted(database().db);
    const memory = new MemoryLimiter();
    for (let hit = 0; hit < 5; hit += 1)
      expect((await withinRateLimit(db, 'contact.send:203.0.113.42', 0, { memory })).allowed).toBe(true);
    expect(statements()).toBe(0);
    expect(memory.size).toBe(0);
  });

  it("keeps the public forms' counts through migration 0022 and back (one counter table)", async () => {
    const { db } = database();
    const now = Date.UTC(2025, 0, 1, 10, 1);
    const slot = Math.floor(now / RATE_WINDOW_MS);
    for (let hit = 0; hit < 3; hit += 1)
      await hitRateLimit(db, 'contact.send:203.0.113.50', 5, new Date(now));
    await reserveHit(db, 'signin-net:203.0.113.50', HOUR_MS, now + 123);
    const counters = async () =>
      (
        await db.selectFrom('limitCounters').select(['key', 'windowStart', 'count']).orderBy('key').execute()
      ).map((row) => [row.key, Number(row.windowStart), Number(row.count)]);
    const names = Object.keys(migrations);
    const before = names[names.indexOf('0022_one_limit_table') - 1]!;

    // Down: the grid windows go back to `rate_limits`, the rest stay.
    const down = await migrator(db).migrateTo(before);
    expect(down.error).toBeUndefined();
    expect(down.results?.map((result) => result.migrationName)).toContain('0022_one_limit_table');
    const rateLimits = async () =>
      (
        await sql<{
          key: string;
          slot: number;
          hits: number;
        }>`select key, slot, hits from rate_limits order by key, slot`.execute(db)
      ).rows.map((row) => [row.key, Number(row.slot), Number(row.hits)]);
    expect(await rateLimits()).toEqual([['contact.send:203.0.113.50', slot, 3]]);
    expect(await counters()).toEqual([['signin-net:203.0.113.50', now + 123, 1]]);

    // Up: each key's newest window moves (an older one of the same key does not), and the table goes.
    await sql`insert into rate_limits (key, slot, hits) values ('contact.send:203.0.113.50', ${slot - 1}, 9), ('incidents.create:203.0.113.51', ${slot}, 5)`.execute(
      db,
    );
    await migrateToLatest(db);
    await expect(sql`select count(*) from rate_limits`.execute(db)).rejects.toThrow();
    expect(await counters()).toEqual([
      ['contact.send:203.0.113.50', slot * RATE_WINDOW_MS, 3],
      ['incidents.create:203.0.113.51', slot * RATE_WINDOW_MS, 5],
      ['signin-net:203.0.113.50', now + 123, 1],
    ]);
    // The window goes on counting: a limit reached before the upgrade still holds after it.
    expect(await hitRateLimit(db, 'contact.send:203.0.113.50', 5, new Date(now + 1000))).toMatchObject({
      allowed: true,
      hits: 4,
    });
    expect(await hitRateLimit(db, 'incidents.create:203.0.113.51', 5, new Date(now + 1000))).toMatchObject({
      allowed: false,
      hits: 6,
    });
    // And the next window of the grid starts again at one.
    expect(
      (await hitRateLimit(db, 'incidents.create:203.0.113.51', 5, new Date((slot + 1) * RATE_WINDOW_MS)))
        .hits,
    ).toBe(1);
  });
});
