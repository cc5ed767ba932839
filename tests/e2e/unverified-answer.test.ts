/**
 * Issue 38, F3, against the production build in Chromium: a mail From a customer's address naming the
 * incident number in its subject only (posted to the webhook, as an MTA would) is not on the
 * customer's follow-up page, nor is its file served to them, until a staff member presses 'Aceptar
 * como del cliente' on the incident page (a plain form: here without JavaScript, on a phone); then the
 * customer sees it and its file, and the timeline and the activity log say who accepted it.
 */
import { beforeAll, expect, it } from 'vitest';
import { PHONE } from '../support/browser.ts';
import { PDF } from '../support/attachments.ts';
import { insertIncident } from '../support/factories.ts';
import { issueFollowUpToken } from '../../src/server/incidents/follow-up.ts';
import { useSite } from '../support/site.ts';
import { signInStaff } from '../support/staff-login.ts';

const SECRET = 'secreto-del-webhook-e2e-0123456789abcdef';
const NUMERO = 'INC-20250307-4242';
const FORGED = 'Les envío la factura corregida: paguen a la cuenta nueva.';

const { server, browser, db, staff } = useSite({
  env: { LOG_LEVEL: 'warn', INBOUND_ADDRESS: 'soporte@vertice.example', INBOUND_WEBHOOK_SECRET: SECRET },
});

let token = '';
let fileId = 0;

/** A mail From María's own address with the number in the subject only, and a PDF. */
function forgedMail(): Buffer {
  const boundary = 'limite-0123456789';
  return Buffer.from(
    [
      'From: =?UTF-8?Q?Mar=C3=ADa_Rodr=C3=ADguez?= <maria@cliente.example>',
      'To: soporte@vertice.example',
      `Subject: Re: Incidencia ${NUMERO}`,
      'Message-ID: <falso-e2e@cliente.example>',
      'MIME-Version: 1.0',
      `Content-Type: multipart/mixed; boundary="${boundary}"`,
      '',
      `--${boundary}`,
      'Content-Type: text/plain; charset=UTF-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      FORGED,
      `--${boundary}`,
      'Content-Type: application/pdf; name="factura.pdf"',
      'Content-Disposition: attachment; filename="factura.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      PDF.toString('base64'),
      `--${boundary}--`,
      '',
    ].join('\r\n'),
  );
}

beforeAll(async () => {
  const incident = await insertIncident(db, {
    numeroIncidencia: NUMERO,
    nombre: 'María Rodríguez',
    email: 'maria@cliente.example',
  });
  token = await issueFollowUpToken(db, incident.id, new Date());
  const posted = await fetch(`${server.url}/api/inbound-mail`, {
    method: 'POST',
    body: new Uint8Array(forgedMail()),
    headers: { 'Content-Type': 'message/rfc822', Authorization: `Bearer ${SECRET}` },
  });
  expect(await posted.json()).toEqual({ resultado: 'unverified' });
  const file = await db
    .selectFrom('incidentAttachments')
    .select('id')
    .where('incidentId', '=', incident.id)
    .executeTakeFirstOrThrow();
  fileId = file.id;
});

it("an unverified answer reaches the customer's page, with its file, only once staff press 'Aceptar como del cliente' (no JavaScript)", async () => {
  const followUp = `${server.url}/soporte/seguimiento?token=${token}`;
  const customerFile = `${server.url}/soporte/adjuntos/${fileId}/factura.pdf?token=${token}`;
  const customer = await browser.newContext(PHONE);
  const { context, page } = await signInStaff(
    browser,
    server.url,
    { email: staff.email, password: staff.password, network: '198.51.100.38' },
    { ...PHONE, javaScriptEnabled: false },
  );
  try {
    const visitor = await customer.newPage();
    await visitor.goto(followUp);
    await expect.poll(() => visitor.locator('main').innerText()).toContain(NUMERO);
    expect(await visitor.locator('main').innerText()).not.toContain('factura corregida');
    expect(await visitor.getByText('factura.pdf').count()).toBe(0);
    expect((await customer.request.get(customerFile)).status()).toBe(404);

    await page.goto(`${server.url}/admin/incidencias/${NUMERO}`);
    const answer = page.locator('[data-tipo="answer"]');
    await expect.poll(() => answer.innerText()).toContain('Remitente sin verificar');
    expect(await answer.innerText()).toContain('el cliente no la ve');
    await answer.getByRole('button', { name: 'Aceptar como del cliente' }).click();
    await page.waitForURL(/hecho=aceptada/);
    expect(await page.getByRole('status').innerText()).toContain('Aceptaste la respuesta como del cliente');
    expect(await answer.getByTestId('aceptada').innerText()).toContain('Aceptada como del cliente por');
    expect(await answer.getByRole('button', { name: 'Aceptar como del cliente' }).count()).toBe(0);
    expect(await page.getByTestId('respuesta-aceptada').innerText()).toContain(
      'Aceptó como del cliente la respuesta por correo',
    );

    await visitor.reload();
    const main = await visitor.locator('main').innerText();
    expect(main).toContain('Tu respuesta');
    expect(main).toContain('factura corregida');
    const served = await customer.request.get(customerFile);
    expect(served.status()).toBe(200);
    expect(Buffer.from(await served.body()).equals(PDF)).toBe(true);

    const events = await db
      .selectFrom('auditEvents')
      .select(['action', 'subject', 'actorEmail'])
      .where('action', '=', 'incident.answer-accepted')
      .execute();
    expect(events).toEqual([
      { action: 'incident.answer-accepted', subject: NUMERO, actorEmail: staff.email },
    ]);
  } finally {
    await context.close();
    await customer.close();
  }
});
