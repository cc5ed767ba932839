/**
 * Issue 39, what was left of "a second real day", in Chromium against the production build at the
 * width where each edge was seen: a resolved incident's follow-up page offers the rating of its
 * resolution and says that an answer reopens it, neither once its link takes no answers (§11).
 * `SECOND_DAY_SHOTS=/tmp/prefix` saves screenshots of the changed screens.
 */
import type { BrowserContextOptions, Page } from 'playwright-core';
import { expect, it, describe } from 'vitest';
import { RATING_MESSAGES } from '../../src/domain/forms/rating.ts';
import { ANSWER_REOPENS_MESSAGE, FOLLOW_UP_CLOSED_MESSAGE } from '../../src/domain/forms/tracking.ts';
import { issueFollowUpToken } from '../../src/server/incidents/follow-up.ts';
import { issueRatingToken } from '../../src/server/incidents/rating.ts';
import { setIncidentState } from '../../src/server/incidents/state.ts';
import { DESKTOP, PHONE, poll } from '../support/browser.ts';
import { insertIncident } from '../support/factories.ts';
import { ageFormStamps } from '../support/form-stamp.ts';
import { useSite } from '../support/site.ts';

const { server, db, quietContext } = useSite({ env: { TRUST_PROXY: 'true', FORM_RATE_LIMIT: '50' } });
const SHOTS = process.env.SECOND_DAY_SHOTS;
const DAY_MS = 24 * 60 * 60 * 1000;

let serial = 0;
/** A visitor's page from a network of its own. */
async function visitor(options: BrowserContextOptions, javaScriptEnabled = true) {
  serial += 1;
  const context = await quietContext({
    ...options,
    javaScriptEnabled,
    extraHTTPHeaders: { 'x-forwarded-for': `203.0.113.${serial}` },
  });
  const page = await context.newPage();
  await ageFormStamps(page, server.url);
  return { context, page };
}

const shot = async (page: Page, name: string, options: BrowserContextOptions) => {
  if (SHOTS)
    await page.screenshot({ path: `${SHOTS}-${name}-${options.viewport!.width}.png`, fullPage: true });
};

/**
 * An incident in `estado` at `at` (a staff change without a notice), and a follow-up link's token for
 * it; with `ratingMail`, the 'Resuelto' notice's rating token too, as the notice issues them.
 */
async function incidentWithLink(
  numeroIncidencia: string,
  estado: 'Resuelto' | 'En proceso',
  at: Date,
  ratingMail = false,
) {
  const incident = await insertIncident(db, { numeroIncidencia, email: 'ana@cliente.example' });
  await setIncidentState(db, { id: incident.id, estado, actor: 'admin@verticeconsultores.com.do' }, at);
  return db.transaction().execute(async (trx) => ({
    id: incident.id,
    followUp: await issueFollowUpToken(trx, incident.id, at),
    rating: ratingMail ? await issueRatingToken(trx, incident.id, at) : undefined,
  }));
}

const ratedRows = (incidentId: number) =>
  db
    .selectFrom('incidentRatings')
    .select(['valor', 'comentario'])
    .where('incidentId', '=', incidentId)
    .where('ratedAt', 'is not', null)
    .execute();

describe('issue 39 §11: the follow-up page of a resolved incident', () => {
  it('offers the rating and says an answer reopens it; rated there, the mail link is used (1280×800, JavaScript on)', async () => {
    const tokens = await incidentWithLink('INC-20250101-1101', 'Resuelto', new Date(), true);
    const { context, page } = await visitor(DESKTOP);
    await page.goto(`${server.url}/soporte/seguimiento?token=${tokens.followUp}`);
    const rating = page.getByRole('region', { name: 'Valora nuestra atención' });
    await shot(page, 'seguimiento-resuelto', DESKTOP);
    expect(await rating.getByRole('group', { name: '¿Cómo te atendimos?' }).isVisible()).toBe(true);
    expect(await page.locator('#responder').innerText()).toContain(ANSWER_REOPENS_MESSAGE);
    expect(ANSWER_REOPENS_MESSAGE).toContain('Si respondes, la incidencia se reabre');
    await rating.getByRole('radio', { name: /5/ }).check();
    await rating.getByLabel(/Comentario/).fill('Rápidos y amables');
    await rating.getByRole('button', { name: 'Enviar' }).click();
    const thanks = page.getByRole('status').filter({ hasText: RATING_MESSAGES.sent });
    await poll(() => thanks.isVisible()).toBe(true);
    expect(await thanks.evaluate((element) => element === document.activeElement)).toBe(true);
    // Back on the follow-up page, the incident still shown and no form to rate it again.
    expect(page.url()).toContain(`token=${tokens.followUp}`);
    expect(await page.getByRole('region', { name: 'Valora nuestra atención' }).count()).toBe(0);
    await shot(page, 'seguimiento-valorada', DESKTOP);
    expect(await ratedRows(tokens.id)).toEqual([{ valor: 5, comentario: 'Rápidos y amables' }]);
    // The same resolution is rated once: the mail's link says so.
    await page.goto(`${server.url}/soporte/valoracion?token=${tokens.rating}&valor=2`);
    expect(await page.getByTestId('valoracion-cerrada').textContent()).toBe(RATING_MESSAGES.used);
    await page.goto(`${server.url}/soporte/seguimiento?token=${tokens.followUp}`);
    expect(await page.getByRole('region', { name: 'Valora nuestra atención' }).count()).toBe(0);
    // Still said: answering reopens it.
    expect(await page.locator('#responder').innerText()).toContain(ANSWER_REOPENS_MESSAGE);
    await context.close();
  });

  it('rates a resolution no notice was mailed for (390×844, JavaScript off)', async () => {
    const tokens = await incidentWithLink('INC-20250101-1102', 'Resuelto', new Date(Date.now() - 2 * DAY_MS));
    const { context, page } = await visitor(PHONE, false);
    await page.goto(`${server.url}/soporte/seguimiento?token=${tokens.followUp}`);
    await shot(page, 'seguimiento-resuelto', PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await page.locator('#responder').innerText()).toContain(ANSWER_REOPENS_MESSAGE);
    const rating = page.getByRole('region', { name: 'Valora nuestra atención' });
    // Numbers in one format (issue 39, polish): '2.000', not '2000'.
    expect(await rating.innerText()).toContain('Hasta 2.000 caracteres.');
    await rating.getByText('Regular').click();
    await rating.getByRole('button', { name: 'Enviar' }).click();
    await poll(() => page.getByRole('status').filter({ hasText: RATING_MESSAGES.sent }).count()).toBe(1);
    expect(await ratedRows(tokens.id)).toEqual([{ valor: 3, comentario: null }]);
    await context.close();
  });

  it('neither offers the rating nor says it reopens once the link takes no answers, nor before it is resolved (390×844)', async () => {
    const old = await incidentWithLink(
      'INC-20250101-1103',
      'Resuelto',
      new Date(Date.now() - 31 * DAY_MS),
      true,
    );
    const open = await incidentWithLink('INC-20250101-1104', 'En proceso', new Date());
    const { context, page } = await visitor(PHONE);
    await page.goto(`${server.url}/soporte/seguimiento?token=${old.followUp}`);
    expect(await page.locator('#responder').innerText()).toContain(FOLLOW_UP_CLOSED_MESSAGE);
    expect(await page.locator('main').innerText()).not.toContain('se reabre');
    expect(await page.getByRole('region', { name: 'Valora nuestra atención' }).count()).toBe(0);
    await page.goto(`${server.url}/soporte/seguimiento?token=${open.followUp}`);
    expect(await page.getByRole('heading', { name: 'Responder' }).isVisible()).toBe(true);
    expect(await page.locator('main').innerText()).not.toContain('se reabre');
    expect(await page.getByRole('region', { name: 'Valora nuestra atención' }).count()).toBe(0);
    await context.close();
  });
});
