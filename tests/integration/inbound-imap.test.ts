/**
 * The mailbox poller (src/server/inbound/imap.ts) against a private Dovecot (tests/support/dovecot.ts)
 * on both engines: a round stores each mail once, flags it \Seen and moves it to 'Procesados' or
 * 'Rechazados' (created when missing), never deleting anything; a crash between storing and moving
 * stores nothing twice; a failure before storing loses nothing; on PostgreSQL one process polls at a
 * time (advisory lock) and another takes over when it goes.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/server/db/index.ts';
import {
  pollMailbox,
  PROCESSED_FOLDER,
  REJECTED_FOLDER,
  startMailboxPoller,
  type MailboxPoller,
  type PollOptions,
} from '../../src/server/inbound/imap.ts';
import { mailboxPollStatus } from '../../src/server/inbound/status.ts';
import { receiveMail } from '../../src/server/inbound/mail.ts';
import {
  createTestDatabase,
  describeEachEngine,
  postgresAvailable,
  type TestDatabase,
} from '../support/db.ts';
import { dovecotProblem, startPrivateDovecot, type PrivateDovecot } from '../support/dovecot.ts';
import {
  inboundFixture,
  openFormIncident,
  testInboundSettings,
  testMailbox,
  withMessageId,
} from '../support/inbound.ts';

const settings = testInboundSettings();
const MAX_BYTES = 64 * 1024;
const at = new Date(Date.UTC(2025, 2, 3, 15));

let imap: PrivateDovecot | undefined;
beforeEach(async () => {
  if (!dovecotProblem) imap = await startPrivateDovecot();
});
afterEach(async () => {
  await imap?.stop();
  imap = undefined;
});

const options = (): PollOptions => ({ url: imap!.url, settings, maxBytes: MAX_BYTES, now: () => at });

const { folders, append } = testMailbox(() => imap!);

const CHILD = fileURLToPath(new URL('../support/poll-child.ts', import.meta.url));
/** A round of the poller in a process of its own (tests/support/poll-child.ts); `dieAt`: SIGKILL before flagging that mail. */
function pollInChild(databaseUrl: string, dieAt = 0) {
  return new Promise<{ code: number | null; signal: string | null; stdout: string }>((resolve) => {
    execFile(
      process.execPath,
      [CHILD, databaseUrl, imap!.url, String(dieAt)],
      { timeout: 60_000 },
      (error, stdout) =>
        resolve({
          code: error ? ((error as { code?: number }).code ?? null) : 0,
          signal: (error as { signal?: string } | null)?.signal ?? null,
          stdout,
        }),
    );
  });
}

/** `count` new mails from as many senders (none reaches the per-sender limit), Message-IDs `lote-N@…`. */
const batch = (count: number) =>
  Array.from({ length: count }, (_, index) =>
    Buffer.from(
      withMessageId(inboundFixture('new-incident'), `lote-${index + 1}@panaderia.example`)
        .toString('utf8')
        .replaceAll('carmen@panaderia.example', `cliente${index + 1}@panaderia.example`),
    ),
  );

/** Resolves once `check` holds, polling every 50 ms, or fails after `timeoutMs`. */
async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`no ocurrió en ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

const openIncident = (db: Db) => openFormIncident(db, at, { problema: 'No imprime', nombre: 'María' });

const GMAIL_ID = '<CAJx8sN0fXq2+Vd1yH3kP_u7wQm9LzR4oT5bE6cA1dG2hF3iJ4k@mail.gmail.com>';
const NEW_ID = '<CAH7uXq4Zr9t1nE0bQf2W3vX5yZ6aB7cD8eF9gH0iJ1kL2mN3oP@mail.gmail.com>';
const SPAM_ID = '<9f8e7d6c5b4a@oferta.example>';
const LARGE_ID = '<grande@panaderia.example>';

describe.skipIf(dovecotProblem !== null)('inbound mailbox', () => {
  describeEachEngine('poller', (database) => {
    it('stores each mail once, flags it \\Seen and moves it to Procesados or Rechazados, created when missing', async () => {
      const { db } = database();
      const incident = await openIncident(db);
      const large = Buffer.concat([
        withMessageId(inboundFixture('new-incident'), LARGE_ID.slice(1, -1)),
        Buffer.alloc(MAX_BYTES, 'a'),
      ]);
      await append([
        inboundFixture('gmail-reply', incident),
        inboundFixture('new-incident'),
        inboundFixture('spam'),
        large,
      ]);
      expect(Object.keys(await folders())).toEqual(['INBOX']);

      expect(await pollMailbox(db, options())).toEqual({ status: 'done', processed: 2, rejected: 2 });
      const after = await folders();
      expect(after.INBOX).toEqual([]);
      expect(after[PROCESSED_FOLDER]).toEqual([
        [GMAIL_ID, true],
        [NEW_ID, true],
      ]);
      expect(after[REJECTED_FOLDER]).toEqual([
        [SPAM_ID, true],
        [LARGE_ID, true],
      ]);
      const stored = await db
        .selectFrom('inboundMessages')
        .select(['outcome', 'reason'])
        .orderBy('id')
        .execute();
      expect(stored).toEqual([
        { outcome: 'answer', reason: null },
        { outcome: 'new-incident', reason: null },
        { outcome: 'rejected', reason: 'spam' },
        { outcome: 'rejected', reason: 'too-large' },
      ]);
      expect(
        await db.selectFrom('incidentEntries').select('kind').where('incidentId', '=', incident.id).execute(),
      ).toEqual([{ kind: 'answer' }]);

      // Nothing left: the next round does nothing.
      expect(await pollMailbox(db, options())).toEqual({ status: 'done', processed: 0, rejected: 0 });
    });

    it('a crash between storing and moving stores nothing twice; a failure before storing loses nothing', async () => {
      const { db } = database();
      const raws = [
        inboundFixture('new-incident'),
        withMessageId(inboundFixture('new-incident'), 'segunda@panaderia.example'),
      ];
      await append(raws);
      // The first mail was stored by a round that died before moving it.
      expect((await receiveMail(db, raws[0]!, settings, at)).outcome).toBe('new-incident');

      // A round whose database cannot store (a file without the site's tables): it stops at the first
      // mail, and nothing moves.
      const dir = mkdtempSync(join(tmpdir(), 'vertice-sin-tablas-'));
      const broken = openDatabase(join(dir, 'vacia.db')).db;
      try {
        await expect(pollMailbox(broken, options())).rejects.toThrow(/inbound_messages/);
      } finally {
        await broken.destroy();
        rmSync(dir, { recursive: true, force: true });
      }
      expect((await folders()).INBOX).toEqual([
        [NEW_ID, false],
        ['<segunda@panaderia.example>', false],
      ]);

      expect(await pollMailbox(db, options())).toEqual({ status: 'done', processed: 2, rejected: 0 });
      expect((await folders())[PROCESSED_FOLDER]).toHaveLength(2);
      expect(await db.selectFrom('incidents').select('id').execute()).toHaveLength(2);
      expect(await db.selectFrom('inboundMessages').select('id').execute()).toHaveLength(2);
    });

    it('the poller killed in the middle of a batch, after storing a mail and before moving it: nothing lost, nothing stored twice', async () => {
      const { db, url } = database();
      await append(batch(12));
      // A process of its own, killed (SIGKILL) as it is about to flag the 5th mail it stored.
      const killed = await pollInChild(url, 5);
      expect(killed.signal).toBe('SIGKILL');
      expect(await db.selectFrom('inboundMessages').select('id').execute()).toHaveLength(5);
      const during = await folders();
      expect(during[PROCESSED_FOLDER]).toHaveLength(4);
      expect(during.INBOX).toHaveLength(8);
      expect(during.INBOX![0]).toEqual(['<lote-5@panaderia.example>', false]);

      // The next round (on PostgreSQL, once the dead session's lock is gone) takes the rest.
      let result = await pollMailbox(db, options());
      for (let tries = 0; result.status === 'locked' && tries < 100; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        result = await pollMailbox(db, options());
      }
      expect(result).toEqual({ status: 'done', processed: 8, rejected: 0 });
      const after = await folders();
      expect(after.INBOX).toEqual([]);
      expect(after[PROCESSED_FOLDER]!.map(([id]) => id).sort()).toEqual(
        Array.from({ length: 12 }, (_, index) => `<lote-${index + 1}@panaderia.example>`).sort(),
      );
      expect(after[PROCESSED_FOLDER]!.every(([, seen]) => seen)).toBe(true);
      // Each mail stored once, each opened one incident with one confirmation.
      const stored = await db.selectFrom('inboundMessages').select(['messageId', 'outcome']).execute();
      expect(stored).toHaveLength(12);
      expect(new Set(stored.map((row) => row.messageId)).size).toBe(12);
      expect(stored.every((row) => row.outcome === 'new-incident')).toBe(true);
      expect(await db.selectFrom('incidents').select('id').execute()).toHaveLength(12);
      expect(
        await db.selectFrom('mailOutbox').select('id').where('kind', '=', 'incident.confirmation').execute(),
      ).toHaveLength(12);
    });

    it('records each round for Correo entrante: when it went well, whether IDLE is offered, and an error without the password', async () => {
      const { db } = database();
      expect(await mailboxPollStatus(db)).toBeNull();
      await pollMailbox(db, options());
      expect(await mailboxPollStatus(db)).toEqual({
        lastRoundAt: at.toISOString(),
        lastOkAt: at.toISOString(),
        lastError: null,
        lastErrorAt: null,
        idle: true,
      });

      const later = new Date(at.getTime() + 60_000);
      const wrong = imap!.url.replace(encodeURIComponent(imap!.password), 'clave-equivocada-9876');
      await expect(pollMailbox(db, { ...options(), url: wrong, now: () => later })).rejects.toThrow();
      const failed = await mailboxPollStatus(db);
      expect(failed).toMatchObject({
        lastRoundAt: later.toISOString(),
        lastOkAt: at.toISOString(),
        lastErrorAt: later.toISOString(),
      });
      expect(failed!.lastError).toMatch(/auth/i);
      expect(failed!.lastError).not.toContain('clave-equivocada-9876');
      expect(failed!.lastError).not.toContain(imap!.password);

      // A round that goes well clears the error.
      await pollMailbox(db, options());
      expect(await mailboxPollStatus(db)).toMatchObject({ lastError: null });
    });

    it('with IDLE, a mail appended between rounds is processed at once, long before the poll interval', async () => {
      const { db } = database();
      let poller: MailboxPoller | undefined;
      try {
        poller = startMailboxPoller(db, { ...options(), now: () => new Date(), intervalMs: 60_000 });
        // The first round ran (nothing to do) and the loop waits, in IDLE.
        await until(async () => (await mailboxPollStatus(db)) !== null, 10_000);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await append([inboundFixture('new-incident')]);
        const elapsed = await until(
          async () => ((await folders())[PROCESSED_FOLDER] ?? []).length === 1,
          15_000,
        );
        expect(elapsed).toBeLessThan(10_000);
        expect(await db.selectFrom('incidents').select('origen').execute()).toEqual([{ origen: 'Correo' }]);
        // Two more while it is awake: both, once.
        await append(batch(2));
        await until(async () => ((await folders())[PROCESSED_FOLDER] ?? []).length === 3, 15_000);
        expect(await db.selectFrom('inboundMessages').select('id').execute()).toHaveLength(3);
      } finally {
        await poller?.stop();
      }
    });
  });

  it('without IDLE on the server, the poller polls every interval and says so', async () => {
    const database = await createTestDatabase('sqlite');
    const { db } = database;
    // Dovecot 2.3's own capabilities, without IDLE.
    await imap!.stop();
    imap = await startPrivateDovecot({
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
