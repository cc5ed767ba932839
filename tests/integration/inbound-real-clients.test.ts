/**
 * Mail as real clients send it (issue 41, items 1, 2, 4, 5 and 7), through the intake on the webhook (its
 * real handler on a loopback server, each engine) and on IMAP (a private Dovecot): a sender whose name
 * has a comma inside an encoded word, a sender list whose first address is empty, comments in an
 * address, a mislabelled charset, and a PDF that must be stored byte for byte in every transfer encoding.
 */
import { describe, expect, it } from 'vitest';
import { SENDER_UNCERTAIN } from '../../src/domain/inbound.ts';
import type { Db } from '../../src/server/db/index.ts';
import { mailboxesOf, senderOf } from '../../src/server/channels/mail/addresses.ts';
import { pollMailbox, PROCESSED_FOLDER } from '../../src/server/channels/mail/imap.ts';
import { staffTimeline, incidentByNumber } from '../../src/server/incidents/conversation.ts';
import { describeEachEngine, describeEngine } from '../support/db.ts';
import { dovecotProblem } from '../support/dovecot.ts';
import { append, folders, options, useDovecot, at } from '../support/imap-poller.ts';
import { openFormIncident } from '../support/inbound.ts';
import { useWebhook } from '../support/inbound-channels.ts';
import { pdfInEachEncoding, realMail, sha256 } from '../support/real-mail.ts';

const send = useWebhook();

/** The webhook's own handler on a loopback server (tests/support/inbound-channels.ts) over `db`: each post 202, its outcome. */
function webhook(db: Db) {
  return async (raw: Buffer): Promise<string> => {
    const [answer] = await send(db, [raw]);
    expect(answer!.status).toBe(202);
    return answer!.resultado;
  };
}

const NUNEZ = 'From: =?iso-8859-1?Q?N=FA=F1ez,=20Mar=EDa_Jos=E9?= <mjnunez@cliente.example>';
const BURLING = 'From: =?iso-8859-1?Q?B=FCrling,=20Andreas?= <smith@example.com>';

/** A new mail (not an answer) with these headers before the usual ones. */
const newMail = (messageId: string, headers: string[], body = 'No imprime la factura.\r\n') =>
  realMail(
    [
      ...headers,
      'To: soporte@vertice.example',
      `Message-ID: <${messageId}>`,
      'Subject: La impresora fiscal',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
    ],
    body,
  );

/** A text part of these bytes under this charset label, sent 8bit. */
const labelled = (id: string, charset: string, body: Buffer) =>
  realMail(
    [
      `From: Cliente ${id} <${id}@cliente.example>`,
      'To: soporte@vertice.example',
      `Message-ID: <${id}@cliente.example>`,
      'Subject: Acentos',
      `Content-Type: text/plain; charset=${charset}`,
      'Content-Transfer-Encoding: 8bit',
    ],
    body,
  );

describe('addresses as real clients write them (src/server/channels/mail/addresses.ts)', () => {
  it('decodes encoded words before splitting the list, so a comma inside one stays in the name', () => {
    expect(mailboxesOf(BURLING.slice(6))).toEqual([
      { address: 'smith@example.com', name: 'Bürling, Andreas' },
    ]);
    expect(mailboxesOf(NUNEZ.slice(6))).toEqual([
      { address: 'mjnunez@cliente.example', name: 'Núñez, María José' },
    ]);
    // Two encoded words in a row join; one inside a quoted string stays inside it.
    expect(mailboxesOf('=?utf-8?Q?P=C3=A9rez,?= =?utf-8?Q?_Juan?= <juan@x.example>, ana@y.example')).toEqual([
      { address: 'juan@x.example', name: 'Pérez, Juan' },
      { address: 'ana@y.example', name: '' },
    ]);
    expect(mailboxesOf('"=?utf-8?Q?G=C3=B3mez=2C_Luis?=" <luis@z.example>')).toEqual([
      { address: 'luis@z.example', name: 'Gómez, Luis' },
    ]);
  });

  it('drops RFC 5322 comments from the address (item 7)', () => {
    expect(mailboxesOf('pete(his account)@silly.test(his host)')[0]!.address).toBe('pete@silly.test');
    expect(mailboxesOf('Pete(A nice \\) chap) <pete(his account)@silly.test(his host)>')[0]!.address).toBe(
      'pete@silly.test',
    );
    expect(mailboxesOf("Chris Jones <c@(Chris's host.)public.example>")[0]!.address).toBe('c@public.example');
  });

  it('takes the first usable address of From, else Reply-To, and says the sender is uncertain (item 5)', () => {
    const from = '"Yangzhou ABC Lighting Equipment " <>, "LTD" <ly@example.com>';
    expect(senderOf(from, 'ventas@yangzhou.example')).toEqual({
      address: 'ly@example.com',
      name: 'LTD',
      uncertain: true,
    });
    expect(senderOf('"Sin dirección" <>', 'Ventas <ventas@yangzhou.example>')).toEqual({
      address: 'ventas@yangzhou.example',
      name: 'Ventas',
      uncertain: true,
    });
    expect(senderOf('Ana <ana@x.example>', 'otra@x.example')).toMatchObject({ uncertain: false });
    expect(senderOf('"Nadie" <>', undefined)).toBeNull();
  });
});

describeEachEngine('real clients through the webhook (issue 41)', (database) => {
  it('a sender "Núñez, María José" in an encoded word opens an incident in her name (item 1)', async () => {
    const { db } = database();
    const post = webhook(db);
    expect(await post(newMail('nunez@cliente.example', [NUNEZ]))).toBe('new-incident');
    expect(await post(newMail('burling@example.com', [BURLING]))).toBe('new-incident');
    const incidents = await db.selectFrom('incidents').select(['nombre', 'email']).orderBy('id').execute();
    expect(incidents).toEqual([
      { nombre: 'Núñez, María José', email: 'mjnunez@cliente.example' },
      { nombre: 'Bürling, Andreas', email: 'smith@example.com' },
    ]);
  });

  it("an answer to the incident's own reply address joins it by the token, whatever its From says (item 1)", async () => {
    const { db } = database();
    const post = webhook(db);
    const incident = await openFormIncident(db, at, { email: 'smith@example.com', nombre: 'Andreas' });
    const answer = realMail(
      [
        'From: =?iso-8859-1?Q?B=FCrling,=20Andreas?= <>',
        `To: soporte+${incident.token}@vertice.example`,
        'Message-ID: <respuesta-sin-remitente@example.com>',
        `Subject: RE: Incidencia ${incident.numero}`,
        'Content-Type: text/plain; charset=iso-8859-1',
        'Content-Transfer-Encoding: quoted-printable',
      ],
      'Ya prob=E9 de nuevo y sigue igual.\r\n',
    );
    expect(await post(answer)).toBe('answer');
    const entries = await db
      .selectFrom('incidentEntries')
      .select(['kind', 'body'])
      .where('incidentId', '=', incident.id)
      .execute();
    expect(entries).toEqual([{ kind: 'answer', body: 'Ya probé de nuevo y sigue igual.' }]);
  });

  it('a sender list whose first address is empty opens the incident from the next one, marked Remitente incierto (item 5)', async () => {
    const { db } = database();
    const post = webhook(db);
    const mail = newMail('yangzhou@example.com', [
      'From: "Yangzhou ABC Lighting Equipment " <>, "LTD" <ly@example.com>',
      'Reply-To: ventas@yangzhou.example',
    ]);
    expect(await post(mail)).toBe('new-incident');
    const row = await db.selectFrom('inboundMessages').select(['sender', 'reason']).executeTakeFirstOrThrow();
    expect(row).toEqual({ sender: 'ly@example.com', reason: SENDER_UNCERTAIN });
    const incident = await db
      .selectFrom('incidents')
      .select(['numeroIncidencia', 'email'])
      .executeTakeFirstOrThrow();
    expect(incident.email).toBe('ly@example.com');
    const timeline = await staffTimeline(db, (await incidentByNumber(db, incident.numeroIncidencia))!);
    expect(timeline[0]).toMatchObject({ kind: 'problem', via: 'correo', remitenteIncierto: true });
  });

  it('a mail from an address with comments is answered at the address itself (item 7)', async () => {
    const { db } = database();
    const post = webhook(db);
    expect(
      await post(
        newMail('pete@silly.test', ['From: Pete(A nice \\) chap) <pete(his account)@silly.test(his host)>']),
      ),
    ).toBe('new-incident');
    expect(await db.selectFrom('incidents').select('email').execute()).toEqual([
      { email: 'pete@silly.test' },
    ]);
    const confirmation = await db
      .selectFrom('mailOutbox')
      .select('toAddress')
      .where('kind', '=', 'incident.confirmation')
      .executeTakeFirstOrThrow();
    expect(confirmation.toAddress).toBe('pete@silly.test');
  });

  it('a part labelled us-ascii or with an unknown charset whose bytes are UTF-8 reads as UTF-8; a right label stays (item 4)', async () => {
    const { db } = database();
    const post = webhook(db);
    const text = Buffer.from('Envoyé par María: la señal no llegó.\r\n', 'utf8');
    await post(labelled('ascii', 'us-ascii', text));
    await post(labelled('desconocido', 'x-sin-nombre', text));
    // Under us-ascii, bytes that are not UTF-8 read as windows-1252; a right latin-1 label stays.
    await post(labelled('cp1252', 'us-ascii', Buffer.from('Envoyé par María\r\n', 'latin1')));
    await post(labelled('latin1', 'iso-8859-1', Buffer.from('Envoyé par María\r\n', 'latin1')));
    const problems = await db.selectFrom('incidents').select(['email', 'problema']).orderBy('id').execute();
    expect(problems.map((row) => row.problema)).toEqual([
      'Acentos\n\nEnvoyé par María: la señal no llegó.',
      'Acentos\n\nEnvoyé par María: la señal no llegó.',
      'Acentos\n\nEnvoyé par María',
      'Acentos\n\nEnvoyé par María',
    ]);
  });

  it('a PDF is stored byte for byte whatever its transfer encoding: base64, quoted-printable, 7bit, 8bit, binary, uuencode (item 2)', async () => {
    const { db } = database();
    const post = webhook(db);
    const samples = pdfInEachEncoding();
    for (const { mail } of samples) expect(await post(mail)).toBe('new-incident');
    expect(await storedFiles(db)).toEqual(
      samples.map(({ encoding, pdf }) => [encoding, pdf.length, sha256(pdf)]),
    );
  });
});

/** Each stored file of the incidents, in order: its mail's encoding (from the incident), size and SHA-256. */
async function storedFiles(db: Db) {
  const rows = await db
    .selectFrom('incidentAttachments')
    .innerJoin('inboundMessages', 'inboundMessages.incidentId', 'incidentAttachments.incidentId')
    .select(['inboundMessages.messageId', 'incidentAttachments.size', 'incidentAttachments.blobSha256'])
    .orderBy('incidentAttachments.id')
    .execute();
  return rows.map((row) => [/^pdf-(.+)@/.exec(row.messageId ?? '')?.[1], row.size, row.blobSha256]);
}

describe.skipIf(dovecotProblem !== null)('real clients through the mailbox (issue 41)', () => {
  useDovecot();
  describeEngine('sqlite', 'IMAP', (database) => {
    it('the same mails by IMAP: the encoded-word sender, the uncertain sender, comments, a mislabelled charset, and the PDF byte for byte in each encoding', async () => {
      const { db } = database();
      const samples = pdfInEachEncoding(true);
      await append([
        newMail('nunez@cliente.example', [NUNEZ]),
        newMail('yangzhou@example.com', [
          'From: "Yangzhou ABC Lighting Equipment " <>, "LTD" <ly@example.com>',
          'Reply-To: ventas@yangzhou.example',
        ]),
        newMail('pete@silly.test', ['From: Pete(A nice \\) chap) <pete(his account)@silly.test(his host)>']),
        labelled('ascii', 'us-ascii', Buffer.from('Envoyé par María\r\n', 'utf8')),
        ...samples.map(({ mail }) => mail),
      ]);
      expect(await pollMailbox(db, options())).toEqual({
        status: 'done',
        processed: 4 + samples.length,
        rejected: 0,
      });
      expect((await folders())[PROCESSED_FOLDER]).toHaveLength(4 + samples.length);
      const incidents = await db
        .selectFrom('incidents')
        .select(['nombre', 'email', 'problema'])
        .orderBy('id')
        .execute();
      expect(incidents.slice(0, 4)).toEqual([
        { nombre: 'Núñez, María José', email: 'mjnunez@cliente.example', problema: expect.any(String) },
        { nombre: 'LTD', email: 'ly@example.com', problema: expect.any(String) },
        { nombre: expect.any(String), email: 'pete@silly.test', problema: expect.any(String) },
        { nombre: 'Cliente ascii', email: 'ascii@cliente.example', problema: 'Acentos\n\nEnvoyé par María' },
      ]);
      expect(await storedFiles(db)).toEqual(
        samples.map(({ encoding, pdf }) => [encoding, pdf.length, sha256(pdf)]),
      );
    });
  });
});
