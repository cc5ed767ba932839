/**
 * The outbox's claim on PostgreSQL (src/server/mail/outbox.ts' claimDueMail) with claimers racing on
 * their own connections, as the workers of several processes do: no row is leased by two of them, and
 * every row a claim leased is one it returned (a lease nobody returns would hold the mail back until it
 * expires). The claim no longer rests on the plan PostgreSQL picks for `id IN (SELECT … LIMIT n FOR
 * UPDATE SKIP LOCKED)`: here that plan (a hash semi join, the subquery run once) passed too, but a plan
 * that runs the subquery again leased rows it did not return (the delivery worker's two-worker test).
 */
import { expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/index.ts';
import { claimDueMail, enqueueMail } from '../../src/server/mail/outbox.ts';
import { describeEngine } from '../support/db.ts';

const ROWS = 300;
const CLAIMERS = 4;
const BATCH = 7;

describeEngine('postgres', 'mail outbox claim', (database) => {
  it('never leases a row to two claimers, nor a row a claim does not return', async () => {
    const { db, url } = database();
    const at = new Date('2025-06-01T14:00:00.000Z');
    await db.transaction().execute(async (trx) => {
      for (let index = 0; index < ROWS; index += 1)
        await enqueueMail(
          trx,
          {
            kind: 'contact-staff',
            to: `n${index}@vertice.example`,
            subject: 's',
            text: 't',
            html: '<p>t</p>',
          },
          at,
        );
    });
    // Each claimer its own pool, as another process would be.
    const claimers = Array.from({ length: CLAIMERS }, () => openDatabase(url).db);
    const returned: number[][] = claimers.map(() => []);
    try {
      await Promise.all(
        claimers.map(async (claimer, index) => {
          for (;;) {
            const rows = await claimDueMail(claimer, at, BATCH, 60_000);
            if (rows.length === 0) return;
            returned[index]!.push(...rows.map((row) => row.id));
          }
        }),
      );
    } finally {
      await Promise.all(claimers.map((claimer) => claimer.destroy()));
    }
    const all = returned.flat();
    expect(new Set(all).size).toBe(all.length);
    const leased = await db
      .selectFrom('mailOutbox')
      .select(['id', 'attempts'])
      .where('lockedUntil', 'is not', null)
      .execute();
    // Every leased row was returned to the claim that leased it, once.
    expect(leased.map((row) => row.id).sort((a, b) => a - b)).toEqual([...all].sort((a, b) => a - b));
    expect(leased.every((row) => row.attempts === 1)).toBe(true);
    expect(all).toHaveLength(ROWS);
  });
});
