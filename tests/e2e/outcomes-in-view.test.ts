/**
 * Issue 25 §1, §2 and §15 in Chromium against the production build. The follow-up link opens on the
 * incident (number, state, conversation, 'Responder'), the look-up form behind a disclosure at the
 * end; after 'Enviar respuesta' the answer is in the conversation and the confirmation is in view,
 * clear of the fixed header, focused and a status (with and without JavaScript); outcome messages
 * (`?respuesta=enviada`, a staff page's `?hecho=`) show once: a reload no longer shows them.
 * `OUTCOMES_SHOTS=/tmp/prefix` saves screenshots of the changed screens.
 */
import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ANSWER_SENT_MESSAGE } from '../../src/domain/forms/tracking.ts';
import { issueFollowUpToken } from '../../src/server/incidents/follow-up.ts';
import { DESKTOP, PHONE, poll } from '../support/browser.ts';
import { insertIncident } from '../support/factories.ts';
import { ageFormStamps } from '../support/form-stamp.ts';
import { firstStaffPassword } from '../support/server.ts';
import { signInStaff } from '../support/staff-login.ts';
import { useSite } from '../support/site.ts';

const { server, browser, db, quietContext } = useSite({
  env: { FORM_RATE_LIMIT: '50', TRUST_PROXY: 'true' },
});
const SHOTS = process.env.OUTCOMES_SHOTS;
const SIZES = [
  ['390×844', PHONE],
  ['1280×800', DESKTOP],
] as const;

let serial = 0;

/** A new incident with a long problem text, and the follow-up link its mails would carry. */
async function followUpLink(): Promise<{ numero: string; link: string }> {
  serial += 1;
  const numero = `INC-20250301-${String(6000 + serial)}`;
  const incident = await insertIncident(db, {
    numeroIncidencia: numero,
    email: 'rosa@cliente.test',
    problema:
      'La impresora fiscal no imprime las facturas desde ayer por la tarde. Ya la reiniciamos y revisamos el cable, pero sigue igual.',
  });
  const token = await issueFollowUpToken(db, incident.id, new Date());
  return { numero, link: `${server.url}/soporte/seguimiento?token=${token}` };
}

/** Whether the element is wholly inside the viewport, below the fixed header, and on top at its centre. */
function shownClear(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const header = document.querySelector('body header');
    const headerBottom = header ? header.getBoundingClientRect().bottom : 0;
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return (
      box.height > 0 &&
      box.top >= headerBottom &&
      box.bottom <= window.innerHeight &&
      top !== null &&
      element.contains(top)
    );
  });
}

/** Whether some of the element shows between the fixed header and the bottom of the viewport. */
function partlyShown(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const header = document.querySelector('body header');
    const headerBottom = header ? header.getBoundingClientRect().bottom : 0;
    return box.height > 0 && box.bottom > headerBottom + 16 && box.top < window.innerHeight - 16;
  });
}

/** The first staff account signed in through the form, from a network of its own. */
function signedIn(options: BrowserContextOptions, javaScriptEnabled: boolean) {
  serial += 1;
  const email = /Cuenta de personal creada: (\S+)/.exec(server.output())?.[1];
  return signInStaff(
    browser,
    server.url,
    { email: email!, password: firstStaffPassword(server), network: `198.51.100.${serial}` },
    { ...options, javaScriptEnabled },
  );
}

const shot = async (page: Page, name: string, options: BrowserContextOptions) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}-${name}-${options.viewport!.width}.png` });
};

describe('issue 25 §1: the follow-up link opens on the incident', () => {
  for (const [size, options] of SIZES) {
    for (const javaScriptEnabled of [true, false]) {
      it(`number, state, conversation and 'Responder' first; the look-up behind a disclosure (${size}, JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
        const { numero, link } = await followUpLink();
        const context = await quietContext({ ...options, javaScriptEnabled });
        const page = await context.newPage();
        await page.goto(link);
        await shot(page, `seguimiento-token${javaScriptEnabled ? '' : '-sin-js'}`, options);
        expect(await shownClear(page.getByRole('heading', { name: numero }))).toBe(true);
        expect(await shownClear(page.locator('p', { hasText: 'Estado actual:' }))).toBe(true);
        expect(await partlyShown(page.getByRole('heading', { name: 'Historial' }))).toBe(true);
        expect(await shownClear(page.getByRole('link', { name: 'Responder' }))).toBe(true);
        // The look-up is not in the way: closed, after the 'Responder' box.
        const lookUp = page.getByLabel('Número de incidencia');
        expect(await lookUp.isVisible()).toBe(false);
        const disclosure = page.getByText('Consultar otra incidencia con su número y tu correo');
        const answerBox = await page.getByRole('heading', { name: 'Responder', exact: true }).boundingBox();
        expect((await disclosure.boundingBox())!.y).toBeGreaterThan(answerBox!.y);
        // 'Responder' leads to the box; the disclosure opens the look-up form.
        await page.getByRole('link', { name: 'Responder' }).click();
        await poll(() => shownClear(page.getByRole('heading', { name: 'Responder', exact: true }))).toBe(
          true,
        );
        await disclosure.click();
        expect(await lookUp.isVisible()).toBe(true);
        expect(await page.getByRole('button', { name: 'Consultar estado' }).isVisible()).toBe(true);
        await context.close();
      });
    }
  }

  it('without a link the page still opens on the look-up form', async () => {
    const context = await quietContext(PHONE);
    const page = await context.newPage();
    await page.goto(`${server.url}/soporte/seguimiento`);
    expect(await shownClear(page.getByLabel('Número de incidencia'))).toBe(true);
    await context.close();
  });
});

describe("issue 25 §2 and §15: after 'Enviar respuesta', the answer and the confirmation in view, once", () => {
  for (const [size, options] of SIZES) {
    for (const javaScriptEnabled of [true, false]) {
      it(`the confirmation is in view, focused and a status; the answer is in the conversation (${size}, JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
        const { link } = await followUpLink();
        const answer = `Ya probamos con otro cable y sigue igual (${size}, ${javaScriptEnabled ? 'js' : 'sin js'}).`;
        const context = await quietContext({ ...options, javaScriptEnabled });
        const page = await context.newPage();
        await ageFormStamps(page, server.url);
        await page.goto(link);
        await page.getByLabel('Tu respuesta').fill(answer);
        await page.getByRole('button', { name: 'Enviar respuesta' }).click();
        const confirmation = page.getByRole('status').filter({ hasText: ANSWER_SENT_MESSAGE });
        await confirmation.waitFor();
        await page.waitForLoadState('load');
        await poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe(
          ANSWER_SENT_MESSAGE,
        );
        await shot(page, `seguimiento-respuesta-enviada${javaScriptEnabled ? '' : '-sin-js'}`, options);
        expect(await shownClear(confirmation)).toBe(true);
        const mine = page.getByTestId('tu-respuesta').filter({ hasText: answer });
        expect(await mine.count()).toBe(1);
        expect(await partlyShown(mine)).toBe(true);
        expect(await page.getByLabel('Tu respuesta').inputValue()).toBe('');
        // Shown once: with JavaScript a reload of the same address shows no confirmation.
        if (javaScriptEnabled) {
          await page.reload();
          expect(await page.getByText(ANSWER_SENT_MESSAGE).count()).toBe(0);
          expect(await page.getByTestId('tu-respuesta').filter({ hasText: answer }).count()).toBe(1);
        }
        await context.close();
      });
    }
  }
});

describe('issue 25 §15: a staff outcome message shows once', () => {
  for (const [size, options] of SIZES) {
    it(`'La incidencia quedó asignada a ti.' is gone after a reload (${size})`, async () => {
      const { numero } = await followUpLink();
      const { context, page } = await signedIn(options, true);
      await page.goto(`${server.url}/admin/incidencias/${numero}`);
      const select = page.getByLabel('Asignar a');
      const mine = await select.locator('option', { hasText: '(tú)' }).getAttribute('value');
      await select.selectOption(mine!);
      await page.getByRole('button', { name: 'Asignar', exact: true }).click();
      const done = page.getByRole('status').filter({ hasText: 'La incidencia quedó asignada a ti.' });
      await done.waitFor();
      expect(new URL(page.url()).searchParams.get('hecho')).toBe('asignada-a-ti');
      await page.reload();
      expect(await page.getByTestId('asignada-a').textContent()).toBeTruthy();
      expect(await page.getByText('La incidencia quedó asignada a ti.').count()).toBe(0);
      await context.close();
    });
  }

  it('without JavaScript the message is still shown after the write', async () => {
    const { numero } = await followUpLink();
    const { context, page } = await signedIn(DESKTOP, false);
    await page.goto(`${server.url}/admin/incidencias/${numero}`);
    const select = page.getByLabel('Asignar a');
    await select.selectOption((await select.locator('option', { hasText: '(tú)' }).getAttribute('value'))!);
    await page.getByRole('button', { name: 'Asignar', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'La incidencia quedó asignada a ti.' }).waitFor();
    expect(new URL(page.url()).searchParams.get('hecho')).toBe('asignada-a-ti');
    await context.close();
  });
});
