/**
 * Mails of real clients, written for issue 41 with the header shapes the clients send (Outlook, Gmail,
 * Apple Mail, GMX, Thunderbird) and lines ending in CRLF, as on the wire: replies to an incident's mail
 * quoting it in each client's words.
 */
import type { FixtureValues } from './inbound.ts';

const crlf = (text: string) => Buffer.from(text.replace(/\r?\n/g, '\r\n'), 'utf8');

/** What María wrote above the quoted history, in every reply below. */
export const OWN_TEXT =
  'Buenos días:\n\nLa impresora fiscal sigue sin imprimir después de reiniciarla. Les envío la foto del error.\n\nGracias,\nMaría Rodríguez\nFarmacia San Rafael';

/** The confirmation María answers, as each client quotes it (below its attribution or header block). */
const QUOTED =
  'Recibimos tu solicitud de soporte\n\nTu incidencia quedó registrada con el número {{NUMERO}}.';
const quoted = (prefix: string) =>
  QUOTED.split('\n')
    .map((line) => (prefix + line).trimEnd())
    .join('\n');

/** Each client's quoted history, by name: its attribution, separator or header block and the quote. */
export const QUOTED_HISTORY: Record<string, { mailer: string[]; history: string }> = {
  'Outlook, -----Mensaje original-----': {
    mailer: ['X-Mailer: Microsoft Outlook 16.0', 'Thread-Index: AQHbjQ2Xk1v0dV3b9k2f0eX8y7Q1bA=='],
    history: `-----Mensaje original-----\nDe: Vértice Consultores [mailto:no-reply@vertice.example]\nEnviado el: lunes, 7 de diciembre de 2026 10:00\nPara: María Rodríguez\nAsunto: Incidencia {{NUMERO}} registrada\n\n${QUOTED}`,
  },
  'Outlook, De: … Enviado: … Para: … Asunto: …': {
    mailer: ['Thread-Topic: Incidencia {{NUMERO}} registrada', 'Content-Language: es-ES'],
    history: `________________________________\nDe: Vértice Consultores\nEnviado: lunes, 7 de diciembre de 2026 10:00\nPara: María Rodríguez\nAsunto: Incidencia {{NUMERO}} registrada\n\n${QUOTED}`,
  },
  'Gmail, El lun, 7 dic 2026 a las 10:00, … escribió: (over two lines)': {
    mailer: [],
    history: `El lun, 7 dic 2026 a las 10:00, Vértice Consultores (<\nno-reply@vertice.example>) escribió:\n\n${quoted('> ')}`,
  },
  'Apple Mail, El 7 dic 2026, a las 10:00, … escribió:': {
    mailer: ['X-Mailer: iPhone Mail (22B91)'],
    history: `El 7 dic 2026, a las 10:00, Vértice Consultores escribió:\n\n${quoted('> ')}`,
  },
  'Outlook, -----Original Message-----': {
    mailer: ['X-Mailer: Microsoft Outlook 16.0'],
    history: `-----Original Message-----\nFrom: Vértice Consultores <no-reply@vertice.example>\nSent: Monday, December 7, 2026 10:00 AM\nTo: María Rodríguez <maria@cliente.example>\nSubject: Incidencia {{NUMERO}} registrada\n\n${QUOTED}`,
  },
  'Gmail, On … wrote: (over two lines)': {
    mailer: [],
    history: `On Mon, Dec 7, 2026 at 10:00 AM Vértice Consultores <\nno-reply@vertice.example> wrote:\n\n${quoted('> ')}`,
  },
  'Outlook, From: … Sent: … To: … Subject: …': {
    mailer: ['Content-Language: en-US'],
    history: `________________________________\nFrom: Vértice Consultores\nSent: Monday, December 7, 2026 10:00 AM\nTo: María Rodríguez\nSubject: Incidencia {{NUMERO}} registrada\n\n${QUOTED}`,
  },
  'GMX, ----- Original Nachricht -----': {
    mailer: ['X-Mailer: GMX.net Webmail'],
    history: `----- Original Nachricht ----\nVon:     "Vértice Consultores" <no-reply@vertice.example>\nAn:      maria@cliente.example\nDatum:   07.12.2026 10:00\nBetreff: Incidencia {{NUMERO}} registrada\n\n${QUOTED}`,
  },
  'Outlook, -----Ursprüngliche Nachricht-----': {
    mailer: ['X-Mailer: Microsoft Outlook 16.0', 'Content-Language: de-DE'],
    history: `-----Ursprüngliche Nachricht-----\nVon: Vértice Consultores <no-reply@vertice.example>\nGesendet: Montag, 7. Dezember 2026 10:00\nAn: María Rodríguez\nBetreff: Incidencia {{NUMERO}} registrada\n\n${QUOTED}`,
  },
  'Gmail, Am … schrieb …: (over two lines)': {
    mailer: [],
    history: `Am Mo., 7. Dez. 2026 um 10:00 Uhr schrieb Vértice Consultores <\nno-reply@vertice.example>:\n\n${quoted('> ')}`,
  },
  'Thunderbird, Am 07.12.2026 schrieb …:': {
    mailer: ['User-Agent: Mozilla Thunderbird'],
    history: `Am 07.12.2026 schrieb Vértice Consultores:\n${quoted('> ')}`,
  },
  'Outlook, Von: … Gesendet: … An: … Betreff: …': {
    mailer: ['Content-Language: de-DE'],
    history: `________________________________\nVon: Vértice Consultores\nGesendet: Montag, 7. Dezember 2026 10:00\nAn: María Rodríguez\nBetreff: Incidencia {{NUMERO}} registrada\n\n${QUOTED}`,
  },
};

/** Text of María's own with lines that start as a header would ('De:', 'Para:'): none of it is history. */
export const OWN_HEADER_LIKE_TEXT =
  'Buenos días:\n\nDe: acuerdo con lo hablado, les reenvío la factura.\nPara: contabilidad, por favor.\n\nDe: María Rodríguez <maria@cliente.example>\nles escribo desde el correo de la farmacia.\n\nGracias';

/**
 * María's reply to the incident's mail (to its reply address, naming its Message-ID): `text`, then the
 * quoted history, in a client's headers. `{{…}}` placeholders as in tests/fixtures/inbound.
 */
export function clientReply(
  values: Required<Pick<FixtureValues, 'token' | 'messageId' | 'numero'>>,
  messageId: string,
  text: string,
  client: { mailer: string[]; history: string } | null,
): Buffer {
  const body = client ? `${text}\n\n${client.history}` : text;
  return crlf(
    [
      'From: =?UTF-8?Q?Mar=C3=ADa_Rodr=C3=ADguez?= <maria@cliente.example>',
      'To: =?UTF-8?Q?V=C3=A9rtice_Consultores?= <soporte+{{TOKEN}}@vertice.example>',
      'Subject: RE: Incidencia {{NUMERO}} registrada',
      'Date: Mon, 7 Dec 2026 11:00:00 -0400',
      `Message-ID: <${messageId}>`,
      'In-Reply-To: <{{MESSAGE_ID}}>',
      'References: <{{MESSAGE_ID}}>',
      ...(client?.mailer ?? []),
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset="utf-8"',
      'Content-Transfer-Encoding: 8bit',
      '',
      body,
      '',
    ]
      .join('\n')
      .replaceAll('{{TOKEN}}', values.token)
      .replaceAll('{{MESSAGE_ID}}', values.messageId)
      .replaceAll('{{NUMERO}}', values.numero),
  );
}

/** The headers of our mail as a report quotes them (its Message-ID is what names the incident's mail). */
const ourHeaders = [
  'From: =?UTF-8?Q?V=C3=A9rtice_Consultores?= <no-reply@vertice.example>',
  'To: maria@cliente.example',
  'Reply-To: soporte+{{TOKEN}}@vertice.example',
  'Subject: Incidencia {{NUMERO}} registrada',
  'Message-ID: <{{MESSAGE_ID}}>',
  'Auto-Submitted: auto-generated',
  'Date: Mon, 07 Dec 2026 14:00:04 +0000',
  'MIME-Version: 1.0',
].join('\n');

const report = (values: Required<Pick<FixtureValues, 'token' | 'messageId' | 'numero'>>, text: string) =>
  crlf(
    text
      .replaceAll('{{TOKEN}}', values.token)
      .replaceAll('{{MESSAGE_ID}}', values.messageId)
      .replaceAll('{{NUMERO}}', values.numero),
  );

/**
 * Reports on the incident's mail, by kind: Postfix's delay notice (`Action: delayed`, 4.4.1), a read
 * receipt (Outlook's and Thunderbird's MDN), a spam complaint (a provider's ARF report, the original as
 * `message/rfc822` or only its headers), and a read receipt of a mail deleted unread.
 */
export const REPORTS = {
  delay: `Return-Path: <>
From: MAILER-DAEMON@mx.vertice.example (Mail Delivery System)
To: no-reply@vertice.example
Subject: Delayed Mail (still being retried)
Date: Mon,  7 Dec 2026 14:30:07 -0400 (AST)
Auto-Submitted: auto-replied
Message-Id: <20261207183007.4Z6Vb3Cz5yz5dly@mx.vertice.example>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
	boundary="4Z6Vb3Cz5yz5dly.1796668207/mx.vertice.example"

This is a MIME-encapsulated message.

--4Z6Vb3Cz5yz5dly.1796668207/mx.vertice.example
Content-Description: Notification
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mx.vertice.example.

####################################################################
# THIS IS A WARNING ONLY.  YOU DO NOT NEED TO RESEND YOUR MESSAGE. #
####################################################################

Your message could not be delivered for 0.5 hours.
It will be retried until it is 5.0 days old.

<maria@cliente.example>: connect to mx.cliente.example[203.0.113.25]:25:
    Connection timed out

--4Z6Vb3Cz5yz5dly.1796668207/mx.vertice.example
Content-Description: Delivery report
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.vertice.example
X-Postfix-Queue-ID: 4Z6Vb3Cz5yz5dly
Arrival-Date: Mon,  7 Dec 2026 14:00:05 -0400 (AST)

Final-Recipient: rfc822; maria@cliente.example
Original-Recipient: rfc822;maria@cliente.example
Action: delayed
Status: 4.4.1
Diagnostic-Code: X-Postfix; connect to mx.cliente.example[203.0.113.25]:25:
    Connection timed out
Will-Retry-Until: Sat, 12 Dec 2026 14:00:05 -0400 (AST)

--4Z6Vb3Cz5yz5dly.1796668207/mx.vertice.example
Content-Description: Undelivered Message Headers
Content-Type: text/rfc822-headers

${ourHeaders}

--4Z6Vb3Cz5yz5dly.1796668207/mx.vertice.example--
`,
  read: `From: =?UTF-8?Q?Mar=C3=ADa_Rodr=C3=ADguez?= <maria@cliente.example>
To: =?UTF-8?Q?V=C3=A9rtice_Consultores?= <soporte+{{TOKEN}}@vertice.example>
Subject: =?UTF-8?Q?Le=C3=ADdo:_Incidencia_{{NUMERO}}_registrada?=
Date: Mon, 7 Dec 2026 15:10:00 -0400
Message-ID: <leido-1@cliente.example>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=disposition-notification;
	boundary="----=_NextPart_000_0001_MDN"
X-Mailer: Microsoft Outlook 16.0

------=_NextPart_000_0001_MDN
Content-Type: text/plain; charset="utf-8"
Content-Transfer-Encoding: 8bit

Su mensaje

  Para: maria@cliente.example
  Asunto: Incidencia {{NUMERO}} registrada
  Enviado: lunes, 7 de diciembre de 2026 10:00

fue leído el lunes, 7 de diciembre de 2026 11:10.

------=_NextPart_000_0001_MDN
Content-Type: message/disposition-notification

Reporting-UA: cliente.example; Microsoft Outlook 16.0
Final-Recipient: rfc822;maria@cliente.example
Original-Message-ID: <{{MESSAGE_ID}}>
Disposition: manual-action/MDN-sent-manually; displayed

------=_NextPart_000_0001_MDN--
`,
  deletedUnread: `From: =?UTF-8?Q?Mar=C3=ADa_Rodr=C3=ADguez?= <maria@cliente.example>
To: soporte+{{TOKEN}}@vertice.example
Subject: Not read: Incidencia {{NUMERO}} registrada
Date: Mon, 7 Dec 2026 15:20:00 -0400
Message-ID: <no-leido-1@cliente.example>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=disposition-notification; boundary="mdn2"
User-Agent: Mozilla Thunderbird

--mdn2
Content-Type: text/plain; charset=utf-8

The message was deleted without being read.

--mdn2
Content-Type: message/disposition-notification; name="MDNPart2.txt"

Reporting-UA: cliente.example; Mozilla Thunderbird
Final-Recipient: rfc822;maria@cliente.example
Original-Message-ID: <{{MESSAGE_ID}}>
Disposition: manual-action/MDN-sent-manually; deleted

--mdn2--
`,
  complaint: `Return-Path: <>
From: Proveedor de correo <staff@arf.proveedor.example>
To: abuse@vertice.example
Subject: Complaint about message from 198.51.100.7
Date: Mon, 7 Dec 2026 15:30:00 +0000
Message-ID: <arf-1@arf.proveedor.example>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report;
	boundary="part1_13d.2e68ed54_boundary"

--part1_13d.2e68ed54_boundary
Content-Type: text/plain; charset="US-ASCII"
Content-Transfer-Encoding: 7bit

This is an email abuse report for an email message received from IP
198.51.100.7 on Mon, 7 Dec 2026 14:00:06 +0000.
For more information about this format please see
http://tools.ietf.org/html/rfc5965

--part1_13d.2e68ed54_boundary
Content-Type: message/feedback-report

Feedback-Type: abuse
User-Agent: ProveedorFBL/1.0
Version: 1
Original-Mail-From: <no-reply@vertice.example>
Original-Rcpt-To: <maria@cliente.example>
Arrival-Date: Mon, 7 Dec 2026 14:00:06 +0000
Source-IP: 198.51.100.7

--part1_13d.2e68ed54_boundary
Content-Type: message/rfc822
Content-Disposition: inline

${ourHeaders}
Content-Type: text/plain; charset=utf-8

Recibimos tu solicitud de soporte.

--part1_13d.2e68ed54_boundary--
`,
  complaintHeadersOnly: `From: Proveedor de correo <fbl@proveedor.example>
To: abuse@vertice.example
Subject: FW: Incidencia {{NUMERO}} registrada
Date: Mon, 7 Dec 2026 15:40:00 +0000
Message-ID: <arf-2@proveedor.example>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report; boundary="arf2"

--arf2
Content-Type: text/plain; charset=us-ascii

A recipient marked this message as spam.

--arf2
Content-Type: message/feedback-report

Feedback-Type: abuse
User-Agent: FBL/2.0
Version: 1

--arf2
Content-Type: text/rfc822-headers

${ourHeaders}

--arf2--
`,
} as const;

/** A report of `kind` on the incident's mail, as its sender's server or client writes it. */
export const reportMail = (
  kind: keyof typeof REPORTS,
  values: Required<Pick<FixtureValues, 'token' | 'messageId' | 'numero'>>,
) => report(values, REPORTS[kind]);
