/**
 * The WhatsApp Graph client (src/server/channels/whatsapp/graph.ts) against the loopback stand-in of
 * Meta's API (tests/support/meta-standin.ts): the exact JSON each call sends, media up and down with the
 * bearer, and how each failure is classified and described. Also the stand-in's signed webhooks through a
 * real HTTP receiver that checks them with verifySignature and reads them with parseWebhookBytes.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createGraphClient,
  describeWhatsAppError,
  GraphError,
  isReengagementError,
  WHATSAPP_ERROR_TEXTS,
  type GraphClient,
} from '../../src/server/channels/whatsapp/graph.ts';
import { parseWebhookBytes, type ParsedWebhook } from '../../src/server/channels/whatsapp/payload.ts';
import {
  RATING_BUTTON,
  RATING_SECTION_TITLE,
  ratingBody,
  ratingRows,
} from '../../src/server/channels/whatsapp/ratings.ts';
import { SIGNATURE_HEADER, verifySignature } from '../../src/server/channels/whatsapp/signature.ts';
import {
  documentMessage,
  imageMessage,
  interactiveListReply,
  location,
  postWebhook,
  startMetaStandin,
  status,
  textMessage,
  webhookBody,
  type MetaStandin,
} from '../support/meta-standin.ts';

const ANA = '18095550100';
let meta: MetaStandin;
let graph: GraphClient;

beforeAll(async () => {
  meta = await startMetaStandin();
});
afterAll(() => meta.close());
beforeEach(() => {
  meta.requests.length = 0;
  meta.sentMessages().length = 0;
  meta.sentWamids().length = 0;
  meta.setDown(false);
  meta.setDelay(0);
  graph = createGraphClient({
    apiUrl: meta.apiUrl,
    accessToken: meta.accessToken,
    phoneNumberId: meta.phoneNumberId,
    timeoutMs: 2_000,
  });
});

/** The one request to the messages endpoint, checked for the headers every send carries. */
function lastSend() {
  const sends = meta.requests.filter((request) => request.path === `/v25.0/${meta.phoneNumberId}/messages`);
  const request = sends.at(-1)!;
  expect(request.method).toBe('POST');
  expect(request.headers.authorization).toBe(`Bearer ${meta.accessToken}`);
  expect(request.headers['content-type']).toMatch(/^application\/json/);
  return request.body;
}

async function failure(promise: Promise<unknown>): Promise<GraphError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(GraphError);
  return error as GraphError;
}

describe('sending', () => {
  it('sends a text in the documented shape and returns the wamid Meta answered', async () => {
    const wamid = await graph.sendText(ANA, 'Hola, Ana: ya revisamos tu módem.');
    expect(wamid).toBe(meta.sentWamids()[0]);
    expect(wamid).toMatch(/^wamid\./);
    expect(lastSend()).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: ANA,
      type: 'text',
      text: { preview_url: false, body: 'Hola, Ana: ya revisamos tu módem.' },
    });
  });

  it("quotes the customer's message with context.message_id, and takes the number with + and spaces", async () => {
    await graph.sendText('+1 809 555 0100', 'Respuesta', { contextId: 'wamid.DEL_CLIENTE' });
    expect(lastSend()).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: ANA,
      context: { message_id: 'wamid.DEL_CLIENTE' },
      type: 'text',
      text: { preview_url: false, body: 'Respuesta' },
    });
  });

  it('sends a template with its language and body parameters, and none without parameters', async () => {
    await graph.sendTemplate(ANA, 'respuesta_incidencia', 'es', [
      'INC-20261207-0042',
      'https://vertice.example/r/abc',
    ]);
    expect(lastSend()).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: ANA,
      type: 'template',
      template: {
        name: 'respuesta_incidencia',
        language: { code: 'es' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'INC-20261207-0042' },
              { type: 'text', text: 'https://vertice.example/r/abc' },
            ],
          },
        ],
      },
    });
    await graph.sendTemplate(ANA, 'hello_world', 'en_US');
    expect(lastSend()).toMatchObject({
      type: 'template',
      template: { name: 'hello_world', language: { code: 'en_US' } },
    });
    expect((lastSend() as any).template).not.toHaveProperty('components');
  });

  it('sends the rating list as an interactive list of one section', async () => {
    const rows = ratingRows('nt_42');
    await graph.sendList(ANA, ratingBody('INC-20261207-0042'), RATING_BUTTON, rows, {
      sectionTitle: RATING_SECTION_TITLE,
    });
    expect(lastSend()).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: ANA,
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: ratingBody('INC-20261207-0042') },
        action: {
          button: 'Calificar',
          sections: [
            {
              title: 'Tu calificación',
              rows: [
                { id: 'rating:nt_42:5', title: 'Excelente' },
                { id: 'rating:nt_42:4', title: 'Bien' },
                { id: 'rating:nt_42:3', title: 'Regular' },
                { id: 'rating:nt_42:2', title: 'Mal' },
                { id: 'rating:nt_42:1', title: 'Muy mal' },
              ],
            },
          ],
        },
      },
    });
  });

  it("refuses a list past Meta's limits before sending anything", async () => {
    const row = (index: number) => ({ id: `r${index}`, title: `Opción ${index}` });
    const ten = Array.from({ length: 10 }, (_, index) => row(index));
    await graph.sendList(ANA, 'Elige', 'Ver', ten);
    expect(meta.sentMessages()).toHaveLength(1);
    const cases: Array<[string, string, Array<{ id: string; title: string; description?: string }>]> = [
      ['Elige', 'Ver', [...ten, row(10)]],
      ['Elige', 'Ver', []],
      ['Elige', 'Ver', [{ id: 'a', title: 'x'.repeat(25) }]],
      ['Elige', 'Ver', [{ id: 'a'.repeat(201), title: 'Bien' }]],
      ['Elige', 'Ver', [{ id: 'a', title: 'Bien', description: 'd'.repeat(73) }]],
      ['Elige', 'Ver', [row(1), row(1)]],
      ['Elige', 'b'.repeat(21), [row(1)]],
      ['', 'Ver', [row(1)]],
    ];
    for (const [body, button, rows] of cases) {
      await expect(graph.sendList(ANA, body, button, rows)).rejects.toThrow(RangeError);
    }
    await graph.sendList(ANA, 'Elige', 'b'.repeat(20), [
      { id: 'a'.repeat(200), title: 'x'.repeat(24), description: 'd'.repeat(72) },
    ]);
    expect(meta.sentMessages()).toHaveLength(2);
  });

  it('refuses an empty or too long text and a recipient that is not a number', async () => {
    await expect(graph.sendText(ANA, '  ')).rejects.toThrow(RangeError);
    await expect(graph.sendText(ANA, 'x'.repeat(4097))).rejects.toThrow(RangeError);
    await expect(graph.sendText('ana@example.com', 'Hola')).rejects.toThrow(RangeError);
    expect(meta.requests).toHaveLength(0);
  });
});

describe('media', () => {
  it('uploads a file as multipart with the bearer and sends it by its media id', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2048, 7)]);
    const mediaId = await graph.uploadMedia(pdf, 'application/pdf', 'Informe técnico.pdf');
    const upload = meta.requests.find((request) => request.path === `/v25.0/${meta.phoneNumberId}/media`)!;
    expect(upload.method).toBe('POST');
    expect(upload.headers.authorization).toBe(`Bearer ${meta.accessToken}`);
    expect(upload.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload.multipart!.fields).toEqual({ messaging_product: 'whatsapp', type: 'application/pdf' });
    expect(upload.multipart!.files).toHaveLength(1);
    expect(upload.multipart!.files[0]).toMatchObject({
      field: 'file',
      filename: 'Informe técnico.pdf',
      mimeType: 'application/pdf',
    });
    expect(upload.multipart!.files[0]!.bytes.equals(pdf)).toBe(true);

    await graph.sendMedia(ANA, 'document', mediaId, {
      caption: 'El informe',
      filename: 'Informe técnico.pdf',
    });
    expect(lastSend()).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: ANA,
      type: 'document',
      document: { id: mediaId, caption: 'El informe', filename: 'Informe técnico.pdf' },
    });
    await graph.sendMedia(ANA, 'image', mediaId, { caption: 'Foto', filename: 'no.png' });
    expect(lastSend()).toEqual(
      expect.objectContaining({ type: 'image', image: { id: mediaId, caption: 'Foto' } }),
    );
    await graph.sendMedia(ANA, 'audio', mediaId, { caption: 'ignorado' });
    expect(lastSend()).toEqual(expect.objectContaining({ type: 'audio', audio: { id: mediaId } }));
  });

  it("fetches a customer's file: its metadata, then its URL with the bearer", async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(5000, 1)]);
    const mediaId = meta.addMedia(jpeg, 'image/jpeg');
    const media = await graph.fetchMedia(mediaId, { maxBytes: 10_000 });
    expect(Buffer.from(media.bytes).equals(jpeg)).toBe(true);
    expect(media).toMatchObject({
      mimeType: 'image/jpeg',
      fileSize: jpeg.length,
      sha256: createHash('sha256').update(jpeg).digest('hex'),
    });
    const [info, download] = meta.requests;
    expect(info).toMatchObject({ method: 'GET', path: `/v25.0/${mediaId}` });
    expect(info!.headers.authorization).toBe(`Bearer ${meta.accessToken}`);
    expect(download!.path).toMatch(/^\/media-download\//);
    expect(download!.headers.authorization).toBe(`Bearer ${meta.accessToken}`);
    // The stand-in serves the bytes only with the bearer.
    const url = `${meta.origin}${download!.path}`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { Authorization: 'Bearer otro' } })).status).toBe(401);
  });

  it('refuses a file past the size cap before downloading it', async () => {
    const mediaId = meta.addMedia(Buffer.alloc(20_000), 'video/mp4');
    const error = await failure(graph.fetchMedia(mediaId, { maxBytes: 19_999 }));
    expect(error).toMatchObject({ kind: 'too-large', retryable: false });
    expect(meta.requests.map((request) => request.path)).toEqual([`/v25.0/${mediaId}`]);
    expect(describeWhatsAppError(error)).toBe('No se pudo entregar: el archivo supera el tamaño permitido');
    expect((await graph.fetchMedia(mediaId, { maxBytes: 20_000 })).bytes.length).toBe(20_000);
  });

  it('asks once more for a URL that expired, and fails when the new one has expired too', async () => {
    const mediaId = meta.addMedia(Buffer.from('hola'), 'text/plain');
    meta.expireNextMediaUrls(1);
    expect(Buffer.from((await graph.fetchMedia(mediaId, { maxBytes: 100 })).bytes).toString()).toBe('hola');
    expect(meta.requests.filter((request) => request.path === `/v25.0/${mediaId}`)).toHaveLength(2);
    meta.requests.length = 0;
    meta.expireNextMediaUrls(2);
    const error = await failure(graph.fetchMedia(mediaId, { maxBytes: 100 }));
    expect(error).toMatchObject({ kind: 'http', status: 404, retryable: false });
    expect(meta.requests).toHaveLength(4);
  });

  it('refuses bytes that do not match the SHA-256 Meta gave', async () => {
    const mediaId = meta.addMedia(Buffer.from('contenido'), 'text/plain', { sha256: 'f'.repeat(64) });
    expect(await failure(graph.fetchMedia(mediaId, { maxBytes: 100 }))).toMatchObject({
      kind: 'checksum',
      retryable: true,
    });
  });

  it("never sends the bearer in clear to a host other than the API's", async () => {
    const mediaId = meta.addMedia(Buffer.from('secreto'), 'text/plain');
    meta.setMediaUrlOrigin(meta.origin.replace('127.0.0.1', 'localhost'));
    try {
      const error = await failure(graph.fetchMedia(mediaId, { maxBytes: 100 }));
      expect(error).toMatchObject({ kind: 'invalid-response', retryable: false });
      expect(meta.requests.map((request) => request.path)).toEqual([`/v25.0/${mediaId}`]);
    } finally {
      meta.setMediaUrlOrigin(null);
    }
  });

  it('fails permanently for a media id Meta does not know', async () => {
    const error = await failure(graph.fetchMedia('999', { maxBytes: 100 }));
    expect(error).toMatchObject({ kind: 'http', status: 400, code: 100, subcode: 33, retryable: false });
  });
});

describe('failures', () => {
  it("throws 131047 as a permanent re-engagement error with Meta's details, and the next send goes through", async () => {
    meta.failNext(1, {
      code: 131047,
      title: 'Re-engagement message',
      details:
        'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
    });
    const error = await failure(graph.sendText(ANA, 'Tarde'));
    expect(error).toMatchObject({ kind: 'http', status: 400, code: 131047, retryable: false });
    expect(error.details).toMatch(/more than 24 hours/);
    expect(error.message).toBe('(#131047) Re-engagement message');
    expect(isReengagementError(error)).toBe(true);
    expect(describeWhatsAppError(error)).toBe(
      'No se pudo entregar: pasaron más de 24 horas desde el último mensaje del cliente; hace falta una plantilla',
    );
    expect(meta.sentMessages()).toHaveLength(0);
    await graph.sendTemplate(ANA, 'respuesta_incidencia', 'es', ['https://vertice.example/r/abc']);
    expect(meta.sentMessages()).toHaveLength(1);
  });

  it("treats a 500, a 429 and Meta's throttling codes as worth a retry", async () => {
    meta.failNext(1, { status: 500 });
    const server = await failure(graph.sendText(ANA, 'Hola'));
    expect(server).toMatchObject({ kind: 'http', status: 500, retryable: true });
    expect(describeWhatsAppError(server)).toBe(
      'No se pudo entregar: WhatsApp tuvo un error (500); se reintentará',
    );
    meta.failNext(1, { status: 429 });
    expect(await failure(graph.sendText(ANA, 'Hola'))).toMatchObject({
      status: 429,
      code: 80007,
      retryable: true,
    });
    meta.failNext(1, { code: 130429, title: 'Rate limit hit' });
    const throttled = await failure(graph.sendText(ANA, 'Hola'));
    expect(throttled).toMatchObject({ status: 400, code: 130429, retryable: true });
    expect(describeWhatsAppError(throttled)).toBe(
      'No se pudo entregar: se alcanzó el límite de envíos por segundo de WhatsApp; se reintentará',
    );
    meta.failNext(1, { code: 131056, title: 'Pair rate limit hit' });
    expect(await failure(graph.sendText(ANA, 'Hola'))).toMatchObject({ code: 131056, retryable: true });
    expect(await graph.sendText(ANA, 'Hola')).toMatch(/^wamid\./);
  });

  it('treats 131026, 100 and an expired token as permanent', async () => {
    meta.failNext(1, { code: 131026, title: 'Message undeliverable' });
    const undeliverable = await failure(graph.sendText(ANA, 'Hola'));
    expect(undeliverable).toMatchObject({ code: 131026, retryable: false });
    expect(describeWhatsAppError(undeliverable)).toMatch(
      /^No se pudo entregar: el número no puede recibir este mensaje/,
    );

    const otherNumber = createGraphClient({
      apiUrl: meta.apiUrl,
      accessToken: meta.accessToken,
      phoneNumberId: '123',
    });
    const invalid = await failure(otherNumber.sendText(ANA, 'Hola'));
    expect(invalid).toMatchObject({ status: 400, code: 100, subcode: 33, retryable: false });
    expect(describeWhatsAppError(invalid)).toBe(
      'No se pudo entregar: WhatsApp rechazó un dato del mensaje (parámetro no válido)',
    );

    const expired = createGraphClient({
      apiUrl: meta.apiUrl,
      accessToken: 'EAAvencido',
      phoneNumberId: meta.phoneNumberId,
    });
    const token = await failure(expired.sendText(ANA, 'Hola'));
    expect(token).toMatchObject({ status: 401, code: 190, subcode: 463, retryable: false });
    expect(describeWhatsAppError(token)).toContain('WHATSAPP_ACCESS_TOKEN');
    expect(meta.sentMessages()).toHaveLength(0);
  });

  it('treats Meta being down or slow as a network error or a time-out, both retryable', async () => {
    meta.setDown(true);
    const down = await failure(graph.sendText(ANA, 'Hola'));
    expect(down).toMatchObject({ kind: 'network', status: null, code: null, retryable: true });
    expect(describeWhatsAppError(down)).toBe(
      'No se pudo entregar: no se pudo conectar con WhatsApp; se reintentará',
    );
    meta.setDown(false);
    meta.setDelay(1_000);
    const slow = createGraphClient({
      apiUrl: meta.apiUrl,
      accessToken: meta.accessToken,
      phoneNumberId: meta.phoneNumberId,
      timeoutMs: 200,
    });
    const started = Date.now();
    const timeout = await failure(slow.sendText(ANA, 'Hola'));
    expect(Date.now() - started).toBeLessThan(900);
    expect(timeout).toMatchObject({ kind: 'timeout', retryable: true });
    expect(describeWhatsAppError(timeout)).toBe(
      'No se pudo entregar: WhatsApp no respondió a tiempo; se reintentará',
    );
    meta.setDelay(0);
    expect(await graph.sendText(ANA, 'Hola')).toMatch(/^wamid\./);
  });

  it("describes every common code in Spanish, and falls back to Meta's title", () => {
    for (const code of [
      131026, 131047, 131051, 131052, 131053, 130429, 131056, 132000, 132001, 470, 100, 190,
    ]) {
      const text = describeWhatsAppError({ code, title: 'Meta title', message: 'Meta message' });
      expect(text).toBe(`No se pudo entregar: ${WHATSAPP_ERROR_TEXTS[code]}`);
      expect(text).not.toContain('Meta');
    }
    expect(describeWhatsAppError({ code: 131999, title: 'Something new', message: 'x' })).toBe(
      'No se pudo entregar: Something new',
    );
    expect(describeWhatsAppError({ code: 131999, title: '', message: 'Solo el mensaje' })).toBe(
      'No se pudo entregar: Solo el mensaje',
    );
    expect(describeWhatsAppError({ code: 131999, title: '', message: '' })).toBe(
      'No se pudo entregar: error 131999 de WhatsApp',
    );
    expect(isReengagementError({ code: 470 })).toBe(true);
    expect(isReengagementError({ code: 131026 })).toBe(false);
  });
});

describe("the stand-in's signed webhooks through a real HTTP receiver", () => {
  let receiver: http.Server;
  let url: string;
  const received: ParsedWebhook[] = [];

  beforeAll(async () => {
    // What the lead's webhook route does: read the raw bytes, verify, parse, answer 200 (401 when unsigned).
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        if (!verifySignature(raw, req.headers[SIGNATURE_HEADER], meta.appSecret)) {
          res.writeHead(401);
          return void res.end();
        }
        received.push(parseWebhookBytes(raw, { phoneNumberId: meta.phoneNumberId }));
        res.writeHead(200);
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/whatsapp`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('posts several messages and a status in one signed body that verifies and reads back', async () => {
    received.length = 0;
    const mediaId = meta.addMedia(Buffer.from([0xff, 0xd8, 0xff]), 'image/jpeg');
    const body = webhookBody(
      [
        textMessage(ANA, 'José Núñez', '¿Cuándo llega el técnico? Mañana no estoy 🙏', {
          contextId: 'wamid.NUESTRO',
        }),
        imageMessage(ANA, 'José Núñez', { mediaId, caption: 'Así está el router' }),
        documentMessage(ANA, 'José Núñez', { mediaId, filename: 'Contrato año 2026.pdf' }),
        location(ANA, 'José Núñez', { latitude: 19.45, longitude: -70.69, name: 'Santiago' }),
        interactiveListReply(ANA, 'José Núñez', ratingRows('nt_7')[0]!),
        status('wamid.NUESTRO', 'delivered'),
      ],
      { phoneNumberId: meta.phoneNumberId },
    );
    const response = await postWebhook(url, body, { appSecret: meta.appSecret });
    expect(response.status).toBe(200);
    expect(received).toHaveLength(1);
    const [parsed] = received;
    expect(parsed!.skipped).toEqual([]);
    expect(parsed!.messages.map((message) => message.type)).toEqual([
      'text',
      'image',
      'document',
      'location',
      'interactive',
    ]);
    expect(parsed!.messages[0]).toMatchObject({
      profileName: 'José Núñez',
      text: '¿Cuándo llega el técnico? Mañana no estoy 🙏',
      contextId: 'wamid.NUESTRO',
    });
    expect(parsed!.messages[2]!.media).toMatchObject({ id: mediaId, filename: 'Contrato año 2026.pdf' });
    expect(parsed!.messages[4]!.ratingReply).toEqual({ reference: 'nt_7', value: 5, title: 'Excelente' });
    expect(parsed!.statuses).toMatchObject([{ wamid: 'wamid.NUESTRO', status: 'delivered' }]);
    // And the file the image names can be fetched.
    expect((await graph.fetchMedia(parsed!.messages[1]!.media!.id, { maxBytes: 100 })).bytes.length).toBe(3);
  });

  it('is refused with a wrong secret, a forged signature or none', async () => {
    received.length = 0;
    const body = webhookBody([textMessage(ANA, 'Ana', 'Hola')]);
    expect((await postWebhook(url, body, { appSecret: 'otro-secreto' })).status).toBe(401);
    expect(
      (await postWebhook(url, body, { appSecret: meta.appSecret, signature: `sha256=${'0'.repeat(64)}` }))
        .status,
    ).toBe(401);
    expect((await postWebhook(url, body, { appSecret: meta.appSecret, signature: null })).status).toBe(401);
    expect(received).toHaveLength(0);
  });
});
