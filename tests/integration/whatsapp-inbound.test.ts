/**
 * WhatsApp inbound end to end (issue 37): the webhook's handler (src/server/channels/whatsapp/webhook.ts)
 * on a real loopback HTTP server over each engine, Meta's side played by the stand-in
 * (tests/support/meta-standin.ts: signed webhooks as Meta writes them, media served with the bearer).
 * The subscription check, the signature, messages stored once by wamid, the channel's matching, files
 * fetched after the answer (and said in the timeline when they cannot be), locations, reactions,
 * rating replies, statuses on our notices, an outage answered 500, the channel off answering 404.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  inboundOriginal,
  inboundSettings,
  openIncidentFromRefused,
  whatsappHandler,
  whatsappMediaSettled,
} from '../../src/server/channels/index.ts';
import { parseConfig, type Config } from '../../src/server/config.ts';
import { openDatabase, type Db } from '../../src/server/db/index.ts';
import { incidentByNumber, issueRatingToken, staffTimeline } from '../../src/server/incidents/index.ts';
import { PDF, renamedExecutable } from '../support/attachments.ts';
import { describeEachEngine } from '../support/db.ts';
import {
  documentMessage,
  imageMessage,
  interactiveListReply,
  location,
  newWamid,
  metaJson,
  postWebhook,
  reaction,
  startMetaStandin,
  status,
  textMessage,
  webhookBody,
  type MetaStandin,
} from '../support/meta-standin.ts';

const silent = { info() {}, error() {}, warn() {} };
const ANA = '18095550100';
const LUIS = '18295550177';

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

function configFor(on: boolean): Config {
  return parseConfig({
    INBOUND_ADDRESS: 'soporte@vertice.example',
    STAFF_INBOX: 'equipo@vertice.example',
    ...(on && {
      WHATSAPP_APP_SECRET: meta.appSecret,
      WHATSAPP_PHONE_NUMBER_ID: meta.phoneNumberId,
      WHATSAPP_ACCESS_TOKEN: meta.accessToken,
      WHATSAPP_VERIFY_TOKEN: meta.verifyToken,
      WHATSAPP_API_URL: meta.apiUrl,
    }),
  });
}

/** The handler on a loopback server; anything it does not take answers 418. */
async function serve(db: Db | (() => Db), on = true): Promise<string> {
  server = http.createServer(
    whatsappHandler(configFor(on), typeof db === 'function' ? db : () => db, silent, (_req, res) => {
      res.writeHead(418);
      res.end();
    }),
  );
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/whatsapp`;
}

const send = (url: string, body: unknown, signature?: string | null) =>
  postWebhook(url, body, { appSecret: meta.appSecret, ...(signature !== undefined && { signature }) });

/** Posts and waits for the files it queued to be fetched. */
async function deliver(url: string, body: unknown): Promise<Response> {
  const response = await send(url, body);
  await whatsappMediaSettled();
  return response;
}

const incidents = (db: Db) =>
  db
    .selectFrom('incidents')
    .select([
      'id',
      'origen',
      'nombre',
      'telefono',
      'email',
      'channel',
      'channelAddress',
      'estado',
      'problema',
    ])
    .orderBy('id')
    .execute();

const answers = (db: Db, incidentId: number) =>
  db
    .selectFrom('incidentEntries')
    .select(['id', 'body', 'via', 'kind'])
    .where('incidentId', '=', incidentId)
    .where('kind', '=', 'answer')
    .orderBy('id')
    .execute();

const attachments = (db: Db) =>
  db
    .selectFrom('incidentAttachments')
    .select(['incidentId', 'entryId', 'filename', 'contentType', 'droppedReason', 'blobSha256'])
    .orderBy('id')
    .execute();

/** The live events written (what the staff's open pages follow), as kind and change. */
const liveEvents = async (db: Db) =>
  (await db.selectFrom('liveEvents').select('data').orderBy('id').execute()).map((row) => {
    const data = JSON.parse(row.data) as { kind: string; change?: string; incidentId?: number };
    return [data.kind, data.change ?? null, data.incidentId ?? null];
  });

/** A notice of ours Meta accepted with this wamid (what the delivery worker records). */
async function sentNotice(db: Db, incidentId: number, wamid: string): Promise<number> {
  const row = await db
    .insertInto('customerNotices')
    .values({
      incidentId,
      channel: 'whatsapp',
      kind: 'reply',
      payload: '{}',
      status: 'sent',
      outcome: 'queued',
      nextAttemptAt: new Date().toISOString(),
      lockedUntil: null,
      lastError: null,
      externalId: wamid,
      createdAt: new Date().toISOString(),
      doneAt: new Date().toISOString(),
      deliveryStatus: null,
      deliveryError: null,
      statusAt: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function resolve(db: Db, incidentId: number): Promise<void> {
  await db.updateTable('incidents').set({ estado: 'Resuelto' }).where('id', '=', incidentId).execute();
  await db
    .insertInto('incidentEvents')
    .values({ incidentId, estado: 'Resuelto', fecha: new Date().toISOString(), actor: 'Carmen' })
    .execute();
}

describeEachEngine('WhatsApp webhook', (database) => {
  it('answers the subscription check with the challenge (text/plain), 403 otherwise, 404 when off', async () => {
    const { db } = database();
    const url = await serve(db);
    const query = (token: string, mode = 'subscribe') =>
      `${url}?${new URLSearchParams({ 'hub.mode': mode, 'hub.verify_token': token, 'hub.challenge': '1158201444' })}`;
    const ok = await fetch(query(meta.verifyToken));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await ok.text()).toBe('1158201444');
    expect((await fetch(query('otro-token'))).status).toBe(403);
    expect((await fetch(query(meta.verifyToken, 'unsubscribe'))).status).toBe(403);
    await new Promise<void>((done) => server!.close(() => done()));
    const off = await serve(db, false);
    expect((await fetch(`${off}?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`)).status).toBe(404);
    expect((await send(off, webhookBody([textMessage(ANA, 'Ana', 'Hola')]))).status).toBe(404);
    expect((await fetch(off.replace('/api/whatsapp', '/otra'))).status).toBe(418);
    expect(await db.selectFrom('inboundMessages').select('id').execute()).toEqual([]);
  });

  it('refuses a wrong or missing signature with 401 and stores nothing; a Spanish body sent as Meta escapes it verifies', async () => {
    const { db } = database();
    const url = await serve(db);
    const body = webhookBody([textMessage(ANA, 'María Peña', 'La impresora no imprime, ¿qué hago? 😕')]);
    expect((await send(url, body, null)).status).toBe(401);
    expect((await send(url, body, `sha256=${'0'.repeat(64)}`)).status).toBe(401);
    expect(await db.selectFrom('inboundMessages').select('id').execute()).toEqual([]);
    const ok = await send(url, body);
    expect(ok.status).toBe(200);
    const [incident] = await incidents(db);
    expect(incident).toMatchObject({
      origen: 'WhatsApp',
      nombre: 'María Peña',
      telefono: '+1 809-555-0100',
      email: '',
      channel: 'whatsapp',
      channelAddress: ANA,
      estado: 'Registrado',
      problema: 'La impresora no imprime, ¿qué hago? 😕',
    });
  });

  it('stores several messages of one POST once each, out of order; a redelivery is a duplicate; a second message joins the open incident', async () => {
    const { db } = database();
    const url = await serve(db);
    const now = Math.floor(Date.now() / 1000);
    const second = textMessage(ANA, 'Ana Gómez', 'Es la de la caja 2', { timestamp: now });
    const first = textMessage(ANA, 'Ana Gómez', 'No imprime la factura', { timestamp: now - 30 });
    const other = textMessage(LUIS, 'Luis', 'Necesito una cotización', { timestamp: now - 10 });
    // The later message first: each stands alone.
    const body = webhookBody([[second, other], [first]]);
    expect((await send(url, body)).status).toBe(200);
    expect((await send(url, body)).status).toBe(200);
    const rows = await db
      .selectFrom('inboundMessages')
      .select(['dedupKey', 'outcome'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { dedupKey: `wamid:${second.message!.id}`, outcome: 'new-incident' },
      { dedupKey: `wamid:${other.message!.id}`, outcome: 'new-incident' },
      { dedupKey: `wamid:${first.message!.id}`, outcome: 'answer' },
    ]);
    const [ana, luis] = await incidents(db);
    expect(ana).toMatchObject({ nombre: 'Ana Gómez', problema: 'Es la de la caja 2', channelAddress: ANA });
    expect(luis).toMatchObject({ nombre: 'Luis', channelAddress: LUIS });
    expect((await answers(db, ana!.id)).map((entry) => [entry.body, entry.via])).toEqual([
      ['No imprime la factura', 'whatsapp'],
    ]);
    // Live updates, as for mail: each new incident, and the answer on Ana's.
    const live = await liveEvents(db);
    expect(live).toContainEqual(['incident.created', null, ana!.id]);
    expect(live).toContainEqual(['incident.created', null, luis!.id]);
    expect(live).toContainEqual(['incident.changed', 'answer', ana!.id]);
    // The channel's panel: the last message received.
    const panel = await db.selectFrom('inboundPolls').selectAll().where('channel', '=', 'whatsapp').execute();
    expect(panel).toHaveLength(1);
    expect(panel[0]!.lastOkAt).not.toBeNull();
  });

  it("keeps each message's webhook JSON as received: 'Ver original' on the problem and on an answer", async () => {
    const { db } = database();
    const url = await serve(db);
    const first = webhookBody([textMessage(ANA, 'Ana Núñez', 'La impresión sale en blanco, ¿qué hago?')]);
    const second = webhookBody([textMessage(ANA, 'Ana Núñez', 'Ya la reinicié / sigue igual')]);
    expect((await send(url, first)).status).toBe(200);
    expect((await send(url, second)).status).toBe(200);
    const [incident] = await incidents(db);
    const stored = await db.selectFrom('inboundMessages').select(['id', 'outcome']).orderBy('id').execute();
    expect(stored.map((row) => row.outcome)).toEqual(['new-incident', 'answer']);
    // Byte for byte what Meta signed: its escapes (\u00fa, \/) kept.
    expect(await inboundOriginal(db, stored[0]!.id)).toBe(metaJson(first));
    expect(await inboundOriginal(db, stored[1]!.id)).toBe(metaJson(second));
    expect(metaJson(first)).toContain('\\u00fa');
    const numero = await db
      .selectFrom('incidents')
      .select('numeroIncidencia')
      .where('id', '=', incident!.id)
      .executeTakeFirstOrThrow();
    const full = (await incidentByNumber(db, numero.numeroIncidencia))!;
    const timeline = await staffTimeline(db, full);
    expect(timeline.find((entry) => entry.kind === 'problem')).toMatchObject({ original: stored[0]!.id });
    expect(timeline.find((entry) => entry.kind === 'answer')).toMatchObject({ original: stored[1]!.id });
  });

  it('a reply quoting our message joins that incident; an unquoted message to a resolved one opens a new incident', async () => {
    const { db } = database();
    const url = await serve(db);
    await send(url, webhookBody([textMessage(ANA, 'Ana', 'Primera consulta')]));
    const [older] = await incidents(db);
    const wamid = newWamid();
    await sentNotice(db, older!.id, wamid);
    await resolve(db, older!.id);
    await send(url, webhookBody([textMessage(ANA, 'Ana', 'Otra cosa distinta')]));
    const afterResolved = await incidents(db);
    expect(afterResolved).toHaveLength(2);
    expect(afterResolved[1]!.problema).toBe('Otra cosa distinta');
    // Quoting the resolved incident's message: back to it (reopened), not to the newer open one.
    await send(url, webhookBody([textMessage(ANA, 'Ana', 'Sigue fallando', { contextId: wamid })]));
    expect((await answers(db, older!.id)).map((entry) => entry.body)).toEqual(['Sigue fallando']);
    expect(await answers(db, afterResolved[1]!.id)).toEqual([]);
    expect((await incidents(db))[0]!.estado).toBe('En Proceso');
  });

  it('fetches an image and a document after answering and attaches them to the message', async () => {
    const { db } = database();
    const url = await serve(db);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c00' } })
      .png()
      .toBuffer();
    const image = meta.addMedia(png, 'image/png');
    const pdf = meta.addMedia(PDF, 'application/pdf');
    expect(
      (
        await deliver(
          url,
          webhookBody([
            imageMessage(ANA, 'Ana', { mediaId: image, mimeType: 'image/png', caption: 'La pantalla' }),
          ]),
        )
      ).status,
    ).toBe(200);
    await deliver(
      url,
      webhookBody([documentMessage(ANA, 'Ana', { mediaId: pdf, filename: 'Factura 0042.pdf' })]),
    );
    const [incident] = await incidents(db);
    expect(incident!.problema).toBe('La pantalla');
    const [answer] = await answers(db, incident!.id);
    expect(answer!.body).toBe('Documento enviado por WhatsApp: Factura 0042.pdf');
    const files = await attachments(db);
    expect(files).toMatchObject([
      { incidentId: incident!.id, entryId: null, contentType: 'image/png', droppedReason: null },
      {
        incidentId: incident!.id,
        entryId: answer!.id,
        filename: 'Factura 0042.pdf',
        contentType: 'application/pdf',
        droppedReason: null,
      },
    ]);
    expect(files.every((file) => file.blobSha256)).toBe(true);
    // The open pages refresh when a file lands.
    expect(await liveEvents(db)).toContainEqual(['incident.changed', 'note', incident!.id]);
    // Fetched with the bearer: the media's metadata, then its URL.
    const downloads = meta.requests.filter((request) => request.path.startsWith('/media-download/'));
    expect(downloads).toHaveLength(2);
    expect(downloads.every((request) => request.headers.authorization === `Bearer ${meta.accessToken}`)).toBe(
      true,
    );
  });

  it('a file Meta will not hand over, or one the file checks refuse, is said in the timeline and on the panel', async () => {
    const { db } = database();
    const url = await serve(db);
    const executable = renamedExecutable();
    const refusedId = meta.addMedia(executable.data, 'application/pdf');
    await deliver(
      url,
      webhookBody([documentMessage(ANA, 'Ana', { mediaId: '999999', filename: 'perdido.pdf' })]),
    );
    await deliver(
      url,
      webhookBody([documentMessage(ANA, 'Ana', { mediaId: refusedId, filename: executable.filename })]),
    );
    const files = await attachments(db);
    expect(files.map((file) => [file.filename, file.droppedReason, file.blobSha256])).toEqual([
      ['perdido.pdf', 'unfetched', null],
      ['factura.pdf', 'type', null],
    ]);
    const media = await db.selectFrom('whatsappMedia').select(['status']).orderBy('id').execute();
    expect(media).toEqual([{ status: 'failed' }, { status: 'failed' }]);
    const panel = await db
      .selectFrom('inboundPolls')
      .selectAll()
      .where('channel', '=', 'whatsapp')
      .executeTakeFirstOrThrow();
    expect(panel.lastError).toMatch(/WhatsApp/);
  });

  it('a file Meta cannot serve now (down) stays queued for another attempt, and is attached once Meta is back', async () => {
    const { db } = database();
    const url = await serve(db);
    const pdf = meta.addMedia(PDF, 'application/pdf');
    meta.failNext(1, { status: 500 }, 'media');
    await deliver(url, webhookBody([documentMessage(ANA, 'Ana', { mediaId: pdf, filename: 'informe.pdf' })]));
    expect(await db.selectFrom('whatsappMedia').select(['status', 'attempts']).execute()).toEqual([
      { status: 'pending', attempts: 1 },
    ]);
    expect(await attachments(db)).toEqual([]);
    // Its next attempt is due: the next POST's run takes it.
    await db
      .updateTable('whatsappMedia')
      .set({ nextAttemptAt: new Date(Date.now() - 1000).toISOString() })
      .execute();
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#00c' } })
      .png()
      .toBuffer();
    await deliver(
      url,
      webhookBody([
        imageMessage(ANA, 'Ana', { mediaId: meta.addMedia(png, 'image/png'), mimeType: 'image/png' }),
      ]),
    );
    expect((await attachments(db)).map((file) => [file.filename, file.droppedReason])).toEqual([
      ['informe.pdf', null],
      ['imagen.png', null],
    ]);
  });

  it('a location becomes a text with a map link', async () => {
    const { db } = database();
    const url = await serve(db);
    await send(
      url,
      webhookBody([
        location(ANA, 'Ana', {
          latitude: 18.4861,
          longitude: -69.9312,
          name: 'Tienda Naco',
          address: 'Av. Tiradentes 12',
        }),
      ]),
    );
    const [incident] = await incidents(db);
    expect(incident!.problema).toBe(
      'Ubicación compartida por WhatsApp\nTienda Naco — Av. Tiradentes 12\nhttps://www.google.com/maps?q=18.4861,-69.9312',
    );
  });

  it('a reaction is recorded and reopens nothing; a message from our own number does nothing', async () => {
    const { db } = database();
    const url = await serve(db);
    await send(url, webhookBody([textMessage(ANA, 'Ana', 'Gracias por todo')]));
    const [incident] = await incidents(db);
    const wamid = newWamid();
    await sentNotice(db, incident!.id, wamid);
    await resolve(db, incident!.id);
    await send(url, webhookBody([reaction(ANA, 'Ana', wamid, '👍')]));
    await send(url, webhookBody([textMessage('15550783881', 'Vértice', 'Eco de nuestro número')]));
    const after = await incidents(db);
    expect(after).toHaveLength(1);
    expect(after[0]!.estado).toBe('Resuelto');
    expect(await answers(db, incident!.id)).toEqual([]);
    const rows = await db
      .selectFrom('inboundMessages')
      .select(['outcome', 'reason', 'incidentId'])
      .orderBy('id')
      .execute();
    expect(rows.slice(1)).toEqual([
      { outcome: 'ignored', reason: 'reaction', incidentId: incident!.id },
      { outcome: 'ignored', reason: 'own-address', incidentId: null },
    ]);
  });

  it("a pick in the rating list records the rating as the mail's link does, once", async () => {
    const { db } = database();
    const url = await serve(db);
    await send(url, webhookBody([textMessage(ANA, 'Ana', 'No abre el sistema')]));
    const [incident] = await incidents(db);
    await resolve(db, incident!.id);
    const token = await issueRatingToken(db, incident!.id, new Date());
    const pick = interactiveListReply(ANA, 'Ana', { id: `rating:${token}:4`, title: 'Bien' });
    expect((await send(url, webhookBody([pick]))).status).toBe(200);
    const again = interactiveListReply(ANA, 'Ana', { id: `rating:${token}:1`, title: 'Muy mal' });
    await send(url, webhookBody([again]));
    const ratings = await db
      .selectFrom('incidentRatings')
      .select(['incidentId', 'valor', 'ratedAt'])
      .execute();
    expect(ratings).toMatchObject([{ incidentId: incident!.id, valor: 4 }]);
    expect(ratings[0]!.ratedAt).not.toBeNull();
    expect(await incidents(db)).toHaveLength(1);
    expect((await incidents(db))[0]!.estado).toBe('Resuelto');
    const rows = await db.selectFrom('inboundMessages').select(['outcome', 'reason']).orderBy('id').execute();
    expect(rows.slice(1)).toEqual([
      { outcome: 'report', reason: 'rating' },
      { outcome: 'ignored', reason: 'rating-used' },
    ]);
  });

  it('statuses update the notice they name, and one out of order never moves it back', async () => {
    const { db } = database();
    const url = await serve(db);
    await send(url, webhookBody([textMessage(ANA, 'Ana', 'Hola')]));
    const [incident] = await incidents(db);
    const delivered = newWamid();
    const failing = newWamid();
    const one = await sentNotice(db, incident!.id, delivered);
    const two = await sentNotice(db, incident!.id, failing);
    const notice = (id: number) =>
      db
        .selectFrom('customerNotices')
        .select(['deliveryStatus', 'deliveryError', 'statusAt'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const t = Math.floor(Date.now() / 1000);
    await send(url, webhookBody([status(delivered, 'delivered', [], { timestamp: t })]));
    await send(url, webhookBody([status(delivered, 'sent', [], { timestamp: t - 5 })]));
    expect(await notice(one)).toMatchObject({ deliveryStatus: 'delivered', deliveryError: null });
    expect(await liveEvents(db)).toContainEqual(['incident.changed', 'delivery', incident!.id]);
    await send(
      url,
      webhookBody([
        status(delivered, 'read', [], { timestamp: t + 5 }),
        status(delivered, 'delivered', [], { timestamp: t }),
      ]),
    );
    const read = await notice(one);
    expect(read.deliveryStatus).toBe('read');
    expect(new Date(read.statusAt!).getTime()).toBe((t + 5) * 1000);
    await send(
      url,
      webhookBody([
        status(failing, 'sent'),
        status(failing, 'failed', [{ code: 131026, title: 'Message undeliverable' }]),
      ]),
    );
    const failed = await notice(two);
    expect(failed.deliveryStatus).toBe('failed');
    expect(failed.deliveryError).toMatch(/^No se pudo entregar: /);
    // A status of a message not ours changes nothing and is still 200.
    expect((await send(url, webhookBody([status(newWamid(), 'read')]))).status).toBe(200);
  });

  it("past the per-number limit a message is refused ('Rechazados'); 'Crear incidencia' opens it with its text", async () => {
    const { db } = database();
    const url = await serve(db);
    for (let round = 1; round <= 5; round++) {
      await send(url, webhookBody([textMessage(ANA, 'Ana', `Consulta número ${round}`)]));
      const list = await incidents(db);
      await resolve(db, list.at(-1)!.id);
    }
    await send(url, webhookBody([textMessage(ANA, 'Ana', 'La sexta consulta de la hora')]));
    expect(await incidents(db)).toHaveLength(5);
    const refused = await db
      .selectFrom('inboundMessages')
      .select(['id', 'outcome', 'reason'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(refused).toMatchObject({ outcome: 'rejected', reason: 'rate-limit' });
    const opened = await openIncidentFromRefused(db, refused.id, inboundSettings(configFor(true)), {
      actorEmail: 'carmen@vertice.example',
      network: '127.0.0.1',
    });
    expect(opened.status).toBe('opened');
    expect((await incidents(db)).at(-1)).toMatchObject({
      origen: 'WhatsApp',
      problema: 'La sexta consulta de la hora',
      channelAddress: ANA,
      telefono: '+1 809-555-0100',
    });
  });

  it('answers 500 when the database is down, so that Meta delivers again; the redelivery is then stored once', async () => {
    const { db, url: databaseUrl } = database();
    // A handle whose connections are gone (used once: Kysely opens its driver on the first query).
    const broken = openDatabase(databaseUrl).db;
    await sql`select 1`.execute(broken);
    await broken.destroy();
    const url = await serve(() => broken);
    const body = webhookBody([textMessage(ANA, 'Ana', 'Urgente: no facturamos')]);
    expect((await send(url, body)).status).toBe(500);
    await new Promise<void>((done) => server!.close(() => done()));
    const working = await serve(db);
    expect((await send(working, body)).status).toBe(200);
    expect((await send(working, body)).status).toBe(200);
    expect(await incidents(db)).toHaveLength(1);
  });
});

describe('WhatsApp webhook without a database handle', () => {
  it('answers 500 at once when no database can be opened', async () => {
    const url = await serve(() => {
      throw new Error('sin base de datos');
    });
    expect((await send(url, webhookBody([textMessage(ANA, 'Ana', 'Hola')]))).status).toBe(500);
  });
});
