/**
 * The mailbox poller (src/server/inbound/imap.ts) against a private Dovecot (tests/support/dovecot.ts)
 * on both engines: a round stores each mail once, flags it \Seen and moves it to 'Procesados' or
 * 'Rechazados' (created when missing), never deleting anything; a crash between storing and moving
 * stores nothing twice; a failure before storing loses nothing; on PostgreSQL one process polls at a
 * time (advisory lock) and another takes over when it goes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/server/db/index.ts';
import {
  pollMailbox,
  PROCESSED_FOLDER,
  REJECTED_FOLDER,
  type PollOptions,
} from '../../src/server/inbound/imap.ts';
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
  });
});
