import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveContactMessage } from '../../src/server/contact/index.ts';
import { openDatabase } from '../../src/server/db/index.ts';
import {
  claimDueMail,
  enqueueMail,
  GIVE_UP_AFTER_MS,
  retryDelayMs,
  startMailWorker,
} from '../../src/server/mail/outbox.ts';
import { contactStaffNoticeMail } from '../../src/server/mail/contact-mails.ts';
import { incidentConfirmationMail } from '../../src/server/channels/mail/customer-mails.ts';
import { emailJsTransport, smtpTransport } from '../../src/server/mail/transports.ts';
import { MailDeliveryError } from '../../src/server/mail/types.ts';
import { describeEachEngine } from '../support/db.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';
import { freePort } from '../support/server.ts';
import { startSmtpPeer } from '../support/smtp.ts';

const FROM = 'Vértice Consultores <no-reply@vertice.example>';

describeEachEngine('mail outbox', (database) => {
  it('stores a contact message while SMTP is down and delivers it once the server is up', async () => {
    const { db } = database();
    const port = await freePort();
    const transport = smtpTransport(`smtp://127.0.0.1:${port}`, FROM);
    let clock = new Date('2025-06-01T14:00:00.000Z');
    const worker = startMailWorker({ db, transport, now: () => clock, poll: false });
    try {
      const saved = await saveContactMessage(
        db,
        {
          name: 'María Gómez',
          email: 'maria@cliente.example',
          message: 'Quiero una demostración de AdmCloud.',
        },
        { brand, staffInbox: 'soporte@vertice.example', now: clock },
      );
      const stored = await db
        .selectFrom('contactMessages')
        .selectAll()
        .where('id', '=', saved.id)
        .executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ name: 'María Gómez', email: 'maria@cliente.example' });

      // Nobody listens on the port: both attempts (the staff notice, the confirmation to María) fail
      // and are scheduled one minute later.
      expect(await worker.runOnce()).toBe(2);
      const failed = await db
        .selectFrom('mailOutbox')
        .selectAll()
        .where('kind', '=', 'contact.received')
        .executeTakeFirstOrThrow();
      expect(failed).toMatchObject({ status: 'pending', attempts: 1, lockedUntil: null });
      expect(failed.lastError).toMatch(/SMTP/);
      expect(Date.parse(failed.nextAttemptAt) - clock.getTime()).toBe(60_000);
      expect(await worker.runOnce()).toBe(0); // not due yet

      const peer = await startSmtpPeer({ port });
      try {
        clock = new Date(clock.getTime() + 61_000);
        expect(await worker.runOnce()).toBe(2);
        const mail = await peer.waitFor(
          (item) => item.subject === 'Nuevo mensaje de contacto de María Gómez',
        );
        expect(mail.replyTo?.value[0]?.address).toBe('maria@cliente.example');
        expect(mail.to && 'value' in mail.to ? mail.to.value[0]?.address : undefined).toBe(
          'soporte@vertice.example',
        );
        expect(mail.text).toContain('Quiero una demostración de AdmCloud.');
        const sent = await db
          .selectFrom('mailOutbox')
          .selectAll()
          .where('id', '=', failed.id)
          .executeTakeFirstOrThrow();
        expect(sent).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
        expect(await worker.runOnce()).toBe(0);
        // The confirmation (issue 25 §4): to the person who wrote, only the site's words.
        const confirmation = await peer.waitFor(
          (item) => item.subject === 'Recibimos tu mensaje — Vértice Consultores',
        );
        expect(
          confirmation.to && 'value' in confirmation.to ? confirmation.to.value[0]?.address : undefined,
        ).toBe('maria@cliente.example');
        expect(confirmation.text).toContain('Tu mensaje llegó a nuestro equipo');
        for (const typed of ['María', 'Gómez', 'demostración', 'AdmCloud']) {
          expect(`${confirmation.subject}\n${confirmation.text}\n${confirmation.html || ''}`).not.toContain(
            typed,
          );
        }
        expect(peer.messages).toHaveLength(2);
      } finally {
        await peer.stop();
      }
    } finally {
      await worker.stop();
      transport.close?.();
    }
  });

  it('backs off 1, 2, 4 … minutes up to an hour, and gives up after 24 hours', async () => {
    expect([1, 2, 3, 4, 7, 8, 20].map((n) => retryDelayMs(n) / 60_000)).toEqual([1, 2, 4, 8, 60, 60, 60]);
    const { db } = database();
    const created = new Date('2025-06-02T08:00:00.000Z');
    const id = await enqueueMail(
      db,
      { kind: 'test.giveup', to: 'x@cliente.example', subject: 'Rendirse', text: 't', html: '<p>t</p>' },
      created,
    );
    const transport = smtpTransport(`smtp://127.0.0.1:${await freePort()}`, FROM);
    let clock = new Date(created.getTime() + GIVE_UP_AFTER_MS - 1000);
    const worker = startMailWorker({ db, transport, now: () => clock, poll: false });
    try {
      await db.updateTable('mailOutbox').set({ attempts: 30 }).where('id', '=', id).execute();
      await worker.runOnce();
      expect(
        (await db.selectFrom('mailOutbox').select('status').where('id', '=', id).executeTakeFirstOrThrow())
          .status,
      ).toBe('pending');
      clock = new Date(created.getTime() + GIVE_UP_AFTER_MS + 3_600_000);
      await worker.runOnce();
      const row = await db
        .selectFrom('mailOutbox')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('failed');
      expect(row.lastError).toMatch(/SMTP/);
    } finally {
      await worker.stop();
      transport.close?.();
    }
  });

  it('never sends a row twice with two workers on one database', async () => {
    const { db, url } = database();
    await db.updateTable('mailOutbox').set({ status: 'sent' }).where('status', '=', 'pending').execute();
    const peer = await startSmtpPeer();
    const second = openDatabase(url);
    const transports = [smtpTransport(peer.url, FROM), smtpTransport(peer.url, FROM)];
    try {
      const now = new Date();
      for (let index = 0; index < 40; index += 1) {
        await enqueueMail(
          db,
          {
            kind: 'test.double',
            to: 'soporte@vertice.example',
            subject: `Prueba ${index}`,
            text: `n ${index}`,
            html: `<p>${index}</p>`,
          },
          now,
        );
      }
      const workers = [
        startMailWorker({ db, transport: transports[0]!, batchSize: 3, busyDelayMs: 1, idleDelayMs: 50 }),
        startMailWorker({
          db: second.db,
          transport: transports[1]!,
          batchSize: 3,
          busyDelayMs: 1,
          idleDelayMs: 50,
        }),
      ];
      try {
        await expect
          .poll(
            async () =>
              Number(
                (
                  await db
                    .selectFrom('mailOutbox')
                    .select((eb) => eb.fn.countAll<number>().as('n'))
                    .where('kind', '=', 'test.double')
                    .where('status', '=', 'sent')
                    .executeTakeFirstOrThrow()
                ).n,
              ),
            { timeout: 20_000, interval: 100 },
          )
          .toBe(40);
      } finally {
        await Promise.all(workers.map((worker) => worker.stop()));
      }
      const subjects = peer.messages.map((mail) => mail.subject);
      expect(subjects).toHaveLength(40);
      expect(new Set(subjects).size).toBe(40);
      const attempts = await db
        .selectFrom('mailOutbox')
        .select('attempts')
        .where('kind', '=', 'test.double')
        .execute();
      expect(attempts.every((row) => row.attempts === 1)).toBe(true);
    } finally {
      for (const transport of transports) transport.close?.();
      await second.db.destroy();
      await peer.stop();
    }
  });

  it('does not hand a claimed row to a second claimer until its lease expires', async () => {
    const { db } = database();
    const now = new Date('2030-01-01T00:00:00.000Z');
    await db.updateTable('mailOutbox').set({ status: 'sent' }).where('status', '=', 'pending').execute();
    await enqueueMail(
      db,
      { kind: 'test.lease', to: 'a@b.example', subject: 'Lease', text: 't', html: 't' },
      now,
    );
    const first = await claimDueMail(db, now, 10, 60_000);
    expect(first).toHaveLength(1);
    expect(await claimDueMail(db, new Date(now.getTime() + 30_000), 10, 60_000)).toHaveLength(0);
    expect(await claimDueMail(db, new Date(now.getTime() + 61_000), 10, 60_000)).toHaveLength(1);
  });
});

describe('mail templates', () => {
  it('escape every value in the HTML and carry no remote images', () => {
    const evil = '<img src=x onerror=alert(1)>';
    const mail = contactStaffNoticeMail(brand, 'soporte@vertice.example', {
      id: 1,
      name: evil,
      email: 'x@y.example',
      message: `${evil}\n<script>alert(1)</script>`,
      createdAt: '2025-01-01T12:00:00.000Z',
    });
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<script');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.text).toContain(evil);
    expect(mail.replyTo).toBe('"img src=x onerror=alert(1)" <x@y.example>');
    const incident = {
      numeroIncidencia: 'INC-20250101-1234',
      problema: 'No imprime la factura',
      nombre: 'Ana Visitante',
      telefono: '',
      email: 'ana@cliente.example',
      rnc: '',
      estado: 'Registrado' as const,
      fecha: '2025-01-01T16:00:00.000Z',
    };
    const confirmation = incidentConfirmationMail(brand, incident, 'AbCdEfGhIjKlMnOpQrStUv-_');
    // Nothing the visitor typed reaches the visitor's mail (it could be anyone's address).
    for (const typed of [incident.nombre, incident.problema]) {
      expect(confirmation.html).not.toContain(typed);
      expect(confirmation.text).not.toContain(typed);
      expect(confirmation.subject).not.toContain(typed);
    }
    expect(confirmation.subject).toBe('Incidencia INC-20250101-1234 registrada');
    expect(confirmation.html).toContain(
      'https://vertice.example/soporte/seguimiento?token=AbCdEfGhIjKlMnOpQrStUv-_',
    );
    expect(confirmation.text).toContain('INC-20250101-1234');
    expect(confirmation.text).toMatch(/1 de enero de 2025.*12:00/);
  });
});

describe('EmailJS transport', () => {
  let server: http.Server;
  let base = '';
  const requests: Array<{ path: string; body: any; contentType?: string }> = [];
  let answer = 200;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      request.on('end', () => {
        requests.push({
          path: request.url ?? '',
          body: JSON.parse(raw),
          contentType: request.headers['content-type'],
        });
        response.writeHead(answer, { 'content-type': 'text/plain' });
        response.end(
          answer === 200 ? 'OK' : answer === 403 ? 'API calls are disabled for non-browser applications' : '',
        );
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const settings = () => ({
    apiUrl: base,
    serviceId: 'service_abc',
    templateId: 'template_xyz',
    publicKey: 'pub-123',
    privateKey: 'priv-456',
    defaultFromName: 'Vértice Consultores',
    defaultReplyTo: 'no-reply@vertice.example',
  });
  const mail = {
    to: 'soporte@vertice.example',
    replyTo: '"María Gómez" <maria@cliente.example>',
    subject: 'Hola',
    text: 'Texto del mensaje',
    html: '<p>x</p>',
  };

  it('posts the spec body to /api/v1.0/email/send', async () => {
    answer = 200;
    await emailJsTransport(settings()).send(mail);
    const request = requests.at(-1);
    expect(request?.path).toBe('/api/v1.0/email/send');
    expect(request?.contentType).toMatch(/application\/json/);
    expect(request?.body).toMatchObject({
      lib_version: expect.any(String),
      user_id: 'pub-123',
      service_id: 'service_abc',
      template_id: 'template_xyz',
      accessToken: 'priv-456',
      template_params: {
        from_name: 'María Gómez',
        reply_to: 'maria@cliente.example',
        message: 'Texto del mensaje',
      },
    });
  });

  it("says in the text that a mail's files did not come, naming them (its API carries no files)", async () => {
    answer = 200;
    const files = [
      { filename: 'manual.pdf', contentType: 'application/pdf', content: new Uint8Array([1, 2]) },
      { filename: 'pasos.txt', contentType: 'text/plain', content: 'uno' },
    ];
    await emailJsTransport(settings()).send({ ...mail, attachments: files });
    expect(requests.at(-1)?.body.template_params.message).toBe(
      'Texto del mensaje\n\nEste correo no lleva los archivos manual.pdf, pasos.txt: nuestro envío de correo no adjunta archivos.',
    );
    await emailJsTransport(settings()).send({ ...mail, attachments: files.slice(0, 1) });
    expect(requests.at(-1)?.body.template_params.message).toContain('no lleva el archivo manual.pdf:');
    expect(JSON.stringify(requests.at(-1)?.body)).not.toContain('AQI=');
  });

  it('maps 403 and 451 to final failures, 429, 5xx and network errors to retriable ones', async () => {
    const outcome = async (status: number, apiUrl = base) => {
      answer = status;
      try {
        await emailJsTransport({ ...settings(), apiUrl }).send(mail);
        return 'ok';
      } catch (error) {
        expect(error).toBeInstanceOf(MailDeliveryError);
        const failure = error as MailDeliveryError;
        return `${failure.status}:${failure.retriable ? 'retry' : 'final'}`;
      }
    };
    expect(await outcome(403)).toBe('403:final');
    expect(await outcome(451)).toBe('451:final');
    expect(await outcome(429)).toBe('429:retry');
    expect(await outcome(503)).toBe('503:retry');
    expect(await outcome(400)).toBe('400:final');
    expect(await outcome(200, `http://127.0.0.1:${await freePort()}`)).toBe('0:retry');
  });

  it('refuses to start without public key, service id or template id', () => {
    expect(() => emailJsTransport({ ...settings(), publicKey: undefined, templateId: undefined })).toThrow(
      /EMAILJS_PUBLIC_KEY, EMAILJS_TEMPLATE_ID/,
    );
  });
});
