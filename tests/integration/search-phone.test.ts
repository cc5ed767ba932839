/**
 * The staff search finds a WhatsApp incident by its number as a person types it (issue 37), on both
 * engines: '+1 809 555 0101', '8095550101' and '809-555-0101' each find the incident whose WhatsApp
 * number is 18095550101 (first, and its phone shown marked), and a form incident whose phone was typed
 * '(809) 555-0101'; another number and a query that only looks like part of one find neither.
 */
import { expect, it } from 'vitest';
import { phoneDigits, searchEverything } from '../../src/server/search/index.ts';
import { describeEachEngine } from '../support/db.ts';
import { insertIncident } from '../support/factories.ts';

const numbersFound = async (db: Parameters<typeof searchEverything>[0], query: string) =>
  (await searchEverything(db, query)).groups.find((group) => group.kind === 'incidents')!.hits;

it('reads a phone number from a query only when it is shaped like one', () => {
  expect(phoneDigits('+1 809 555 0101')).toEqual(['18095550101', '8095550101']);
  expect(phoneDigits('809-555-0101')).toEqual(['8095550101']);
  expect(phoneDigits('(809) 555-0101')).toEqual(['8095550101']);
  expect(phoneDigits('555-01')).toBeNull();
  expect(phoneDigits('factura 8095550101')).toBeNull();
  expect(phoneDigits('INC-20250101-1000')).toBeNull();
});

describeEachEngine('Search by phone number', (database) => {
  it("finds a WhatsApp incident by its number written '+1 809 555 0101', '8095550101' or '809-555-0101'", async () => {
    const { db } = database();
    const whatsapp = await insertIncident(db, {
      origen: 'WhatsApp',
      channel: 'whatsapp',
      channelAddress: '18095550101',
      telefono: '+1 809-555-0101',
      email: '',
      nombre: 'María Peña',
      problema: 'La caja no enciende.',
    });
    const form = await insertIncident(db, { telefono: '(809) 555-0101', nombre: 'Luis Mota' });
    const other = await insertIncident(db, {
      origen: 'WhatsApp',
      channel: 'whatsapp',
      channelAddress: '18095550199',
      telefono: '+1 809-555-0199',
      email: '',
    });
    for (const query of ['+1 809 555 0101', '8095550101', '809-555-0101']) {
      const hits = await numbersFound(db, query);
      const ids = hits.map((hit) => hit.id);
      expect(ids, query).toContain(whatsapp.id);
      expect(ids, query).toContain(form.id);
      expect(ids, query).not.toContain(other.id);
      expect(hits.find((hit) => hit.id === whatsapp.id)!.detailHtml, query).toContain('<mark>');
    }
    expect((await numbersFound(db, '809-555-0199')).map((hit) => hit.id)).toEqual([other.id]);
    expect(await numbersFound(db, '555-01')).toEqual([]);
  });
});
