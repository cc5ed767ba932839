/**
 * Issue 39, "a second real day", in Chromium against the production build at the width where each edge
 * was seen: no staff page is wider than a phone with long data in it (§1); the customer's e-mail stays in
 * its own column beside the RNC at 1280 px (§2); the staff digest reads well at 390 px and links each
 * incident (§3); a staff outcome shows where the eye is, focused or in the section the page lands on,
 * with and without JavaScript (§4); staff are named by their names (§5); the follow-up look-up scrolls to
 * the incident it found and focuses it (§6); the CSV import preview is a card per row on a phone, the
 * reason first (§7); an empty support form asks once before it is sent (§8); a draft needs only its
 * title, and a public article has 'Guardar cambios' (§9); `?origen=correo` filters in any case and an
 * unknown choice says 'Filtro no válido' (set-up).
 * `SECOND_DAY_SHOTS=/tmp/prefix` saves screenshots of the changed screens.
 */
import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { santoDomingoToday } from '../../src/domain/forms/meeting.ts';
import { createArticle, publishArticle } from '../../src/server/content/articles.ts';
import { addNote } from '../../src/server/incidents/conversation.ts';
import { incidentDigestMail } from '../../src/server/mail/incident-mails.ts';
import { EMPTY_PROBLEM_QUESTION } from '../../src/domain/forms/incident.ts';
import { MAIL_BRAND } from '../support/mail-brand.ts';
import { DESKTOP, islandHydrated, PHONE, poll } from '../support/browser.ts';
import { insertClient, insertContactMessage, insertIncident } from '../support/factories.ts';
import { ageFormStamps } from '../support/form-stamp.ts';
import { signInStaff } from '../support/staff-login.ts';
import { useSite } from '../support/site.ts';

const { server, browser, db, staff, quietContext } = useSite({
  env: { FORM_RATE_LIMIT: '50', TRUST_PROXY: 'true' },
});
const SHOTS = process.env.SECOND_DAY_SHOTS;
const STAFF_NAME = 'Carmen Lucía Almonte';

const LONG_SLUG =
  'como-configurar-la-facturacion-electronica-de-admcloud-con-la-dgii-paso-a-paso-para-contadores-y-pymes';
const LONG_EMAIL = 'administracion.contabilidad.general@ferreteriaelprogresodelcibao.com.do';
const LONG_WORD = 'Supercalifragilisticoespialidosoimpresorafiscalbixolonsrp350plusiiiconerror';

let serial = 0;
let numero = '';
let clientId = 0;
let articleId = 0;

beforeAll(async () => {
  await db
    .withoutPlugins()
    .updateTable('user')
    .set({ name: STAFF_NAME })
    .where('email', '=', staff.email)
    .execute();
  const actor = { actorEmail: staff.email, network: '127.0.0.0/8' };
  const article = await createArticle(
    db,
    {
      kind: 'blog',
      title: 'Cómo configurar la facturación electrónica de AdmCloud con la DGII paso a paso',
      slug: LONG_SLUG,
      excerpt: 'Guía para contadores y pymes.',
      body: `Texto con una palabra larga: ${LONG_WORD}.`,
      coverImage: null,
      coverAlt: '',
      author: 'Carmen',
      tags: [],
      seoTitle: '',
      seoDescription: '',
    },
    actor,
  );
  await publishArticle(db, article.id, 1, actor);
  articleId = article.id;
  // The article's address among 'Páginas más vistas', as a day of visits leaves it.
  await db
    .insertInto('pageViews')
    .values({ day: santoDomingoToday(new Date()), path: `/blog/${LONG_SLUG}`, count: 40 })
    .execute();
  const incident = await insertIncident(db, {
    numeroIncidencia: 'INC-20261207-4637',
    nombre: 'Rafael Peralta Fernández',
    email: LONG_EMAIL,
    rnc: '131-24567-8',
    problema: `No puedo entrar al sistema: ${LONG_WORD}`,
  });
  numero = incident.numeroIncidencia;
  clientId = (
    await insertClient(db, {
      razonSocial: `Ferretería ${LONG_WORD} SRL`,
      nombreRepresentante: 'Rafael Peralta',
      email: LONG_EMAIL,
      rnc: '131245678',
    })
  ).id;
  await insertContactMessage(db, { email: LONG_EMAIL, message: LONG_WORD });
});

/** The first staff account signed in through the form, from a network of its own. */
function signedIn(options: BrowserContextOptions, javaScriptEnabled = true) {
  serial += 1;
  return signInStaff(
    browser,
    server.url,
    { email: staff.email, password: staff.password, network: `198.51.100.${serial}` },
    { ...options, javaScriptEnabled },
  );
}

const shot = async (page: Page, name: string, options: BrowserContextOptions, fullPage = false) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}-${name}-${options.viewport!.width}.png`, fullPage });
};

/** Whether the element is wholly inside the viewport, below the sticky header, and on top at its centre. */
function shownClear(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const header = document.querySelector('body header');
    const headerBottom = header ? header.getBoundingClientRect().bottom : 0;
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return (
      box.height > 0 &&
      box.top >= headerBottom - 1 &&
      box.bottom <= window.innerHeight + 1 &&
      top !== null &&
      element.contains(top)
    );
  });
}

/** Whether focus is on the element or inside it. */
const focusedIn = (locator: Locator) =>
  locator.evaluate((element) => element.contains(document.activeElement));

/** The elements that reach past the right edge of the viewport, named for a readable failure. */
const pastTheEdge = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const outside = [...document.querySelectorAll('body *')].filter((element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.right > width + 0.5 && !element.closest('[popover], .sr-only, dialog');
    });
    return {
      scrollWidth: document.documentElement.scrollWidth,
      width,
      outside: outside
        .slice(0, 4)
        .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].slice(0, 3).join('.')}`),
    };
  });

describe('issue 39 §1: no staff page is wider than a phone with long data in it', () => {
  it('every staff page fits 390 px with a long address, e-mail and word in it', async () => {
    const { context, page } = await signedIn(PHONE);
    const pages = [
      '/admin',
      '/admin/incidencias',
      `/admin/incidencias/${numero}`,
      '/admin/clientes',
      `/admin/clientes/${clientId}`,
      `/admin/clientes/${clientId}/reunion`,
      '/admin/clientes/importar',
      '/admin/mensajes',
      '/admin/contenido',
      `/admin/contenido/${articleId}`,
      '/admin/anuncios',
      '/admin/logos',
      '/admin/configuracion',
      `/admin/buscar?q=${encodeURIComponent(LONG_WORD)}`,
    ];
    const wide: string[] = [];
    for (const path of pages) {
      await page.goto(`${server.url}${path}`);
      const { scrollWidth, width, outside } = await pastTheEdge(page);
      if (scrollWidth > width || outside.length)
        wide.push(`${path}: ${scrollWidth} px (${outside.join(', ')})`);
    }
    await page.goto(`${server.url}/admin`);
    await shot(page, 'inicio', PHONE, true);
    // A greeting that fits anyone, by the account's name.
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(`¡Hola, ${STAFF_NAME}!`);
    expect(wide).toEqual([]);
    // 'Cerrar sesión' and the visits of the long address are on screen.
    const logout = (await page
      .locator('header')
      .getByRole('button', { name: 'Cerrar sesión' })
      .boundingBox())!;
    expect(logout.x + logout.width).toBeLessThanOrEqual(PHONE.viewport!.width);
    const row = page.locator('li', { hasText: LONG_SLUG.slice(0, 20) });
    await row.scrollIntoViewIfNeeded();
    expect(await shownClear(row.getByText('40 visitas'))).toBe(true);
    await context.close();
  });
});

describe("issue 39 §2: the customer's e-mail stays clear of the RNC", () => {
  it('the e-mail and the RNC do not overlap on the incident page (1280×800)', async () => {
    const { context, page } = await signedIn(DESKTOP);
    await page.goto(`${server.url}/admin/incidencias/${numero}`);
    await shot(page, 'incidencia-detalles', DESKTOP);
    const boxOf = (label: string) => page.locator(`[data-copy-value="${label}"]`).boundingBox();
    const email = (await boxOf('Correo'))!;
    const rnc = (await boxOf('RNC'))!;
    const overlap =
      email.x < rnc.x + rnc.width &&
      rnc.x < email.x + email.width &&
      email.y < rnc.y + rnc.height &&
      rnc.y < email.y + email.height;
    expect(overlap).toBe(false);
    // Each stays inside its own column of the details.
    const column = (await page
      .locator('dl > div', { has: page.locator('[data-copy-value="Correo"]') })
      .boundingBox())!;
    expect(email.x + email.width).toBeLessThanOrEqual(column.x + column.width + 0.5);
    expect(await page.locator('[data-copy-value="Correo"]').innerText()).toBe(LONG_EMAIL);
    await context.close();
  });
});

describe('issue 39 §3: the staff digest reads well on a phone and links each incident', () => {
  it('each incident is a block as wide as the mail, its number linking to its page (390×844)', async () => {
    const incidents = [
      ['INC-20261207-4637', 'Rafael Peralta', 'No puedo entrar al sistema desde esta mañana'],
      ['INC-20261207-5120', 'Ana Pérez', 'La impresora fiscal no imprime las facturas'],
    ].map(([numeroIncidencia, nombre, problema]) => ({
      numeroIncidencia: numeroIncidencia!,
      nombre: nombre!,
      problema: problema!,
      fecha: '2026-12-07T14:00:00.000Z',
    }));
    const mail = incidentDigestMail(MAIL_BRAND, 'soporte@vertice.test', incidents);
    const context = await browser.newContext({ ...PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.setContent(mail.html);
    await shot(page, 'resumen', PHONE, true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const line = page.getByText('Rafael Peralta: No puedo entrar al sistema desde esta mañana');
    // The text has the mail's width, not a column beside the number: one or two lines, not a letter a line.
    expect((await line.boundingBox())!.width).toBeGreaterThan(250);
    for (const { numeroIncidencia } of incidents) {
      const link = page.getByRole('link', { name: new RegExp(`^${numeroIncidencia}`) });
      expect(await link.getAttribute('href')).toBe(
        `${MAIL_BRAND.siteUrl}/admin/incidencias/${numeroIncidencia}`,
      );
    }
    expect(mail.text).toContain(`${MAIL_BRAND.siteUrl}/admin/incidencias/INC-20261207-5120`);
    await context.close();
  });
});

describe('issue 39 §4: staff outcomes show where the eye is', () => {
  for (const javaScriptEnabled of [true, false]) {
    const mode = javaScriptEnabled ? 'on' : 'off';
    it(`'Asignar', 'Guardar prioridad' and the state's 'Guardar': the outcome in view and focused (390×844, JavaScript ${mode})`, async () => {
      const incident = await insertIncident(db, {
        problema: 'La impresora fiscal no imprime.\n'.repeat(3),
        email: 'rosa@cliente.test',
      });
      const { context, page } = await signedIn(PHONE, javaScriptEnabled);
      const url = `${server.url}/admin/incidencias/${incident.numeroIncidencia}`;
      // A long conversation, as on a real day: the end of it is far below the controls.
      const author = await db
        .withoutPlugins()
        .selectFrom('user')
        .select(['id', 'email', 'name'])
        .where('email', '=', staff.email)
        .executeTakeFirstOrThrow();
      for (let index = 0; index < 6; index += 1) {
        await addNote(db, {
          incidentId: incident.id,
          author,
          body: 'Revisamos el equipo con el cliente y seguimos esperando el repuesto.\n'.repeat(4),
        });
      }
      await page.goto(url);
      const select = page.getByLabel('Asignar a');
      await select.selectOption((await select.locator('option', { hasText: '(tú)' }).getAttribute('value'))!);
      await page.getByRole('button', { name: 'Asignar', exact: true }).click();
      const assigned = page.getByRole('status').filter({ hasText: 'La incidencia quedó asignada a ti.' });
      await assigned.waitFor();
      await page.waitForLoadState('load');
      await poll(() => focusedIn(assigned)).toBe(true);
      expect(await shownClear(assigned)).toBe(true);
      await shot(page, `asignada-js-${mode}`, PHONE);

      await page.getByLabel('Prioridad', { exact: true }).selectOption('Alta');
      await page.getByRole('button', { name: 'Guardar prioridad' }).click();
      const priority = page.getByRole('status').filter({ hasText: 'Prioridad actualizada.' });
      await priority.waitFor();
      await page.waitForLoadState('load');
      await poll(() => focusedIn(priority)).toBe(true);
      expect(await shownClear(priority)).toBe(true);

      await page.getByLabel('Estado', { exact: true }).selectOption('En Proceso');
      await page.getByRole('button', { name: 'Guardar', exact: true }).click();
      const state = page.getByRole('status').filter({ hasText: 'Estado actualizado correctamente.' });
      await state.waitFor();
      await page.waitForLoadState('load');
      await poll(() => focusedIn(state)).toBe(true);
      expect(await shownClear(state)).toBe(true);
      await shot(page, `estado-js-${mode}`, PHONE);
      await context.close();
    });

    it(`'Guardar nombre', the meeting, a logo's order and the preview link: each outcome in view (390×844, JavaScript ${mode})`, async () => {
      const { context, page } = await signedIn(PHONE, javaScriptEnabled);
      await page.goto(`${server.url}/admin/configuracion`);
      await page.locator('#nombre-campo').fill(STAFF_NAME);
      await page.getByRole('button', { name: 'Guardar nombre' }).click();
      const named = page.getByRole('status').filter({ hasText: 'Tu nombre se guardó.' });
      await named.waitFor();
      await page.waitForLoadState('load');
      await poll(() => shownClear(named)).toBe(true);
      await shot(page, `nombre-js-${mode}`, PHONE);

      await page.goto(`${server.url}/admin/clientes/${clientId}/reunion`);
      const day = santoDomingoToday(new Date(Date.now() + 10 * 24 * 60 * 60 * 1000));
      await page.getByLabel('Fecha', { exact: true }).fill(day);
      await page.getByLabel('Hora de inicio (Santo Domingo)').fill('10:30');
      await page.getByLabel('Duración (minutos)').fill('60');
      await page.getByLabel('Lugar o enlace de la videollamada').fill('Oficina del cliente');
      await page.getByRole('button', { name: 'Enviar invitación' }).click();
      const invited = page.getByRole('status').filter({ hasText: 'Invitación enviada al cliente.' });
      await invited.waitFor();
      await page.waitForLoadState('load');
      await poll(() => shownClear(invited)).toBe(true);
      await shot(page, `reunion-js-${mode}`, PHONE);

      await page.goto(`${server.url}/admin/logos`);
      const tenth = page.locator('[data-logo-list] > li').nth(9);
      const name = (await tenth.locator('span.font-semibold').first().innerText()).trim();
      await tenth.getByRole('button', { name: /^Bajar/ }).click();
      await page.waitForURL(/hecho=movido/);
      await page.waitForLoadState('load');
      const moved = page.getByRole('status').filter({ hasText: /./ });
      await poll(() => shownClear(moved)).toBe(true);
      expect(await page.locator('[data-logo-list] > li').nth(10).innerText()).toContain(name);
      await shot(page, `logos-js-${mode}`, PHONE);

      const draft = await createArticle(
        db,
        {
          kind: 'blog',
          title: `Borrador para revisar ${mode}`,
          slug: `borrador-para-revisar-${mode}`,
          excerpt: 'Un borrador.',
          body: 'Texto del borrador.\n\n'.repeat(30),
          coverImage: null,
          coverAlt: '',
          author: 'Carmen',
          tags: [],
          seoTitle: '',
          seoDescription: '',
        },
        { actorEmail: staff.email, network: '127.0.0.0/8' },
      );
      await page.goto(`${server.url}/admin/contenido/${draft.id}`);
      await page.getByRole('button', { name: 'Crear enlace de vista previa' }).click();
      const link = page.getByLabel(/^Enlace creado/);
      await link.waitFor();
      await page.waitForLoadState('load');
      await poll(() => shownClear(link)).toBe(true);
      expect(await focusedIn(link)).toBe(true);
      await shot(page, `enlace-js-${mode}`, PHONE);
      await context.close();
    });
  }
});

describe('issue 39 §5: staff are named by their names', () => {
  it("the activity's assignee, 'Contenido', 'Historial' and the meeting's organiser show the name (1280×800)", async () => {
    const { context, page } = await signedIn(DESKTOP);
    const email = staff.email;
    // An assignment in the activity log.
    await page.goto(`${server.url}/admin/incidencias/${numero}`);
    const select = page.getByLabel('Asignar a');
    await select.selectOption((await select.locator('option', { hasText: '(tú)' }).getAttribute('value'))!);
    await page.getByRole('button', { name: 'Asignar', exact: true }).click();
    await page.waitForURL(/hecho=/);
    await page.goto(`${server.url}/admin/configuracion`);
    const assignedRow = page.locator('#actividad li, #actividad tr').filter({ hasText: numero }).first();
    expect(await assignedRow.innerText()).toContain(STAFF_NAME);
    expect(await assignedRow.innerText()).not.toContain(email);

    await page.goto(`${server.url}/admin/contenido`);
    expect(await page.locator('main').innerText()).toContain(`por ${STAFF_NAME}`);
    expect(await page.locator('main').innerText()).not.toContain(`por ${email}`);

    await page.goto(`${server.url}/admin/contenido/${articleId}`);
    const history = page.locator('#historial');
    expect(await history.innerText()).toContain(STAFF_NAME);
    expect(await history.innerText()).not.toContain(email);

    await page.goto(`${server.url}/admin/clientes/${clientId}`);
    const meetings = page.locator('section', { has: page.locator('#reuniones') });
    if ((await meetings.getByText(/^Organiza/).count()) === 0) {
      await page.goto(`${server.url}/admin/clientes/${clientId}/reunion`);
      const day = santoDomingoToday(new Date(Date.now() + 12 * 24 * 60 * 60 * 1000));
      await page.getByLabel('Fecha', { exact: true }).fill(day);
      await page.getByLabel('Hora de inicio (Santo Domingo)').fill('09:00');
      await page.getByLabel('Duración (minutos)').fill('30');
      await page.getByLabel('Lugar o enlace de la videollamada').fill('Oficina');
      await page.getByRole('button', { name: 'Enviar invitación' }).click();
      await page.waitForURL(/hecho=reunion/);
    }
    const organiser = meetings.getByText(/^Organiza/).first();
    expect(await organiser.innerText()).toBe(`Organiza ${STAFF_NAME}`);
    await shot(page, 'reuniones', DESKTOP);
    await context.close();
  });
});

describe('issue 39 §6: the look-up without a link shows what it found', () => {
  for (const javaScriptEnabled of [true, false]) {
    it(`scrolls to the incident found and focuses it (390×844, JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      const incident = await insertIncident(db, { email: 'rosa@cliente.test' });
      const context = await quietContext({ ...PHONE, javaScriptEnabled });
      const page = await context.newPage();
      await ageFormStamps(page, server.url);
      await page.goto(`${server.url}/soporte/seguimiento`);
      await page.getByLabel('Número de incidencia').fill(incident.numeroIncidencia);
      await page.getByLabel('Correo electrónico').fill('rosa@cliente.test');
      await page.getByRole('button', { name: 'Consultar estado' }).click();
      const found = page.getByRole('heading', { name: incident.numeroIncidencia });
      await found.waitFor();
      await page.waitForLoadState('load');
      await poll(() => shownClear(found)).toBe(true);
      // Focus is on the result, so a screen reader reads it and Tab goes on from there.
      expect(await found.evaluate((heading) => document.activeElement?.contains(heading) ?? false)).toBe(
        true,
      );
      await shot(page, `consulta-js-${javaScriptEnabled ? 'on' : 'off'}`, PHONE);
      await context.close();
    });
  }
});

describe('issue 39 §7: the CSV import preview on a phone', () => {
  for (const javaScriptEnabled of [true, false]) {
    it(`each row is a card, the reason it fails first; nothing scrolls sideways (390×844, JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      const { context, page } = await signedIn(PHONE, javaScriptEnabled);
      await page.goto(`${server.url}/admin/clientes/importar`);
      expect(await page.locator('main').innerText()).not.toContain(' verá ');
      const csv = [
        'Razón social,Nombre del representante,Teléfono,Correo electrónico,RNC o cédula,Tipo de proyecto',
        'Colmado Los Pinos SRL,Luis Gómez,809-555-0101,luis@lospinos.com.do,130123456,Implementación AdmCloud',
        'Panadería La Espiga SRL,Marta Díaz,809-555-0102,no-es-un-correo,130654321,Implementación AdmCloud',
      ].join('\n');
      await page.getByLabel('Archivo CSV').setInputFiles({
        name: 'clientes.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv, 'utf8'),
      });
      await page.getByRole('button', { name: 'Ver vista previa' }).click();
      const rows = page.getByRole('region', { name: 'Filas del archivo' }).locator('tbody tr');
      await rows.first().waitFor();
      await shot(page, `importar-js-${javaScriptEnabled ? 'on' : 'off'}`, PHONE, true);
      const { scrollWidth, width, outside } = await pastTheEdge(page);
      expect({ scrollWidth, outside }).toEqual({ scrollWidth: width, outside: [] });
      const failing = rows.and(page.locator('[data-resultado="invalid"]'));
      const reason = failing.locator('[data-motivo]');
      expect(await reason.innerText()).toMatch(/correo/i);
      // The reason is the card's first line, above the row's line number and values.
      const [reasonBox, lineBox] = [
        await reason.boundingBox(),
        await failing.locator('td').first().boundingBox(),
      ];
      expect(reasonBox!.y).toBeLessThan(lineBox!.y);
      expect(reasonBox!.x + reasonBox!.width).toBeLessThanOrEqual(width);
      expect(await reason.isVisible()).toBe(true);
      await context.close();
    });
  }
});

describe("issue 39 §9: a draft needs only a title, and a public article has 'Guardar cambios'", () => {
  for (const javaScriptEnabled of [true, false]) {
    it(`saves a draft with only its title, asks for the summary to publish, saves a public article's changes in place (1280×800, JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      const { context, page } = await signedIn(DESKTOP, javaScriptEnabled);
      const title = `Solo el título ${javaScriptEnabled ? 'con' : 'sin'} JavaScript`;
      await page.goto(`${server.url}/admin/contenido/nuevo`);
      // Said beside each field: what publishing needs, and a draft does not.
      expect(await page.locator('#resumen-ayuda').innerText()).toContain(
        'Obligatorio para publicar o programar',
      );
      expect(await page.locator('#cuerpo-ayuda').innerText()).toContain(
        'Obligatorio para publicar o programar',
      );
      await page.getByLabel('Título', { exact: true }).fill(title);
      await page.getByRole('button', { name: 'Guardar borrador' }).click();
      await page.waitForURL(/hecho=guardado/);
      expect(await page.getByRole('status').first().innerText()).toBe('Borrador guardado.');
      // Publishing it asks for the summary and the text, beside them; nothing is published.
      await page.getByRole('button', { name: 'Publicar', exact: true }).click();
      await page.locator('#resumen-error').waitFor();
      expect(await page.locator('#resumen-error').innerText()).toMatch(/publicar/);
      expect(await page.locator('#cuerpo-error').count()).toBe(1);
      await page.getByLabel('Resumen').fill('Un resumen.');
      await page.getByLabel('Texto (Markdown)').fill('Un texto con un erorr.');
      await page.getByRole('button', { name: 'Publicar', exact: true }).click();
      await page.waitForURL(/hecho=publicado/);
      // Public now: no 'Publicar' again, 'Guardar cambios' saves the typo's fix and it stays public.
      expect(await page.getByRole('button', { name: 'Publicar', exact: true }).count()).toBe(0);
      await page.getByLabel('Texto (Markdown)').fill('Un texto sin errores.');
      await page.getByRole('button', { name: 'Guardar cambios' }).click();
      await page.waitForURL(/hecho=cambios/);
      expect(await page.getByRole('status').first().innerText()).toBe(
        'Cambios guardados: el artículo publicado ya los muestra.',
      );
      const slug = title
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-');
      const publicPage = await (await fetch(`${server.url}/blog/${slug}`)).text();
      expect(publicPage).toContain('Un texto sin errores.');
      await context.close();
    });
  }
});

describe('issue 39 §8: an empty support form asks once', () => {
  const count = async () =>
    Number(
      (
        await db
          .selectFrom('incidents')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("the dialog asks '¿Enviar sin describir el problema?' and registers it when sent again (390×844, JavaScript on)", async () => {
    const context = await quietContext(PHONE);
    const page = await context.newPage();
    await ageFormStamps(page, server.url);
    await page.goto(`${server.url}/soporte`);
    await page.getByRole('button', { name: /Solicitar Ayuda/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Solicita ayuda' });
    await poll(() => dialog.isVisible()).toBe(true);
    await islandHydrated(dialog);
    const before = await count();
    await dialog.getByRole('button', { name: 'Abrir Incidencia' }).click();
    const question = dialog.getByText(EMPTY_PROBLEM_QUESTION);
    await poll(() => question.isVisible()).toBe(true);
    expect(await dialog.getByText('Hubo un error al registrar').count()).toBe(0);
    expect(await count()).toBe(before);
    await shot(page, 'ayuda-vacia', PHONE);
    await dialog.getByRole('button', { name: 'Abrir Incidencia' }).click();
    const notice = page
      .getByRole('alert')
      .filter({ hasText: 'Tu incidencia ha sido registrada con el número:' });
    await poll(() => notice.isVisible()).toBe(true);
    expect(await count()).toBe(before + 1);
    await context.close();
  });

  it('the page asks once too, and sending it again registers it (390×844, JavaScript off)', async () => {
    const context = await quietContext({ ...PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await ageFormStamps(page, server.url);
    await page.goto(`${server.url}/soporte/nueva`);
    const before = await count();
    await page.getByRole('button', { name: 'Abrir Incidencia' }).click();
    await page.getByText(EMPTY_PROBLEM_QUESTION).waitFor();
    expect(await count()).toBe(before);
    await page.getByRole('button', { name: 'Abrir Incidencia' }).click();
    await page.getByText('Tu incidencia ha sido registrada con el número:').waitFor();
    expect(await count()).toBe(before + 1);
    await context.close();
  });
});

describe("issue 39, set-up: '?origen=correo' in any case, and a filter that means nothing is said", () => {
  for (const javaScriptEnabled of [true, false]) {
    it(`lists the incidents by mail for ?origen=correo, and says 'Filtro no válido' for ?origen=telefono (1280×800, JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      const byMail = await insertIncident(db, { nombre: 'Por correo' });
      await db.updateTable('incidents').set({ origen: 'Correo' }).where('id', '=', byMail.id).execute();
      const { context, page } = await signedIn(DESKTOP, javaScriptEnabled);
      await page.goto(`${server.url}/admin/incidencias?origen=correo`);
      const listed = await page
        .locator('[data-incidencia]')
        .evaluateAll((items) => items.map((item) => item.getAttribute('data-incidencia')));
      expect(listed).toContain(byMail.numeroIncidencia);
      expect(listed).not.toContain(numero);
      const response = await page.goto(`${server.url}/admin/incidencias?origen=telefono`);
      expect(response?.status()).toBe(400);
      expect(await page.getByRole('alert').innerText()).toContain('Filtro no válido');
      expect(await page.locator('[data-incidencia]').count()).toBe(0);
      await context.close();
    });
  }
});
