/**
 * The customer's rating (issue 22) against the production build: the 'Resuelto' notice reaches the
 * real SMTP peer with five links; one opens /soporte/valoracion at 390 px without JavaScript with its
 * rating selected, and a rating with a comment is sent; the same link, open at 1280 px with
 * JavaScript, is refused when sent again; a wrong token gets its message; the staff incident page and
 * the staff home show the rating and the comment (escaped). One axe pass, on the form.
 */
import { beforeAll, expect, it } from 'vitest';
import { RATING_MESSAGES } from '../../src/domain/forms/rating.ts';
import { setIncidentState } from '../../src/server/incidents/state.ts';
import { DESKTOP, expectNoAxeViolations, PHONE } from '../support/browser.ts';
import { insertIncident } from '../support/factories.ts';
import { ageFormStamps } from '../support/form-stamp.ts';
import { MAIL_BRAND } from '../support/mail-brand.ts';
import { firstStaffPassword } from '../support/server.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';

const { server, browser, smtp, quietContext, db } = useSite({
  smtp: true,
  env: { TRUST_PROXY: 'true', LOG_LEVEL: 'warn' },
});

const NUMERO = 'INC-20250601-7001';
const COMMENT = 'Muy amables <script>alert(1)</script>';
const SHOTS = process.env.RATING_SHOTS;
/** The five links of the mail, by rating. */
let links: string[] = [];

beforeAll(async () => {
  const incident = await insertIncident(db, {
    numeroIncidencia: NUMERO,
    nombre: 'María Núñez',
    email: 'maria@cliente.example',
  });
  // As staff resolve it with 'Notificar al cliente': the server's outbox worker sends the notice.
  await setIncidentState(db, {
    id: incident.id,
    estado: 'Resuelto',
    actor: 'admin@verticeconsultores.com.do',
    notify: { ...MAIL_BRAND, siteUrl: server.url },
  });
  const mail = await smtp.waitFor((item) => item.subject === `Incidencia ${NUMERO}: Resuelto`);
  expect(mail.text).toContain('¿Cómo te atendimos?');
  links = [...String(mail.html).matchAll(/href="([^"]*\/soporte\/valoracion\?token=[^"]+)"/g)].map((match) =>
    match[1]!.replaceAll('&amp;', '&'),
  );
  expect(links.map((link) => new URL(link).searchParams.get('valor'))).toEqual(['1', '2', '3', '4', '5']);
  // The link is a token: no browser or proxy keeps the page.
  expect((await fetch(links[0]!)).headers.get('cache-control')).toBe('no-store');
});

it('rates from the mail without JavaScript at 390 px, refuses the link sent again at 1280 px, and shows it to staff', async () => {
  // The desktop visitor opens the link first: its form is still there when the phone has rated.
  const desktop = await quietContext({
    ...DESKTOP,
    extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.61' },
  });
  const later = await desktop.newPage();
  await ageFormStamps(later, server.url);
  await later.goto(links[4]!);
  await expect.poll(() => later.getByRole('radio', { name: /5/ }).isChecked()).toBe(true);
  await expectNoAxeViolations(later);
  if (SHOTS) await later.screenshot({ path: `${SHOTS}/valoracion-1280.png`, fullPage: true });

  const phone = await quietContext({
    ...PHONE,
    javaScriptEnabled: false,
    extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.62' },
  });
  const page = await phone.newPage();
  await ageFormStamps(page, server.url);
  await page.goto(links[3]!);
  const group = page.getByRole('group', { name: '¿Cómo te atendimos?' });
  expect(await group.getByRole('radio', { name: /4/ }).isChecked()).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/valoracion-390.png`, fullPage: true });
  await page.getByLabel(/Comentario/).fill(COMMENT);
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect.poll(() => page.getByRole('status').textContent()).toBe(RATING_MESSAGES.sent);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/valoracion-enviada-390.png`, fullPage: true });
  // A wrong token says so.
  await page.goto(`${server.url}/soporte/valoracion?token=${'A'.repeat(24)}&valor=5`);
  expect(await page.getByTestId('valoracion-cerrada').textContent()).toBe(RATING_MESSAGES.notFound);
  await phone.close();

  const rows = await db
    .selectFrom('incidentRatings')
    .select(['valor', 'comentario'])
    .where('ratedAt', 'is not', null)
    .execute();
  expect(rows).toEqual([{ valor: 4, comentario: COMMENT }]);

  // The same resolution sent again from the page opened earlier: refused, nothing stored.
  await later.getByRole('button', { name: 'Enviar' }).click();
  await expect.poll(() => later.getByRole('alert').textContent()).toBe(RATING_MESSAGES.used);
  expect(await later.getByRole('button', { name: 'Enviar' }).count()).toBe(0);
  await desktop.close();
  expect(
    await db.selectFrom('incidentRatings').select('valor').where('ratedAt', 'is not', null).execute(),
  ).toHaveLength(1);

  // Staff see it in the timeline and on the home's card, as text.
  const { context, page: staff } = await signInStaff(browser, server.url, {
    email: 'admin@verticeconsultores.com.do',
    password: firstStaffPassword(server),
    network: '198.51.100.63',
  });
  const dialogs: string[] = [];
  staff.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await staff.goto(`${server.url}/admin/incidencias/${NUMERO}`);
  const entry = staff.locator('[data-tipo="rating"]');
  expect(await entry.getByTestId('valoracion').textContent()).toBe('Valoración: 4 de 5');
  expect(await entry.textContent()).toContain(COMMENT);
  if (SHOTS) await entry.screenshot({ path: `${SHOTS}/valoracion-linea-de-tiempo.png` });
  await staff.goto(`${server.url}/admin`);
  const card = staff.getByTestId('valoracion-clientes');
  expect(await card.getByTestId('valoracion-promedio').textContent()).toBe('4,0 de 5');
  expect(await card.getByTestId('valoracion-satisfechos').textContent()).toMatch(/^100\s?%$/);
  await card.getByText('Ver comentarios').click();
  expect(await card.getByTestId('valoracion-comentarios').textContent()).toContain(COMMENT);
  if (SHOTS) await card.screenshot({ path: `${SHOTS}/valoracion-panel.png` });
  expect(await staff.locator('img[src="x"], script:text("alert(1)")').count()).toBe(0);
  expect(dialogs).toEqual([]);
  await context.close();
});
