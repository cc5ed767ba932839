/**
 * The mailbox poller as processes run it, against a private Dovecot (tests/support/dovecot.ts): without
 * IDLE it polls every interval and says so; on PostgreSQL one process polls at a time (advisory lock),
 * another takes over when it goes, and two poller processes at once store and move each mail once. The
 * poller's rounds on each engine are in inbound-imap.test.ts and inbound-imap-postgres.test.ts.
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/server/db/index.ts';
import {
  pollMailbox,
  PROCESSED_FOLDER,
  startMailboxPoller,
  type MailboxPoller,
} from '../../src/server/channels/mail/imap.ts';
import { mailboxPollStatus } from '../../src/server/channels/status.ts';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../support/db.ts';
import { dovecotProblem } from '../support/dovecot.ts';
import {
  append,
  batch,
  folders,
  options,
  pollInChild,
  restartDovecot,
  until,
  useDovecot,
} from '../support/imap-poller.ts';
import { inboundFixture } from '../support/inbound.ts';

describe.skipIf(dovecotProblem !== null)('inbound mailbox', () => {
  useDovecot();

  it('without IDLE on the server, the poller polls every interval and says so', async () => {
    const database = await createTestDatabase('sqlite');
    const { db } = database;
    // Dovecot 2.3's own capabilities, without IDLE.
    await restartDovecot({
      capabilities:
        'IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE SORT SORT=DISPLAY THREAD=REFERENCES THREAD=REFS THREAD=ORDEREDSUBJECT MULTIAPPEND URL-PARTIAL CATENATE UNSELECT CHILDREN NAMESPACE UIDPLUS LIST-EXTENDED I18NLEVEL=1 CONDSTORE QRESYNC ESEARCH ESORT SEARCHRES WITHIN CONTEXT=SEARCH LIST-STATUS BINARY MOVE SNIPPET=FUZZY PREVIEW=FUZZY PREVIEW STATUS=SIZE SAVEDATE LITERAL+ NOTIFY SPECIAL-USE',
    });
    let poller: MailboxPoller | undefined;
    try {
      poller = startMailboxPoller(db, { ...options(), now: () => new Date(), intervalMs: 3000 });
      await until(async () => (await mailboxPollStatus(db)) !== null, 10_000);
      expect(await mailboxPollStatus(db)).toMatchObject({ idle: false, lastError: null });
      await append([inboundFixture('new-incident')]);
      const elapsed = await until(
        async () => ((await folders())[PROCESSED_FOLDER] ?? []).length === 1,
        10_000,
      );
      // Taken by the next round, not at once.
      expect(elapsed).toBeGreaterThan(1000);
    } finally {
      await poller?.stop();
      await database.cleanup();
    }
  });

  describe.skipIf(!postgresAvailable)('two processes on PostgreSQL', () => {
    let first: TestDatabase | undefined;
    let second: Db | undefined;
    afterEach(async () => {
      await second?.destroy();
      await first?.cleanup();
    });

    it('one polls at a time; when it goes, the other takes over', async () => {
      first = await createTestDatabase('postgres');
      second = openDatabase(first.url).db;
      await append([inboundFixture('new-incident')]);
      // Another process holds the poller's lock for its round.
      const other = new pg.Client({ connectionString: first.url });
      await other.connect();
      try {
        await other.query('select pg_advisory_lock(210021)');
        expect(await pollMailbox(second, options())).toEqual({ status: 'locked', processed: 0, rejected: 0 });
        expect((await folders()).INBOX).toHaveLength(1);
      } finally {
        // Its process ends: the session, and the lock with it.
        await other.end();
      }
      expect(await pollMailbox(second, options())).toEqual({ status: 'done', processed: 1, rejected: 0 });
      expect(await first.db.selectFrom('incidents').select('origen').execute()).toEqual([
        { origen: 'Correo' },
      ]);
    });

    it('two poller processes at once: each mail stored and moved once', async () => {
      first = await createTestDatabase('postgres');
      await append(batch(10));
      const rounds = await Promise.all([pollInChild(first.url), pollInChild(first.url)]);
      const results = rounds.map(
        (round) => JSON.parse(round.stdout) as { status: string; processed: number },
      );
      expect(results.reduce((sum, result) => sum + result.processed, 0)).toBe(10);
      const after = await folders();
      expect(after.INBOX).toEqual([]);
      expect(after[PROCESSED_FOLDER]).toHaveLength(10);
      expect(await first.db.selectFrom('inboundMessages').select('id').execute()).toHaveLength(10);
      expect(await first.db.selectFrom('incidents').select('id').execute()).toHaveLength(10);
    });
  });
});
