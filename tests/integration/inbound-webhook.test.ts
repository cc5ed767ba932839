/**
 * The inbound-mail webhook's handler (src/server/channels/mail/webhook.ts) on a real HTTP server over each
 * engine: the secret (constant-time, checked before the body is read), the size limit counted as the
 * body streams (with and without Content-Length), 404 when no secret is set, and the same
 * de-duplication as the mailbox. The production wiring is covered by tests/e2e/inbound-mail.test.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig, type Config } from '../../src/server/config.ts';
import type { Db } from '../../src/server/db/index.ts';
import { authorizedBearer, inboundMailHandler } from '../../src/server/channels/mail/webhook.ts';
import { describeEachEngine } from '../support/db.ts';
import { refusalReasonLabel } from '../../src/domain/inbound.ts';
import { originalBytes } from '../../src/server/channels/mail/original.ts';
import { deepHtmlMail, inboundFixture, nestedMultipartMail } from '../support/inbound.ts';

const SECRET = 'webhook-secreto-de-prueba-0123456789abcdef';
const silent = { info() {}, error() {} };

let server: http.Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** The handler on a loopback server; anything it does not take answers 418 (so a fall-through shows). */
async function serve(db: Db | (() => Db), env: Record<string, string>): Promise<string> {
  const config: Config = parseConfig({
    INBOUND_ADDRESS: 'soporte@vertice.example',
    STAFF_INBOX: 'equipo@vertice.example',
    ...env,
  });
  server = http.createServer(
    inboundMailHandler(config, typeof db === 'function' ? db : () => db, silent, (_req, res) => {
      res.writeHead(418);
      res.end();
    }),
  );
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/inbound-mail`;
}

const post = (
  url: string,
  body: Uint8Array | ReadableStream<Uint8Array>,
  headers: Record<string, string> = {},
) =>
  fetch(url, {
    method: 'POST',
    // A copy as a plain Uint8Array (a Buffer's type is no BodyInit).
    body: body instanceof Uint8Array ? new Uint8Array(body) : body,
    headers: { 'Content-Type': 'message/rfc822', ...headers },
    duplex: 'half',
  } as RequestInit);

/** A body without Content-Length: `size` bytes in 16 KiB chunks. */
function chunked(size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const chunk = new Uint8Array(Math.min(16 * 1024, size - sent)).fill(65);
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

describe('authorizedBearer', () => {
  it('takes the secret as a Bearer token only', () => {
    expect(authorizedBearer(`Bearer ${SECRET}`, SECRET)).toBe(true);
    expect(authorizedBearer(`bearer  ${SECRET} `, SECRET)).toBe(true);
    for (const header of [
      undefined,
      '',
      SECRET,
      `Basic ${SECRET}`,
      `Bearer ${SECRET}x`,
      `Bearer ${SECRET.slice(1)}`,
      'Bearer ',
    ])
      expect(authorizedBearer(header, SECRET)).toBe(false);
  });
});

describeEachEngine('inbound-mail webhook', (database) => {
  const stored = (db: Db) => db.selectFrom('inboundMessages').select(['outcome', 'incidentId']).execute();

  it('stores a raw mail with the right secret (202), and the same mail again only once', async () => {
    const { db } = database();
    const url = await serve(db, { INBOUND_WEBHOOK_SECRET: SECRET });
    const raw = inboundFixture('new-incident');
    const first = await post(url, raw, { Authorization: `Bearer ${SECRET}` });
    expect(first.status).toBe(202);
    expect(await first.json()).toEqual({ resultado: 'new-incident' });
    const again = await post(url, raw, { Authorization: `Bearer ${SECRET}` });
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual({ resultado: 'duplicate' });
    expect(await stored(db)).toHaveLength(1);
    expect(await db.selectFrom('incidents').select('origen').execute()).toEqual([{ origen: 'Correo' }]);
  });

  it('refuses a wrong or missing secret with 401 and stores nothing', async () => {
    const { db } = database();
    const url = await serve(db, { INBOUND_WEBHOOK_SECRET: SECRET });
    for (const headers of [
      {},
      { Authorization: `Bearer ${SECRET.slice(0, -1)}` },
      { Authorization: `Basic ${SECRET}` },
    ] as Array<Record<string, string>>) {
      const response = await post(url, inboundFixture('new-incident'), headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect(await stored(db)).toEqual([]);
  });

  it('answers 404 when no secret is set, and 405 to anything but POST', async () => {
    const { db } = database();
    const off = await serve(db, {});
    expect(
      (await post(off, inboundFixture('new-incident'), { Authorization: `Bearer ${SECRET}` })).status,
    ).toBe(404);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    const on = await serve(db, { INBOUND_WEBHOOK_SECRET: SECRET });
    const get = await fetch(on, { headers: { Authorization: `Bearer ${SECRET}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await fetch(on.replace('/api/inbound-mail', '/otra'))).status).toBe(418);
    expect(await stored(db)).toEqual([]);
  });

  it('answers 413 past INBOUND_MAX_BYTES, by its Content-Length or counting a body sent without one', async () => {
    const { db } = database();
    const url = await serve(db, { INBOUND_WEBHOOK_SECRET: SECRET, INBOUND_MAX_BYTES: String(64 * 1024) });
    const auth = { Authorization: `Bearer ${SECRET}` };
    expect((await post(url, new Uint8Array(64 * 1024 + 1), auth)).status).toBe(413);
    const streamed = await post(url, chunked(1024 * 1024), auth);
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toEqual({ error: 'El correo supera INBOUND_MAX_BYTES' });
    expect(await stored(db)).toEqual([]);
    // Just under the limit, streamed: stored.
    const raw = inboundFixture('new-incident');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(raw.subarray(0, 100));
        controller.enqueue(raw.subarray(100));
        controller.close();
      },
    });
    expect((await post(url, body, auth)).status).toBe(202);
    expect(await stored(db)).toHaveLength(1);
  });
});

describeEachEngine('inbound-mail webhook, hostile mail (issue 38, F1)', (database) => {
  const auth = { Authorization: `Bearer ${SECRET}` };

  it('a mail nested 300 multipart levels deep is stored as refused, with its original, and the next mail goes on (202, never 503)', async () => {
    const { db } = database();
    const url = await serve(db, { INBOUND_WEBHOOK_SECRET: SECRET });
    const nested = nestedMultipartMail(300);
    const response = await post(url, nested, auth);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ resultado: 'rejected' });
    const [row] = await db
      .selectFrom('inboundMessages')
      .select(['id', 'outcome', 'reason', 'sender', 'subject', 'messageId'])
      .execute();
    expect(row).toMatchObject({
      outcome: 'rejected',
      reason: 'unreadable: más de 64 niveles de partes anidadas',
      sender: 'carmen@panaderia.example',
      subject: 'Factura anidada',
      messageId: 'anidado@panaderia.example',
    });
    expect(refusalReasonLabel(row!.reason)).toBe(
      'No se pudo leer el correo (más de 64 niveles de partes anidadas)',
    );
    expect((await originalBytes(db, row!.id))?.equals(nested)).toBe(true);
    // Delivered again: the same record, nothing new.
    expect(await (await post(url, nested, auth)).json()).toEqual({ resultado: 'duplicate' });

    const next = await post(url, inboundFixture('new-incident'), auth);
    expect(next.status).toBe(202);
    expect(await next.json()).toEqual({ resultado: 'new-incident' });
    expect(await db.selectFrom('incidents').select('origen').execute()).toEqual([{ origen: 'Correo' }]);
  });

  it("an HTML-only mail of <div> nested 5,000 deep becomes an incident with its readable text (202), the depth past the conversion's limit left out", async () => {
    const { db } = database();
    const url = await serve(db, { INBOUND_WEBHOOK_SECRET: SECRET });
    const response = await post(url, deepHtmlMail(5000), auth);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ resultado: 'new-incident' });
    const incident = await db.selectFrom('incidents').select(['problema', 'email']).executeTakeFirstOrThrow();
    expect(incident.email).toBe('carmen@panaderia.example');
    expect(incident.problema).toContain('La impresora fiscal no imprime.');
    expect(incident.problema).not.toContain('hondo');
  });
});

describe('inbound-mail webhook without a database', () => {
  it('answers 503 at once and lets the streamed body go, rather than leaving the sender waiting', async () => {
    const url = await serve(
      () => {
        throw new Error('sin base de datos');
      },
      { INBOUND_WEBHOOK_SECRET: SECRET },
    );
    const response = await post(url, inboundFixture('new-incident'), { Authorization: `Bearer ${SECRET}` });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: 'No se pudo guardar el correo; reinténtalo más tarde' });
  });
});
