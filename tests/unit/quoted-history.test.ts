/**
 * The new text of a reply (src/server/channels/mail/read.ts `newTextOf`, src/server/channels/mail/quoted-history.ts):
 * the quoted history of each client our customers write from is cut, with the text above it kept, and a
 * line of the customer's own that only looks like a header cuts nothing (issue 41, item 6).
 */
import { describe, expect, it } from 'vitest';
import { newTextOf } from '../../src/server/channels/mail/read.ts';
import { OWN_HEADER_LIKE_TEXT, OWN_TEXT, QUOTED_HISTORY } from '../support/client-mails.ts';

describe('newTextOf', () => {
  for (const [client, { history }] of Object.entries(QUOTED_HISTORY))
    it(`cuts ${client}`, () => {
      expect(newTextOf(`${OWN_TEXT}\n\n${history}`)).toBe(OWN_TEXT);
      // With CRLF lines, and with no blank line above the history.
      expect(newTextOf(`${OWN_TEXT}\n${history}`.replace(/\n/g, '\r\n'))).toBe(OWN_TEXT);
    });

  it("keeps the customer's own lines that start as headers would", () => {
    expect(newTextOf(OWN_HEADER_LIKE_TEXT)).toBe(OWN_HEADER_LIKE_TEXT);
    expect(newTextOf('De: parte de contabilidad\nAsunto pendiente: la factura 606.')).toBe(
      'De: parte de contabilidad\nAsunto pendiente: la factura 606.',
    );
    expect(newTextOf('El lunes el técnico escribió:\nque vendría el martes.')).toBe(
      'El lunes el técnico escribió:\nque vendría el martes.',
    );
  });

  it('a sender line followed by a header block is history; a De: line elsewhere in the text is kept', () => {
    const text = `${OWN_HEADER_LIKE_TEXT}\n\nDe: Vértice Consultores <no-reply@vertice.example>\nFecha: 7 dic 2026\nAsunto: Incidencia\n\nTexto viejo`;
    expect(newTextOf(text)).toBe(OWN_HEADER_LIKE_TEXT);
  });
});
