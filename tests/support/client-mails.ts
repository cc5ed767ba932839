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
