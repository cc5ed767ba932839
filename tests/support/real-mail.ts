/**
 * Mails of the shapes real clients send (issue 41), built here with CRLF lines as on the wire: a sender
 * Outlook writes with a comma inside an encoded word, a sender list whose first address is empty, an
 * address with RFC 5322 comments, a mislabelled charset, and a PDF sent in each transfer encoding.
 */
import { createHash, randomBytes } from 'node:crypto';

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A mail of these header lines and body (each line ends in CRLF; the body as given). */
export function realMail(headers: string[], body: string | Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${headers.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(body)]);
}

/**
 * A small PDF whose bytes hold what the transfer encodings must keep: CRLF line ends (the table's
 * offsets count them), and, unless `text`, bytes past 0x7f and a stream with lone CR and LF bytes.
 */
export function samplePdf(options: { text?: boolean; crlfOnly?: boolean } = {}): Buffer {
  const lines = [
    '%PDF-1.4',
    options.text ? '% solo ASCII' : '%\xe2\xe3\xcf\xd3',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj',
  ];
  const head = Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1');
  const stream = options.text
    ? Buffer.from('3 0 obj << /Length 24 >> stream\r\nBT /F1 12 Tf (Factura) Tj\r\nendstream\r\nendobj\r\n')
    : Buffer.concat([
        Buffer.from('3 0 obj << /Length 600 >> stream\r\n'),
        // Random bytes, no NUL: with lone CRs and LFs among them, or (crlfOnly) none but in CRLF pairs,
        // as 8bit allows (RFC 2045) and as an IMAP server keeps them (it ends every line in CRLF).
        Buffer.from(
          [...randomBytes(600)].map((byte, index) => {
            if (index % 50 === 7) return 0x0d;
            if (index % 50 === (options.crlfOnly ? 8 : 21)) return 0x0a;
            if (options.crlfOnly && (byte === 0x0d || byte === 0x0a)) return 0x20;
            return byte || 1;
          }),
        ),
        Buffer.from('\r\nendstream\r\nendobj\r\n'),
      ]);
  const body = Buffer.concat([head, stream]);
  const tail = Buffer.from(
    `xref\r\n0 1\r\n0000000000 65535 f\r\ntrailer << /Root 1 0 R >>\r\nstartxref\r\n${body.length}\r\n%%EOF\r\n`,
  );
  return Buffer.concat([body, tail]);
}

/**
 * Quoted-printable as a mail client writes a file: each CRLF of it a hard line break, lone CR and LF
 * bytes, '=' and bytes outside printable ASCII escaped, soft breaks before 76 characters.
 */
export function quotedPrintable(bytes: Buffer): string {
  const out: string[] = [];
  let line = '';
  const push = (piece: string) => {
    if (line.length + piece.length > 75) {
      out.push(`${line}=`);
      line = '';
    }
    line += piece;
  };
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index]!;
    if (byte === 0x0d && bytes[index + 1] === 0x0a) {
      // A trailing space or tab before a hard break must be escaped.
      if (/[ \t]$/.test(line))
        line =
          line.slice(0, -1) +
          `=${line
            .charCodeAt(line.length - 1)
            .toString(16)
            .toUpperCase()
            .padStart(2, '0')}`;
      out.push(line);
      line = '';
      index += 1;
      continue;
    }
    const printable = (byte >= 33 && byte <= 126 && byte !== 61) || byte === 32 || byte === 9;
    push(printable ? String.fromCharCode(byte) : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`);
  }
  out.push(line);
  return out.join('\r\n');
}

/** uuencode as `uuencode factura.pdf factura.pdf` writes it: 'begin 644', lines of 45 bytes, '`', 'end'. */
export function uuencoded(bytes: Buffer, name: string): string {
  const char = (value: number) => (value ? String.fromCharCode(value + 32) : '`');
  const lines = [`begin 644 ${name}`];
  for (let offset = 0; offset < bytes.length; offset += 45) {
    const chunk = bytes.subarray(offset, offset + 45);
    let line = char(chunk.length);
    for (let index = 0; index < chunk.length; index += 3) {
      const [a = 0, b = 0, c = 0] = chunk.subarray(index, index + 3);
      line +=
        char(a >> 2) + char(((a & 3) << 4) | (b >> 4)) + char(((b & 15) << 2) | (c >> 6)) + char(c & 63);
    }
    lines.push(line);
  }
  return [...lines, '`', 'end'].join('\r\n');
}

/** A mail from María with one attachment `factura.pdf`, its body `encoded` under `encoding`. */
export function mailWithPdf(messageId: string, encoding: string, encoded: Buffer | string): Buffer {
  return realMail(
    [
      // A sender per mail: six from one address would pass the five new incidents an hour it may open.
      `From: María Núñez <${messageId.split('@')[0]}@cliente.example>`,
      'To: soporte@vertice.example',
      'Subject: Factura adjunta',
      `Message-ID: <${messageId}>`,
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="limite-41"',
    ],
    Buffer.concat([
      Buffer.from(
        '--limite-41\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nLes envío la factura que no imprime.\r\n--limite-41\r\n' +
          `Content-Type: application/pdf; name="factura.pdf"\r\nContent-Disposition: attachment; filename="factura.pdf"\r\nContent-Transfer-Encoding: ${encoding}\r\n\r\n`,
      ),
      Buffer.from(encoded),
      Buffer.from('\r\n--limite-41--\r\n'),
    ]),
  );
}

/**
 * The PDF in each transfer encoding, and what its stored copy must hash to. `crlfOnly`: its bytes end
 * lines only in CRLF (an IMAP server turns a lone LF into CRLF); 8bit's always do.
 */
export function pdfInEachEncoding(crlfOnly = false): Array<{ encoding: string; mail: Buffer; pdf: Buffer }> {
  const binary = samplePdf({ crlfOnly });
  const text = samplePdf({ text: true });
  const eightBit = samplePdf({ crlfOnly: true });
  return [
    {
      encoding: 'base64',
      pdf: binary,
      mail: mailWithPdf(
        'pdf-base64@cliente.example',
        'base64',
        binary.toString('base64').replace(/.{76}/g, '$&\r\n'),
      ),
    },
    {
      encoding: 'quoted-printable',
      pdf: binary,
      mail: mailWithPdf('pdf-quoted-printable@cliente.example', 'quoted-printable', quotedPrintable(binary)),
    },
    { encoding: '7bit', pdf: text, mail: mailWithPdf('pdf-7bit@cliente.example', '7bit', text) },
    { encoding: '8bit', pdf: eightBit, mail: mailWithPdf('pdf-8bit@cliente.example', '8bit', eightBit) },
    { encoding: 'binary', pdf: binary, mail: mailWithPdf('pdf-binary@cliente.example', 'binary', binary) },
    {
      encoding: 'x-uuencode',
      pdf: binary,
      mail: mailWithPdf('pdf-x-uuencode@cliente.example', 'x-uuencode', uuencoded(binary, 'factura.pdf')),
    },
  ];
}
