import { describe, expect, it } from 'vitest';
import {
  parseRatingReply,
  ratingBody,
  ratingRowId,
  ratingRows,
  RATING_BUTTON,
  RATING_SECTION_TITLE,
} from '../../src/server/channels/whatsapp/ratings.ts';
import {
  TEMPLATE_SENT_TEXT,
  WINDOW_CLOSED_TEXT,
  WINDOW_MS,
  windowLeft,
  windowOpen,
  windowText,
} from '../../src/server/channels/whatsapp/window.ts';

const H = 60 * 60 * 1000;
const M = 60 * 1000;
const now = new Date('2026-12-07T15:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('windowLeft', () => {
  it('counts 24 hours from the last inbound message', () => {
    expect(WINDOW_MS).toBe(24 * H);
    expect(windowLeft(now, now)).toBe(24 * H);
    expect(windowLeft(ago(21 * H), now)).toBe(3 * H);
    expect(windowLeft(ago(24 * H - 1), now)).toBe(1);
  });

  it('is 0 at and past 24 hours, and with no inbound message', () => {
    expect(windowLeft(ago(24 * H), now)).toBe(0);
    expect(windowLeft(ago(30 * H), now)).toBe(0);
    expect(windowLeft(null, now)).toBe(0);
    expect(windowLeft(new Date(Number.NaN), now)).toBe(0);
    expect(windowOpen(ago(24 * H), now)).toBe(false);
    expect(windowOpen(ago(24 * H - 1000), now)).toBe(true);
  });

  it('never gives more than 24 hours for a message stamped in the future', () => {
    expect(windowLeft(new Date(now.getTime() + 5 * M), now)).toBe(24 * H);
  });
});

describe('windowText', () => {
  it('says whole hours, rounded down', () => {
    expect(windowText(3 * H)).toBe('Puedes responder por WhatsApp durante 3 h más');
    expect(windowText(4 * H - 1)).toBe('Puedes responder por WhatsApp durante 3 h más');
    expect(windowText(24 * H)).toBe('Puedes responder por WhatsApp durante 24 h más');
    expect(windowText(23 * H + 59 * M)).toBe('Puedes responder por WhatsApp durante 23 h más');
    expect(windowText(H)).toBe('Puedes responder por WhatsApp durante 1 h más');
  });

  it('says minutes under an hour, and less than a minute under a minute', () => {
    expect(windowText(H - 1)).toBe('Puedes responder por WhatsApp durante 59 min más');
    expect(windowText(25 * M + 59_000)).toBe('Puedes responder por WhatsApp durante 25 min más');
    expect(windowText(M)).toBe('Puedes responder por WhatsApp durante 1 min más');
    expect(windowText(M - 1)).toBe('Puedes responder por WhatsApp durante menos de un minuto');
    expect(windowText(1)).toBe('Puedes responder por WhatsApp durante menos de un minuto');
  });

  it('says the reply goes as a template once the window is closed', () => {
    for (const left of [0, -1, Number.NaN]) expect(windowText(left)).toBe(WINDOW_CLOSED_TEXT);
    expect(WINDOW_CLOSED_TEXT).toBe(
      'Pasaron más de 24 horas desde el último mensaje del cliente: la respuesta se enviará como plantilla',
    );
    expect(TEMPLATE_SENT_TEXT).toBe('Pasaron más de 24 horas: se envió la plantilla');
    expect(windowText(windowLeft(ago(25 * H), now))).toBe(WINDOW_CLOSED_TEXT);
    expect(windowText(windowLeft(ago(20 * H + 30 * M), now))).toBe(
      'Puedes responder por WhatsApp durante 3 h más',
    );
  });
});

describe('the rating list', () => {
  it('has the five options, best first, with ids carrying the reference and the value', () => {
    const rows = ratingRows('tok_AbC-123');
    expect(rows).toEqual([
      { id: 'rating:tok_AbC-123:5', title: 'Excelente' },
      { id: 'rating:tok_AbC-123:4', title: 'Bien' },
      { id: 'rating:tok_AbC-123:3', title: 'Regular' },
      { id: 'rating:tok_AbC-123:2', title: 'Mal' },
      { id: 'rating:tok_AbC-123:1', title: 'Muy mal' },
    ]);
    for (const row of rows) {
      expect(row.title.length).toBeLessThanOrEqual(24);
      expect(row.id.length).toBeLessThanOrEqual(200);
    }
    expect(RATING_BUTTON.length).toBeLessThanOrEqual(20);
    expect(RATING_SECTION_TITLE.length).toBeLessThanOrEqual(24);
    expect(ratingBody('INC-20261207-0042')).toContain('INC-20261207-0042');
    expect(ratingBody('INC-20261207-0042')).toContain('calificarías');
  });

  it('reads a reply id back to its reference and value', () => {
    for (const row of ratingRows('n-77')) {
      const parsed = parseRatingReply(row.id);
      expect(parsed).toEqual({ reference: 'n-77', value: Number(row.id.at(-1)), title: row.title });
    }
  });

  it('answers null for ids that are not ours or are out of range', () => {
    for (const id of [
      '',
      'rating',
      'rating:abc',
      'rating:abc:0',
      'rating:abc:6',
      'rating:abc:55',
      'rating::5',
      'rating:a:b:5',
      'Rating:abc:5',
      'rating:abc:5 ',
      'otra:abc:5',
      `rating:${'a'.repeat(181)}:5`,
      null,
      undefined,
    ]) {
      expect(parseRatingReply(id as string)).toBeNull();
    }
  });

  it('refuses a reference that would break the id', () => {
    expect(() => ratingRowId('a:b', 5)).toThrow(RangeError);
    expect(() => ratingRowId('', 5)).toThrow(RangeError);
    expect(() => ratingRowId('a'.repeat(181), 5)).toThrow(RangeError);
  });
});
