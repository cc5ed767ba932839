/**
 * Two production servers on one PostgreSQL database with the WhatsApp channel on (issue 37): each
 * process runs its own delivery worker against the loopback stand-in of Meta's API, and every pending
 * notice is sent once — by one of them — as their leases on `customer_notices` promise; then, with Meta
 * down, a notice waits (retried with back-off) and goes once Meta is back. Plain HTTP: no browser.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPgSchema,
  dropPgSchema,
  openDatabase,
  withSearchPath,
  type Db,
} from '../../src/server/db/index.ts';
import { postgresAvailable, TEST_DATABASE_URL } from '../support/db.ts';
import { insertIncident } from '../support/factories.ts';
import { startMetaStandin, type MetaStandin } from '../support/meta-standin.ts';
import { startServer, TEST_AUTH_SECRET, type RunningServer } from '../support/server.ts';

const NOTICES = 30;
const NUMBER = '18095557777';

describe.skipIf(!postgresAvailable)('WhatsApp delivery by two processes (PostgreSQL)', () => {
  const schema = `wa_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  let a: RunningServer;
  let b: RunningServer;
  let db: Db;
  let standin: MetaStandin;
  let incidentId = 0;

  beforeAll(async () => {
    standin = await startMetaStandin();
    await createPgSchema(TEST_DATABASE_URL, schema);
    const env = {
      DATABASE_URL: withSearchPath(TEST_DATABASE_URL, schema),
      AUTH_SECRET: TEST_AUTH_SECRET,
      LOG_LEVEL: 'warn',
      WHATSAPP_APP_SECRET: standin.appSecret,
      WHATSAPP_PHONE_NUMBER_ID: standin.phoneNumberId,
      WHATSAPP_ACCESS_TOKEN: standin.accessToken,
      WHATSAPP_VERIFY_TOKEN: standin.verifyToken,
      WHATSAPP_API_URL: standin.apiUrl,
    };
    // One after the other: the first applies the migrations.
    a = await startServer({ env });
    b = await startServer({ env });
    db = openDatabase(env.DATABASE_URL).db;
    const incident = await insertIncident(db, { nombre: 'Luis Peña', telefono: NUMBER, email: '' });
    incidentId = incident.id;
    await db
      .updateTable('incidents')
      .set({ channel: 'whatsapp', channelAddress: NUMBER })
      .where('id', '=', incidentId)
      .execute();
    await db
      .insertInto('inboundMessages')
      .values({
        channel: 'whatsapp',
        dedupKey: 'wamid:pg-e2e',
        messageId: 'wamid.pg-e2e',
        sender: NUMBER,
        outcome: 'new-incident',
        reason: null,
        incidentId,
        originalParts: null,
        receivedAt: new Date().toISOString(),
        reviewedAt: null,
        reviewedBy: null,
      })
      .execute();
  }, 120_000);

  afterAll(async () => {
    await db?.destroy();
    const codes = await Promise.all([a?.stop(), b?.stop()]);
    await dropPgSchema(TEST_DATABASE_URL, schema);
    await standin?.close();
    expect(codes).toEqual([0, 0]);
  });

  /** Staff replies' notices, pending and due now, as the desk records them. */
  async function recordReplies(prefix: string, count: number) {
    const now = new Date().toISOString();
    for (let index = 0; index < count; index += 1) {
      const body = `${prefix} ${index}`;
      const entry = await db
        .insertInto('incidentEntries')
        .values({
          incidentId,
          kind: 'reply',
          authorId: null,
          authorEmail: 'ana@vertice.example',
          body,
          createdAt: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('customerNotices')
        .values({
          incidentId,
          channel: 'whatsapp',
          kind: 'reply',
          payload: JSON.stringify({ kind: 'reply', entryId: entry.id, body, authorName: 'Ana' }),
          status: 'pending',
          outcome: 'queued',
          nextAttemptAt: now,
          lockedUntil: null,
          lastError: null,
          externalId: null,
          createdAt: now,
          doneAt: null,
        })
        .execute();
    }
  }

  const sentBodies = (prefix: string) =>
    standin
      .sentMessages()
      .map((message) => String(message.text?.body ?? ''))
      .filter((body) => body.startsWith(prefix));

  it(`sends each of ${NOTICES} notices once between the two processes' workers`, async () => {
    await recordReplies('Respuesta', NOTICES);
    standin.setDelay(20);
    await expect
      .poll(
        async () =>
          (await db.selectFrom('customerNotices').select('id').where('status', '=', 'sent').execute()).length,
        { timeout: 30_000, interval: 250 },
      )
      .toBe(NOTICES);
    const bodies = sentBodies('Respuesta ');
    expect(bodies).toHaveLength(NOTICES);
    expect(new Set(bodies).size).toBe(NOTICES);
    const rows = await db.selectFrom('customerNotices').select(['attempts', 'externalId']).execute();
    expect(rows.every((row) => row.attempts === 1 && row.externalId)).toBe(true);
    standin.setDelay(0);
  }, 60_000);

  it('keeps a notice through an outage of Meta and sends it once when Meta is back', async () => {
    standin.setDown(true);
    await recordReplies('Durante el corte', 1);
    await expect
      .poll(
        async () =>
          (
            await db
              .selectFrom('customerNotices')
              .select(['attempts', 'lastError', 'status'])
              .where('payload', 'like', '%Durante el corte%')
              .executeTakeFirstOrThrow()
          ).lastError,
        { timeout: 20_000, interval: 250 },
      )
      .toBe('No se pudo entregar: no se pudo conectar con WhatsApp; se reintentará');
    standin.setDown(false);
    // The first retry is 15 s after the failed attempt.
    await expect
      .poll(async () => sentBodies('Durante el corte').length, { timeout: 40_000, interval: 500 })
      .toBe(1);
    const row = await db
      .selectFrom('customerNotices')
      .select(['status', 'attempts'])
      .where('payload', 'like', '%Durante el corte%')
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('sent');
    expect(row.attempts).toBeGreaterThanOrEqual(2);
    expect(sentBodies('Durante el corte')).toHaveLength(1);
  }, 90_000);
});
