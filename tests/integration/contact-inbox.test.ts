/**
 * The contact inbox's data layer (/admin/mensajes, issue 11) on both engines: the list and its filter,
 * the search (the staff search's index, issue 22), paging, 'Marcar como atendido' / 'pendiente' with who, when and an audit event,
 * the pending count and its index, the CSV export, and migration 0015 filling the search columns of the
 * messages stored before it.
 */
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import {
  formatPendingCount,
  parseMessageView,
  PENDING_COUNT_CAP,
  type MessageView,
} from '../../src/domain/messages.ts';
import { recentEvents } from '../../src/server/audit/index.ts';
import { saveContactMessage } from '../../src/server/contact/index.ts';
import {
  countPendingMessages,
  exportMessagesCsv,
  listMessages,
  setMessageHandled,
} from '../../src/server/contact/inbox.ts';
import { isPostgres } from '../../src/server/db/engine.ts';
import { migrator } from '../../src/server/db/index.ts';
import { describeEachEngine } from '../support/db.ts';
import { buildContactMessage, insertContactMessage } from '../support/factories.ts';
import { MAIL_BRAND } from '../support/mail-brand.ts';

const staff = { actorId: 'user-1', actorEmail: 'soporte@example.com', network: '203.0.113.5' };
const view = (overrides: Partial<MessageView> = {}): MessageView => ({
  estado: 'pendientes',
  pagina: 1,
  ...overrides,
});
const names = (items: { name: string }[]) => items.map((item) => item.name);
const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 14, minute)).toISOString();

describeEachEngine('contact inbox', (database) => {
  it('lists pending messages newest first, searches name, e-mail and text without accents or case, and pages', async () => {
    const { db } = database();
    await insertContactMessage(db, {
      name: 'José Pérez',
      email: 'jose@ferreteria.test',
      message: 'Quiero una cotización de AdmCloud.',
      createdAt: at(1),
    });
    await insertContactMessage(db, {
      name: 'Ana Gómez',
      email: 'ANA@Colmado.test',
      message: 'Precio de Tiendao\npara dos tiendas',
      createdAt: at(2),
    });
    await insertContactMessage(db, {
      name: 'Luis Núñez',
      email: 'luis@example.test',
      message: 'Descuento del 50% en Restaurant.pe?',
      createdAt: at(3),
    });
    // Same time as Luis, inserted later: the higher id comes first.
    await insertContactMessage(db, {
      name: 'Marta Díaz',
      email: 'marta@example.test',
      message: 'Hola',
      createdAt: at(3),
    });

    expect(names((await listMessages(db, view())).items)).toEqual([
      'Marta Díaz',
      'Luis Núñez',
      'Ana Gómez',
      'José Pérez',
    ]);
    expect(names((await listMessages(db, view({ q: 'PEREZ' }))).items)).toEqual(['José Pérez']);
    expect(names((await listMessages(db, view({ q: 'colmado.TEST' }))).items)).toEqual(['Ana Gómez']);
    expect(names((await listMessages(db, view({ q: 'cotizacion' }))).items)).toEqual(['José Pérez']);
    expect(names((await listMessages(db, view({ q: 'tiendao para' }))).items)).toEqual(['Ana Gómez']);
    // The staff search's index (issue 22): words, so punctuation is no wildcard, and a search of none finds nothing.
    expect(names((await listMessages(db, view({ q: '50%' }))).items)).toEqual(['Luis Núñez']);
    expect(names((await listMessages(db, view({ q: '%' }))).items)).toEqual([]);
    expect((await listMessages(db, view({ q: 'nadie' }))).items).toEqual([]);

    const first = await listMessages(db, view(), 3);
    expect(names(first.items)).toEqual(['Marta Díaz', 'Luis Núñez', 'Ana Gómez']);
    expect(first.hasNext).toBe(true);
    const second = await listMessages(db, view({ pagina: 2 }), 3);
    expect(names(second.items)).toEqual(['José Pérez']);
    expect(second.hasNext).toBe(false);
    expect(first.items[1]).toEqual({
      id: expect.any(Number),
      name: 'Luis Núñez',
      email: 'luis@example.test',
      message: 'Descuento del 50% en Restaurant.pe?',
      createdAt: at(3),
      handledAt: null,
      handledByEmail: null,
    });
  });

  it('marks a message handled with who and when, moves it to Atendidos, undoes it, and audits each change once', async () => {
    const { db } = database();
    const { id } = await insertContactMessage(db, { name: 'Ana Gómez', createdAt: at(1) });
    await insertContactMessage(db, { name: 'José Pérez', createdAt: at(2) });
    expect(await countPendingMessages(db)).toBe(2);

    const when = new Date('2026-03-02T15:30:00.000Z');
    expect(await setMessageHandled(db, { id, handled: true, actor: staff }, when)).toBe('changed');
    // A second staff member marking it too changes nothing: the first one's name and time stay.
    expect(
      await setMessageHandled(db, {
        id,
        handled: true,
        actor: { ...staff, actorId: 'user-2', actorEmail: 'otra@example.com' },
      }),
    ).toBe('unchanged');
    expect(await countPendingMessages(db)).toBe(1);
    expect(names((await listMessages(db, view())).items)).toEqual(['José Pérez']);
    const handled = (await listMessages(db, view({ estado: 'atendidos' }))).items;
    expect(handled).toMatchObject([{ id, name: 'Ana Gómez', handledByEmail: 'soporte@example.com' }]);
    expect(new Date(handled[0]!.handledAt!).toISOString()).toBe(when.toISOString());
    const row = await db
      .selectFrom('contactMessages')
      .select('handledById')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.handledById).toBe('user-1');

    expect(
      await setMessageHandled(db, { id, handled: false, actor: staff }, new Date('2026-03-02T16:00:00.000Z')),
    ).toBe('changed');
    expect(await setMessageHandled(db, { id, handled: false, actor: staff })).toBe('unchanged');
    expect(await countPendingMessages(db)).toBe(2);
    expect((await listMessages(db, view({ estado: 'atendidos' }))).items).toEqual([]);
    expect((await listMessages(db, view())).items.find((item) => item.id === id)).toMatchObject({
      handledAt: null,
      handledByEmail: null,
    });

    expect(await setMessageHandled(db, { id: 999_999, handled: true, actor: staff })).toBe('not-found');
    const events = await recentEvents(db);
    expect(events.map((event) => [event.action, event.subject, event.actorEmail])).toEqual([
      ['contact.pending', String(id), 'soporte@example.com'],
      ['contact.handled', String(id), 'soporte@example.com'],
    ]);
  });

  it('stores the search columns of a message sent through the contact form', async () => {
    const { db } = database();
    await saveContactMessage(
      db,
      { name: 'Ramón Peña', email: 'Ramon@Peña.test', message: 'Necesito   AYUDA\ncon la facturación' },
      { brand: MAIL_BRAND, staffInbox: 'soporte@example.com' },
    );
    const row = await db
      .selectFrom('contactMessages')
      .select(['nameNorm', 'emailNorm', 'messageNorm'])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      nameNorm: 'ramon pena',
      emailNorm: 'ramon@pena.test',
      messageNorm: 'necesito ayuda con la facturacion',
    });
    expect(names((await listMessages(db, view({ q: 'facturación' }))).items)).toEqual(['Ramón Peña']);
    expect(await countPendingMessages(db)).toBe(1);
  });

  it('exports the filtered list as formula-safe CSV with a BOM, whole texts and who handled them', async () => {
    const { db } = database();
    const formula = await insertContactMessage(db, {
      name: '=HYPERLINK("http://evil.test","clic")',
      email: 'malo@example.test',
      message: '+1+1\n@SUM(A1)',
      createdAt: at(1),
    });
    await insertContactMessage(db, {
      name: 'Ana <b>Gómez</b>',
      email: 'ana@example.test',
      message: 'Línea 1\nLínea "2", con coma',
      createdAt: at(2),
    });
    await insertContactMessage(db, {
      name: 'Otro',
      email: 'otro@example.test',
      message: 'no entra en la búsqueda',
      createdAt: at(3),
    });
    await setMessageHandled(
      db,
      { id: formula.id, handled: true, actor: staff },
      new Date('2026-03-02T15:30:00.000Z'),
    );

    const pending = await exportMessagesCsv(db, { estado: 'pendientes' });
    expect(
      pending.startsWith(
        '\uFEFF"Fecha (hora de Santo Domingo)","Nombre","Correo","Mensaje","Estado","Atendido por","Atendido el (hora de Santo Domingo)"\r\n',
      ),
    ).toBe(true);
    const rows = parse(pending.slice(1)) as string[][];
    expect(rows.slice(1)).toEqual([
      ['01/03/2026 10:03', 'Otro', 'otro@example.test', 'no entra en la búsqueda', 'Pendiente', '', ''],
      [
        '01/03/2026 10:02',
        'Ana <b>Gómez</b>',
        'ana@example.test',
        'Línea 1\nLínea "2", con coma',
        'Pendiente',
        '',
        '',
      ],
    ]);
    expect(parse((await exportMessagesCsv(db, { estado: 'pendientes', q: 'linea' })).slice(1))).toHaveLength(
      2,
    );

    const handled = parse((await exportMessagesCsv(db, { estado: 'atendidos' })).slice(1)) as string[][];
    expect(handled.slice(1)).toEqual([
      [
        '01/03/2026 10:01',
        '\'=HYPERLINK("http://evil.test","clic")',
        'malo@example.test',
        "'+1+1\n@SUM(A1)",
        'Atendido',
        'soporte@example.com',
        '02/03/2026 11:30',
      ],
    ]);
  });

  it('exports every page in keyset batches, in list order', async () => {
    const { db } = database();
    // 2,100 messages in three batches, with many sharing a time so that the batches split equal times.
    const rows = Array.from({ length: 2100 }, (_, index) => ({
      name: `M${index}`,
      createdAt: at(index % 7),
    }));
    for (let start = 0; start < rows.length; start += 500)
      await db
        .insertInto('contactMessages')
        .values(rows.slice(start, start + 500).map(buildContactMessage))
        .execute();
    const exported = (
      parse((await exportMessagesCsv(db, { estado: 'pendientes' })).slice(1)) as string[][]
    ).slice(1);
    expect(exported).toHaveLength(2100);
    expect(new Set(exported.map((row) => row[1])).size).toBe(2100);
    const listed = await listMessages(db, view({ pagina: 1 }), 2100);
    expect(exported.map((row) => row[1])).toEqual(names(listed.items));
  }, 60_000);

  it('counts the pending messages from their partial index alone, up to the cap', async () => {
    const { db } = database();
    const rows = Array.from({ length: PENDING_COUNT_CAP + 1 }, (_, index) =>
      buildContactMessage({ name: `M${index}`, createdAt: at(index % 60) }),
    );
    for (let start = 0; start < rows.length; start += 500)
      await db
        .insertInto('contactMessages')
        .values(rows.slice(start, start + 500))
        .execute();
    expect(await countPendingMessages(db)).toBe(PENDING_COUNT_CAP);
    expect(formatPendingCount(await countPendingMessages(db))).toBe('999+');
    const last = await db.selectFrom('contactMessages').select('id').orderBy('id', 'desc').limit(2).execute();
    for (const { id } of last) await setMessageHandled(db, { id, handled: true, actor: staff });
    expect(await countPendingMessages(db)).toBe(PENDING_COUNT_CAP - 1);
    expect(formatPendingCount(await countPendingMessages(db))).toBe('999');

    const query = sql`select count(*) from (select id from contact_messages where handled_at is null limit ${PENDING_COUNT_CAP}) as pending`;
    const plan = isPostgres(db)
      ? await db.transaction().execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          const result = await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(trx);
          return result.rows.map((line) => line['QUERY PLAN']).join('\n');
        })
      : (await sql<{ detail: string }>`explain query plan ${query}`.execute(db)).rows
          .map((line) => line.detail)
          .join('\n');
    expect(plan).toContain('contact_messages_pending_idx');
  });

  it('fills the search columns of the messages stored before migration 0015, and goes down and up again', async () => {
    const { db } = database();
    await migrator(db).migrateTo('0013_incident_activity');
    await sql`insert into contact_messages (name, email, message, created_at) values ('Íñigo Ávila', 'Inigo@Example.test', 'Consulta sobre AdmCloud', ${at(1)})`.execute(
      db,
    );
    await migrator(db).migrateToLatest();
    const row = await db.selectFrom('contactMessages').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      nameNorm: 'inigo avila',
      emailNorm: 'inigo@example.test',
      messageNorm: 'consulta sobre admcloud',
      handledAt: null,
    });
    expect(names((await listMessages(db, view({ q: 'iñigo' }))).items)).toEqual(['Íñigo Ávila']);
  });
});

it('reads the view from the URL, falling back to Pendientes, page 1', () => {
  expect(parseMessageView(new URLSearchParams('estado=atendidos&q=%20ana%20&pagina=3'))).toEqual({
    estado: 'atendidos',
    q: 'ana',
    pagina: 3,
  });
  expect(parseMessageView(new URLSearchParams('estado=todos&q=&pagina=-1'))).toEqual({
    estado: 'pendientes',
    q: undefined,
    pagina: 1,
  });
});
