import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { utcDay } from '../../src/domain/incidents.ts';
import {
  createIncident,
  IncidentNumbersExhaustedError,
  trackIncident,
} from '../../src/server/incidents/index.ts';
import { followUpByToken } from '../../src/server/incidents/follow-up.ts';
import { openDatabase } from '../../src/server/db/index.ts';
import { setIncidentState } from '../../src/server/incidents/state.ts';
import { hitRateLimit } from '../../src/server/limits/counters.ts';
import { describeEachEngine } from '../support/db.ts';
import { buildIncident } from '../support/factories.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';

const options = { brand, staffInbox: 'soporte@vertice.example' };
const empty = { problema: '', nombre: '', telefono: '', email: '', rnc: '' };

describeEachEngine('incidents', (database) => {
  it('numbers an incident INC-{UTC day}-{1000..9999}, state Registrado, one history entry at the same time', async () => {
    const { db } = database();
    // 23:30 in Santo Domingo is already the next day in UTC: the number uses the UTC date.
    const now = new Date('2025-03-04T03:30:00.000Z');
    const created = await createIncident(
      db,
      { ...empty, nombre: 'José Pérez', rnc: '1-01-12345-6' },
      { ...options, now },
    );
    expect(created.numeroIncidencia).toMatch(/^INC-20250304-[1-9]\d{3}$/);
    expect(created.estado).toBe('Registrado');
    expect(created.fecha).toBe(now.toISOString());

    const row = await db
      .selectFrom('incidents')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      estado: 'Registrado',
      fecha: now.toISOString(),
      nombreNorm: 'jose perez',
      rncNorm: '1-01-12345-6',
    });
    const events = await db
      .selectFrom('incidentEvents')
      .selectAll()
      .where('incidentId', '=', created.id)
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ estado: 'Registrado', fecha: now.toISOString(), actor: null });
  });

  it('gives 200 concurrent creations 200 distinct numbers, 200 rows and 200 history entries', async () => {
    // On PostgreSQL the 200 queue for the pool's ten connections and meet on the day's numbers: on a loaded
    // machine the last ones waited past the pool's 5 s for a connection. The numbering is what is tested.
    const { url } = database();
    const { db } = openDatabase(url, { connectionTimeoutMs: 60_000 });
    try {
      const now = new Date('2025-05-05T12:00:00.000Z');
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, index) =>
          createIncident(db, { ...empty, problema: `Caso ${index}` }, { ...options, now }),
        ),
      );
      const numbers = new Set(results.map((item) => item.numeroIncidencia));
      expect(numbers.size).toBe(200);
      for (const number of numbers) expect(number).toMatch(/^INC-20250505-\d{4}$/);
      const count = await db
        .selectFrom('incidents')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('numeroIncidencia', 'like', 'INC-20250505-%')
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(200);
      const events = await db
        .selectFrom('incidentEvents')
        .innerJoin('incidents', 'incidents.id', 'incidentEvents.incidentId')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('incidents.numeroIncidencia', 'like', 'INC-20250505-%')
        .executeTakeFirstOrThrow();
      expect(Number(events.n)).toBe(200);
    } finally {
      await db.destroy();
    }
  });

  it('writes the visitor confirmation and the staff notice in the same transaction as the incident', async () => {
    const { db } = database();
    const created = await createIncident(
      db,
      { ...empty, nombre: 'Ana', email: 'ana@cliente.example', problema: 'No imprime' },
      options,
    );
    const mails = await db
      .selectFrom('mailOutbox')
      .selectAll()
      .where('subject', 'like', `%${created.numeroIncidencia}%`)
      .orderBy('id')
      .execute();
    expect(mails.map((mail) => [mail.kind, mail.toAddress, mail.status])).toEqual([
      ['incident.confirmation', 'ana@cliente.example', 'pending'],
      ['incident.staff-notice', 'soporte@vertice.example', 'pending'],
    ]);
    expect(mails[1]?.replyTo).toBe('ana@cliente.example');

    // Without a usable e-mail only the staff is notified.
    const anonymous = await createIncident(db, { ...empty, email: 'no es un correo' }, options);
    const kinds = await db
      .selectFrom('mailOutbox')
      .select('kind')
      .where('subject', 'like', `%${anonymous.numeroIncidencia}%`)
      .execute();
    expect(kinds.map((item) => item.kind)).toEqual(['incident.staff-notice']);

    // When the outbox cannot be written, the incident is not stored either.
    const before = await db
      .selectFrom('incidents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await sql`alter table mail_outbox rename to mail_outbox_away`.execute(db);
    try {
      await expect(createIncident(db, { ...empty, email: 'b@cliente.example' }, options)).rejects.toThrow();
    } finally {
      await sql`alter table mail_outbox_away rename to mail_outbox`.execute(db);
    }
    const after = await db
      .selectFrom('incidents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('finds the last free number of a crowded day, then refuses clearly instead of duplicating', async () => {
    const { db } = database();
    const now = new Date('2024-02-29T15:00:00.000Z');
    const day = utcDay(now);
    const rows = [];
    for (let suffix = 1000; suffix <= 9999; suffix += 1) {
      if (suffix === 4321) continue;
      rows.push(buildIncident({ numeroIncidencia: `INC-${day}-${suffix}`, fecha: now.toISOString() }));
    }
    for (let start = 0; start < rows.length; start += 500) {
      await db
        .insertInto('incidents')
        .values(rows.slice(start, start + 500))
        .execute();
    }
    const last = await createIncident(db, empty, { ...options, now });
    expect(last.numeroIncidencia).toBe(`INC-${day}-4321`);
    await expect(createIncident(db, empty, { ...options, now })).rejects.toBeInstanceOf(
      IncidentNumbersExhaustedError,
    );
    await expect(createIncident(db, empty, { ...options, now })).rejects.toThrow(/agotaron/);
    const count = await db
      .selectFrom('incidents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('numeroIncidencia', 'like', `INC-${day}-%`)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(9000);
  });

  it('follows an incident only with its number and the e-mail it was opened with', async () => {
    const { db } = database();
    const created = await createIncident(
      db,
      { ...empty, email: 'Luis@Empresa.example', problema: 'El sistema no abre' },
      options,
    );
    const later = new Date(Date.parse(created.fecha) + 60_000).toISOString();
    await db
      .insertInto('incidentEvents')
      .values({ incidentId: created.id, estado: 'En Proceso', fecha: later, actor: 'admin@vertice.example' })
      .execute();
    await db.updateTable('incidents').set({ estado: 'En Proceso' }).where('id', '=', created.id).execute();

    const found = await trackIncident(db, created.numeroIncidencia.toLowerCase(), ' luis@empresa.example ');
    expect(found).toMatchObject({ numeroIncidencia: created.numeroIncidencia, estado: 'En Proceso' });
    // The problem text is opened only by the token of the visitor's mail.
    expect(found).not.toHaveProperty('problema');
    expect(JSON.stringify(found)).not.toContain('El sistema no abre');
    expect(found?.historial.map((entry) => entry.estado)).toEqual(['Registrado', 'En Proceso']);
    expect(await trackIncident(db, created.numeroIncidencia, 'otra@empresa.example')).toBeNull();
    expect(await trackIncident(db, 'INC-19990101-1000', 'luis@empresa.example')).toBeNull();
    const noEmail = await createIncident(db, empty, options);
    expect(await trackIncident(db, noEmail.numeroIncidencia, '')).toBeNull();
  });

  it('opens the whole follow-up with the token of the confirmation mail, stored only hashed', async () => {
    const { db } = database();
    const created = await createIncident(
      db,
      { ...empty, email: 'marta@empresa.example', problema: 'La impresora fiscal no responde' },
      options,
    );
    const mail = await db
      .selectFrom('mailOutbox')
      .selectAll()
      .where('kind', '=', 'incident.confirmation')
      .executeTakeFirstOrThrow();
    const token = /seguimiento\?token=([A-Za-z0-9_-]+)/.exec(mail.textBody)?.[1] ?? '';
    // 18 random bytes (144 bits), base64url.
    expect(token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(mail.htmlBody).toContain(`seguimiento?token=${token}`);
    const stored = await db.selectFrom('incidentTokens').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token);

    expect(await followUpByToken(db, token)).toMatchObject({
      numeroIncidencia: created.numeroIncidencia,
      problema: 'La impresora fiscal no responde',
      estado: 'Registrado',
      historial: [{ estado: 'Registrado', fecha: created.fecha }],
    });
    const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(await followUpByToken(db, wrong)).toBeNull();
    expect(await followUpByToken(db, 'corto')).toBeNull();
    expect(await followUpByToken(db, "' or 1=1 --aaaaaaaaaaaaa")).toBeNull();

    // A state notice carries a token of its own; the first keeps working.
    await setIncidentState(db, {
      id: created.id,
      estado: 'En Proceso',
      actor: 'admin@vertice.example',
      notify: brand,
    });
    const notice = await db
      .selectFrom('mailOutbox')
      .selectAll()
      .where('kind', '=', 'incident.state')
      .executeTakeFirstOrThrow();
    const second = /seguimiento\?token=([A-Za-z0-9_-]+)/.exec(notice.textBody)?.[1] ?? '';
    expect(second).not.toBe(token);
    expect((await followUpByToken(db, second))?.estado).toBe('En Proceso');
    expect((await followUpByToken(db, token))?.estado).toBe('En Proceso');
  });

  it('rate-limits per key in the database, atomically, per 10-minute window', async () => {
    const { db } = database();
    const now = new Date('2025-01-01T10:01:00.000Z');
    const hits = await Promise.all(
      Array.from({ length: 20 }, () => hitRateLimit(db, 'contact.send:203.0.113.7', 5, now)),
    );
    expect(hits.filter((hit) => hit.allowed)).toHaveLength(5);
    expect((await hitRateLimit(db, 'contact.send:203.0.113.8', 5, now)).allowed).toBe(true);
    expect((await hitRateLimit(db, 'incidents.create:203.0.113.7', 5, now)).allowed).toBe(true);
    const nextWindow = new Date('2025-01-01T10:10:00.000Z');
    expect((await hitRateLimit(db, 'contact.send:203.0.113.7', 5, nextWindow)).allowed).toBe(true);
    const off = await hitRateLimit(db, 'contact.send:203.0.113.7', 0, now);
    expect(off.allowed).toBe(true);
  });
});

describe('incident numbers', () => {
  it('use the UTC calendar day', () => {
    expect(utcDay(new Date('2025-12-31T23:59:59.999Z'))).toBe('20251231');
    expect(utcDay(new Date('2026-01-01T00:00:00.000Z'))).toBe('20260101');
  });
});
