/**
 * Read receipts (issue 37) on both engines, against Meta's stand-in: a staff member opening a WhatsApp
 * incident records one `receipt` notice for the customer's newest message (none again until they
 * write more), and the delivery worker marks it read with `{"status":"read","message_id":…}`; through
 * an outage of Meta the receipt waits and goes on the retry; an incident of mail records none.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  DELIVERY_RETRY_BASE_MS,
  answerWhatsAppPost,
  markIncidentSeen,
  startDeliveryWorker,
  whatsappNoticeSender,
  whatsappSettings,
  type WhatsAppSettings,
} from '../../src/server/channels/index.ts';
import { parseConfig, type Config } from '../../src/server/config.ts';
import type { Db } from '../../src/server/db/index.ts';
import { describeEachEngine } from '../support/db.ts';
import { insertIncident } from '../support/factories.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';
import {
  signedWebhook,
  standinEnv,
  startMetaStandin,
  textMessage,
  webhookBody,
  type MetaStandin,
} from '../support/meta-standin.ts';

const ANA = '18095550100';
let meta: MetaStandin;
let config: Config;
let settings: WhatsAppSettings;

beforeEach(async () => {
  meta = await startMetaStandin();
  config = parseConfig({
    INBOUND_ADDRESS: 'soporte@vertice.example',
    STAFF_INBOX: 'equipo@vertice.example',
    ...standinEnv(meta),
  });
  // The template 'respuesta_incidencia' in 'es': the settings' defaults.
  settings = whatsappSettings(config)!;
});
afterEach(() => meta.close());

/** A customer's message posted as Meta does; its wamid. */
async function write(db: Db, text: string, now: Date): Promise<string> {
  const part = textMessage(ANA, 'Ana', text);
  const signed = signedWebhook(webhookBody([part]), meta.appSecret);
  const answer = await answerWhatsAppPost(db, config, signed.bytes, signed.signature, undefined, now);
  expect(answer.status).toBe(200);
  const row = await db
    .selectFrom('inboundMessages')
    .select('messageId')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return row.messageId!;
}

const receipts = (db: Db) =>
  db
    .selectFrom('customerNotices')
    .select(['status', 'attempts', 'lastError'])
    .where('kind', '=', 'receipt')
    .orderBy('id')
    .execute();

describeEachEngine('WhatsApp read receipts', (database) => {
  it("opening the incident marks the customer's newest message read, once per new message, through an outage of Meta", async () => {
    const { db } = database();
    const clock = { now: new Date('2026-03-02T14:00:00.000Z') };
    const worker = startDeliveryWorker({
      db,
      senders: [whatsappNoticeSender({ settings, brand })],
      poll: false,
      now: () => clock.now,
    });
    try {
      const first = await write(db, 'La caja no abre', clock.now);
      const incident = await db
        .selectFrom('incidents')
        .select(['id', 'channel', 'channelAddress'])
        .executeTakeFirstOrThrow();
      expect(await markIncidentSeen(db, incident, clock.now)).toBe(true);
      // Opened again (a reload, a colleague) before the customer writes more: nothing new.
      expect(await markIncidentSeen(db, incident, clock.now)).toBe(false);
      expect(meta.readMarks()).toEqual([]);
      await worker.runOnce();
      expect(meta.readMarks()).toEqual([first]);
      expect(await receipts(db)).toMatchObject([{ status: 'sent' }]);
      // The confirmation went as a message; the receipt is no message of ours.
      expect(meta.sentMessages().every((message) => message.status === undefined)).toBe(true);

      const second = await write(db, 'Ahora tampoco enciende', clock.now);
      const third = await write(db, '¿Hay alguien?', clock.now);
      expect(await markIncidentSeen(db, incident, clock.now)).toBe(true);
      expect(await markIncidentSeen(db, incident, clock.now)).toBe(false);
      meta.setDown(true);
      await worker.runOnce();
      expect(meta.readMarks()).toEqual([first]);
      expect(await receipts(db)).toMatchObject([{ status: 'sent' }, { status: 'pending', attempts: 1 }]);
      meta.setDown(false);
      clock.now = new Date(clock.now.getTime() + DELIVERY_RETRY_BASE_MS + 1000);
      await worker.runOnce();
      // The newest one only: Meta marks the earlier messages of the chat read with it.
      expect(meta.readMarks()).toEqual([first, third]);
      expect(meta.readMarks()).not.toContain(second);
      expect(await receipts(db)).toMatchObject([{ status: 'sent' }, { status: 'sent' }]);
    } finally {
      await worker.stop();
    }
  });

  it('an incident of mail records no receipt', async () => {
    const { db } = database();
    const incident = await insertIncident(db, { channel: 'correo', channelAddress: 'maria@cliente.example' });
    expect(
      await markIncidentSeen(db, {
        id: incident.id,
        channel: 'correo',
        channelAddress: 'maria@cliente.example',
      }),
    ).toBe(false);
    expect(await receipts(db)).toEqual([]);
  });
});
