/**
 * The two channels a test sends a raw mail through, as a customer's server would: the webhook (its
 * production handler, src/server/channels/mail/webhook.ts, on a loopback HTTP server) and the mailbox (a
 * round of the poller over a private Dovecot: call `useDovecot()` from tests/support/imap-poller.ts in
 * the calling describe).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { parseConfig } from '../../src/server/config.ts';
import type { Db } from '../../src/server/db/index.ts';
import { pollMailbox } from '../../src/server/channels/mail/imap.ts';
import { inboundMailHandler } from '../../src/server/channels/mail/webhook.ts';
import { INBOUND, STAFF_INBOX, testInboundSettings } from './inbound.ts';
import { append, dovecot } from './imap-poller.ts';

const SECRET = 'webhook-secreto-de-canales-0123456789abcdef';
const silent = { info() {}, error() {} };

/**
 * A sender of raw mails to the webhook over `db` (its server closed after each test): each post's
 * status and the outcome it answered.
 */
export function useWebhook() {
  let server: http.Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });
  return async function post(db: Db, raws: Buffer[]): Promise<Array<{ status: number; resultado: string }>> {
    if (!server) {
      const config = parseConfig({
        INBOUND_ADDRESS: INBOUND,
        STAFF_INBOX,
        MAIL_FROM: 'Vértice Consultores <no-reply@vertice.example>',
        INBOUND_WEBHOOK_SECRET: SECRET,
      });
      server = http.createServer(
        inboundMailHandler(
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
    }
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/inbound-mail`;
    const answers = [];
    for (const raw of raws) {
      const response = await fetch(url, {
        method: 'POST',
        body: new Uint8Array(raw),
        headers: { 'Content-Type': 'message/rfc822', Authorization: `Bearer ${SECRET}` },
      });
      const body = (await response.json()) as { resultado?: string; error?: string };
      answers.push({ status: response.status, resultado: body.resultado ?? body.error ?? '' });
    }
    return answers;
  };
}

/** The mails put in the test's Dovecot INBOX and one round of the poller over `db`, at `now`. */
export async function throughMailbox(db: Db, raws: Buffer[], now: Date) {
  await append(raws);
  return pollMailbox(db, {
    url: dovecot().url,
    settings: testInboundSettings(),
    maxBytes: 1024 * 1024,
    now: () => now,
  });
}
