/**
 * The support desk's conversation side (issue 11) against the production build, in Chromium with a
 * real SMTP peer and two staff accounts: 'Asignar a' (timeline, header, the assignee's mail, none on
 * self-assignment, without JavaScript too), who resolved it, the 'Copiar' buttons, a reply reaching
 * the visitor's mailbox and follow-up page, a note reaching neither, the visitor's answer typed on the
 * follow-up page reopening the resolved incident and mailing the assignee, XSS payloads in replies,
 * notes and answers (page, mail, CSV), the other staff member's view on reload, and axe.
 */
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { ParsedMail } from 'mailparser';
import { beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_SENT_MESSAGE } from '../../src/domain/forms/tracking.ts';
import { DESKTOP, expectNoAxeViolations, poll, watchConsole } from '../support/browser.ts';
import { insertIncident } from '../support/factories.ts';
import { TRACKING_NOT_FOUND } from '../../src/domain/forms/tracking.ts';
import { issueFollowUpToken } from '../../src/server/incidents/follow-up.ts';
import { ageFormStamps, formStamp } from '../support/form-stamp.ts';
import { postForm } from '../support/http.ts';
import { firstStaffPassword, createStaffAccount } from '../support/server.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';

const FIRST = 'admin@verticeconsultores.com.do';
const SECOND = 'luis@verticeconsultores.com.do';
const SECOND_PASSWORD = 'guayacán-brújula-zafiro-segunda-cuenta-77';
/** The second account's name (`admin create --name`): how 'Asignar a', the timeline and the mails show it. */
const SECOND_NAME = 'Luis Gómez';
const SECOND_LABEL = `${SECOND_NAME} · ${SECOND}`;
/** The name the first account gives itself in Configuración before replying. */
const FIRST_NAME = 'Ana Pérez';
const ADMIN_EMAILS = `${FIRST},${SECOND}`;
const STAFF_INBOX = 'buzon@verticeconsultores.com.do';

const { server, browser, smtp, quietContext, db } = useSite({
  smtp: true,
  env: { TRUST_PROXY: 'true', LOG_LEVEL: 'warn', ADMIN_EMAILS, STAFF_INBOX },
});

const NUMERO = 'INC-20250116-5001';
const OTHER = 'INC-20250116-5002';
const VISITOR = 'maria@cliente.example';
const SCRIPT = '<script>alert(1)</script>';
const IMG = '"><img src=x onerror=alert(1)>';
const REPLY = `Hola María: ${SCRIPT}\nRespuesta con ${IMG}`;
const NOTE = `Nota privada ${SCRIPT} ${IMG}`;
const ANSWER = `Sigue sin imprimir ${SCRIPT}\nOtra línea ${IMG}`;

let firstPassword = '';
let ipCounter = 0;
// src/actions/guards.ts imports astro:actions, which exists only in the build: its messages as written there.
const TOO_FAST_MESSAGE = 'No pudimos procesar el envío. Espera unos segundos e inténtalo de nuevo.';
const RATE_LIMIT_MESSAGE =
  'Has enviado demasiadas solicitudes en poco tiempo. Espera unos minutos e inténtalo de nuevo.';
/** A follow-up token of OTHER, as its mails would carry it. */
let otherToken = '';

beforeAll(async () => {
  firstPassword = firstStaffPassword(server);
  expect(firstPassword).toBeTruthy();
  expect(/Cuenta de personal creada: (\S+)/.exec(server.output())?.[1]).toBe(FIRST);
  await createStaffAccount(
    server,
    { email: SECOND, password: SECOND_PASSWORD, name: SECOND_NAME },
    ADMIN_EMAILS,
  );
  await insertIncident(db, {
    numeroIncidencia: NUMERO,
    problema: 'La impresora no imprime.',
    nombre: 'María Núñez',
    telefono: '809-555-0199',
    email: VISITOR,
    rnc: '131-12345-6',
  });
  const other = await insertIncident(db, {
    numeroIncidencia: OTHER,
    nombre: 'Pedro',
    email: 'pedro@cliente.example',
  });
  otherToken = await issueFollowUpToken(db, other.id, new Date());
});

/** A visitor of the public pages, from a network of its own, past the announcement toast. */
async function visitorContext(): Promise<BrowserContext> {
  ipCounter += 1;
  return quietContext({ ...DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${ipCounter}` } });
}

async function signedIn(
  email: string,
  password: string,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  ipCounter += 1;
  return signInStaff(
    browser,
    server.url,
    { email, password, network: `198.51.100.${ipCounter}` },
    { ...DESKTOP, ...options },
  );
}

const incidentUrl = (numero: string) => `${server.url}/admin/incidencias/${numero}`;
const kinds = (page: Page) =>
  page.locator('[data-tipo]').evaluateAll((items) => items.map((item) => item.getAttribute('data-tipo')));
const toAddress = (mail: ParsedMail) => (mail.to && 'text' in mail.to ? mail.to.text : '');

/** Fails the test when a payload ran: an alert, or an element the payload would have created. */
async function expectInert(page: Page, dialogs: string[]): Promise<void> {
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(
    await page.evaluate(() =>
      [...document.scripts].some((script) => script.textContent?.includes('alert(1)')),
    ),
  ).toBe(false);
  expect(dialogs).toEqual([]);
}

function recordDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return dialogs;
}

describe('support desk', () => {
  it('assigns to another staff member (mailed with the link), to oneself (no mail) and back; the header and timeline say so', async () => {
    const { context, page } = await signedIn(FIRST, firstPassword);
    const consoleWatch = watchConsole(page);
    await page.goto(incidentUrl(NUMERO));
    expect(await page.getByTestId('asignada-a').textContent()).toBe('Sin asignar');
    const options = await page.getByLabel('Asignar a').locator('option').allTextContents();
    expect(options.map((option) => option.trim())).toEqual(['Sin asignar', `${FIRST} (tú)`, SECOND_LABEL]);

    await page.getByLabel('Asignar a').selectOption({ label: SECOND_LABEL });
    await page.getByRole('button', { name: 'Asignar', exact: true }).click();
    await page.waitForURL(/hecho=asignada$/);
    expect(await page.getByRole('status').first().textContent()).toBe(
      'La incidencia quedó asignada. Se avisó por correo a la persona asignada.',
    );
    expect(await page.getByTestId('asignada-a').textContent()).toBe(SECOND_LABEL);
    const assignment = page.locator('[data-tipo="assignment"]');
    // The timeline names staff by name; an account without one (FIRST) by its e-mail.
    expect(await assignment.innerText()).toContain(FIRST);
    expect(await assignment.innerText()).toContain(`Asignada a ${SECOND_NAME}`);
    expect(await assignment.innerText()).not.toContain(SECOND);
    await expectNoAxeViolations(page);

    const mail = await smtp.waitFor((item) => item.subject === `Te asignaron la incidencia ${NUMERO}`);
    expect(toAddress(mail)).toContain(SECOND);
    expect(toAddress(mail)).toContain(SECOND_NAME);
    expect(mail.text).toContain(`Hola, ${SECOND_NAME}:`);
    expect(mail.text).toContain(`${server.url}/admin/incidencias/${NUMERO}`);
    expect(mail.text).toContain(`${FIRST} te asignó la incidencia`);

    // To oneself: recorded, no mail. Then back to the second account, whose mail proves the outbox
    // ran past the self-assignment.
    await page.getByLabel('Asignar a').selectOption({ label: `${FIRST} (tú)` });
    await page.getByRole('button', { name: 'Asignar', exact: true }).click();
    await page.waitForURL(/hecho=asignada-a-ti/);
    expect(await page.getByTestId('asignada-a').textContent()).toBe(FIRST);
    await page.getByLabel('Asignar a').selectOption({ label: SECOND_LABEL });
    await page.getByRole('button', { name: 'Asignar', exact: true }).click();
    await page.waitForURL(/hecho=asignada$/);
    await poll(
      () => smtp.messages.filter((item) => item.subject === `Te asignaron la incidencia ${NUMERO}`).length,
    ).toBe(2);
    expect(smtp.messages.filter((item) => toAddress(item).includes(FIRST))).toEqual([]);
    expect(await page.locator('[data-tipo="assignment"]').count()).toBe(3);
    consoleWatch.assertNone();

    const events = await db
      .selectFrom('auditEvents')
      .select(['action', 'actorEmail', 'detail'])
      .where('action', '=', 'incident.assigned')
      .orderBy('id')
      .execute();
    expect(events.map((event) => [event.actorEmail, event.detail])).toEqual([
      [FIRST, SECOND],
      [FIRST, FIRST],
      [FIRST, SECOND],
    ]);
    await context.close();
  });

  it('assigns without JavaScript, and shows the details as plain text there; with JavaScript each has a working Copiar button', async () => {
    const { context } = await signedIn(FIRST, firstPassword);
    const noScript = await browser.newContext({
      ...DESKTOP,
      storageState: await context.storageState(),
      javaScriptEnabled: false,
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.200' },
    });
    const bare = await noScript.newPage();
    await bare.goto(incidentUrl(OTHER));
    expect(await bare.getByRole('button', { name: /^Copiar/ }).count()).toBe(0);
    expect(await bare.locator('[data-copy-value="Correo"]').textContent()).toBe('pedro@cliente.example');
    await bare.getByLabel('Asignar a').selectOption({ label: SECOND_LABEL });
    await bare.getByRole('button', { name: 'Asignar', exact: true }).click();
    await bare.waitForURL(/hecho=asignada$/);
    expect(await bare.getByTestId('asignada-a').textContent()).toBe(SECOND_LABEL);
    await smtp.waitFor((item) => item.subject === `Te asignaron la incidencia ${OTHER}`);
    await noScript.close();

    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    const consoleWatch = watchConsole(page);
    await page.goto(incidentUrl(NUMERO));
    const copies = page.getByRole('button', { name: /^Copiar / });
    await poll(() => copies.count()).toBe(4);
    for (const [name, value] of [
      ['Copiar nombre', 'María Núñez'],
      ['Copiar teléfono', '809-555-0199'],
      ['Copiar correo', VISITOR],
      ['Copiar RNC', '131-12345-6'],
    ] as const) {
      await page.getByRole('button', { name, exact: true }).click();
      await poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(value);
    }
    await poll(() => page.getByTestId('copiado').textContent()).toBe('RNC copiado.');
    await expectNoAxeViolations(page);
    consoleWatch.assertNone();
    await context.close();
  });

  it('records who resolved it; a reply reaches the mailbox and follow-up page, a note neither; the visitor answer reopens it and mails the assignee; the other staff member sees it all on reload; payloads stay text', async () => {
    const { context, page } = await signedIn(FIRST, firstPassword);
    const dialogs = recordDialogs(page);
    const consoleWatch = watchConsole(page);
    // The second staff member has the page open already.
    const second = await signedIn(SECOND, SECOND_PASSWORD);
    const secondDialogs = recordDialogs(second.page);
    await second.page.goto(incidentUrl(NUMERO));
    const before = (await kinds(second.page)).length;

    // The first account takes a name in Configuración: from then on the timeline and the reply's mail
    // say it (records keep the e-mail; the name is looked up when shown).
    await page.goto(`${server.url}/admin/configuracion`);
    await page.getByRole('textbox', { name: 'Nombre', exact: true }).fill(FIRST_NAME);
    await page.getByRole('button', { name: 'Guardar nombre' }).click();
    await page.waitForURL(/hecho=nombre/);

    await page.goto(incidentUrl(NUMERO));
    // A note and a reply, both with the payloads.
    await page.getByLabel('Respuesta o nota').fill(NOTE);
    await page.getByRole('button', { name: 'Agregar nota interna' }).click();
    await page.waitForURL(/hecho=nota/);
    await page.getByLabel('Respuesta o nota').fill(REPLY);
    await page.getByRole('button', { name: 'Responder al cliente' }).click();
    await page.waitForURL(/hecho=respuesta/);
    expect(await page.locator('[data-tipo="note"]').innerText()).toContain(NOTE);
    expect(await page.locator('[data-tipo="reply"]').innerText()).toContain(REPLY);
    await expectInert(page, dialogs);

    // 'Resuelto' through the state control: the timeline says who.
    await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
    await page.getByLabel('Estado', { exact: true }).selectOption('Resuelto');
    await Promise.all([
      page.waitForURL(/hecho=estado-notificado/),
      page.getByRole('button', { name: 'Guardar', exact: true }).click(),
    ]);
    const resolved = page.locator('[data-tipo="state"]').filter({ hasText: 'Resuelto' });
    expect(await resolved.innerText()).toContain(FIRST_NAME);
    expect(await resolved.innerText()).not.toContain(FIRST);
    expect(await page.getByTestId('estado-actual').textContent()).toBe('Resuelto');

    // The reply's mail: escaped in the HTML, the note nowhere.
    const replyMail = await smtp.waitFor((item) => item.subject === `Respuesta a tu incidencia ${NUMERO}`);
    expect(toAddress(replyMail)).toContain(VISITOR);
    expect(replyMail.text).toContain(REPLY);
    expect(replyMail.text).toContain(
      `${FIRST_NAME}, de nuestro equipo de soporte, respondió a tu incidencia ${NUMERO}.`,
    );
    expect(replyMail.text).not.toContain(FIRST);
    expect(String(replyMail.html)).not.toContain(SCRIPT);
    expect(String(replyMail.html)).not.toContain('<img src=x');
    expect(String(replyMail.html)).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(
      smtp.messages.some((item) => `${item.text ?? ''}${String(item.html)}`.includes('Nota privada')),
    ).toBe(false);
    const link = /(https?:\/\/\S+\/soporte\/seguimiento\?token=[A-Za-z0-9_-]{24})/.exec(
      replyMail.text ?? '',
    )?.[1];
    expect(link).toBeTruthy();

    // The visitor: the reply as text, never the note; answers in the 'Responder' box.
    const visitor = await visitorContext();
    const followUp = await visitor.newPage();
    await ageFormStamps(followUp, server.url);
    const visitorDialogs = recordDialogs(followUp);
    await followUp.goto(link!.replace(/^https?:\/\/[^/]+/, server.url));
    await poll(() => followUp.getByTestId('respuesta').allInnerTexts()).toEqual([REPLY]);
    expect(await followUp.content()).not.toContain('Nota privada');
    await expectNoAxeViolations(followUp);
    // Empty: refused with its message, nothing stored.
    await followUp.getByRole('button', { name: 'Enviar respuesta' }).click();
    await followUp.waitForLoadState('load');
    expect(await followUp.getByText('Escribe tu respuesta antes de enviarla.').count()).toBe(1);
    expect(await followUp.getByLabel('Tu respuesta').getAttribute('aria-invalid')).toBe('true');
    // From here on nothing is refused (the refusal above answers 400, which Chromium logs as an error).
    const visitorConsole = watchConsole(followUp);
    await followUp.getByLabel('Tu respuesta').pressSequentially(ANSWER.split('\n')[0]!);
    await followUp.keyboard.press('Enter');
    await followUp.keyboard.type(ANSWER.split('\n')[1]!);
    await followUp.getByRole('button', { name: 'Enviar respuesta' }).click();
    await followUp.waitForURL(/respuesta=enviada/);
    expect(await followUp.getByText(ANSWER_SENT_MESSAGE).count()).toBe(1);
    await poll(() => followUp.getByTestId('tu-respuesta').allInnerTexts()).toEqual([ANSWER]);
    expect(await followUp.getByLabel('Tu respuesta').inputValue()).toBe('');
    expect(await followUp.locator('main').innerText()).toContain('En Proceso');
    await expectInert(followUp, visitorDialogs);
    await expectNoAxeViolations(followUp);
    await visitor.close();

    // The assignee's mail with the answer, escaped.
    const answerMail = await smtp.waitFor(
      (item) => item.subject === `Respuesta del cliente en la incidencia ${NUMERO}`,
    );
    expect(toAddress(answerMail)).toContain(SECOND);
    expect(answerMail.text).toContain(ANSWER);
    expect(answerMail.text).toContain('reabierta por el cliente');
    expect(String(answerMail.html)).not.toContain(SCRIPT);
    expect(String(answerMail.html)).not.toContain('<img src=x');
    expect(
      smtp.messages.some(
        (item) => toAddress(item).includes(STAFF_INBOX) && item.subject?.includes('Respuesta del cliente'),
      ),
    ).toBe(false);

    // The other staff member, on reload: the note, the reply, the resolution, the reopening and the answer.
    await second.page.reload();
    const after = await kinds(second.page);
    expect(after.length).toBeGreaterThan(before);
    expect(after.slice(-5)).toEqual(['note', 'reply', 'state', 'state', 'answer']);
    expect(await second.page.getByTestId('estado-actual').textContent()).toBe('En Proceso');
    const reopened = second.page.locator('[data-tipo="state"]').last();
    expect(await reopened.innerText()).toContain('reabierta por el cliente');
    expect(await reopened.innerText()).toContain('En Proceso');
    expect(await second.page.locator('[data-tipo="answer"]').innerText()).toContain(ANSWER);
    expect(await second.page.locator('[data-tipo="note"]').innerText()).toContain(NOTE);
    await expectInert(second.page, secondDialogs);
    await expectNoAxeViolations(second.page);

    // The staff CSV: no conversation text in it (problem and states only).
    const csv = await (await page.request.get(`${server.url}/api/staff/incidencias.csv`)).text();
    expect(csv).toContain(NUMERO);
    expect(csv).toContain('reabierta por el cliente');
    for (const text of ['Nota privada', 'Hola María', 'Sigue sin imprimir', 'alert(1)'])
      expect(csv).not.toContain(text);
    consoleWatch.assertNone();
    visitorConsole.assertNone();
    await second.context.close();
    await context.close();
  });

  it('shows no Responder box when the follow-up page is opened with the number and e-mail', async () => {
    const visitor = await visitorContext();
    const page = await visitor.newPage();
    await page.goto(`${server.url}/soporte/seguimiento`);
    await page.getByLabel('Número de incidencia').fill(NUMERO);
    await page.getByLabel('Correo electrónico').fill(VISITOR);
    await page.getByRole('button', { name: 'Consultar estado' }).click();
    await page.waitForLoadState('load');
    await poll(() => page.getByRole('heading', { name: NUMERO }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Responder' }).count()).toBe(0);
    expect(await page.getByLabel('Tu respuesta').count()).toBe(0);
    const body = await page.locator('main').innerText();
    expect(body).not.toContain('Sigue sin imprimir');
    expect(body).not.toContain('Hola María');
    await visitor.close();
  });

  it('refuses answers as the public forms do: honeypot, start time, too fast, per-network limit, unknown token, too long; nothing stored', async () => {
    const answers = () =>
      db.selectFrom('incidentEntries').select('body').where('kind', '=', 'answer').execute();
    const before = (await answers()).length;
    const post = (fields: Record<string, string>, network: string) =>
      postForm(server.url, '/_actions/incidents.answer', fields, { headers: { 'x-forwarded-for': network } });
    const message = (body: string) => (JSON.parse(body) as { message: string }).message;
    const good = (respuesta: string) => ({ token: otherToken, respuesta, startedAt: formStamp() });

    for (const [label, fields, reason] of [
      ['honeypot', { ...good('Bot'), website: 'https://spam.test' }, 'honeypot'],
      ['missing stamp', { token: otherToken, respuesta: 'Bot' }, 'stamp-missing'],
      [
        'forged stamp',
        { ...good('Bot'), startedAt: formStamp({ secret: 'un-secreto-que-el-servidor-no-conoce-0123' }) },
        'stamp-forged',
      ],
      ['too fast', { ...good('Bot'), startedAt: formStamp({ ageMs: 0 }) }, 'too-fast'],
    ] as const) {
      const response = await post(fields, '192.0.2.10');
      expect(response.status, label).toBe(400);
      await poll(() => server.output()).toMatch(
        new RegExp(`"action":"incidents\\.answer","network":"192\\.0\\.2\\.10","reason":"${reason}"`),
      );
    }
    expect(message((await post({ ...good('Bot'), website: 'x' }, '192.0.2.10')).body)).toBe(TOO_FAST_MESSAGE);
    // The same network, done properly: stored.
    expect((await post(good('Bot'), '192.0.2.10')).status).toBe(200);

    // Too long: the field's message; unknown token: the neutral message.
    const long = await post(good('x'.repeat(5001)), '192.0.2.11');
    expect(long.status).toBe(400);
    expect(long.body).toContain('La respuesta admite como máximo 5.000 caracteres.');
    const unknown = await post({ ...good('Hola'), token: 'A'.repeat(24) }, '192.0.2.11');
    expect(unknown.status).toBe(404);
    expect(message(unknown.body)).toBe(TRACKING_NOT_FOUND);

    // FORM_RATE_LIMIT (5) per network per 10 minutes, the unknown token's try included; another network is unaffected.
    for (let index = 0; index < 4; index += 1)
      expect((await post(good(`Respuesta ${index}`), '192.0.2.11')).status).toBe(200);
    const limited = await post(good('Una más'), '192.0.2.11');
    expect(limited.status).toBe(429);
    expect(message(limited.body)).toBe(RATE_LIMIT_MESSAGE);
    expect((await post(good('Desde otra red'), '192.0.2.12')).status).toBe(200);

    // Stored: the one from 192.0.2.10 that passed, four, and the other network's; never a refused one.
    const bodies = (await answers()).map((row) => row.body);
    expect(bodies.length - before).toBe(6);
    expect(bodies).not.toContain('Una más');
    expect(bodies.filter((body) => body === 'Bot')).toHaveLength(1);
  });
});
