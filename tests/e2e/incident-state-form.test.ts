/**
 * The incident state control (issue 20, issue 25 §8): on the incident page and on the list, the
 * dropdown and 'Notificar al cliente' are a plain form whose 'Guardar' button posts the staff action
 * `incidents.setStateForm`, which changes the state (mailing the visitor only when ticked) and comes
 * back (303) to the page it was sent from, filters kept. Choosing a state saves nothing, with
 * JavaScript too: on the incident page 'Guardar' posts the same form, and the page comes back with the
 * new badge and timeline entry (on the list the island saves in place, tests/e2e/admin.test.ts).
 * `SCREENSHOT_DIR=/tmp/dir` saves the control at 390 and 1280 px.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PRIORITY_MESSAGE } from '../../src/domain/incidents.ts';
import { DESKTOP, expectNoAxeViolations, PHONE, poll } from '../support/browser.ts';
import { insertIncident } from '../support/factories.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';

const { server, browser, db, staff } = useSite({ env: { TRUST_PROXY: 'true', LOG_LEVEL: 'warn' } });

const ON_PAGE = 'INC-20250120-5101';
const ON_LIST = 'INC-20250120-5102';
const WITH_SCRIPT = 'INC-20250120-5103';
const PRIORITY = 'INC-20250120-5104';

let network = 0;

const login = () => ({ ...staff, network: `198.51.100.${++network}` });
const stateOf = async (numero: string) =>
  (
    await db
      .selectFrom('incidents')
      .select('estado')
      .where('numeroIncidencia', '=', numero)
      .executeTakeFirstOrThrow()
  ).estado;
const priorityOf = async (numero: string) =>
  await db
    .selectFrom('incidents')
    .select(['id', 'prioridad'])
    .where('numeroIncidencia', '=', numero)
    .executeTakeFirstOrThrow();
const noticesTo = async (address: string) =>
  (await db.selectFrom('mailOutbox').select('kind').where('toAddress', '=', address).execute()).length;

beforeAll(async () => {
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
  await insertIncident(db, {
    numeroIncidencia: PRIORITY,
    nombre: 'Prioridad Prueba',
    email: 'prioridad@cliente.example',
  });
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
    // The island's first render after hydration (useHydrated) may come a moment after astro-island
    // drops `ssr`: the unchanged state's 'Guardar' is disabled once it has.
    await expect.poll(() => save.isDisabled()).toBe(true);
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

describe('incident priority (issue 22)', () => {
  it('sets the priority on the page and in the list, without JavaScript and in place with it, records it in the timeline and filters by it', async () => {
    const byName = `nombre=${encodeURIComponent('Prioridad Prueba')}`;
    // Without JavaScript: the incident page's form, then the list's, each coming back with the new badge.
    const plain = await signInStaff(browser, server.url, login(), { ...DESKTOP, javaScriptEnabled: false });
    await plain.page.goto(`${server.url}/admin/incidencias/${PRIORITY}`);
    expect(await plain.page.getByTestId('prioridad').getAttribute('data-prioridad')).toBe('Normal');
    await plain.page.getByLabel('Prioridad', { exact: true }).selectOption('Alta');
    await Promise.all([
      plain.page.waitForURL(/hecho=prioridad(&|$)/),
      plain.page.getByRole('button', { name: 'Guardar prioridad' }).click(),
    ]);
    expect(new URL(plain.page.url()).pathname).toBe(`/admin/incidencias/${PRIORITY}`);
    expect(await plain.page.getByTestId('prioridad').textContent()).toContain('Prioridad: Alta');
    const entry = plain.page.locator('[data-tipo="priority"]');
    expect(await entry.textContent()).toContain('Cambio de prioridad');
    expect(await entry.getByTestId('cambio-de-prioridad').textContent()).toBe('Prioridad: Normal → Alta');
    expect(await plain.page.getByRole('status').first().textContent()).toContain('Prioridad actualizada.');
    const change = await db
      .selectFrom('incidentPriorityChanges')
      .select('changedByEmail')
      .executeTakeFirstOrThrow();
    expect(change.changedByEmail).toBe(staff.email);

    // An unknown value, as a forged form would post it: refused in Spanish, nothing changed.
    const { id } = await priorityOf(PRIORITY);
    const refused = await plain.page.request.post(
      `${server.url}/admin/incidencias/${PRIORITY}?_action=incidents.setPriorityForm`,
      {
        form: { id: String(id), prioridad: 'Crítica', volver: `/admin/incidencias/${PRIORITY}` },
        headers: { origin: server.url },
      },
    );
    expect(refused.status()).toBe(400);
    expect(await refused.text()).toContain(PRIORITY_MESSAGE);
    expect((await priorityOf(PRIORITY)).prioridad).toBe('Alta');

    await plain.page.goto(`${server.url}/admin/incidencias?${byName}`);
    const card = plain.page.locator(`article[data-incidencia="${PRIORITY}"]`);
    await card.getByLabel('Prioridad', { exact: true }).selectOption('Urgente');
    await Promise.all([
      plain.page.waitForURL(/hecho=prioridad(&|$)/),
      card.getByRole('button', { name: 'Guardar prioridad' }).click(),
    ]);
    expect(new URL(plain.page.url()).searchParams.get('nombre')).toBe('Prioridad Prueba');
    expect(await card.getByTestId('prioridad').getAttribute('data-prioridad')).toBe('Urgente');
    // The filter, kept in the URL.
    await plain.page.goto(`${server.url}/admin/incidencias?${byName}&prioridad=Urgente`);
    expect(await plain.page.locator('#f-prioridad').inputValue()).toBe('Urgente');
    expect(await card.count()).toBe(1);
    await plain.page.goto(`${server.url}/admin/incidencias?${byName}&prioridad=Baja`);
    expect(await plain.page.getByText('No hay coincidencias.').count()).toBe(1);
    await plain.context.close();

    // With JavaScript, on the list, in place; the list and the incident page fit both widths.
    let next: 'Baja' | 'Alta' = 'Baja';
    for (const options of [PHONE, DESKTOP]) {
      const { context, page } = await signInStaff(browser, server.url, login(), options);
      const width = options.viewport!.width;
      const list = `${server.url}/admin/incidencias?${byName}`;
      await page.goto(list);
      await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
      const inPlace = page.locator(`article[data-incidencia="${PRIORITY}"]`);
      await inPlace.getByLabel('Prioridad', { exact: true }).selectOption(next);
      await inPlace.getByRole('button', { name: 'Guardar prioridad' }).click();
      await poll(() => inPlace.getByTestId('prioridad').getAttribute('data-prioridad')).toBe(next);
      expect(await inPlace.getByText('Prioridad actualizada.').count()).toBe(1);
      expect(page.url()).toBe(list);
      expect((await priorityOf(PRIORITY)).prioridad).toBe(next);
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
        ),
      ).toBe(true);
      if (width === PHONE.viewport!.width) await expectNoAxeViolations(page);
      if (process.env.SCREENSHOT_DIR)
        await inPlace.screenshot({ path: `${process.env.SCREENSHOT_DIR}/prioridad-lista-${width}.png` });
      await page.goto(`${server.url}/admin/incidencias/${PRIORITY}`);
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
        ),
      ).toBe(true);
      if (process.env.SCREENSHOT_DIR)
        await page.screenshot({
          path: `${process.env.SCREENSHOT_DIR}/prioridad-${width}.png`,
          fullPage: true,
        });
      await context.close();
      next = 'Alta';
    }
    expect(await db.selectFrom('incidentPriorityChanges').select('hasta').orderBy('id').execute()).toEqual([
      { hasta: 'Alta' },
      { hasta: 'Urgente' },
      { hasta: 'Baja' },
      { hasta: 'Alta' },
    ]);
  });
});
