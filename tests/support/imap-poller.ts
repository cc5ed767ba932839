/**
 * The mailbox poller's tests (src/server/channels/mail/imap.ts) against a private Dovecot
 * (tests/support/dovecot.ts), and what they share with the poller's process tests. The poller's tests
 * run once per engine, each engine from a file of its own (tests/integration/inbound-imap*.test.ts), so
 * that the unit phase's workers take them side by side: together they were its longest file.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/server/db/index.ts';
import {
  pollMailbox,
  PROCESSED_FOLDER,
  REJECTED_FOLDER,
  startMailboxPoller,
  type MailboxPoller,
  type PollOptions,
} from '../../src/server/channels/mail/imap.ts';
import { mailboxPollStatus } from '../../src/server/channels/status.ts';
import { receiveMail } from '../../src/server/channels/mail/read.ts';
import type { DbEngine } from '../../src/server/db/index.ts';
import { describeEngine } from './db.ts';
import { dovecotProblem, startPrivateDovecot, type PrivateDovecot } from './dovecot.ts';
import { originalBytes } from '../../src/server/channels/mail/original.ts';
import {
  deepHtmlMail,
  inboundFixture,
  nestedMultipartMail,
  openFormIncident,
  testInboundSettings,
  testMailbox,
  withMessageId,
} from './inbound.ts';

export const settings = testInboundSettings();
export const MAX_BYTES = 64 * 1024;
export const at = new Date(Date.UTC(2025, 2, 3, 15));

let imap: PrivateDovecot | undefined;

/** A private Dovecot for each test of the calling file (started before it, stopped after it). */
export function useDovecot(): void {
  beforeEach(async () => {
    if (!dovecotProblem) imap = await startPrivateDovecot();
  });
  afterEach(async () => {
    await imap?.stop();
    imap = undefined;
  });
}

/** The running test's Dovecot. */
export function dovecot(): PrivateDovecot {
  if (!imap) throw new Error('Dovecot no está en marcha: llame a useDovecot() en el archivo de pruebas');
  return imap;
}

/** Stops the running test's Dovecot and starts another with `options` (e.g. other capabilities). */
export async function restartDovecot(options: Parameters<typeof startPrivateDovecot>[0]): Promise<void> {
  await imap?.stop();
  imap = await startPrivateDovecot(options);
}

export const options = (): PollOptions => ({
  url: dovecot().url,
  settings,
  maxBytes: MAX_BYTES,
  now: () => at,
});

export const { folders, append } = testMailbox(() => imap!);

export const CHILD = fileURLToPath(new URL('../support/poll-child.ts', import.meta.url));
/** A round of the poller in a process of its own (tests/support/poll-child.ts); `dieAt`: SIGKILL before flagging that mail. */
export function pollInChild(databaseUrl: string, dieAt = 0) {
  return new Promise<{ code: number | null; signal: string | null; stdout: string }>((resolve) => {
    execFile(
      process.execPath,
      [CHILD, databaseUrl, dovecot().url, String(dieAt)],
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
export const batch = (count: number) =>
  Array.from({ length: count }, (_, index) =>
    Buffer.from(
      withMessageId(inboundFixture('new-incident'), `lote-${index + 1}@panaderia.example`)
        .toString('utf8')
        .replaceAll('carmen@panaderia.example', `cliente${index + 1}@panaderia.example`),
    ),
  );

/** Resolves once `check` holds, polling every 50 ms, or fails after `timeoutMs`. */
export async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`no ocurrió en ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

export const openIncident = (db: Db) => openFormIncident(db, at, { problema: 'No imprime', nombre: 'María' });

export const GMAIL_ID = '<CAJx8sN0fXq2+Vd1yH3kP_u7wQm9LzR4oT5bE6cA1dG2hF3iJ4k@mail.gmail.com>';
export const NEW_ID = '<CAH7uXq4Zr9t1nE0bQf2W3vX5yZ6aB7cD8eF9gH0iJ1kL2mN3oP@mail.gmail.com>';
export const SPAM_ID = '<9f8e7d6c5b4a@oferta.example>';
export const LARGE_ID = '<grande@panaderia.example>';

/**
 * On `engine`: a round stores each mail once, flags it \\Seen and moves it to 'Procesados' or
 * 'Rechazados' (created when missing), never deleting anything; a crash between storing and moving
 * stores nothing twice; a failure before storing loses nothing.
 */
export function pollerSuite(engine: DbEngine): void {
  describe.skipIf(dovecotProblem !== null)('inbound mailbox', () => {
    useDovecot();
    describeEngine(engine, 'poller', (database) => {
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
          await db
            .selectFrom('incidentEntries')
            .select('kind')
            .where('incidentId', '=', incident.id)
            .execute(),
        ).toEqual([{ kind: 'answer' }]);

        // Nothing left: the next round does nothing.
        expect(await pollMailbox(db, options())).toEqual({ status: 'done', processed: 0, rejected: 0 });
      });

      it('a mail nested 300 multipart levels deep goes to Rechazados with its original, and the two mails behind it go on in the same round (issue 38, F1)', async () => {
        const { db } = database();
        const nested = nestedMultipartMail(300);
        await append([nested, deepHtmlMail(5000), inboundFixture('new-incident')]);
        expect(await pollMailbox(db, options())).toEqual({ status: 'done', processed: 2, rejected: 1 });
        const after = await folders();
        expect(after.INBOX).toEqual([]);
        expect(after[REJECTED_FOLDER]).toEqual([['<anidado@panaderia.example>', true]]);
        expect(after[PROCESSED_FOLDER]).toEqual([
          ['<profundo@panaderia.example>', true],
          [NEW_ID, true],
        ]);
        const stored = await db
          .selectFrom('inboundMessages')
          .select(['id', 'outcome', 'reason'])
          .orderBy('id')
          .execute();
        expect(stored.map(({ outcome, reason }) => ({ outcome, reason }))).toEqual([
          { outcome: 'rejected', reason: 'unreadable: más de 64 niveles de partes anidadas' },
          { outcome: 'new-incident', reason: null },
          { outcome: 'new-incident', reason: null },
        ]);
        expect((await originalBytes(db, stored[0]!.id))?.equals(nested)).toBe(true);
        expect(await db.selectFrom('incidents').select('origen').execute()).toHaveLength(2);
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
          await db
            .selectFrom('mailOutbox')
            .select('id')
            .where('kind', '=', 'incident.confirmation')
            .execute(),
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
        const wrong = dovecot().url.replace(encodeURIComponent(dovecot().password), 'clave-equivocada-9876');
        await expect(pollMailbox(db, { ...options(), url: wrong, now: () => later })).rejects.toThrow();
        const failed = await mailboxPollStatus(db);
        expect(failed).toMatchObject({
          lastRoundAt: later.toISOString(),
          lastOkAt: at.toISOString(),
          lastErrorAt: later.toISOString(),
        });
        expect(failed!.lastError).toMatch(/auth/i);
        expect(failed!.lastError).not.toContain('clave-equivocada-9876');
        expect(failed!.lastError).not.toContain(dovecot().password);

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
  });
}
