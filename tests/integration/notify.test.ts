/**
 * The one way a process hears a commit (src/server/db/notify.ts): this process's listeners are called
 * after the commit and never for a rollback, on both engines; on PostgreSQL one LISTEN connection serves
 * every listener of the process, hears what another connection commits, and after being killed
 * (`pg_terminate_backend`) comes back and tells every listener to re-read.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { expect, it } from 'vitest';
import { listen, notifyAfterCommit, type Db, type Heard } from '../../src/server/db/index.ts';
import { describeEachEngine, describeEngine } from '../support/db.ts';

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('La condición no se cumplió a tiempo');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The backends of this database that are a LISTEN connection of notify.ts. */
async function listenBackends(db: Db): Promise<number[]> {
  const { rows } = await sql<{ pid: number }>`
    select pid from pg_stat_activity
    where datname = current_database() and application_name = 'vertice notify'`.execute(db);
  return rows.map((row) => Number(row.pid));
}

describeEachEngine('notices after commit in this process', (database) => {
  it('calls the listeners once the transaction commits, with the payload, and never for a rollback', async () => {
    const { db } = database();
    const heard: Heard[] = [];
    const stop = await listen(db, 'vertice_test', (notice) => heard.push(notice));
    try {
      await db.transaction().execute(async (trx) => {
        await notifyAfterCommit(trx, 'vertice_test', 'uno');
        // The same notice twice in one transaction is one.
        await notifyAfterCommit(trx, 'vertice_test', 'uno');
        await pause(50);
        expect(heard).toEqual([]);
      });
      await waitFor(() => heard.length > 0);
      await expect(
        db.transaction().execute(async (trx) => {
          await notifyAfterCommit(trx, 'vertice_test', 'dos');
          throw new Error('deshecha');
        }),
      ).rejects.toThrow('deshecha');
      // Outside a transaction: at once.
      await notifyAfterCommit(db, 'vertice_test', 'tres');
      await pause(300);
      // Once each: on PostgreSQL the echo through LISTEN of this process's own notice is not told again.
      expect(heard).toEqual([
        { kind: 'notice', payload: 'uno' },
        { kind: 'notice', payload: 'tres' },
      ]);
    } finally {
      await stop();
    }
  });
});

describeEachEngine('notices after a rollback to a savepoint', (database) => {
  it('drops what came after the savepoint and keeps what came before', async () => {
    const { db } = database();
    const heard: string[] = [];
    const stop = await listen(db, 'vertice_test', (notice) => {
      if (notice.kind === 'notice') heard.push(notice.payload);
    });
    try {
      const trx = await db.startTransaction().execute();
      await notifyAfterCommit(trx, 'vertice_test', 'antes');
      const saved = await trx.savepoint('punto').execute();
      await notifyAfterCommit(saved, 'vertice_test', 'después');
      await saved.rollbackToSavepoint('punto').execute();
      await trx.commit().execute();
      await waitFor(() => heard.length > 0);
      await pause(300);
      expect(heard).toEqual(['antes']);
    } finally {
      await stop();
    }
  });
});

describeEngine('postgres', 'notices through LISTEN', (database) => {
  it('serves every listener of the process with one connection, which ends with the last listener', async () => {
    const { db } = database();
    const stops = await Promise.all(
      ['vertice_a', 'vertice_b', 'vertice_c'].flatMap((channel) => [
        listen(db, channel, () => {}),
        listen(db, channel, () => {}),
      ]),
    );
    expect(await listenBackends(db)).toHaveLength(1);
    for (const stop of stops) await stop();
    const end = Date.now() + 3000;
    while ((await listenBackends(db)).length > 0 && Date.now() < end) await pause(50);
    expect(await listenBackends(db)).toEqual([]);
  });

  it('hears what another connection commits, at its commit, and nothing of a rollback', async () => {
    const { db, url } = database();
    const heard: string[] = [];
    const stop = await listen(db, 'vertice_test', (notice) => {
      if (notice.kind === 'notice') heard.push(notice.payload);
    });
    // Another process: its own client, not this module.
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(`select pg_notify('vertice_test_' || current_schema(), 'confirmada')`);
      await pause(200);
      expect(heard).toEqual([]);
      await other.query('commit');
      await waitFor(() => heard.includes('confirmada'));

      await other.query('begin');
      await other.query(`select pg_notify('vertice_test_' || current_schema(), 'deshecha')`);
      await other.query('rollback');
      // A commit after it: once that one is heard, the rolled-back one would have been too.
      await other.query(`select pg_notify('vertice_test_' || current_schema(), 'después')`);
      await waitFor(() => heard.includes('después'));
      expect(heard).toEqual(['confirmada', 'después']);
    } finally {
      await other.end();
      await stop();
    }
  });

  it('reconnects after its connection is killed and tells every listener to re-read', async () => {
    const { db, url } = database();
    const heard: Record<'a' | 'b', Heard[]> = { a: [], b: [] };
    const stops = [
      await listen(db, 'vertice_a', (notice) => heard.a.push(notice)),
      await listen(db, 'vertice_b', (notice) => heard.b.push(notice)),
    ];
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      const [pid] = await listenBackends(db);
      expect(pid).toBeDefined();
      await sql`select pg_terminate_backend(${pid})`.execute(db);
      await waitFor(() => heard.a.some((notice) => notice.kind === 'reconnected'));
      await waitFor(() => heard.b.some((notice) => notice.kind === 'reconnected'));
      const backends = await listenBackends(db);
      expect(backends).toHaveLength(1);
      expect(backends[0]).not.toBe(pid);
      // Listening again on every channel.
      await other.query(`select pg_notify('vertice_a_' || current_schema(), 'otra vez')`);
      await other.query(`select pg_notify('vertice_b_' || current_schema(), 'otra vez')`);
      await waitFor(() =>
        [heard.a, heard.b].every((notices) =>
          notices.some((notice) => notice.kind === 'notice' && notice.payload === 'otra vez'),
        ),
      );
    } finally {
      await other.end();
      for (const stop of stops) await stop();
    }
  });
});
