/**
 * WhatsApp outbound (issue 37) on both engines, against the loopback stand-in of Meta's Graph API
 * (tests/support/meta-standin.ts): the desk's notices on a WhatsApp incident are recorded `pending` in
 * the desk's transaction, and the delivery worker sends them as the documented JSON — a state change and
 * a reply as text, a reply's file as media, the template with the link past the 24-hour window or after
 * 131047, 'Resuelto' as the rating list — with retries and back-off through an outage of Meta, a lease
 * that outlives a crashed worker, and two workers that never send one notice twice.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { prepareFiles } from '../../src/server/attachments/index.ts';
import type { Channel } from '../../src/server/channels/channel.ts';
import {
  DELIVERY_RETRY_BASE_MS,
  SENT_AS,
  claimDueNotice,
  registerChannel,
  startDeliveryWorker,
  whatsappDelivery,
  whatsappNoticeSender,
  type WhatsAppSettings,
} from '../../src/server/channels/index.ts';
import { openDatabase, type Db } from '../../src/server/db/index.ts';
import {
  createIncident,
  incidentByNumber,
  ratingLink,
  staffTimeline,
  replyToCustomer,
  setIncidentState,
} from '../../src/server/incidents/index.ts';
import { PDF } from '../support/attachments.ts';
import { describeEachEngine } from '../support/db.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';
import { startMetaStandin, type MetaStandin } from '../support/meta-standin.ts';

const NUMBER = '18095551234';
const T0 = new Date('2026-03-02T14:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const ana = { id: 'user-ana', email: 'ana@vertice.example', name: 'Ana Pérez' };

let standin: MetaStandin;
let settings: WhatsAppSettings;
let unregister: () => void;

beforeEach(async () => {
  standin = await startMetaStandin();
  settings = {
    phoneNumberId: standin.phoneNumberId,
    accessToken: standin.accessToken,
    appSecret: standin.appSecret,
    verifyToken: standin.verifyToken,
    apiUrl: standin.apiUrl,
    replyTemplate: 'respuesta_incidencia',
    templateLanguage: 'es',
  };
  // The WhatsApp channel's outbound half (the inbound engineer's whatsappChannel carries the same
  // deliver); screen, match and newIncident belong to the inbound side and are never called here.
  unregister = registerChannel({
    id: 'whatsapp',
    deliver: whatsappDelivery.deliver,
    screen: async () => null,
    match: async () => null,
    newIncident: () => {
      throw new Error('no inbound in these tests');
    },
  } satisfies Channel);
});

afterEach(async () => {
  unregister();
  await standin.close();
});

/** A WhatsApp incident whose customer last wrote `lastWroteAt`. */
async function whatsappIncident(db: Db, lastWroteAt: Date) {
  const created = await createIncident(
    db,
    { problema: 'La factura no imprime.', nombre: 'Rosa Díaz', telefono: NUMBER, email: '', rnc: '' },
    { brand, staffInbox: 'soporte@vertice.example', now: lastWroteAt },
  );
  const incident = await db
    .updateTable('incidents')
    .set({ channel: 'whatsapp', channelAddress: NUMBER })
    .where('numeroIncidencia', '=', created.numeroIncidencia)
    .returningAll()
    .executeTakeFirstOrThrow();
  await db
    .insertInto('inboundMessages')
    .values({
      channel: 'whatsapp',
      dedupKey: `wamid:in-${incident.id}`,
      messageId: `wamid.in-${incident.id}`,
      sender: NUMBER,
      outcome: 'new-incident',
      reason: null,
      incidentId: incident.id,
      originalParts: null,
      receivedAt: lastWroteAt.toISOString(),
      reviewedAt: null,
      reviewedBy: null,
    })
    .execute();
  return incident;
}

function worker(db: Db, clock: { now: Date }) {
  return startDeliveryWorker({
    db,
    senders: [whatsappNoticeSender({ settings, brand })],
    poll: false,
    now: () => clock.now,
  });
}

const notices = (db: Db) =>
  db.selectFrom('customerNotices').selectAll().where('channel', '=', 'whatsapp').orderBy('id').execute();

describeEachEngine('WhatsApp outbound', (database) => {
  it('sends a state change as a text with the number, the state and the follow-up link, and stores its wamid', async () => {
    const { db } = database();
    const incident = await whatsappIncident(db, at(0));
    await setIncidentState(
      db,
      { id: incident.id, estado: 'En Proceso', actor: ana.email, notify: brand },
      at(60),
    );
    const [pending] = await notices(db);
    expect(pending).toMatchObject({ status: 'pending', kind: 'state', externalId: null });
    expect(standin.sentMessages()).toHaveLength(0);

    expect(await worker(db, { now: at(61) }).runOnce()).toBe(1);
    const [message] = standin.sentMessages();
    expect(message).toMatchObject({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: NUMBER,
      type: 'text',
      text: { preview_url: false },
    });
    expect(message!.text.body).toContain(`Tu incidencia ${incident.numeroIncidencia} pasó a «En Proceso»`);
    expect(message!.text.body).toMatch(/https:\/\/vertice\.example\/soporte\/seguimiento\?token=[\w-]+/);
    const [sent] = await notices(db);
    expect(sent).toMatchObject({
      status: 'sent',
      externalId: standin.sentWamids()[0],
      outcome: SENT_AS.text,
      attempts: 1,
    });
    // The link's token is kept only until the notice is sent.
    expect(JSON.parse(sent!.payload)).not.toHaveProperty('_send');
  });

  it('sends a staff reply as a text and its file as a document uploaded first', async () => {
    const { db } = database();
    const incident = await whatsappIncident(db, at(0));
    const { prepared } = await prepareFiles([{ filename: 'manual.pdf', data: PDF }]);
    await replyToCustomer(
      db,
      { incidentId: incident.id, author: ana, body: 'Te envío el manual.', brand, files: prepared },
      at(30),
    );
    await worker(db, { now: at(30) }).runOnce();
    const [text, document] = standin.sentMessages();
    expect(text).toMatchObject({
      to: NUMBER,
      type: 'text',
      text: { body: 'Te envío el manual.\n\n— Ana Pérez' },
    });
    const upload = standin.requests.find((request) => request.path.endsWith('/media'));
    expect(upload?.multipart?.fields).toMatchObject({
      messaging_product: 'whatsapp',
      type: 'application/pdf',
    });
    expect(upload?.multipart?.files[0]).toMatchObject({
      filename: 'manual.pdf',
      mimeType: 'application/pdf',
    });
    expect(Buffer.compare(upload!.multipart!.files[0]!.bytes, PDF)).toBe(0);
    expect(document).toMatchObject({
      to: NUMBER,
      type: 'document',
      document: { id: expect.any(String), filename: 'manual.pdf' },
    });
    expect((await notices(db))[0]).toMatchObject({ status: 'sent', externalId: standin.sentWamids()[0] });
  });

  it('past the 24-hour window sends the approved template with the follow-up link instead of the text', async () => {
    const { db } = database();
    const incident = await whatsappIncident(db, at(0));
    await replyToCustomer(
      db,
      { incidentId: incident.id, author: ana, body: '¿Sigue el problema?', brand },
      at(25 * 60),
    );
    await worker(db, { now: at(25 * 60) }).runOnce();
    const [message] = standin.sentMessages();
    expect(message).toMatchObject({
      to: NUMBER,
      type: 'template',
      template: { name: 'respuesta_incidencia', language: { code: 'es' } },
    });
    const [parameter] = message!.template.components[0].parameters;
    expect(parameter.type).toBe('text');
    expect(parameter.text).toMatch(/^https:\/\/vertice\.example\/soporte\/seguimiento\?token=[\w-]+$/);
    expect(JSON.stringify(message)).not.toContain('¿Sigue el problema?');
    expect((await notices(db))[0]).toMatchObject({ status: 'sent', outcome: SENT_AS.template });
  });

  it('when Meta refuses the text with 131047, sends the template and records it', async () => {
    const { db } = database();
    const incident = await whatsappIncident(db, at(0));
    await replyToCustomer(
      db,
      { incidentId: incident.id, author: ana, body: 'Hola de nuevo.', brand },
      at(60),
    );
    standin.failNext(1, { status: 400, code: 131047, title: 'Re-engagement message' });
    await worker(db, { now: at(60) }).runOnce();
    const messages = standin.sentMessages();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ type: 'template', template: { name: 'respuesta_incidencia' } });
    expect((await notices(db))[0]).toMatchObject({
      status: 'sent',
      outcome: SENT_AS.templateAfterRefusal,
      externalId: standin.sentWamids()[0],
    });
    // The reply says so in the timeline.
    const record = await incidentByNumber(db, incident.numeroIncidencia);
    const replyEntry = (await staffTimeline(db, record!)).find((entry) => entry.kind === 'reply');
    expect(replyEntry).toMatchObject({
      entrega: {
        estado: 'sent',
        texto: 'Enviado',
        intentos: 1,
        plantilla: 'Pasaron más de 24 horas: se envió la plantilla',
      },
    });
  });

  it("shows each attempt's state on the reply in the timeline: 'Enviando…' with its error, 'Enviado', then Meta's 'Leído' or failure", async () => {
    const { db } = database();
    const incident = await whatsappIncident(db, at(0));
    await replyToCustomer(db, { incidentId: incident.id, author: ana, body: 'Mira esto.', brand }, at(10));
    const delivery = async () => {
      const record = await incidentByNumber(db, incident.numeroIncidencia);
      const entry = (await staffTimeline(db, record!)).find((item) => item.kind === 'reply');
      return entry && 'entrega' in entry ? entry.entrega : undefined;
    };
    expect(await delivery()).toEqual({ estado: 'pending', texto: 'Enviando…', intentos: 0 });
    standin.setDown(true);
    const clock = { now: at(10) };
    await worker(db, clock).runOnce();
    expect(await delivery()).toEqual({
      estado: 'pending',
      texto: 'Enviando…',
      intentos: 1,
      ultimoError: 'No se pudo entregar: no se pudo conectar con WhatsApp; se reintentará',
    });
    standin.setDown(false);
    clock.now = at(11);
    await worker(db, clock).runOnce();
    expect(await delivery()).toEqual({ estado: 'sent', texto: 'Enviado', intentos: 2 });
    // Meta's status webhooks (the inbound half stores them in migration 0043's columns).
    await db
      .updateTable('customerNotices')
      .set({ deliveryStatus: 'read', statusAt: at(12).toISOString() })
      .execute();
    expect(await delivery()).toMatchObject({ estado: 'read', texto: 'Leído' });
    await db
      .updateTable('customerNotices')
      .set({
        deliveryStatus: 'failed',
        deliveryError: 'No se pudo entregar: el número no puede recibir este mensaje',
      })
      .execute();
    expect(await delivery()).toMatchObject({
      estado: 'failed',
      texto: 'No se pudo entregar: el número no puede recibir este mensaje',
    });
  });

  it("sends 'Resuelto' inside the window as a list of the five ratings whose ids carry a working rating token", async () => {
    const { db } = database();
    const incident = await whatsappIncident(db, at(0));
    await setIncidentState(
      db,
      { id: incident.id, estado: 'Resuelto', actor: ana.email, notify: brand },
      at(90),
    );
    await worker(db, { now: at(90) }).runOnce();
    const [message] = standin.sentMessages();
    expect(message).toMatchObject({ to: NUMBER, type: 'interactive', interactive: { type: 'list' } });
    expect(message!.interactive.body.text).toContain(incident.numeroIncidencia);
    const rows = message!.interactive.action.sections[0].rows as Array<{ id: string; title: string }>;
    expect(rows.map((row) => row.title)).toEqual(['Excelente', 'Bien', 'Regular', 'Mal', 'Muy mal']);
    const token = /^rating:([^:]+):5$/.exec(rows[0]!.id)![1]!;
    expect(rows.map((row) => row.id)).toEqual([5, 4, 3, 2, 1].map((value) => `rating:${token}:${value}`));
    expect(await ratingLink(db, token, at(91))).toEqual({
      status: 'open',
      numeroIncidencia: incident.numeroIncidencia,
    });
    expect((await notices(db))[0]).toMatchObject({ status: 'sent', outcome: SENT_AS.list });
  });

  it('retries through an outage of Meta with back-off and sends once it is back, nothing lost', async () => {
    const { db } = database();
    const incident = await whatsappIncident(db, at(0));
    await replyToCustomer(db, { incidentId: incident.id, author: ana, body: 'Revisa ahora.', brand }, at(10));
    const clock = { now: at(10) };
    const delivery = worker(db, clock);
    standin.setDown(true);
    expect(await delivery.runOnce()).toBe(1);
    let [row] = await notices(db);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lockedUntil: null });
    expect(row!.lastError).toBe('No se pudo entregar: no se pudo conectar con WhatsApp; se reintentará');
    expect(row!.nextAttemptAt).toBe(new Date(clock.now.getTime() + DELIVERY_RETRY_BASE_MS).toISOString());
    // Not due yet: nothing is tried.
    expect(await delivery.runOnce()).toBe(0);
    clock.now = new Date(clock.now.getTime() + DELIVERY_RETRY_BASE_MS);
    standin.setDown(false);
    standin.failNext(1, { status: 503 });
    expect(await delivery.runOnce()).toBe(1);
    [row] = await notices(db);
    expect(row).toMatchObject({ status: 'pending', attempts: 2 });
    expect(row!.lastError).toBe('No se pudo entregar: WhatsApp tuvo un error (503); se reintentará');
    // The second wait is twice the first.
    expect(row!.nextAttemptAt).toBe(new Date(clock.now.getTime() + 2 * DELIVERY_RETRY_BASE_MS).toISOString());
    clock.now = new Date(clock.now.getTime() + 2 * DELIVERY_RETRY_BASE_MS);
    expect(await delivery.runOnce()).toBe(1);
    expect(standin.sentMessages()).toHaveLength(1);
    expect(standin.sentMessages()[0]).toMatchObject({ text: { body: 'Revisa ahora.\n\n— Ana Pérez' } });
    expect((await notices(db))[0]).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
  });

  it("fails a notice Meta refuses for good (131026) with the staff's words, and tries it no more", async () => {
    const { db } = database();
    const incident = await whatsappIncident(db, at(0));
    await replyToCustomer(db, { incidentId: incident.id, author: ana, body: 'Hola.', brand }, at(5));
    standin.failNext(1, { status: 400, code: 131026 });
    const clock = { now: at(5) };
    const delivery = worker(db, clock);
    await delivery.runOnce();
    expect((await notices(db))[0]).toMatchObject({
      status: 'failed',
      lastError: expect.stringMatching(/^No se pudo entregar: el número no puede recibir este mensaje/),
    });
    clock.now = at(600);
    expect(await delivery.runOnce()).toBe(0);
    expect(standin.sentMessages()).toHaveLength(0);
  });

  it('a worker that dies holding a notice leaves it to its lease: another sends it once the lease is over, once', async () => {
    const { db } = database();
    const incident = await whatsappIncident(db, at(0));
    await replyToCustomer(
      db,
      { incidentId: incident.id, author: ana, body: 'Después del corte.', brand },
      at(10),
    );
    // The first process claims the notice for a minute and dies before sending it.
    const claimed = await claimDueNotice(db, ['whatsapp'], at(10), 60_000);
    expect(claimed).not.toBeNull();
    const clock = { now: new Date(at(10).getTime() + 30_000) };
    const survivor = worker(db, clock);
    expect(await survivor.runOnce()).toBe(0);
    clock.now = new Date(at(10).getTime() + 61_000);
    expect(await survivor.runOnce()).toBe(1);
    expect(await survivor.runOnce()).toBe(0);
    expect(standin.sentMessages()).toHaveLength(1);
    expect((await notices(db))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it("a reply's text already sent before a crash is not sent again: the retry sends only its file", async () => {
    const { db } = database();
    const incident = await whatsappIncident(db, at(0));
    const { prepared } = await prepareFiles([{ filename: 'manual.pdf', data: PDF }]);
    await replyToCustomer(
      db,
      { incidentId: incident.id, author: ana, body: 'Con archivo.', brand, files: prepared },
      at(10),
    );
    // The upload fails (Meta's 500): the text went, the file did not.
    standin.failNext(1, { status: 500 }, 'media');
    const clock = { now: at(10) };
    const delivery = worker(db, clock);
    await delivery.runOnce();
    expect(standin.sentMessages().map((message) => message.type)).toEqual(['text']);
    clock.now = at(11);
    await delivery.runOnce();
    expect(standin.sentMessages().map((message) => message.type)).toEqual(['text', 'document']);
    expect((await notices(db))[0]).toMatchObject({ status: 'sent', externalId: standin.sentWamids()[0] });
  });

  it('two workers on their own connections never send one notice twice', async () => {
    const { db, url } = database();
    const other = openDatabase(url);
    try {
      const incident = await whatsappIncident(db, at(0));
      for (let index = 0; index < 12; index++)
        await replyToCustomer(
          db,
          { incidentId: incident.id, author: ana, body: `Respuesta ${index}`, brand },
          at(1),
        );
      standin.setDelay(15);
      const clock = { now: at(2) };
      const [first, second] = await Promise.all([
        worker(db, clock).runOnce(),
        worker(other.db, clock).runOnce(),
      ]);
      expect(first + second).toBe(12);
      const bodies = standin.sentMessages().map((message) => message.text.body as string);
      expect(bodies).toHaveLength(12);
      expect(new Set(bodies).size).toBe(12);
      expect((await notices(db)).every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
    } finally {
      await other.db.destroy();
    }
  });
});
