import { expect, it } from 'vitest';
import {
  addClientNote,
  clientTimeline,
  createClient,
  listClients,
  setClientArchived,
  setClientState,
  updateClient,
} from '../../src/server/clients/index.ts';
import { sendWelcome } from '../../src/server/clients/welcome.ts';
import { describeEachEngine } from '../support/db.ts';
import { ALAMOS_FORM } from '../support/factories.ts';

const input = ALAMOS_FORM;
const ana = { actorId: 'u1', actorEmail: 'ana@vertice.example', network: '198.51.100.1' };
const luis = { actorId: 'u2', actorEmail: 'luis@vertice.example', network: '198.51.100.2' };

describeEachEngine('client CRM writer', (database) => {
  it('saves an edit at the loaded version, derives the search columns again and records each changed field', async () => {
    const { db } = database();
    const { client } = await createClient(db, input, new Date('2025-03-01T10:00:00.000Z'), ana);
    expect(client.version).toBe(1);
    const outcome = await updateClient(
      db,
      client.id,
      {
        ...input,
        razonSocial: 'Botica Núñez SRL',
        telefono: '829 555 0199',
        email: 'Ventas@Botica.DO',
        rnc: '101850042',
      },
      1,
      luis,
      new Date('2025-03-02T10:00:00.000Z'),
    );
    expect(outcome.kind).toBe('saved');
    if (outcome.kind !== 'saved') return;
    expect(outcome.client).toMatchObject({
      version: 2,
      telefono: '+1 829-555-0199',
      email: 'ventas@botica.do',
      razonSocial: 'Botica Núñez SRL',
    });
    expect(outcome.warnings[0]).toMatch(/dígito verificador/);
    const stored = await db
      .selectFrom('clients')
      .selectAll()
      .where('id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      razonSocialNorm: 'botica nunez srl',
      emailNorm: 'ventas@botica.do',
      rncNorm: '101850042',
    });
    expect((await listClients(db, 'nunez')).map((item) => item.id)).toEqual([client.id]);
    expect(await listClients(db, 'alamos')).toEqual([]);

    const timeline = await clientTimeline(db, client.id);
    // Newest first: the four edited fields (one entry each), then the creation.
    expect(timeline.map((entry) => entry.kind)).toEqual(['edited', 'edited', 'edited', 'edited', 'created']);
    expect(timeline.at(-1)).toMatchObject({ actorEmail: ana.actorEmail, at: '2025-03-01T10:00:00.000Z' });
    expect(
      timeline
        .slice(0, 4)
        .map((entry) => entry.change)
        .sort((a, b) => a!.field!.localeCompare(b!.field!)),
    ).toEqual([
      { field: 'email', from: 'carmen@losalamos.com.do', to: 'ventas@botica.do' },
      { field: 'razonSocial', from: 'Farmacia Los Álamos SRL', to: 'Botica Núñez SRL' },
      { field: 'rnc', from: '101850043', to: '101850042' },
      { field: 'telefono', from: '+1 809-555-0142', to: '+1 829-555-0199' },
    ]);
    expect(timeline[0]).toMatchObject({ actorEmail: luis.actorEmail, at: '2025-03-02T10:00:00.000Z' });
    const audit = await db
      .selectFrom('auditEvents')
      .select(['action', 'actorEmail'])
      .where('action', '=', 'client.edited')
      .execute();
    expect(audit).toEqual([{ action: 'client.edited', actorEmail: luis.actorEmail }]);

    // Saving the same values again changes nothing and records nothing.
    const again = await updateClient(
      db,
      client.id,
      {
        ...input,
        razonSocial: 'Botica Núñez SRL',
        telefono: '+1 829-555-0199',
        email: 'ventas@botica.do',
        rnc: '101850042',
      },
      2,
      luis,
    );
    expect(again).toMatchObject({ kind: 'saved', changes: [], client: { version: 2 } });
    expect(await clientTimeline(db, client.id)).toHaveLength(5);
  });

  it('refuses a save made from a stale version, writing nothing, and answers not-found for an unknown id', async () => {
    const { db } = database();
    const { client } = await createClient(db, input);
    const first = await updateClient(db, client.id, { ...input, telefono: '809-555-0111' }, 1, ana);
    expect(first.kind).toBe('saved');
    const second = await updateClient(
      db,
      client.id,
      { ...input, telefono: '809-555-0222', razonSocial: 'Otra SRL' },
      1,
      luis,
    );
    expect(second).toMatchObject({ kind: 'stale', current: { version: 2, telefono: '+1 809-555-0111' } });
    const stored = await db
      .selectFrom('clients')
      .selectAll()
      .where('id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      telefono: '+1 809-555-0111',
      razonSocial: input.razonSocial,
      razonSocialNorm: 'farmacia los alamos srl',
      version: 2,
    });
    expect((await clientTimeline(db, client.id)).filter((entry) => entry.kind === 'edited')).toHaveLength(1);

    // Two saves from the same version at once: exactly one wins.
    const race = await Promise.all([
      updateClient(db, client.id, { ...input, telefono: '809-555-0333' }, 2, ana),
      updateClient(db, client.id, { ...input, telefono: '809-555-0444' }, 2, luis),
    ]);
    expect(race.map((outcome) => outcome.kind).sort()).toEqual(['saved', 'stale']);
    expect(await updateClient(db, 999_999, input, 1, ana)).toEqual({ kind: 'not-found' });
  });

  it('records state changes, notes, archive and restore, and filters the list by state and archive', async () => {
    const { db } = database();
    const { client } = await createClient(db, input, new Date('2025-03-01T10:00:00.000Z'));
    const other = (
      await createClient(
        db,
        { ...input, razonSocial: 'Colmado Don Pepe', email: 'pepe@example.com' },
        new Date('2025-03-01T11:00:00.000Z'),
      )
    ).client;
    expect(
      (await setClientState(db, client.id, 'en curso', ana, new Date('2025-03-03T10:00:00.000Z')))
        ?.estadoProyecto,
    ).toBe('en curso');
    expect((await listClients(db, { estado: 'en curso' })).map((item) => item.id)).toEqual([client.id]);
    expect((await listClients(db, { estado: 'pendiente' })).map((item) => item.id)).toEqual([other.id]);

    const note = 'Acordamos la migración.\nSegunda línea <b>sin formato</b>';
    expect(await addClientNote(db, client.id, note, luis, new Date('2025-03-04T10:00:00.000Z'))).toBe(true);
    expect(await addClientNote(db, 999_999, note, luis)).toBe(false);

    expect(
      (await setClientArchived(db, client.id, true, ana, new Date('2025-03-05T10:00:00.000Z')))?.archivedAt,
    ).toBe('2025-03-05T10:00:00.000Z');
    expect((await listClients(db)).map((item) => item.id)).toEqual([other.id]);
    expect((await listClients(db, { archived: true })).map((item) => item.id)).toEqual([client.id]);
    expect(await listClients(db, { archived: true, estado: 'pendiente' })).toEqual([]);
    expect(
      (await setClientArchived(db, client.id, false, ana, new Date('2025-03-06T10:00:00.000Z')))?.archivedAt,
    ).toBeNull();
    expect((await listClients(db)).map((item) => item.id)).toEqual([other.id, client.id]);

    const timeline = await clientTimeline(db, client.id);
    expect(timeline.map((entry) => entry.kind)).toEqual(['restored', 'archived', 'note', 'state', 'created']);
    expect(timeline[2]).toMatchObject({ note, actorEmail: luis.actorEmail });
    expect(timeline[3]).toMatchObject({
      change: { from: 'pendiente', to: 'en curso' },
      actorEmail: ana.actorEmail,
      at: '2025-03-03T10:00:00.000Z',
    });
    // The database refuses a state outside the four.
    await expect(
      db
        .updateTable('clients')
        .set({ estadoProyecto: 'cerrado' as never })
        .where('id', '=', client.id)
        .execute(),
    ).rejects.toThrow();
  });

  it('records the welcome mail in the timeline, with who sent it', async () => {
    const { db } = database();
    const { client } = await createClient(db, input);
    await sendWelcome(db, client.id, async () => {}, ana);
    const [newest] = await clientTimeline(db, client.id);
    expect(newest).toMatchObject({ kind: 'welcome', actorEmail: ana.actorEmail });
  });
});
