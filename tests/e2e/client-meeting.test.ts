/**
 * 'Reunión' (issue 12) against the production build, in Chromium with a real SMTP peer: the form
 * opened from the list, its Spanish messages per field with the values kept and nothing queued
 * (without JavaScript), a sent invitation whose .ics is read by a calendar parser (METHOD, DTSTART in
 * America/Santo_Domingo and as UTC, duration, ORGANIZER, ATTENDEE, UID) and the staff copy, the
 * timeline, 'Próximas reuniones' on the staff home, 'Cancelar reunión' (METHOD:CANCEL, same UID,
 * SEQUENCE + 1), axe, and the pages at 390 px and 1280 px.
 */
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { ParsedMail } from 'mailparser';
import { beforeAll, describe, expect, it } from 'vitest';
import { MEETING_MESSAGES, santoDomingoToday } from '../../src/domain/forms/meeting.ts';
import { createClient } from '../../src/server/clients/index.ts';
import { DESKTOP, expectNoAxeViolations, PHONE, watchConsole } from '../support/browser.ts';
import { parseInvitation } from '../support/ical.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';

const { server, browser, smtp, db, staff } = useSite({
  smtp: true,
  env: { TRUST_PROXY: 'true', LOG_LEVEL: 'warn' },
});

const CLIENT_EMAIL = 'carmen@losalamos.com.do';
const LINK = 'https://meet.example.com/abc-defg-hij';
const NOTE = 'Traer el listado de sucursales.\n<b>sin formato</b>';

let ipCounter = 0;
let alamos = 0;

/** A date `days` after today in Santo Domingo, `aaaa-mm-dd`. */
function dayFromToday(days: number): string {
  return santoDomingoToday(new Date(Date.now() + days * 24 * 60 * 60 * 1000));
}
const MEETING_DAY = dayFromToday(10);
const [year, month, day] = MEETING_DAY.split('-');
const SHOWN = `${day}/${month}/${year} 10:30`;

beforeAll(async () => {
  alamos = (
    await createClient(db, {
      razonSocial: 'Farmacia Los Álamos SRL',
      nombreRepresentante: 'Carmen Rodríguez',
      telefono: '8095550142',
      email: CLIENT_EMAIL,
      rnc: '101850043',
      tipoProyecto: 'Implementación AdmCloud',
    })
  ).client.id;
});

async function signedIn(
  options: BrowserContextOptions = DESKTOP,
  javaScriptEnabled = true,
): Promise<{ context: BrowserContext; page: Page }> {
  ipCounter += 1;
  return signInStaff(
    browser,
    server.url,
    { ...staff, network: `198.51.100.${ipCounter}` },
    { ...options, javaScriptEnabled },
  );
}

const clientUrl = () => `${server.url}/admin/clientes/${alamos}`;
const meetingUrl = () => `${clientUrl()}/reunion`;
const timelineItems = (page: Page) => page.getByRole('list', { name: 'Historial del cliente' }).locator('li');
const toText = (mail: ParsedMail) => (mail.to && 'text' in mail.to ? mail.to.text : '');
const calendarFile = (mail: ParsedMail) => {
  const file = mail.attachments.find((item) => item.contentType === 'application/ics');
  if (!file) throw new Error('El correo no trae el archivo .ics');
  return { filename: file.filename, ics: parseInvitation(file.content.toString('utf8')) };
};
const calendarPart = (mail: ParsedMail) =>
  mail.attachments.find((item) => item.contentType === 'text/calendar');

async function fillMeeting(
  page: Page,
  values: { fecha: string; hora: string; duracion: string; lugar: string; nota?: string },
) {
  await page.getByLabel('Fecha', { exact: true }).fill(values.fecha);
  await page.getByLabel('Hora de inicio (Santo Domingo)').fill(values.hora);
  await page.getByLabel('Duración (minutos)').fill(values.duracion);
  await page.getByLabel('Lugar o enlace de la videollamada').fill(values.lugar);
  if (values.nota !== undefined) await page.getByLabel('Nota (opcional)').fill(values.nota);
}

/** Turns off the browser's own checks (min date, min duration) so the server's are what answers. */
const skipBrowserChecks = (page: Page) =>
  page.evaluate(() => document.querySelector('form:has([name="fecha"])')?.setAttribute('novalidate', ''));

/** With SCREENSHOT_DIR set, a full-page picture to look at (the layout review at both widths). */
async function shoot(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOT_DIR)
    await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/${name}.png`, fullPage: true });
}

/** Nothing in `scope` (default: the whole page) reaches past the right edge of the viewport. */
async function noHorizontalScroll(page: Page, scope = 'body'): Promise<void> {
  // The elements that reach past the right edge, named for a readable failure.
  const outside = await page.evaluate((selector) => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll(`${selector} *`)]
      .filter((element) => element.getBoundingClientRect().right > width + 0.5)
      .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].slice(0, 3).join('.')}`)
      .slice(0, 5);
  }, scope);
  expect(outside).toEqual([]);
}

/** The second invalid post: over 8 hours, and a link without a scheme (still a link). */
async function runInvalid(page: Page): Promise<void> {
  await skipBrowserChecks(page);
  await fillMeeting(page, {
    fecha: MEETING_DAY,
    hora: '10:30',
    duracion: '481',
    lugar: 'meet.google.com/abc-defg-hij',
  });
  await page.getByRole('button', { name: 'Enviar invitación' }).click();
  await page.waitForLoadState('load');
  expect(await page.locator('#r-duracion-error').textContent()).toBe(MEETING_MESSAGES.durationTooLong);
  expect(await page.locator('#r-lugar-error').textContent()).toBe(MEETING_MESSAGES.linkNotHttps);
  expect(await page.locator('#r-fecha-error').count()).toBe(0);
  expect(await page.getByLabel('Fecha', { exact: true }).inputValue()).toBe(MEETING_DAY);
}

describe('client meeting', () => {
  it('refuses a past date, a zero or too long duration and a non-https link with Spanish messages, keeping the values and sending nothing (without JavaScript)', async () => {
    const { context, page } = await signedIn(DESKTOP, false);
    await page.goto(`${server.url}/admin/clientes`);
    await page.getByRole('link', { name: 'Reunión — Farmacia Los Álamos SRL' }).click();
    await page.waitForURL(meetingUrl());
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Reunión');

    const yesterday = dayFromToday(-1);
    await skipBrowserChecks(page);
    await fillMeeting(page, {
      fecha: yesterday,
      hora: '10:00',
      duracion: '0',
      lugar: 'http://zoom.us/j/123',
      nota: NOTE,
    });
    const response = page.waitForResponse((item) => item.request().method() === 'POST');
    await page.getByRole('button', { name: 'Enviar invitación' }).click();
    expect((await response).status()).toBe(400);
    await page.waitForLoadState('load');
    expect(await page.getByRole('alert').textContent()).toBe(
      'No se envió la invitación. Revisa los campos marcados.',
    );
    expect(await page.locator('#r-fecha-error').textContent()).toBe(MEETING_MESSAGES.datePast);
    expect(await page.locator('#r-duracion-error').textContent()).toBe(MEETING_MESSAGES.durationZero);
    expect(await page.locator('#r-lugar-error').textContent()).toBe(MEETING_MESSAGES.linkNotHttps);
    expect(await page.locator('#r-hora-error').count()).toBe(0);
    expect(await page.getByLabel('Fecha', { exact: true }).inputValue()).toBe(yesterday);
    expect(await page.getByLabel('Hora de inicio (Santo Domingo)').inputValue()).toBe('10:00');
    expect(await page.getByLabel('Duración (minutos)').inputValue()).toBe('0');
    expect(await page.getByLabel('Lugar o enlace de la videollamada').inputValue()).toBe(
      'http://zoom.us/j/123',
    );
    expect(await page.getByLabel('Nota (opcional)').inputValue()).toBe(NOTE);
    expect(await page.getByLabel('Duración (minutos)').getAttribute('aria-invalid')).toBe('true');
    await context.close();

    // With JavaScript (axe needs it): over 8 hours; a link without a scheme also counts as a link.
    const withScript = await signedIn();
    const checked = withScript.page;
    const missing = await checked.goto(`${server.url}/admin/clientes/999999/reunion`);
    expect(missing?.status()).toBe(404);
    expect(await checked.getByRole('heading', { level: 1 }).textContent()).toBe('Cliente no encontrado');
    await checked.goto(meetingUrl());
    await expectNoAxeViolations(checked);
    await runInvalid(checked);
    await expectNoAxeViolations(checked);
    expect(await db.selectFrom('clientMeetings').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('mailOutbox').selectAll().execute()).toEqual([]);
    await withScript.context.close();
  });
});

describe('client meeting, sent and cancelled', () => {
  it('sends the invitation with a real iCalendar file to the representative and a copy to the staff member', async () => {
    const { context, page } = await signedIn();
    const consoleWatch = watchConsole(page);
    await page.goto(clientUrl());
    await page.getByRole('link', { name: 'Reunión', exact: true }).click();
    await page.waitForURL(meetingUrl());
    await fillMeeting(page, { fecha: MEETING_DAY, hora: '10:30', duracion: '90', lugar: LINK, nota: NOTE });
    await page.getByRole('button', { name: 'Enviar invitación' }).click();
    await page.waitForURL(/hecho=reunion/);
    expect(await page.getByRole('status').textContent()).toContain('Invitación enviada al cliente.');
    const coming = page.getByRole('list', { name: 'Reuniones próximas' }).locator('li');
    expect(await coming.count()).toBe(1);
    expect(await coming.first().textContent()).toContain(`${SHOWN} · 1 hora 30 minutos`);
    expect(await coming.first().textContent()).toContain(LINK);
    const newest = timelineItems(page).first();
    expect(await newest.textContent()).toContain(`Reunión enviada: ${SHOWN} · 1 hora 30 minutos · ${LINK}`);
    expect(await newest.textContent()).toContain(staff.email);
    await expectNoAxeViolations(page);
    consoleWatch.assertNone();

    const stored = await db.selectFrom('clientMeetings').selectAll().executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      startsAt: `${MEETING_DAY}T14:30:00.000Z`,
      durationMinutes: 90,
      sequence: 0,
      organizerEmail: staff.email,
    });

    const invitation = await smtp.waitFor(
      (mail) => toText(mail) === CLIENT_EMAIL && /^Invitación:/.test(mail.subject ?? ''),
    );
    expect(invitation.replyTo?.value[0]?.address).toBe(staff.email);
    expect(invitation.text).toContain('Traer el listado de sucursales.');
    expect(calendarPart(invitation)?.headers.get('content-type')).toMatchObject({
      value: 'text/calendar',
      params: { method: 'REQUEST' },
    });
    const { filename, ics } = calendarFile(invitation);
    expect(filename).toBe('invitacion.ics');
    expect(ics).toMatchObject({
      method: 'REQUEST',
      uid: stored.uid,
      sequence: 0,
      startTzid: 'America/Santo_Domingo',
      startLocal: `${MEETING_DAY}T10:30:00`,
      startUtc: `${MEETING_DAY}T14:30:00.000Z`,
      durationMinutes: 90,
      location: LINK,
      timezones: ['America/Santo_Domingo'],
    });
    expect(ics.organizer.value).toBe(`mailto:${staff.email}`);
    expect(ics.attendees).toEqual([
      {
        value: `MAILTO:${CLIENT_EMAIL}`,
        cn: 'Carmen Rodríguez',
        rsvp: 'TRUE',
        role: 'REQ-PARTICIPANT',
        partstat: 'NEEDS-ACTION',
      },
    ]);
    expect(ics.description).toContain('Traer el listado de sucursales.\n<b>sin formato</b>');

    const copy = await smtp.waitFor(
      (mail) => toText(mail) === staff.email && /^Copia — Invitación:/.test(mail.subject ?? ''),
    );
    expect(copy.text).toContain(CLIENT_EMAIL);
    expect(calendarFile(copy).ics).toMatchObject({ method: 'REQUEST', uid: stored.uid, sequence: 0 });
    await context.close();
  });

  it("lists it under 'Próximas reuniones' on the staff home, linked to the client; reads well at 390 px and 1280 px", async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page } = await signedIn(viewport);
      const consoleWatch = watchConsole(page);
      await page.goto(`${server.url}/admin`);
      const list = page.getByTestId('proximas-reuniones').locator('li');
      await list.first().scrollIntoViewIfNeeded();
      expect(await list.count()).toBe(1);
      const text = await list.first().innerText();
      expect(text).toContain(SHOWN);
      expect(text).toContain('Farmacia Los Álamos SRL');
      expect(text).toContain(LINK);
      // The card only: the rest of the home page belongs to the dashboard.
      await noHorizontalScroll(page, 'section[aria-labelledby="tarjeta-proximas-reuniones"]');
      // And the whole home, whose greeting names an account without a name by its long e-mail.
      await noHorizontalScroll(page);
      await expectNoAxeViolations(page);
      const link = list.first().getByRole('link', { name: 'Farmacia Los Álamos SRL' });
      expect(await link.getAttribute('href')).toBe(`/admin/clientes/${alamos}`);
      await link.click();
      await page.waitForURL(clientUrl());
      await noHorizontalScroll(page);
      await shoot(page, `cliente-${viewport.viewport!.width}`);
      await page.goto(meetingUrl());
      await noHorizontalScroll(page);
      await shoot(page, `reunion-${viewport.viewport!.width}`);
      await page.goto(`${server.url}/admin`);
      await shoot(page, `inicio-${viewport.viewport!.width}`);
      consoleWatch.assertNone();
      await context.close();
    }
  });

  it("'Cancelar reunión' asks first, naming the client, the date and who gets the mail, and 'No, volver al cliente' sends nothing (at 390 and 1280 px, with JavaScript)", async () => {
    const stored = await db.selectFrom('clientMeetings').selectAll().executeTakeFirstOrThrow();
    const outbox = async () => (await db.selectFrom('mailOutbox').select('id').execute()).length;
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page } = await signedIn(viewport);
      const consoleWatch = watchConsole(page);
      const before = await outbox();
      await page.goto(clientUrl());
      await page.getByRole('link', { name: `Cancelar reunión del ${SHOWN}` }).click();
      await page.waitForURL(`${meetingUrl()}?cancelar=${stored.id}`);
      const ask = page.getByTestId('confirmar-cancelacion');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
        '¿Cancelar la reunión con Farmacia Los Álamos SRL?',
      );
      expect(await ask.textContent()).toContain(`Reunión del ${SHOWN}`);
      expect(await ask.textContent()).toContain(
        `Se enviará la cancelación por correo a Carmen Rodríguez (${CLIENT_EMAIL})`,
      );
      await noHorizontalScroll(page);
      await expectNoAxeViolations(page);
      await shoot(page, `cancelar-reunion-${viewport.viewport!.width}`);
      // Asking cancelled nothing; going back leaves the meeting as it was.
      await page.getByRole('link', { name: 'No, volver al cliente' }).click();
      await page.waitForURL(`${clientUrl()}#reuniones`);
      expect(await page.getByRole('list', { name: 'Reuniones próximas' }).count()).toBe(1);
      expect(await outbox()).toBe(before);
      expect(
        (await db.selectFrom('clientMeetings').select(['sequence', 'cancelledAt']).executeTakeFirstOrThrow())
          .cancelledAt,
      ).toBeNull();
      consoleWatch.assertNone();
      await context.close();
    }
  });

  it("'Sí, cancelar la reunión' sends METHOD:CANCEL with the same UID and SEQUENCE + 1 and the meeting leaves 'Próximas reuniones' (without JavaScript)", async () => {
    const { context, page } = await signedIn(DESKTOP, false);
    const stored = await db.selectFrom('clientMeetings').selectAll().executeTakeFirstOrThrow();
    await page.goto(clientUrl());
    await page.getByRole('link', { name: `Cancelar reunión del ${SHOWN}` }).click();
    await page.waitForURL(`${meetingUrl()}?cancelar=${stored.id}`);
    expect(await page.getByTestId('confirmar-cancelacion').textContent()).toContain(
      'Farmacia Los Álamos SRL',
    );
    await page.getByRole('button', { name: 'Sí, cancelar la reunión' }).click();
    await page.waitForURL(/hecho=reunion-cancelada/);
    expect(await page.getByRole('status').textContent()).toContain('Reunión cancelada.');
    expect(await page.getByRole('list', { name: 'Reuniones próximas' }).count()).toBe(0);
    expect(await page.getByText('No hay reuniones próximas.').count()).toBe(1);
    expect(await timelineItems(page).first().textContent()).toContain(`Reunión cancelada: ${SHOWN}`);
    expect(await timelineItems(page).nth(1).textContent()).toContain('Reunión enviada');

    const cancellation = await smtp.waitFor(
      (mail) => toText(mail) === CLIENT_EMAIL && /^Cancelada:/.test(mail.subject ?? ''),
    );
    expect(calendarPart(cancellation)?.headers.get('content-type')).toMatchObject({
      params: { method: 'CANCEL' },
    });
    const { ics } = calendarFile(cancellation);
    expect(ics).toMatchObject({
      method: 'CANCEL',
      uid: stored.uid,
      sequence: 1,
      status: 'CANCELLED',
      startUtc: `${MEETING_DAY}T14:30:00.000Z`,
    });
    const copy = await smtp.waitFor(
      (mail) => toText(mail) === staff.email && /^Copia — Cancelada:/.test(mail.subject ?? ''),
    );
    expect(calendarFile(copy).ics).toMatchObject({ method: 'CANCEL', uid: stored.uid, sequence: 1 });
    expect(
      await db.selectFrom('clientMeetings').select(['sequence', 'cancelledBy']).executeTakeFirstOrThrow(),
    ).toEqual({ sequence: 1, cancelledBy: staff.email });

    await page.goto(`${server.url}/admin`);
    expect(await page.getByText('No hay reuniones programadas.').count()).toBe(1);
    expect(await page.getByTestId('proximas-reuniones').count()).toBe(0);

    // The confirmation of a meeting already cancelled asks nothing: it says so.
    await page.goto(`${meetingUrl()}?cancelar=${stored.id}`);
    expect(await page.getByTestId('confirmar-cancelacion').count()).toBe(0);
    expect(await page.getByRole('alert').textContent()).toBe(
      'Esa reunión ya estaba cancelada o ya terminó: no hay nada que cancelar.',
    );
    await context.close();
  });
  it('sends one invitation when the same form is sent twice (a double click, a resubmission)', async () => {
    const { context, page } = await signedIn(DESKTOP, false);
    await page.goto(meetingUrl());
    const requestId = await page.locator('input[name="solicitud"]').inputValue();
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const cookie = (await context.cookies()).map(({ name, value }) => `${name}=${value}`).join('; ');
    const post = () =>
      fetch(`${meetingUrl()}?_action=meetings.schedule`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, origin: server.url, 'x-forwarded-for': `198.51.100.${ipCounter}` },
        body: new URLSearchParams({
          solicitud: requestId,
          fecha: dayFromToday(12),
          hora: '09:00',
          duracion: '30',
          lugar: 'Oficina del cliente',
          nota: '',
        }),
      });
    const answers = await Promise.all([post(), post()]);
    expect(answers.map((answer) => [answer.status, answer.headers.get('location')])).toEqual(
      Array(2).fill([303, `/admin/clientes/${alamos}?hecho=reunion#reuniones`]),
    );
    const meetings = await db
      .selectFrom('clientMeetings')
      .select('uid')
      .where('uid', 'like', `${requestId}@%`)
      .execute();
    expect(meetings).toHaveLength(1);
    // The invitation and the staff copy, queued once.
    const queued = await db.selectFrom('mailOutbox').select('attachments').execute();
    expect(queued.filter((row) => row.attachments?.includes(meetings[0]!.uid))).toHaveLength(2);
    await smtp.waitFor(
      (mail) => toText(mail) === CLIENT_EMAIL && (mail.text ?? '').includes('Oficina del cliente'),
    );
    await context.close();
  });
});
