/**
 * Issue 21 against the production build, over plain HTTP (no browser) with a real SMTP peer and a
 * private Dovecot as the support mailbox: a mail waiting in the mailbox when the server starts is
 * polled at once, opens an incident (confirmation mailed) and is moved to 'Procesados'. A raw mail
 * posted to `POST /api/inbound-mail` opens an incident whose confirmation reaches the customer threaded
 * under their own mail with the incident's reply address; the customer's reply to that address, posted
 * the same way, lands as the customer's answer and the staff inbox hears it 'por correo'. The secret and
 * the size limit as the production server applies them (before Astro, past the site's 100 KiB rule).
 */
import { ImapFlow } from 'imapflow';
import type { ParsedMail } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import { dovecotProblem, startPrivateDovecot } from '../support/dovecot.ts';
import { inboundFixture, withMessageId } from '../support/inbound.ts';
import { firstStaffPassword } from '../support/server.ts';
import { useSite } from '../support/site.ts';

const SECRET = 'secreto-del-webhook-e2e-0123456789abcdef';
const STAFF_INBOX = 'buzon@verticeconsultores.com.do';
const INBOUND = 'soporte@vertice.example';
const MAX_BYTES = 256 * 1024;

/** The support mailbox, started before the server, with one mail already waiting in it. */
const imap = dovecotProblem ? null : await startPrivateDovecot();
const imapClient = () =>
  new ImapFlow({
    host: imap!.host,
    port: imap!.port,
    secure: false,
    auth: { user: imap!.user, pass: imap!.password },
    logger: false,
  });
const WAITING_SENDER = 'pedro@colmado.example';
if (imap) {
  const client = imapClient();
  await client.connect();
  const raw = inboundFixture('new-incident')
    .toString('utf8')
    .replaceAll('carmen@panaderia.example', WAITING_SENDER)
    .replace('Carmen Peralta', 'Pedro Almánzar');
  await client.append('INBOX', withMessageId(Buffer.from(raw), 'esperando@colmado.example'));
  await client.logout();
}
afterAll(async () => {
  await imap?.stop();
});

const { server, smtp } = useSite({
  browser: false,
  smtp: true,
  env: {
    LOG_LEVEL: 'warn',
    STAFF_INBOX,
    INBOUND_ADDRESS: INBOUND,
    INBOUND_WEBHOOK_SECRET: SECRET,
    INBOUND_MAX_BYTES: String(MAX_BYTES),
    ...(imap ? { INBOUND_IMAP_URL: imap.url, INBOUND_POLL_SECONDS: '3600' } : {}),
  },
});

const endpoint = () => `${server.url}/api/inbound-mail`;
const post = (body: Uint8Array | ReadableStream<Uint8Array>, secret = SECRET) =>
  fetch(endpoint(), {
    method: 'POST',
    // A copy as a plain Uint8Array (a Buffer's type is no BodyInit).
    body: body instanceof Uint8Array ? new Uint8Array(body) : body,
    headers: { 'Content-Type': 'message/rfc822', Authorization: `Bearer ${secret}` },
    duplex: 'half',
  } as RequestInit);
/** The first staff account's session cookie, from the sign-in form's own post. */
async function staffCookie(): Promise<string> {
  const response = await fetch(`${server.url}/admin-login`, {
    method: 'POST',
    body: new URLSearchParams({
      email: 'admin@verticeconsultores.com.do',
      password: firstStaffPassword(server),
    }),
    headers: { origin: server.url },
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}
const toAddress = (mail: ParsedMail) => (mail.to && 'text' in mail.to ? mail.to.text : '');

describe.skipIf(imap === null)('mail from customers in the support mailbox', () => {
  it('polls the mailbox at start: the waiting mail opens an incident and moves to Procesados, \\Seen', async () => {
    const confirmation = await smtp.waitFor((mail) => toAddress(mail).includes(WAITING_SENDER));
    expect(confirmation.inReplyTo).toBe('<esperando@colmado.example>');
    expect(confirmation.replyTo?.value[0]?.address).toMatch(/^soporte\+[0-9a-f]{32}@vertice\.example$/);
    const folders = async () => {
      const client = imapClient();
      await client.connect();
      try {
        const inbox = await client.status('INBOX', { messages: true });
        const done = await client
          .status('Procesados', { messages: true, unseen: true })
          .catch(() => false as const);
        return {
          inbox: inbox && inbox.messages,
          procesados: done && done.messages,
          sinLeer: done && done.unseen,
        };
      } finally {
        await client.logout();
      }
    };
    // The move follows the commit that queued the confirmation.
    await expect
      .poll(folders, { timeout: 15_000, interval: 100 })
      .toEqual({ inbox: 0, procesados: 1, sinLeer: 0 });
  });
});

describe('mail from customers through the webhook', () => {
  it('opens an incident by mail, confirms it in the customer thread, and takes the reply to it', async () => {
    const customerId = '<CAH7uXq4Zr9t1nE0bQf2W3vX5yZ6aB7cD8eF9gH0iJ1kL2mN3oP@mail.gmail.com>';
    const opened = await post(inboundFixture('new-incident'));
    expect(opened.status).toBe(202);
    expect(await opened.json()).toEqual({ resultado: 'new-incident' });

    const confirmation = await smtp.waitFor((mail) => toAddress(mail).includes('carmen@panaderia.example'));
    const numero = /INC-\d{8}-\d{4}/.exec(confirmation.subject ?? '')?.[0];
    expect(numero).toBeTruthy();
    expect(confirmation.inReplyTo).toBe(customerId);
    expect(confirmation.references).toBe(customerId);
    expect(confirmation.messageId).toMatch(/^<[0-9a-f]{32}@vertice\.example>$/);
    expect(confirmation.headers.get('auto-submitted')).toBe('auto-replied');
    const replyTo = confirmation.replyTo?.value[0]?.address ?? '';
    const token = /^soporte\+([0-9a-f]{32})@vertice\.example$/.exec(replyTo)?.[1];
    expect(token).toBeTruthy();
    expect(confirmation.text).toContain('responde a este correo');

    const notice = await smtp.waitFor(
      (mail) =>
        toAddress(mail).includes(STAFF_INBOX) && (mail.subject ?? '').includes(`Nueva incidencia ${numero}`),
    );
    expect(notice.headers.get('auto-submitted')).toBe('auto-generated');

    // The customer answers the confirmation from Gmail: to the incident's address, naming its Message-ID.
    const reply = inboundFixture('gmail-reply', {
      token,
      messageId: confirmation.messageId!.slice(1, -1),
      numero,
    });
    const answered = await post(reply);
    expect(answered.status).toBe(202);
    expect(await answered.json()).toEqual({ resultado: 'answer' });
    const heard = await smtp.waitFor(
      (mail) => (mail.subject ?? '') === `Respuesta del cliente en la incidencia ${numero}`,
    );
    expect(toAddress(heard)).toContain(STAFF_INBOX);
    expect(heard.text).toContain('El cliente respondió por correo');
    expect(heard.text).toContain('Ya reinicié la impresora fiscal');
    expect(heard.text).not.toContain('Recibimos tu solicitud');

    // Delivered again (a retrying MTA): stored once, nobody told twice.
    expect(await (await post(reply)).json()).toEqual({ resultado: 'duplicate' });

    // The number in the subject from the incident's address: joins it, unverified. A bounce of the
    // confirmation: the timeline says so.
    const bySubject = inboundFixture('subject-only', { numero })
      .toString('utf8')
      .replaceAll('maria@cliente.example', 'carmen@panaderia.example');
    expect(await (await post(Buffer.from(bySubject))).json()).toEqual({ resultado: 'unverified' });
    const bounce = inboundFixture('bounce', { numero, messageId: confirmation.messageId!.slice(1, -1) });
    expect(await (await post(bounce)).json()).toEqual({ resultado: 'bounce' });

    // The staff see it: origin 'Correo' on the list (and its filter) and the incident page, the answer
    // 'por correo' with 'Ver original', which is the raw mail as plain text, for staff only.
    const cookie = await staffCookie();
    const html = async (path: string) => {
      const response = await fetch(`${server.url}${path}`, { headers: { cookie } });
      expect(response.status).toBe(200);
      return response.text();
    };
    expect(await html('/admin/incidencias?origen=Correo')).toContain(numero);
    expect(await html('/admin/incidencias?origen=Formulario')).not.toContain(numero);
    const page = await html(`/admin/incidencias/${numero}`);
    expect(page).toContain('Origen: Correo');
    expect(page).toContain('· por correo');
    expect(page).toContain('Ya reinicié la impresora fiscal');
    expect(page).toContain('Remitente sin verificar');
    expect(page).toContain('El correo al cliente rebotó');
    // 'Ver original' of the mail that opened it, of the answer and of the unverified one, in that order.
    const originals = [...page.matchAll(/href="(\/api\/staff\/correo-original\/\d+)"/g)].map(
      (match) => match[1]!,
    );
    expect(originals).toHaveLength(3);
    const opening = await fetch(`${server.url}${originals[0]}`, { headers: { cookie } });
    expect(await opening.text()).toContain(`Message-ID: ${customerId}`);
    const original = originals[1]!;
    const raw = await fetch(`${server.url}${original}`, { headers: { cookie } });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(raw.headers.get('content-security-policy')).toContain('sandbox');
    const text = await raw.text();
    expect(text).toContain(
      'Message-ID: <CAJx8sN0fXq2+Vd1yH3kP_u7wQm9LzR4oT5bE6cA1dG2hF3iJ4k@mail.gmail.com>',
    );
    expect(text).toContain('escribi=C3=B3:');
    const anonymous = await fetch(`${server.url}${original}`, { redirect: 'manual' });
    expect(anonymous.status).not.toBe(200);
    expect(await anonymous.text()).not.toContain('Message-ID');
  });

  it('refuses a wrong secret (401) and a mail past INBOUND_MAX_BYTES (413), but takes one past the site-wide 100 KiB', async () => {
    const wrong = await post(inboundFixture('new-incident'), `${SECRET}-no`);
    expect(wrong.status).toBe(401);

    let sent = 0;
    const huge = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 4 * MAX_BYTES) return controller.close();
        sent += 16 * 1024;
        controller.enqueue(new Uint8Array(16 * 1024).fill(65));
      },
    });
    const refused = await post(huge);
    expect(refused.status).toBe(413);

    // 150 KiB: over the 100 KiB of any other route, within this one's limit.
    const padding = `${'Detalle del error repetido en el registro del sistema. '.repeat(2800)}\r\n`;
    const large = Buffer.concat([
      inboundFixture('new-incident').subarray(0, -2),
      Buffer.from(`\r\n${padding}`),
    ]);
    expect(large.length).toBeGreaterThan(100 * 1024);
    expect(large.length).toBeLessThan(MAX_BYTES);
    const accepted = await post(
      Buffer.from(
        large.toString('utf8').replace(/^Message-ID: .*$/m, 'Message-ID: <grande@panaderia.example>'),
      ),
    );
    expect(accepted.status).toBe(202);
  });
});
