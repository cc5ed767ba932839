/**
 * Issue 21: every mail to a customer about an incident is one thread with a reply address that comes
 * back to the desk. Read from the queued outbox rows and from what a real SMTP peer receives: its own
 * Message-ID at the inbound domain (recorded in `incident_mails`), `In-Reply-To`/`References` naming the
 * incident's first mail, `Reply-To` the incident's `local+TOKEN@domain` (TOKEN stored hashed, not the
 * follow-up token) or STAFF_INBOX without INBOUND_ADDRESS, and RFC 3834's `Auto-Submitted` on the
 * automatic ones.
 */
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { createIncident } from '../../src/server/incidents/index.ts';
import { replyToCustomer } from '../../src/server/incidents/conversation.ts';
import { setIncidentState } from '../../src/server/incidents/state.ts';
import { startMailWorker } from '../../src/server/mail/outbox.ts';
import { smtpTransport } from '../../src/server/mail/transports.ts';
import { describeEachEngine } from '../support/db.ts';
import { MAIL_BRAND } from '../support/mail-brand.ts';
import { startSmtpPeer } from '../support/smtp.ts';

const INBOUND = 'soporte@vertice.example';
const STAFF_INBOX = 'equipo@vertice.example';
const brand = { ...MAIL_BRAND, inboundAddress: INBOUND, staffInbox: STAFF_INBOX };
const author = { id: 'user-1', email: 'ana@vertice.example', name: 'Ana Pérez' };
const fields = {
  problema: 'No imprime la factura',
  nombre: 'María',
  telefono: '',
  email: 'maria@cliente.example',
  rnc: '',
};
const at = (minute: number) => new Date(Date.UTC(2025, 2, 3, 14, minute));
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describeEachEngine('threading of incident mails', (database) => {
  async function conversation(mailBrand: typeof MAIL_BRAND) {
    const { db } = database();
    const created = await createIncident(db, fields, {
      brand: mailBrand,
      staffInbox: STAFF_INBOX,
      now: at(0),
    });
    await setIncidentState(
      db,
      { id: created.id, estado: 'En Proceso', actor: author.email, notify: mailBrand },
      at(1),
    );
    await replyToCustomer(
      db,
      { incidentId: created.id, author, body: 'Ya lo revisamos.', brand: mailBrand },
      at(2),
    );
    const rows = await db
      .selectFrom('mailOutbox')
      .selectAll()
      .where('toAddress', '=', fields.email)
      .orderBy('id')
      .execute();
    return { db, created, rows };
  }

  it('gives each customer mail its own Message-ID, threads it under the first and a reply address of the incident', async () => {
    const { db, created, rows } = await conversation(brand);
    expect(rows.map((row) => row.kind)).toEqual([
      'incident.confirmation',
      'incident.state',
      'incident.reply',
    ]);
    const ids = rows.map((row) => row.messageId);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}@vertice\.example$/);
    expect(new Set(ids).size).toBe(3);

    const headers = rows.map((row) => (row.headers ? JSON.parse(row.headers) : {}) as Record<string, string>);
    expect(headers[0]).toEqual({ 'Auto-Submitted': 'auto-generated' });
    expect(headers[1]).toEqual({
      'Auto-Submitted': 'auto-generated',
      'In-Reply-To': `<${ids[0]}>`,
      References: `<${ids[0]}>`,
    });
    // A staff member wrote the reply: it is no automatic mail.
    expect(headers[2]).toEqual({ 'In-Reply-To': `<${ids[0]}>`, References: `<${ids[0]}>` });
    expect(rows[1]!.subject).toContain(created.numeroIncidencia);

    const tokens = rows.map(
      (row) => /^soporte\+([0-9a-f]{32})@vertice\.example$/.exec(row.replyTo ?? '')?.[1],
    );
    for (const token of tokens) expect(token).toBeTruthy();
    expect(new Set(tokens).size).toBe(3);
    const recorded = await db.selectFrom('incidentMails').selectAll().orderBy('id').execute();
    expect(recorded.map((mail) => [mail.incidentId, mail.messageId, mail.kind, mail.replyTokenHash])).toEqual(
      rows.map((row, index) => [created.id, row.messageId, row.kind, sha256(tokens[index]!)]),
    );
    // Only hashes are stored, and the reply token is not the follow-up link's.
    const followUpHashes = (await db.selectFrom('incidentTokens').select('tokenHash').execute()).map(
      (row) => row.tokenHash,
    );
    for (const token of tokens) {
      expect(JSON.stringify(recorded)).not.toContain(token);
      expect(followUpHashes).not.toContain(sha256(token!));
    }
    expect(rows[0]!.textBody).toContain('responde a este correo');
  });

  it('without INBOUND_ADDRESS: Message-IDs at the site host and replies to STAFF_INBOX, never to no-reply', async () => {
    const { rows } = await conversation({ ...MAIL_BRAND, staffInbox: STAFF_INBOX });
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.messageId).toMatch(/@vertice\.example$/);
      expect(row.replyTo).toBe(STAFF_INBOX);
    }
    const resolved = await conversation({ ...MAIL_BRAND, staffInbox: STAFF_INBOX });
    expect(resolved.rows[0]!.textBody).not.toContain('Para añadir algo a tu incidencia, responde');
  });

  it('the staff notices are automatic mails too', async () => {
    const { db } = await conversation(brand);
    const notice = await db
      .selectFrom('mailOutbox')
      .selectAll()
      .where('kind', '=', 'incident.staff-notice')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(notice.headers ?? '{}')).toEqual({ 'Auto-Submitted': 'auto-generated' });
    expect(notice.replyTo).toBe(fields.email);
  });

  it('what the mail server receives carries the same headers', async () => {
    const { db, rows } = await conversation(brand);
    const peer = await startSmtpPeer();
    const worker = startMailWorker({
      db,
      transport: smtpTransport(peer.url, 'Vértice Consultores <no-reply@vertice.example>'),
      poll: false,
      now: () => at(5),
    });
    try {
      expect(await worker.runOnce()).toBe(4);
      const byId = (id: string | null) => peer.messages.find((mail) => mail.messageId === `<${id}>`);
      const [confirmation, notice, reply] = rows.map((row) => byId(row.messageId));
      expect(confirmation?.inReplyTo).toBeUndefined();
      expect(confirmation?.headers.get('auto-submitted')).toBe('auto-generated');
      expect(confirmation?.replyTo?.value[0]?.address).toBe(rows[0]!.replyTo);
      for (const mail of [notice, reply]) {
        expect(mail?.inReplyTo).toBe(`<${rows[0]!.messageId}>`);
        expect(mail?.references).toBe(`<${rows[0]!.messageId}>`);
      }
      expect(notice?.headers.get('auto-submitted')).toBe('auto-generated');
      expect(reply?.headers.has('auto-submitted')).toBe(false);
      expect(reply?.replyTo?.value[0]?.address).toBe(rows[2]!.replyTo);
    } finally {
      await worker.stop();
      await peer.stop();
    }
  });
});
