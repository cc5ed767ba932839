/**
 * A race of Meta's (issue 37): the status webhook of a message we send can reach us before the send's
 * answer, so before the delivery worker has written the message's wamid into `customer_notices`. On
 * both engines, with the stand-in posting 'sent' and 'delivered' through the webhook before it answers
 * the send: the reply must still end 'Entregado' (the statuses kept and applied once the wamid is
 * known), and a status of a wamid that never becomes ours changes nothing.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  answerWhatsAppPost,
  startDeliveryWorker,
  whatsappNoticeSender,
  whatsappSettings,
  type WhatsAppSettings,
} from '../../src/server/channels/index.ts';
import { parseConfig, type Config } from '../../src/server/config.ts';
import type { Db } from '../../src/server/db/index.ts';
import { setIncidentState } from '../../src/server/incidents/index.ts';
import { describeEachEngine } from '../support/db.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';
import {
  signedWebhook,
  standinEnv,
  startMetaStandin,
  status,
  textMessage,
  webhookBody,
  type MetaStandin,
  type WebhookPart,
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

async function post(db: Db, parts: WebhookPart[]): Promise<void> {
  const signed = signedWebhook(webhookBody(parts), meta.appSecret);
  expect((await answerWhatsAppPost(db, config, signed.bytes, signed.signature)).status).toBe(200);
}

describeEachEngine('A WhatsApp status ahead of its wamid', (database) => {
  it("is kept and applied once the delivery worker knows the wamid: the notice ends 'delivered'", async () => {
    const { db } = database();
    const worker = startDeliveryWorker({
      db,
      senders: [whatsappNoticeSender({ settings, brand })],
      poll: false,
    });
    try {
      await post(db, [textMessage(ANA, 'Ana', 'La caja no abre')]);
      // The confirmation goes first, without the race.
      await worker.runOnce();
      const incident = await db.selectFrom('incidents').select('id').executeTakeFirstOrThrow();
      await setIncidentState(db, {
        id: incident.id,
        estado: 'En Proceso',
        actor: 'ana@vertice.example',
        notify: brand,
      });
      // Meta's statuses for the message arrive while its send is still waiting for the answer.
      meta.beforeAnswer(async (wamid) => {
        await post(db, [status(wamid, 'sent'), status(wamid, 'delivered')]);
      });
      await worker.runOnce();
      meta.beforeAnswer(null);
      const notice = await db
        .selectFrom('customerNotices')
        .select(['status', 'externalId', 'deliveryStatus'])
        .where('kind', '=', 'state')
        .executeTakeFirstOrThrow();
      expect(notice).toMatchObject({ status: 'sent', deliveryStatus: 'delivered' });
      expect(notice.externalId).toBe(meta.sentWamids().at(-1));
      // A later, lower status still never moves it back.
      await post(db, [status(notice.externalId!, 'sent')]);
      expect(
        (
          await db
            .selectFrom('customerNotices')
            .select('deliveryStatus')
            .where('kind', '=', 'state')
            .executeTakeFirstOrThrow()
        ).deliveryStatus,
      ).toBe('delivered');
    } finally {
      await worker.stop();
    }
  });

  it('a status of a message that is not ours changes nothing', async () => {
    const { db } = database();
    await post(db, [status('wamid.AJENO', 'read')]);
    expect(await db.selectFrom('customerNotices').select('id').execute()).toEqual([]);
  });
});
