/**
 * The rating from the follow-up page (issue 39 §11, src/server/incidents/rating.ts) on both engines:
 * the holder of an incident's follow-up link rates its current resolution once, whichever link rates
 * it first (the mail's rating link then says 'used', and the other way round); a resolution no notice
 * was mailed for is rated too; not before it is resolved, not once it is reopened, not 30 days after;
 * two submissions at once store one; a rating token is no follow-up token.
 */
import { expect, it } from 'vitest';
import { followUpByToken, issueFollowUpToken } from '../../src/server/incidents/follow-up.ts';
import {
  issueRatingToken,
  rateFromFollowUp,
  rateResolution,
  ratingLink,
} from '../../src/server/incidents/rating.ts';
import { setIncidentState } from '../../src/server/incidents/state.ts';
import type { Db } from '../../src/server/db/index.ts';
import { describeEachEngine } from '../support/db.ts';
import { insertIncident } from '../support/factories.ts';

const at = (day: number) => new Date(Date.UTC(2025, 5, day, 14));
const ACTOR = 'luis@vertice.example';

async function withLink(db: Db, estado: 'Resuelto' | 'En Proceso', when: Date, mailed = false) {
  const incident = await insertIncident(db, { email: 'ana@cliente.example' });
  await setIncidentState(db, { id: incident.id, estado, actor: ACTOR }, when);
  return db.transaction().execute(async (trx) => ({
    id: incident.id,
    followUp: await issueFollowUpToken(trx, incident.id, when),
    rating: mailed ? await issueRatingToken(trx, incident.id, when) : '',
  }));
}

const rated = (db: Db, id: number) =>
  db
    .selectFrom('incidentRatings')
    .select(['valor', 'comentario'])
    .where('incidentId', '=', id)
    .where('ratedAt', 'is not', null)
    .execute();

describeEachEngine('rating from the follow-up page', (database) => {
  it("rates the mailed resolution once: the mail's link is then used, and the page no longer offers it", async () => {
    const { db } = database();
    const link = await withLink(db, 'Resuelto', at(2), true);
    expect((await followUpByToken(db, link.followUp, at(3)))?.valoracion).toBe('open');
    const input = { followUpToken: link.followUp, valor: 4, comentario: ' Bien ' };
    expect((await rateFromFollowUp(db, input, at(3))).status).toBe('open');
    expect(await rated(db, link.id)).toEqual([{ valor: 4, comentario: 'Bien' }]);
    expect((await rateFromFollowUp(db, input, at(3))).status).toBe('used');
    expect((await ratingLink(db, link.rating, at(3))).status).toBe('used');
    expect((await followUpByToken(db, link.followUp, at(3)))?.valoracion).toBe('used');
    // A rating token opens no follow-up, and rates nothing there.
    expect((await rateFromFollowUp(db, { ...input, followUpToken: link.rating }, at(3))).status).toBe(
      'not-found',
    );
  });

  it('is used once the mail rated it first, and rates a resolution no notice was mailed for', async () => {
    const { db } = database();
    const mailed = await withLink(db, 'Resuelto', at(2), true);
    await rateResolution(db, { token: mailed.rating, valor: 2, comentario: '' }, at(3));
    expect(
      (await rateFromFollowUp(db, { followUpToken: mailed.followUp, valor: 5, comentario: '' }, at(3)))
        .status,
    ).toBe('used');
    const unmailed = await withLink(db, 'Resuelto', at(2));
    expect(
      (await rateFromFollowUp(db, { followUpToken: unmailed.followUp, valor: 3, comentario: '' }, at(4)))
        .status,
    ).toBe('open');
    expect(await rated(db, unmailed.id)).toEqual([{ valor: 3, comentario: null }]);
  });

  it('rates nothing before the resolution, after a reopening or 30 days on; two at once store one', async () => {
    const { db } = database();
    const open = await withLink(db, 'En Proceso', at(2));
    const rate = (token: string, when: Date) =>
      rateFromFollowUp(db, { followUpToken: token, valor: 5, comentario: '' }, when);
    expect((await rate(open.followUp, at(3))).status).toBe('not-resolved');
    expect((await followUpByToken(db, open.followUp, at(3)))?.valoracion).toBe('not-resolved');

    const reopened = await withLink(db, 'Resuelto', at(2));
    await setIncidentState(db, { id: reopened.id, estado: 'En Proceso', actor: ACTOR }, at(3));
    expect((await rate(reopened.followUp, at(4))).status).toBe('not-resolved');
    // Resolved again: a new resolution, rated anew.
    await setIncidentState(db, { id: reopened.id, estado: 'Resuelto', actor: ACTOR }, at(5));
    expect((await rate(reopened.followUp, at(6))).status).toBe('open');

    const old = await withLink(db, 'Resuelto', at(1));
    expect((await rate(old.followUp, at(1 + 30))).status).toBe('expired');
    expect((await followUpByToken(db, old.followUp, at(1 + 30)))?.valoracion).toBe('expired');

    const twice = await withLink(db, 'Resuelto', at(2), true);
    const results = await Promise.all([rate(twice.followUp, at(3)), rate(twice.followUp, at(3))]);
    expect(results.map((result) => result.status).sort()).toEqual(['open', 'used']);
    expect(await rated(db, twice.id)).toHaveLength(1);
  });
});
