/**
 * The customer's rating (issue 22, src/server/incidents/rating.ts) on both engines: the 'Resuelto'
 * notice carries five links with a token made at that resolution and stored hashed; a link rates once,
 * for 30 days; a wrong token rates nothing; a reopened incident resolved again is rated again; the
 * rating joins the staff timeline; the staff home's figures; and `npm run data` carries it.
 */
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { exportData } from '../../src/server/data/export.ts';
import { importData } from '../../src/server/data/import.ts';
import { ratingSummary } from '../../src/server/dashboard/index.ts';
import type { Db } from '../../src/server/db/index.ts';
import { incidentByNumber, staffTimeline } from '../../src/server/incidents/conversation.ts';
import { ratingLink, rateResolution, RATING_DAYS } from '../../src/server/incidents/rating.ts';
import { setIncidentState } from '../../src/server/incidents/state.ts';
import { createTestDatabase, describeEachEngine, postgresAvailable } from '../support/db.ts';
import { insertIncident } from '../support/factories.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';

const at = (day: number, minute = 0) => new Date(Date.UTC(2025, 5, day, 14, minute));
const RATING_LINK = /\/soporte\/valoracion\?token=([A-Za-z0-9_-]{24})&valor=([1-5])/g;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Resolves the incident with 'Notificar al cliente' and returns the rating token of its mail's links. */
async function resolve(db: Db, id: number, now: Date): Promise<string> {
  await setIncidentState(db, { id, estado: 'Resuelto', actor: 'luis@vertice.example', notify: brand }, now);
  const mail = await db
    .selectFrom('mailOutbox')
    .selectAll()
    .where('kind', '=', 'incident.state')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const links = [...mail.textBody.matchAll(RATING_LINK)];
  return links[0]![1]!;
}

describeEachEngine('customer rating', (database) => {
  it("asks '¿Cómo te atendimos?' with five links of one token made at the resolution, stored hashed", async () => {
    const { db } = database();
    const incident = await insertIncident(db, { email: 'ana@cliente.example' });
    await setIncidentState(
      db,
      { id: incident.id, estado: 'En Proceso', actor: 'luis@vertice.example', notify: brand },
      at(1),
    );
    // Only the 'Resuelto' notice asks.
    expect(await db.selectFrom('incidentRatings').selectAll().execute()).toEqual([]);
    const inProgress = await db
      .selectFrom('mailOutbox')
      .select(['textBody', 'htmlBody'])
      .executeTakeFirstOrThrow();
    expect(inProgress.textBody).not.toContain('¿Cómo te atendimos?');

    await setIncidentState(
      db,
      { id: incident.id, estado: 'Resuelto', actor: 'luis@vertice.example', notify: brand },
      at(2),
    );
    const mail = await db
      .selectFrom('mailOutbox')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.textBody).toContain('¿Cómo te atendimos?');
    expect(mail.htmlBody).toContain('¿Cómo te atendimos?');
    const text = [...mail.textBody.matchAll(RATING_LINK)];
    expect(text.map((link) => link[2])).toEqual(['1', '2', '3', '4', '5']);
    expect(new Set(text.map((link) => link[1])).size).toBe(1);
    const html = [
      ...mail.htmlBody.matchAll(
        /href="[^"]*\/soporte\/valoracion\?token=([A-Za-z0-9_-]{24})&amp;valor=([1-5])"/g,
      ),
    ];
    expect(html.map((link) => link[2])).toEqual(['1', '2', '3', '4', '5']);
    const token = text[0]![1]!;
    // 18 random bytes (144 bits); only its SHA-256 is kept.
    expect(Buffer.from(token, 'base64url')).toHaveLength(18);
    const rows = await db.selectFrom('incidentRatings').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      tokenHash: createHash('sha256').update(token).digest('hex'),
      createdAt: at(2).toISOString(),
      resolvedAt: at(2).toISOString(),
      valor: null,
      ratedAt: null,
    });
    expect(JSON.stringify(rows)).not.toContain(token);
    // Without 'Notificar al cliente' nothing is made.
    const quiet = await insertIncident(db, { email: 'b@cliente.example' });
    await setIncidentState(db, { id: quiet.id, estado: 'Resuelto', actor: 'luis@vertice.example' }, at(2));
    expect(await db.selectFrom('incidentRatings').selectAll().execute()).toHaveLength(1);
  });

  it('stores one rating per link, refuses the second use, and joins the timeline with its text', async () => {
    const { db } = database();
    const incident = await insertIncident(db, { email: 'ana@cliente.example', nombre: 'Ana' });
    const token = await resolve(db, incident.id, at(1));
    expect(await ratingLink(db, token, at(2))).toEqual({
      status: 'open',
      numeroIncidencia: incident.numeroIncidencia,
    });
    const comment = 'Muy rápidos <script>alert(1)</script>';
    expect((await rateResolution(db, { token, valor: 5, comentario: `  ${comment} ` }, at(2))).status).toBe(
      'open',
    );
    expect(await rateResolution(db, { token, valor: 1, comentario: 'otra vez' }, at(3))).toEqual({
      status: 'used',
      numeroIncidencia: incident.numeroIncidencia,
    });
    expect((await ratingLink(db, token, at(3))).status).toBe('used');
    const rows = await db.selectFrom('incidentRatings').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ valor: 5, comentario: comment, ratedAt: at(2).toISOString() });

    const record = await incidentByNumber(db, incident.numeroIncidencia);
    const timeline = await staffTimeline(db, record!);
    expect(timeline.at(-1)).toEqual({
      kind: 'rating',
      fecha: at(2).toISOString(),
      autor: null,
      valor: 5,
      texto: comment,
    });
    const activity = await db
      .selectFrom('incidents')
      .select('lastActivityAt')
      .where('id', '=', incident.id)
      .executeTakeFirstOrThrow();
    expect(activity.lastActivityAt).toBe(at(2).toISOString());
  });

  it('two submissions of one link at once store one rating', async () => {
    const { db } = database();
    const incident = await insertIncident(db, { email: 'ana@cliente.example' });
    const token = await resolve(db, incident.id, at(1));
    const outcomes = await Promise.allSettled([
      rateResolution(db, { token, valor: 4, comentario: '' }, at(2)),
      rateResolution(db, { token, valor: 2, comentario: '' }, at(2)),
    ]);
    const stored = outcomes.filter(
      (outcome) => outcome.status === 'fulfilled' && outcome.value.status === 'open',
    );
    expect(stored).toHaveLength(1);
    const rated = await db
      .selectFrom('incidentRatings')
      .select('valor')
      .where('ratedAt', 'is not', null)
      .execute();
    expect(rated).toHaveLength(1);
  });

  it(`refuses a link ${RATING_DAYS} days after its mail, and a wrong or malformed token`, async () => {
    const { db } = database();
    const incident = await insertIncident(db, { email: 'ana@cliente.example' });
    const token = await resolve(db, incident.id, at(1));
    const lastMoment = new Date(at(1).getTime() + RATING_DAYS * DAY_MS - 1);
    expect((await ratingLink(db, token, lastMoment)).status).toBe('open');
    const expired = new Date(at(1).getTime() + RATING_DAYS * DAY_MS);
    expect(await rateResolution(db, { token, valor: 5, comentario: '' }, expired)).toEqual({
      status: 'expired',
      numeroIncidencia: incident.numeroIncidencia,
    });
    const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(await rateResolution(db, { token: wrong, valor: 5, comentario: '' }, at(2))).toEqual({
      status: 'not-found',
    });
    expect(await ratingLink(db, "x' or 1=1 --", at(2))).toEqual({ status: 'not-found' });
    expect(
      await db.selectFrom('incidentRatings').select('ratedAt').where('ratedAt', 'is not', null).execute(),
    ).toEqual([]);
  });

  it('rates a reopened incident resolved again with a new token; a second notice of one resolution does not', async () => {
    const { db } = database();
    const incident = await insertIncident(db, { email: 'ana@cliente.example' });
    const first = await resolve(db, incident.id, at(1));
    // 'Resuelto' notified again without reopening: the same resolution, a second link to it.
    const again = await resolve(db, incident.id, at(1, 30));
    expect(again).not.toBe(first);
    expect((await rateResolution(db, { token: first, valor: 2, comentario: 'Tardaron' }, at(2))).status).toBe(
      'open',
    );
    expect((await rateResolution(db, { token: again, valor: 5, comentario: '' }, at(2, 5))).status).toBe(
      'used',
    );

    await setIncidentState(
      db,
      { id: incident.id, estado: 'En Proceso', actor: 'luis@vertice.example' },
      at(3),
    );
    const second = await resolve(db, incident.id, at(4));
    expect(second).not.toBe(first);
    expect(
      (await rateResolution(db, { token: second, valor: 4, comentario: 'Ahora sí' }, at(5))).status,
    ).toBe('open');
    const rated = await db
      .selectFrom('incidentRatings')
      .select(['valor', 'resolvedAt'])
      .where('ratedAt', 'is not', null)
      .orderBy('ratedAt')
      .execute();
    expect(rated).toEqual([
      { valor: 2, resolvedAt: at(1).toISOString() },
      { valor: 4, resolvedAt: at(4).toISOString() },
    ]);
    const record = await incidentByNumber(db, incident.numeroIncidencia);
    const ratings = (await staffTimeline(db, record!)).filter((entry) => entry.kind === 'rating');
    expect(ratings.map((entry) => entry.kind === 'rating' && entry.valor)).toEqual([2, 4]);
  });

  it('sums up the last 30 days for the staff home: average, share of 4–5 and the comments', async () => {
    const { db } = database();
    expect(await ratingSummary(db, at(20))).toEqual({
      count: 0,
      average: null,
      satisfied: null,
      comments: [],
    });
    const rate = async (valor: number, comentario: string, resolvedOn: number, ratedOn: number) => {
      const incident = await insertIncident(db, { email: 'ana@cliente.example' });
      const token = await resolve(db, incident.id, at(resolvedOn));
      await rateResolution(db, { token, valor, comentario }, at(ratedOn));
      return incident.numeroIncidencia;
    };
    await rate(1, 'Muy lento', 1, 1); // 2025-06-01: outside the 30 days before 2025-07-05
    const five = await rate(5, 'Excelente', 10, 10);
    await rate(4, '', 12, 12);
    const three = await rate(3, 'Regular <b>', 14, 15);
    const summary = await ratingSummary(db, new Date(Date.UTC(2025, 6, 5, 14)));
    expect(summary.count).toBe(3);
    expect(summary.average).toBeCloseTo(4, 10);
    expect(summary.satisfied).toBeCloseTo(2 / 3, 10);
    expect(summary.comments).toEqual([
      { numeroIncidencia: three, valor: 3, texto: 'Regular <b>', fecha: at(15).toISOString() },
      { numeroIncidencia: five, valor: 5, texto: 'Excelente', fecha: at(10).toISOString() },
    ]);
  });

  it.skipIf(!postgresAvailable)(
    'moves the rating links and ratings with `npm run data`, to the other engine and back',
    async () => {
      const { db, engine } = database();
      const incident = await insertIncident(db, { email: 'ana@cliente.example' });
      const used = await resolve(db, incident.id, at(1));
      await rateResolution(db, { token: used, valor: 4, comentario: 'Bien, gracias' }, at(2));
      await setIncidentState(
        db,
        { id: incident.id, estado: 'En Proceso', actor: 'luis@vertice.example' },
        at(3),
      );
      const open = await resolve(db, incident.id, at(4));
      const first = await exportData(db);
      const exported = first.incidents.find((item) => item.numeroIncidencia === incident.numeroIncidencia);
      expect(exported?.ratings).toHaveLength(2);
      expect(JSON.stringify(first)).not.toContain(used);

      const target = await createTestDatabase(engine === 'sqlite' ? 'postgres' : 'sqlite');
      try {
        const to = target.db;
        await importData(to, JSON.parse(JSON.stringify(first)));
        const second = await exportData(to);
        expect(second.incidents.map((item) => item.ratings)).toEqual(
          first.incidents.map((item) => item.ratings),
        );
        // The used link is still used there; the open one still rates, once.
        expect((await ratingLink(to, used, at(5))).status).toBe('used');
        expect((await rateResolution(to, { token: open, valor: 5, comentario: '' }, at(5))).status).toBe(
          'open',
        );
        expect((await rateResolution(to, { token: open, valor: 5, comentario: '' }, at(5))).status).toBe(
          'used',
        );
        // The same file again adds nothing.
        const before = await to.selectFrom('incidentRatings').selectAll().execute();
        await importData(to, JSON.parse(JSON.stringify(first)));
        expect(await to.selectFrom('incidentRatings').selectAll().execute()).toHaveLength(before.length);
      } finally {
        await target.cleanup();
      }
    },
  );
});
