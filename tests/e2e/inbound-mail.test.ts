/**
 * Issue 21 against the production build, over plain HTTP (no browser) with a real SMTP peer: a raw mail
 * posted to `POST /api/inbound-mail` opens an incident whose confirmation reaches the customer threaded
 * under their own mail with the incident's reply address; the customer's reply to that address, posted
 * the same way, lands as the customer's answer and the staff inbox hears it 'por correo'. The secret and
 * the size limit as the production server applies them (before Astro, past the site's 100 KiB rule).
 */
import type { ParsedMail } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { inboundFixture } from '../support/inbound.ts';
import { useSite } from '../support/site.ts';

const SECRET = 'secreto-del-webhook-e2e-0123456789abcdef';
const STAFF_INBOX = 'buzon@verticeconsultores.com.do';
const INBOUND = 'soporte@vertice.example';
const MAX_BYTES = 256 * 1024;

const { server, smtp } = useSite({
  browser: false,
  smtp: true,
  env: {
    LOG_LEVEL: 'warn',
    STAFF_INBOX,
    INBOUND_ADDRESS: INBOUND,
    INBOUND_WEBHOOK_SECRET: SECRET,
    INBOUND_MAX_BYTES: String(MAX_BYTES),
  },
});

const endpoint = () => `${server.url}/api/inbound-mail`;
const post = (body: BodyInit, secret = SECRET) =>
  fetch(endpoint(), {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'message/rfc822', Authorization: `Bearer ${secret}` },
    duplex: 'half',
  } as RequestInit);
const toAddress = (mail: ParsedMail) => (mail.to && 'text' in mail.to ? mail.to.text : '');

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
