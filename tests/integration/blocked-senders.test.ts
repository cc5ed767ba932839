/**
 * A blocked sender (issue 37: "the same screening as mail applies: … a blocked number"), on both
 * engines: a WhatsApp number blocked from its incident, then writing again (a new message, a reply
 * quoting our notice on a resolved incident), and a mail address blocked the same way. Each message is
 * stored refused ('Número bloqueado', 'Dirección bloqueada' in 'Rechazados'), joins, opens and reopens
 * nothing and tells nobody; unblocking lets the next message in; both changes are audited.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { refusalReasonLabel } from '../../src/domain/inbound.ts';
import {
  blockSender,
  blockedSenders,
  refusedMessages,
  senderBlock,
  unblockSender,
  whatsappHandler,
  whatsappMediaSettled,
} from '../../src/server/channels/index.ts';
import { receiveMail } from '../../src/server/channels/mail/read.ts';
import { parseConfig } from '../../src/server/config.ts';
import type { Db } from '../../src/server/db/index.ts';
import { describeEachEngine } from '../support/db.ts';
import { inboundFixture, testInboundSettings } from '../support/inbound.ts';
import {
  postWebhook,
  startMetaStandin,
  textMessage,
  webhookBody,
  type MetaStandin,
  type WebhookPart,
} from '../support/meta-standin.ts';

const silent = { info() {}, error() {}, warn() {} };
const ANA = '18095550100';
const carmen = { actorEmail: 'carmen@vertice.example', network: '127.0.0.1' };

let server: http.Server | undefined;
let meta: MetaStandin;

beforeEach(async () => {
  meta = await startMetaStandin();
});
afterEach(async () => {
  await whatsappMediaSettled();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  await meta.close();
});

async function serve(db: Db): Promise<string> {
  const config = parseConfig({
    INBOUND_ADDRESS: 'soporte@vertice.example',
    STAFF_INBOX: 'equipo@vertice.example',
    WHATSAPP_APP_SECRET: meta.appSecret,
    WHATSAPP_PHONE_NUMBER_ID: meta.phoneNumberId,
    WHATSAPP_ACCESS_TOKEN: meta.accessToken,
    WHATSAPP_VERIFY_TOKEN: meta.verifyToken,
    WHATSAPP_API_URL: meta.apiUrl,
  });
  server = http.createServer(
    whatsappHandler(
      config,
      () => db,
      silent,
      (_req, res) => {
        res.writeHead(418);
        res.end();
      },
    ),
  );
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/whatsapp`;
}

const send = async (url: string, message: WebhookPart) => {
  const response = await postWebhook(url, webhookBody([message]), { appSecret: meta.appSecret });
  expect(response.status).toBe(200);
};

/** Everything a message could have changed: incidents, their entries and states, notices, mail, live events. */
async function footprint(db: Db) {
  const count = async (
    table:
      'incidents' | 'incidentEntries' | 'incidentEvents' | 'customerNotices' | 'mailOutbox' | 'liveEvents',
  ) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    incidents: await count('incidents'),
    entries: await count('incidentEntries'),
    events: await count('incidentEvents'),
    notices: await count('customerNotices'),
    mail: await count('mailOutbox'),
    live: await count('liveEvents'),
    states: (await db.selectFrom('incidents').select('estado').orderBy('id').execute()).map(
      (row) => row.estado,
    ),
  };
}

const lastInbound = (db: Db) =>
  db
    .selectFrom('inboundMessages')
    .select(['outcome', 'reason', 'incidentId', 'sender', 'subject'])
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();

const auditActions = async (db: Db) =>
  (await db.selectFrom('auditEvents').select(['action', 'subject', 'detail']).orderBy('id').execute()).filter(
    (row) => row.action.startsWith('sender.'),
  );

describeEachEngine('Blocked senders', (database) => {
  it('a blocked WhatsApp number is kept refused (Número bloqueado), joins, opens and reopens nothing; unblocked, it joins again', async () => {
    const { db } = database();
    const url = await serve(db);
    await send(url, textMessage(ANA, 'Ana', 'La caja no abre'));
    const incident = await db
      .selectFrom('incidents')
      .select(['id', 'channel', 'channelAddress'])
      .executeTakeFirstOrThrow();
    expect(await blockSender(db, 'whatsapp', incident.channelAddress!, carmen)).toBe('blocked');
    expect(await blockSender(db, 'whatsapp', incident.channelAddress!, carmen)).toBe('unchanged');
    expect(await senderBlock(db, 'whatsapp', ANA)).toMatchObject({
      address: ANA,
      blockedBy: carmen.actorEmail,
    });

    // Open incident: the message would have joined it.
    let before = await footprint(db);
    await send(url, textMessage(ANA, 'Ana', 'Compra ya mismo en mi tienda'));
    expect(await footprint(db)).toEqual(before);
    expect(await lastInbound(db)).toMatchObject({
      outcome: 'rejected',
      reason: 'blocked:whatsapp',
      incidentId: null,
      sender: ANA,
      subject: 'Compra ya mismo en mi tienda',
    });

    // Resolved, and a reply quoting our notice: it would have reopened it.
    await db.updateTable('incidents').set({ estado: 'Resuelto' }).where('id', '=', incident.id).execute();
    await db
      .insertInto('customerNotices')
      .values({
        incidentId: incident.id,
        channel: 'whatsapp',
        kind: 'reply',
        payload: '{}',
        status: 'sent',
        outcome: 'queued',
        nextAttemptAt: new Date().toISOString(),
        lockedUntil: null,
        lastError: null,
        externalId: 'wamid.NUESTRO',
        createdAt: new Date().toISOString(),
        doneAt: new Date().toISOString(),
        deliveryStatus: null,
        deliveryError: null,
        statusAt: null,
      })
      .execute();
    before = await footprint(db);
    await send(url, textMessage(ANA, 'Ana', 'Sigue sin abrir', { contextId: 'wamid.NUESTRO' }));
    expect(await footprint(db)).toEqual(before);
    expect((await footprint(db)).states).toEqual(['Resuelto']);

    const refused = await refusedMessages(db);
    expect(refused.total).toBe(2);
    expect(refused.items.map((item) => refusalReasonLabel(item.reason))).toEqual([
      'Número bloqueado',
      'Número bloqueado',
    ]);

    expect(await unblockSender(db, 'whatsapp', ANA, carmen)).toBe('unblocked');
    expect(await unblockSender(db, 'whatsapp', ANA, carmen)).toBe('unchanged');
    expect(await blockedSenders(db)).toEqual([]);
    await send(url, textMessage(ANA, 'Ana', 'Ahora sí: sigue sin abrir', { contextId: 'wamid.NUESTRO' }));
    expect(await lastInbound(db)).toMatchObject({ outcome: 'answer', incidentId: incident.id });
    expect(await auditActions(db)).toEqual([
      { action: 'sender.blocked', subject: ANA, detail: 'whatsapp' },
      { action: 'sender.unblocked', subject: ANA, detail: 'whatsapp' },
    ]);
  });

  it("a blocked mail address (any case) is kept refused (Dirección bloqueada) and opens nothing; the block is the channel's alone", async () => {
    const { db } = database();
    const settings = testInboundSettings();
    expect(await blockSender(db, 'correo', 'Carmen@Panaderia.example', carmen)).toBe('blocked');
    // The same address on another channel is not blocked.
    expect(await senderBlock(db, 'whatsapp', 'carmen@panaderia.example')).toBeNull();
    const before = await footprint(db);
    const result = await receiveMail(db, inboundFixture('new-incident'), settings, new Date());
    expect(result).toMatchObject({ outcome: 'rejected', reason: 'blocked:correo' });
    expect(await footprint(db)).toEqual(before);
    const refused = await refusedMessages(db);
    expect(refused.items).toHaveLength(1);
    expect(refused.items[0]).toMatchObject({ sender: 'carmen@panaderia.example', hasOriginal: true });
    expect(refusalReasonLabel(refused.items[0]!.reason)).toBe('Dirección bloqueada');
    expect(await auditActions(db)).toEqual([
      { action: 'sender.blocked', subject: 'carmen@panaderia.example', detail: 'correo' },
    ]);
  });
});
