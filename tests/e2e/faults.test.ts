/**
 * Faults with real parts: `kill -9` of the server process under load, an SMTP server that is down
 * and comes back, a PostgreSQL server (a private one: the shared server must never be restarted)
 * that stops under load and comes back, and SIGTERM while a mail is being sent. Each test checks
 * that what the server acknowledged is stored whole, and that nothing is half-written.
 */
import { existsSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_UNAVAILABLE_MESSAGE } from '../../src/server/http/refusals.ts';
import { openDatabase, type Db } from '../../src/server/db/index.ts';
import { expectIncidentsWhole, submitIncident, type ActionAnswer } from '../support/actions.ts';
import { privatePostgresProblem, startPrivatePostgres, type PrivatePostgres } from '../support/postgres.ts';
import { freePort, signInFirstStaff, startServer } from '../support/server.ts';
import { startSmtpPeer } from '../support/smtp.ts';

const FAILURE_MESSAGE = 'Hubo un error al registrar';

async function withDb<T>(url: string, work: (db: Db) => Promise<T>): Promise<T> {
  const { db } = openDatabase(url);
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('kill -9 under load (SQLite)', () => {
  it('keeps every acknowledged incident, with its number and history, and nothing half-written', async () => {
    const server = await startServer({ env: { FORM_RATE_LIMIT: '0', LOG_LEVEL: 'warn' }, cleanup: false });
    const dataDir = server.dataDir;
    try {
      const answers: Array<ActionAnswer & { tag: string }> = [];
      let answered = 0;
      let reachedTen!: () => void;
      const tenAnswered = new Promise<void>((resolve) => (reachedTen = resolve));
      const inFlight = Array.from({ length: 100 }, (_, index) =>
        submitIncident(server.url, `kill-${index}`).then((answer) => {
          answers.push({ ...answer, tag: `kill-${index}` });
          if (answer.status === 200 && ++answered === 10) reachedTen();
        }),
      );
      await Promise.race([tenAnswered, sleep(15_000)]);
      await server.kill();
      await Promise.all(inFlight);

      const acknowledged = answers
        .filter((answer) => answer.status === 200)
        .map((answer) => ({ numero: answer.numero!, tag: answer.tag }));
      expect(acknowledged.length).toBeGreaterThanOrEqual(10);
      // The kill landed while submissions were in flight: some never got an answer.
      expect(answers.filter((answer) => answer.status === 0).length).toBeGreaterThan(0);
      expect(answers.every((answer) => answer.status === 200 || answer.status === 0)).toBe(true);

      const restarted = await startServer({
        dataDir,
        env: { FORM_RATE_LIMIT: '0', LOG_LEVEL: 'info' },
        cleanup: true,
      });
      try {
        await withDb(restarted.env.DATABASE_URL!, async (db) => {
          await expectIncidentsWhole(db, acknowledged);
        });
        // The restarted server takes new submissions on the same data.
        expect((await submitIncident(restarted.url, 'after-restart')).status).toBe(200);
      } finally {
        expect(await restarted.stop()).toBe(0);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('mail server down, then up', () => {
  it('stores the incidents while SMTP is down and delivers each mail exactly once when it is back', async () => {
    const smtpPort = await freePort();
    const server = await startServer({
      env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, FORM_RATE_LIMIT: '0', LOG_LEVEL: 'warn' },
    });
    try {
      const answers = await Promise.all(
        [0, 1, 2].map((index) => submitIncident(server.url, `smtp-${index}`)),
      );
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);

      await withDb(server.env.DATABASE_URL!, async (db) => {
        // The worker tried (nobody listens on the port) and scheduled a retry.
        await expect
          .poll(
            async () =>
              (await db.selectFrom('mailOutbox').select(['attempts', 'lastError']).execute()).filter(
                (row) => row.attempts >= 1 && row.lastError,
              ).length,
            { timeout: 15_000 },
          )
          .toBe(6);
        const peer = await startSmtpPeer({ port: smtpPort });
        try {
          // The first retry is due a minute later; move the schedule instead of waiting that minute.
          await db
            .updateTable('mailOutbox')
            .set({ nextAttemptAt: new Date(Date.now() - 1000).toISOString() })
            .where('status', '=', 'pending')
            .execute();
          await expect.poll(() => peer.messages.length, { timeout: 20_000 }).toBe(6);
          // Give a duplicate the chance to show up.
          await sleep(1500);
          expect(peer.messages).toHaveLength(6);
          const subjects = peer.messages.map((mail) => mail.subject ?? '');
          expect(new Set(subjects).size).toBe(6);
          for (const answer of answers) {
            expect(subjects).toContain(`Incidencia ${answer.numero} registrada`);
            expect(subjects.some((subject) => subject.startsWith(`Nueva incidencia ${answer.numero}`))).toBe(
              true,
            );
          }
          const rows = await db.selectFrom('mailOutbox').select(['status', 'lastError']).execute();
          expect(rows.every((row) => row.status === 'sent' && row.lastError === null)).toBe(true);
        } finally {
          await peer.stop();
        }
      });
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe('SIGTERM while a mail is being sent', () => {
  it('lets the worker finish the send and record it, closes the database and exits 0 within 10 s', async () => {
    // The peer holds each message 2 s before acknowledging it: the send is in progress when SIGTERM comes.
    const peer = await startSmtpPeer({ ackDelayMs: 2000 });
    const server = await startServer({ env: { SMTP_URL: peer.url, LOG_LEVEL: 'info' }, cleanup: false });
    try {
      const answer = await submitIncident(server.url, 'sigterm');
      expect(answer.status).toBe(200);
      await expect.poll(() => peer.messages.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
      const started = Date.now();
      const exitCode = await server.stop();
      expect(exitCode).toBe(0);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(server.output()).toContain('"msg":"stopped"');

      const databaseFile = server.env.DATABASE_URL!;
      // SQLite removes the write-ahead log when the last connection closes cleanly.
      expect(existsSync(`${databaseFile}-wal`)).toBe(false);
      await withDb(databaseFile, async (db) => {
        const rows = await db
          .selectFrom('mailOutbox')
          .select(['subject', 'status', 'attempts', 'lockedUntil'])
          .orderBy('id')
          .execute();
        const first = rows.find((row) => peer.messages.some((mail) => mail.subject === row.subject));
        // The mail the peer received is recorded as sent, not left to be sent again.
        expect(first).toMatchObject({ status: 'sent', attempts: 1, lockedUntil: null });
        // Whatever was not sent yet is released for the next start, not leased by a dead process.
        for (const row of rows.filter((item) => item.status === 'pending'))
          expect(row.lockedUntil).toBeNull();
      });
    } finally {
      await peer.stop();
      rmSync(server.dataDir, { recursive: true, force: true });
    }
  });
});

describe('SIGTERM while the mail server has stopped answering', () => {
  it('stops waiting for the stalled send, hands the mail back, exits 0 within 10 s; the next start sends it', async () => {
    // The peer takes the message and then does not answer for longer than any shutdown may last.
    const stalled = await startSmtpPeer({ ackDelayMs: 60_000 });
    const server = await startServer({ env: { SMTP_URL: stalled.url, LOG_LEVEL: 'info' }, cleanup: false });
    const dataDir = server.dataDir;
    try {
      expect((await submitIncident(server.url, 'stalled')).status).toBe(200);
      await expect.poll(() => stalled.messages.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
      const started = Date.now();
      expect(await server.stop()).toBe(0);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(server.output()).toContain('released for a retry');
      await withDb(server.env.DATABASE_URL!, async (db) => {
        const rows = await db.selectFrom('mailOutbox').select(['status', 'lockedUntil']).execute();
        expect(rows).toHaveLength(2);
        expect(rows.every((row) => row.status === 'pending' && row.lockedUntil === null)).toBe(true);
      });

      const healthy = await startSmtpPeer();
      const restarted = await startServer({ dataDir, env: { SMTP_URL: healthy.url, LOG_LEVEL: 'warn' } });
      try {
        await expect.poll(() => healthy.messages.length, { timeout: 20_000 }).toBe(2);
      } finally {
        await restarted.stop();
        await healthy.stop();
      }
    } finally {
      await stalled.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(privatePostgresProblem !== null)(
  'PostgreSQL stops under load and comes back (private server)',
  () => {
    let pg: PrivatePostgres;
    beforeAll(async () => {
      pg = await startPrivatePostgres();
    });
    afterAll(() => {
      pg?.destroy();
    });

    it('answers 503 on /healthz and a Spanish error meanwhile, writes nothing half, and recovers without a restart', async () => {
      const server = await startServer({
        env: { DATABASE_URL: pg.url, FORM_RATE_LIMIT: '0', LOG_LEVEL: 'warn' },
      });
      const answers: Array<ActionAnswer & { tag: string }> = [];
      let running = true;
      // Steady load: 4 clients submitting one after another, bounded in number.
      const load = Array.from({ length: 4 }, async (_, client) => {
        for (let index = 0; running && index < 2000; index += 1) {
          const tag = `pg-${client}-${index}`;
          answers.push({ ...(await submitIncident(server.url, tag)), tag });
        }
      });
      const health = async () =>
        (await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(15_000) })).status;
      const staffHome = () => fetch(`${server.url}/admin`, { redirect: 'manual', headers: { cookie } });
      let cookie = '';
      try {
        cookie = await signInFirstStaff(server);
        expect((await staffHome()).status).toBe(200);
        await expect
          .poll(() => answers.filter((answer) => answer.status === 200).length, { timeout: 15_000 })
          .toBeGreaterThan(10);

        pg.stop('immediate');
        expect(await health()).toBe(503);
        const duringOutage = await submitIncident(server.url, 'pg-outage');
        expect(duringOutage.status).toBe(500);
        expect(duringOutage.message).toBe(FAILURE_MESSAGE);
        // A signed-in staff member is told the service is unavailable, not sent back to sign in.
        const staffDuringOutage = await staffHome();
        expect(staffDuringOutage.status).toBe(503);
        expect(await staffDuringOutage.text()).toContain(SERVICE_UNAVAILABLE_MESSAGE);
        const action = await fetch(`${server.url}/_actions/incidents.setState`, {
          method: 'POST',
          headers: { cookie, origin: server.url, 'content-type': 'application/json' },
          body: JSON.stringify({ id: 1, estado: 'Resuelto' }),
        });
        expect(action.status).toBe(503);
        expect(((await action.json()) as { message: string }).message).toBe(SERVICE_UNAVAILABLE_MESSAGE);
        const failuresBefore = answers.filter((answer) => answer.status === 500).length;
        await sleep(1000);

        pg.start();
        await expect.poll(health, { timeout: 30_000, interval: 250 }).toBe(200);
        // The session outlived the outage.
        expect((await staffHome()).status).toBe(200);
        const acknowledgedAt = answers.filter((answer) => answer.status === 200).length;
        await expect
          .poll(() => answers.filter((answer) => answer.status === 200).length, { timeout: 15_000 })
          .toBeGreaterThan(acknowledgedAt + 10);
        running = false;
        await Promise.all(load);

        // The same process served throughout.
        expect(server.process.exitCode).toBeNull();
        expect(failuresBefore).toBeGreaterThan(0);
        for (const answer of answers) {
          expect([200, 500], JSON.stringify(answer)).toContain(answer.status);
          if (answer.status === 500) expect(answer.message).toBe(FAILURE_MESSAGE);
        }
        const acknowledged = answers
          .filter((answer) => answer.status === 200)
          .map((answer) => ({ numero: answer.numero!, tag: answer.tag }));
        await withDb(pg.url, (db) => expectIncidentsWhole(db, acknowledged));
        expect(await server.stop()).toBe(0);
      } finally {
        running = false;
        await Promise.all(load);
        await server.stop();
        if (server.process.exitCode !== 0) console.error(server.output().slice(-4000));
      }
    });
  },
);
