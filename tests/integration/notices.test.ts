import { expect, it } from 'vitest';
import { createIncident } from '../../src/server/incidents/index.ts';
import {
  CONFIRMATIONS_PER_ADDRESS_PER_DAY,
  FLOOD_INCIDENTS_PER_HOUR,
  NOTICES_PER_HOUR,
  sendStaffDigestIfDue,
} from '../../src/server/incidents/notices.ts';
import type { Db } from '../../src/server/db/index.ts';
import { describeEachEngine } from '../support/db.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';

const STAFF_INBOX = 'soporte@vertice.example';
const options = { brand, staffInbox: STAFF_INBOX };
const empty = { problema: '', nombre: '', telefono: '', email: '', rnc: '' };

async function outbox(db: Db, kind: string) {
  return db.selectFrom('mailOutbox').selectAll().where('kind', '=', kind).orderBy('id').execute();
}

describeEachEngine('mail caps and the staff digest', (database) => {
  it("links the new-incident notice to the incident's own page, not the list (issue 25 §11)", async () => {
    const { db } = database();
    const created = await createIncident(db, { ...empty, problema: 'No imprime.' }, options);
    const [notice] = await outbox(db, 'incident.staff-notice');
    const link = `${brand.siteUrl}/admin/incidencias/${created.numeroIncidencia}`;
    expect(notice?.textBody).toContain(`Abrir la incidencia: ${link}`);
    expect(notice?.htmlBody).toContain(`href="${link}"`);
    expect(notice?.textBody).not.toContain('Ver incidencias');
  });

  it(`sends one address at most ${CONFIRMATIONS_PER_ADDRESS_PER_DAY} confirmations per UTC day, and still stores and announces every incident`, async () => {
    const { db } = database();
    const now = new Date('2025-06-01T10:00:00.000Z');
    const outcomes = [];
    for (const [index, email] of [
      'ana@cliente.example',
      'ANA@cliente.example',
      ' ana@cliente.example',
      'ana@cliente.example',
    ].entries()) {
      const created = await createIncident(
        db,
        { ...empty, problema: `Caso ${index}`, email },
        { ...options, now: new Date(now.getTime() + index * 60_000) },
      );
      outcomes.push(created.customerMail);
    }
    expect(outcomes).toEqual(['queued', 'queued', 'queued', 'address-cap']);
    expect(await outbox(db, 'incident.confirmation')).toHaveLength(CONFIRMATIONS_PER_ADDRESS_PER_DAY);
    expect(await outbox(db, 'incident.staff-notice')).toHaveLength(4);
    // The next UTC day the address has its allowance again.
    const tomorrow = await createIncident(
      db,
      { ...empty, email: 'ana@cliente.example' },
      { ...options, now: new Date('2025-06-02T00:00:01.000Z') },
    );
    expect(tomorrow.customerMail).toBe('queued');
  });

  it('stops every visitor mail at the daily cap, addresses together', async () => {
    const { db } = database();
    const now = new Date('2025-06-03T10:00:00.000Z');
    const outcomes = [];
    for (let index = 0; index < 3; index++) {
      outcomes.push(
        (
          await createIncident(
            db,
            { ...empty, email: `v${index}@cliente.example` },
            { ...options, customerMailDailyCap: 2, now },
          )
        ).customerMail,
      );
    }
    expect(outcomes).toEqual(['queued', 'queued', 'daily-cap']);
    expect(await outbox(db, 'incident.confirmation')).toHaveLength(2);
    expect(await db.selectFrom('incidents').select('id').execute()).toHaveLength(3);
  });

  it('turns a burst of 25 incidents into a few notices and digests that list every one of them', async () => {
    const { db } = database();
    const start = new Date('2025-06-04T10:00:00.000Z').getTime();
    const numbers: string[] = [];
    const staffNotices: string[] = [];
    for (let index = 0; index < 25; index++) {
      const created = await createIncident(
        db,
        { ...empty, nombre: `Cliente ${index}`, problema: `Línea ${index}\nDetalle que no va al resumen` },
        { ...options, now: new Date(start + index * 1000) },
      );
      numbers.push(created.numeroIncidencia);
      staffNotices.push(created.staffNotice);
    }
    expect(staffNotices.filter((notice) => notice === 'queued')).toHaveLength(NOTICES_PER_HOUR);
    const interval = 15 * 60 * 1000;
    const digest = (at: number) =>
      sendStaffDigestIfDue(db, { brand, staffInbox: STAFF_INBOX, intervalMs: interval, now: new Date(at) });

    expect(await digest(start + 30_000)).toBe(25 - NOTICES_PER_HOUR);
    // Too soon for another digest, whatever arrives meanwhile.
    const late = await createIncident(
      db,
      { ...empty, nombre: 'Tardío', problema: 'Después del resumen' },
      { ...options, now: new Date(start + 60_000) },
    );
    expect(late.staffNotice).toBe('held');
    expect(await digest(start + 120_000)).toBe(0);
    expect(await digest(start + 30_000 + interval)).toBe(1);
    expect(await digest(start + 30_000 + 2 * interval)).toBe(0);

    const notices = await outbox(db, 'incident.staff-notice');
    const digests = await outbox(db, 'incident.staff-digest');
    expect(notices.length + digests.length).toBeLessThanOrEqual(NOTICES_PER_HOUR + 4);
    // Every incident is in a notice or a digest, exactly once.
    const told = [...notices, ...digests].map((mail) => mail.textBody);
    for (const numero of [...numbers, late.numeroIncidencia])
      expect(
        told.filter((text) => text.includes(numero)),
        numero,
      ).toHaveLength(1);
    expect(digests[0]!.toAddress).toBe(STAFF_INBOX);
    expect(digests[0]!.textBody).toContain('Cliente 24: Línea 24');
    expect(digests[0]!.textBody).not.toContain('Detalle que no va al resumen');
    // Each incident of the digest links to its own page (issue 39 §3).
    for (const numero of numbers.slice(NOTICES_PER_HOUR))
      expect(digests[0]!.htmlBody).toContain(`href="${brand.siteUrl}/admin/incidencias/${numero}"`);
  });

  it(`tells each incident of an ordinary busy hour by its own notice: up to ${NOTICES_PER_HOUR} an hour (issue 39 §3)`, async () => {
    const { db } = database();
    const start = new Date('2025-06-06T10:00:00.000Z').getTime();
    const notices: string[] = [];
    for (let index = 0; index < NOTICES_PER_HOUR; index++)
      notices.push(
        (await createIncident(db, empty, { ...options, now: new Date(start + index * 60_000) })).staffNotice,
      );
    expect(notices).toEqual(Array(NOTICES_PER_HOUR).fill('queued'));
    expect(NOTICES_PER_HOUR).toBeGreaterThanOrEqual(10);
    const past = await createIncident(db, empty, { ...options, now: new Date(start + 20 * 60_000) });
    expect(past.staffNotice).toBe('held');
  });

  it(`sends notices again once fewer than ${FLOOD_INCIDENTS_PER_HOUR} incidents and ${NOTICES_PER_HOUR} notices fall in the last hour`, async () => {
    const { db } = database();
    const start = new Date('2025-06-05T10:00:00.000Z').getTime();
    for (let index = 0; index < NOTICES_PER_HOUR + 2; index++)
      await createIncident(db, empty, { ...options, now: new Date(start + index * 1000) });
    const quiet = await createIncident(db, empty, { ...options, now: new Date(start + 61 * 60 * 1000) });
    expect(quiet.staffNotice).toBe('queued');
  });
});
