/**
 * The staff area's live events (issue 22, docs/decisions/0018) on both engines: each change that the
 * staff pages show writes one event in its own transaction (a new incident, a state change, a note naming
 * who wrote it, a customer's answer with the assignee, a contact message and its 'atendido'); a
 * rolled-back change writes none; the events come back in order after any id; the window is pruned;
 * the ids a browser sends are read strictly.
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { sessionStillValid } from '../../src/server/auth/index.ts';
import { saveContactMessage } from '../../src/server/contact/index.ts';
import { setMessageHandled } from '../../src/server/contact/inbox.ts';
import { addNote, recordCustomerAnswer } from '../../src/server/incidents/conversation.ts';
import { createIncident } from '../../src/server/incidents/index.ts';
import { setIncidentState } from '../../src/server/incidents/state.ts';
import {
  latestLiveEventId,
  liveEventsAfter,
  LIVE_WINDOW,
  oldestLiveEventId,
  recordLiveEvent,
} from '../../src/server/live/events.ts';
import { eventIdOf } from '../../src/server/live/stream.ts';
import { describeEachEngine } from '../support/db.ts';
import { insertIncident, insertStaffAccount } from '../support/factories.ts';
import { MAIL_BRAND } from '../support/mail-brand.ts';

const ANA = { id: 'user-ana', email: 'ana@vertice.example', name: 'Ana Pérez' };
const audit = { actorId: ANA.id, actorEmail: ANA.email, network: '203.0.113.0/24' };

it('reads the event id a browser sends strictly', () => {
  expect(eventIdOf('42')).toBe(42);
  expect(eventIdOf(' 7 ')).toBe(7);
  for (const value of [null, undefined, '', '-1', '1e3', '12abc', '9'.repeat(16)])
    expect(eventIdOf(value)).toBeNull();
});

describeEachEngine('live events', (database) => {
  it('writes one event per change, in its transaction, and gives them back in order after any id', async () => {
    const { db } = database();
    await insertStaffAccount(db, ANA);
    const start = await latestLiveEventId(db);
    const created = await createIncident(
      db,
      {
        problema: 'No imprime',
        nombre: 'Rosa Peña',
        telefono: '809-555-0101',
        email: 'rosa@cliente.example',
        rnc: '',
      },
      { brand: MAIL_BRAND, staffInbox: 'soporte@vertice.example' },
    );
    await setIncidentState(db, { id: created.id, estado: 'En Proceso', actor: ANA.email, audit });
    await addNote(db, { incidentId: created.id, author: ANA, body: 'Llamar mañana' });
    await db.updateTable('incidents').set({ assignedTo: ANA.id }).where('id', '=', created.id).execute();
    await db.transaction().execute((trx) =>
      recordCustomerAnswer(
        trx,
        created.id,
        {
          body: 'Sigue igual',
          brand: MAIL_BRAND,
          staffInbox: 'soporte@vertice.example',
          staffEmails: [ANA.email],
        },
        new Date(),
      ),
    );
    const message = await saveContactMessage(
      db,
      { name: 'Luis', email: 'luis@cliente.example', message: 'Hola' },
      { brand: MAIL_BRAND, staffInbox: 'soporte@vertice.example' },
    );
    await setMessageHandled(db, { id: message.id, handled: true, actor: audit });

    const events = await liveEventsAfter(db, start);
    expect(events.map((event) => event.data)).toEqual([
      { kind: 'incident.created', incidentId: created.id, numero: created.numeroIncidencia },
      {
        kind: 'incident.changed',
        incidentId: created.id,
        numero: created.numeroIncidencia,
        change: 'state',
        byId: ANA.id,
        byName: ANA.email,
        assignedTo: null,
      },
      {
        kind: 'incident.changed',
        incidentId: created.id,
        numero: created.numeroIncidencia,
        change: 'note',
        byId: ANA.id,
        byName: 'Ana Pérez',
        assignedTo: null,
      },
      {
        kind: 'incident.changed',
        incidentId: created.id,
        numero: created.numeroIncidencia,
        change: 'answer',
        byId: null,
        byName: null,
        assignedTo: ANA.id,
      },
      { kind: 'message.created', messageId: message.id },
      { kind: 'message.changed', messageId: message.id },
    ]);
    const ids = events.map((event) => event.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect((await liveEventsAfter(db, ids[3]!)).map((event) => event.id)).toEqual(ids.slice(4));
    // Marking it again changes nothing and announces nothing.
    await setMessageHandled(db, { id: message.id, handled: true, actor: audit });
    expect(await latestLiveEventId(db)).toBe(ids.at(-1));
  });

  it('tells the stream whether a session still stands without counting as a use', async () => {
    const { db } = database();
    await insertStaffAccount(db, ANA);
    const now = Date.parse('2026-03-01T12:00:00.000Z');
    const minutes = (count: number) => new Date(now + count * 60_000).toISOString();
    const session = (token: string, updatedAt: string, expiresAt: string) =>
      db
        .withoutPlugins()
        .insertInto('session')
        .values({ id: token, token, userId: ANA.id, createdAt: minutes(-300), updatedAt, expiresAt })
        .execute();
    await session('vigente', minutes(-5), minutes(600));
    await session('inactiva', minutes(-121), minutes(600));
    await session('vencida', minutes(-1), minutes(-1));
    const config = { STAFF_SESSION_IDLE_MINUTES: 120 } as Parameters<typeof sessionStillValid>[2];
    expect(await sessionStillValid('vigente', db, config, now)).toBe(true);
    expect(await sessionStillValid('inactiva', db, config, now)).toBe(false);
    expect(await sessionStillValid('vencida', db, config, now)).toBe(false);
    expect(await sessionStillValid('cerrada', db, config, now)).toBe(false);
    // Asking changed nothing.
    const kept = await db
      .withoutPlugins()
      .selectFrom('session')
      .select('updatedAt')
      .where('token', '=', 'vigente')
      .executeTakeFirstOrThrow();
    expect(new Date(kept.updatedAt).toISOString()).toBe(minutes(-5));
  });

  it('numbers events in commit order, whatever order their transactions began in', async () => {
    const { db, engine } = database();
    if (engine === 'sqlite') return; // One writer: the order of the writes is the order of the commits.
    const before = await latestLiveEventId(db);
    // The first transaction writes its event first but commits last.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const firstWritten = new Promise<void>((resolve) => (written = resolve));
    const late = db.transaction().execute(async (trx) => {
      await recordLiveEvent(trx, { kind: 'message.changed', messageId: 1 });
      written();
      await held;
    });
    await firstWritten;
    await db.transaction().execute((trx) => recordLiveEvent(trx, { kind: 'message.changed', messageId: 2 }));
    const seenEarly = await liveEventsAfter(db, before);
    release();
    await late;
    const all = await liveEventsAfter(db, before);
    expect(seenEarly.map((event) => event.data)).toEqual([{ kind: 'message.changed', messageId: 2 }]);
    // The late one comes after the one already seen: a reader at that cursor does not miss it.
    expect(all.map((event) => event.data)).toEqual([
      { kind: 'message.changed', messageId: 2 },
      { kind: 'message.changed', messageId: 1 },
    ]);
    expect(await liveEventsAfter(db, seenEarly[0]!.id)).toEqual([all[1]]);
  });

  it('announces nothing that did not commit', async () => {
    const { db } = database();
    const incident = await insertIncident(db, { numeroIncidencia: 'INC-20250301-3001' });
    const before = await latestLiveEventId(db);
    await expect(
      db.transaction().execute(async (trx) => {
        await recordLiveEvent(trx, {
          kind: 'incident.created',
          incidentId: incident.id,
          numero: incident.numeroIncidencia,
        });
        throw new Error('deshecho');
      }),
    ).rejects.toThrow('deshecho');
    await expect(
      setIncidentState(db, { id: 99_999, estado: 'Resuelto', actor: ANA.email }),
    ).rejects.toThrow();
    expect(await liveEventsAfter(db, before)).toEqual([]);
  });

  it('keeps a window of the latest events, pruned as new ones come', async () => {
    const { db, engine } = database();
    // A full window written at once, then events until the next prune (every 100th id).
    const old = Array.from({ length: LIVE_WINDOW + 150 }, (_, index) => ({
      kind: 'message.changed',
      data: JSON.stringify({ kind: 'message.changed', messageId: index }),
      createdAt: new Date().toISOString(),
    }));
    for (let start = 0; start < old.length; start += 1000)
      await db
        .insertInto('liveEvents')
        .values(old.slice(start, start + 1000))
        .execute();
    // Numbered as recordLiveEvent numbers them on SQLite (PostgreSQL's trigger did at each commit).
    if (engine === 'sqlite')
      await db
        .updateTable('liveEvents')
        .set({ seq: sql`id` })
        .execute();
    await db.transaction().execute(async (trx) => {
      for (let index = 0; index < 100; index++)
        await recordLiveEvent(trx, { kind: 'message.changed', messageId: index });
    });
    const latest = await latestLiveEventId(db);
    const oldest = await oldestLiveEventId(db);
    // Between the window and the window plus the events since the last prune.
    expect(latest - oldest + 1).toBeGreaterThanOrEqual(LIVE_WINDOW);
    expect(latest - oldest + 1).toBeLessThan(LIVE_WINDOW + 100);
    expect((await liveEventsAfter(db, latest - 10)).map((event) => event.id)).toEqual(
      Array.from({ length: 10 }, (_, index) => latest - 9 + index),
    );
  });
});
