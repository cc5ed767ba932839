/**
 * The incident state control (issue 20, issue 25 §8): on the incident page and on the list, the
 * dropdown and 'Notificar al cliente' are a plain form whose 'Guardar' button posts the staff action
 * `incidents.setStateForm`, which changes the state (mailing the visitor only when ticked) and comes
 * back (303) to the page it was sent from, filters kept. Choosing a state saves nothing, with
 * JavaScript too: on the incident page 'Guardar' posts the same form, and the page comes back with the
 * new badge and timeline entry (on the list the island saves in place, tests/e2e/admin.test.ts).
 * `SCREENSHOT_DIR=/tmp/dir` saves the control at 390 and 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/server/db/index.ts';
import { DESKTOP, PHONE } from '../support/browser.ts';
import { insertIncident } from '../support/factories.ts';
import { firstStaffPassword } from '../support/server.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';

const { server, browser } = useSite({ env: { TRUST_PROXY: 'true', LOG_LEVEL: 'warn' } });

const ON_PAGE = 'INC-20250120-5101';
const ON_LIST = 'INC-20250120-5102';
const WITH_SCRIPT = 'INC-20250120-5103';

let db: Db;
let email = '';
let password = '';
let network = 0;

const login = () => ({ email, password, network: `198.51.100.${++network}` });
const stateOf = async (numero: string) =>
  (
    await db
      .selectFrom('incidents')
      .select('estado')
      .where('numeroIncidencia', '=', numero)
      .executeTakeFirstOrThrow()
  ).estado;
const noticesTo = async (address: string) =>
  (await db.selectFrom('mailOutbox').select('kind').where('toAddress', '=', address).execute()).length;

beforeAll(async () => {
  email = /Cuenta de personal creada: (\S+)/.exec(server.output())?.[1] ?? '';
  password = firstStaffPassword(server);
  db = openDatabase(server.env.DATABASE_URL!).db;
  await insertIncident(db, {
    numeroIncidencia: ON_PAGE,
    nombre: 'Página Sin JS',
    email: 'pagina@cliente.example',
  });
  await insertIncident(db, {
    numeroIncidencia: WITH_SCRIPT,
    nombre: 'Página Con JS',
    email: 'conjs@cliente.example',
  });
  await insertIncident(db, {
    numeroIncidencia: ON_LIST,
    nombre: 'Lista Sin JS',
    email: 'lista@cliente.example',
  });
});

afterAll(async () => {
  await db?.destroy();
});

describe('incident state without JavaScript', () => {
  it('changes the state from the incident page and tells the visitor when ticked', async () => {
    const { context, page } = await signInStaff(browser, server.url, login(), {
      ...DESKTOP,
      javaScriptEnabled: false,
    });
    const before = await noticesTo('pagina@cliente.example');
    await page.goto(`${server.url}/admin/incidencias/${ON_PAGE}`);
    expect(await page.getByLabel('Notificar al cliente').isChecked()).toBe(true);
    await page.getByLabel('Estado', { exact: true }).selectOption('En Proceso');
    await Promise.all([
      page.waitForURL(/hecho=estado-notificado/),
      page.getByRole('button', { name: 'Guardar', exact: true }).click(),
    ]);
    expect(new URL(page.url()).pathname).toBe(`/admin/incidencias/${ON_PAGE}`);
    expect(await page.getByRole('status').textContent()).toBe(
      'Estado actualizado correctamente. Se avisará al cliente por correo.',
    );
    expect(await page.getByTestId('estado-actual').textContent()).toBe('En Proceso');
    expect(await page.getByLabel('Estado', { exact: true }).inputValue()).toBe('En Proceso');
    expect(await stateOf(ON_PAGE)).toBe('En Proceso');
    expect(await noticesTo('pagina@cliente.example')).toBe(before + 1);
    await context.close();
  });

  it('changes the state from the filtered list without a notice when unticked, back on the same list', async () => {
    const { context, page } = await signInStaff(browser, server.url, login(), {
      ...DESKTOP,
      javaScriptEnabled: false,
    });
    const before = await noticesTo('lista@cliente.example');
    const list = `/admin/incidencias?nombre=${encodeURIComponent('Lista Sin JS')}`;
    await page.goto(`${server.url}${list}`);
    const card = page.locator(`article[data-incidencia="${ON_LIST}"]`);
    await card.getByLabel('Estado', { exact: true }).selectOption('Resuelto');
    await card.getByLabel('Notificar al cliente').uncheck();
    await Promise.all([
      page.waitForURL(/hecho=estado(&|$)/),
      card.getByRole('button', { name: 'Guardar', exact: true }).click(),
    ]);
    const back = new URL(page.url());
    expect(back.pathname).toBe('/admin/incidencias');
    expect(back.searchParams.get('nombre')).toBe('Lista Sin JS');
    expect(await stateOf(ON_LIST)).toBe('Resuelto');
    expect(
      await page.locator(`article[data-incidencia="${ON_LIST}"]`).getByTestId('estado-actual').textContent(),
    ).toBe('Resuelto');
    expect(await noticesTo('lista@cliente.example')).toBe(before);
    await context.close();
  });

  it("with JavaScript, choosing a state saves and mails nothing until 'Guardar'; then the badge and the timeline show it", async () => {
    const { context, page } = await signInStaff(browser, server.url, login());
    const before = await noticesTo('conjs@cliente.example');
    await page.goto(`${server.url}/admin/incidencias/${WITH_SCRIPT}`);
    await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
    const save = page.getByRole('button', { name: 'Guardar', exact: true });
    expect(await save.isDisabled()).toBe(true);
    await page.getByLabel('Estado', { exact: true }).selectOption('Resuelto');
    // The control says that saving mails the customer, and nothing has been sent or stored yet.
    expect(await page.getByTestId('aviso-correo').textContent()).toBe(
      'Al guardar, se enviará un correo al cliente con el nuevo estado.',
    );
    expect(await save.getAttribute('aria-describedby')).toBe(
      await page.getByTestId('aviso-correo').getAttribute('id'),
    );
    await page.waitForTimeout(700);
    expect(await stateOf(WITH_SCRIPT)).toBe('Registrado');
    expect(await noticesTo('conjs@cliente.example')).toBe(before);
    expect(await page.getByTestId('estado-actual').textContent()).toBe('Registrado');
    expect(await save.isEnabled()).toBe(true);

    await Promise.all([page.waitForURL(/hecho=estado-notificado/), save.click()]);
    expect(new URL(page.url()).pathname).toBe(`/admin/incidencias/${WITH_SCRIPT}`);
    expect(await page.getByTestId('estado-actual').textContent()).toBe('Resuelto');
    expect(await page.locator('[data-tipo="state"]').last().textContent()).toContain('Estado: Resuelto');
    expect(await page.getByRole('status').first().textContent()).toContain(
      'Estado actualizado correctamente.',
    );
    expect(await stateOf(WITH_SCRIPT)).toBe('Resuelto');
    expect(await noticesTo('conjs@cliente.example')).toBe(before + 1);
    await context.close();

    // The control at both widths, a state chosen and not yet saved.
    for (const options of [PHONE, DESKTOP]) {
      const shot = await signInStaff(browser, server.url, login(), options);
      await shot.page.goto(`${server.url}/admin/incidencias/${WITH_SCRIPT}`);
      await shot.page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
      await shot.page.getByLabel('Estado', { exact: true }).selectOption('En Proceso');
      if (process.env.SCREENSHOT_DIR)
        await shot.page.screenshot({
          path: `${process.env.SCREENSHOT_DIR}/estado-${options.viewport!.width}.png`,
          fullPage: true,
        });
      // The list's card: the same control, saved in place.
      await shot.page.goto(`${server.url}/admin/incidencias?nombre=${encodeURIComponent('Página Con JS')}`);
      await shot.page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
      const card = shot.page.locator(`article[data-incidencia="${WITH_SCRIPT}"]`);
      await card.getByLabel('Estado', { exact: true }).selectOption('En Proceso');
      expect(await stateOf(WITH_SCRIPT)).toBe('Resuelto');
      if (process.env.SCREENSHOT_DIR)
        await card.screenshot({
          path: `${process.env.SCREENSHOT_DIR}/estado-lista-${options.viewport!.width}.png`,
        });
      await shot.context.close();
    }
  });
});
