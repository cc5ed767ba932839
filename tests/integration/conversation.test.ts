/**
 * The incident conversation (src/server/incidents/conversation.ts) on both engines: replies stored
 * with their mail and a fresh follow-up token in one transaction, notes stored and never mailed nor
 * shown on the follow-up page, the text rules, and the staff timeline's order.
 */
import { expect, it } from 'vitest';
import { ENTRY_MAX_LENGTH } from '../../src/domain/incidents.ts';
import {
  addNote,
  EntryTextError,
  incidentByNumber,
  loadEntries,
  replyToCustomer,
  staffTimeline,
} from '../../src/server/incidents/conversation.ts';
import { migrateToLatest, migrator } from '../../src/server/db/index.ts';
import { followUpByToken } from '../../src/server/incidents/follow-up.ts';
import { IncidentNotFoundError } from '../../src/server/incidents/index.ts';
import { setIncidentState } from '../../src/server/incidents/state.ts';
import { describeEachEngine } from '../support/db.ts';
import { insertIncident } from '../support/factories.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';

const author = { id: 'user-1', email: 'soporte@vertice.example' };
const at = (minute: number) => new Date(Date.UTC(2025, 0, 2, 10, minute));
const TOKEN_IN_LINK = /seguimiento\?token=([A-Za-z0-9_-]{24})/;

describeEachEngine('incident conversation', (database) => {
  it('stores a reply and queues its mail with a follow-up link that shows the reply, never the note', async () => {
    const { db } = database();
    const incident = await insertIncident(db, {
      numeroIncidencia: 'INC-20250101-1234',
      email: 'jose@cliente.example',
    });
    await addNote(db, { incidentId: incident.id, author, body: 'Nota: llamar el lunes' }, at(1));
    const body = 'Hola José:\nYa revisamos la impresora.\n<b>no es html</b>';
    const { entry, mail } = await replyToCustomer(
      db,
      { incidentId: incident.id, author, body, brand },
      at(2),
    );
    expect(mail).toBe('queued');
    expect(entry).toMatchObject({ kind: 'reply', body, authorEmail: author.email, authorId: author.id });

    const mails = await db.selectFrom('mailOutbox').selectAll().execute();
    expect(mails).toHaveLength(1);
    const [queued] = mails;
    expect(queued).toMatchObject({
      kind: 'incident.reply',
      toAddress: 'jose@cliente.example',
      subject: 'Respuesta a tu incidencia INC-20250101-1234',
    });
    expect(queued!.textBody).toContain('Ya revisamos la impresora.');
    expect(queued!.textBody).not.toContain('llamar el lunes');
    expect(queued!.htmlBody).toContain('&lt;b&gt;no es html&lt;/b&gt;');
    expect(queued!.htmlBody).not.toContain('<b>no es html');
    const token = TOKEN_IN_LINK.exec(queued!.textBody)?.[1];
    expect(token).toBeTruthy();

    const followUp = await followUpByToken(db, token!);
    expect(followUp?.respuestas).toEqual([{ texto: body, fecha: at(2).toISOString(), de: 'equipo' }]);
    expect(JSON.stringify(followUp)).not.toContain('llamar el lunes');
  });

  it('stores a reply without mail when the incident has no usable e-mail, and a note never mails', async () => {
    const { db } = database();
    const incident = await insertIncident(db, { email: 'no tengo correo' });
    expect(
      (await replyToCustomer(db, { incidentId: incident.id, author, body: 'Le llamamos.', brand }, at(1)))
        .mail,
    ).toBe('no-email');
    await addNote(db, { incidentId: incident.id, author, body: 'Cliente difícil' }, at(2));
    expect(await db.selectFrom('mailOutbox').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('incidentTokens').selectAll().execute()).toEqual([]);
    expect((await loadEntries(db, incident.id)).map((entry) => entry.kind)).toEqual(['reply', 'note']);
  });

  it('refuses empty and too long texts, and unknown incidents, storing nothing', async () => {
    const { db } = database();
    const incident = await insertIncident(db);
    await expect(addNote(db, { incidentId: incident.id, author, body: '  \n ' })).rejects.toThrow(
      EntryTextError,
    );
    await expect(
      replyToCustomer(db, { incidentId: incident.id, author, body: 'x'.repeat(ENTRY_MAX_LENGTH + 1), brand }),
    ).rejects.toThrow(/5\.000 caracteres/);
    await expect(addNote(db, { incidentId: incident.id + 99, author, body: 'hola' })).rejects.toThrow(
      IncidentNotFoundError,
    );
    expect(await loadEntries(db, incident.id)).toEqual([]);
    expect(await db.selectFrom('mailOutbox').selectAll().execute()).toEqual([]);
    // Exactly 5,000 characters is fine.
    await addNote(db, { incidentId: incident.id, author, body: 'y'.repeat(ENTRY_MAX_LENGTH) });
    expect((await loadEntries(db, incident.id))[0]?.body).toHaveLength(ENTRY_MAX_LENGTH);
  });

  it('builds the staff timeline oldest first: problem, state changes with who, replies and notes', async () => {
    const { db } = database();
    const opened = await insertIncident(db, {
      numeroIncidencia: 'INC-20250102-2222',
      fecha: at(0).toISOString(),
      problema: 'No imprime',
    });
    await addNote(db, { incidentId: opened.id, author, body: 'Revisar driver' }, at(3));
    await setIncidentState(
      db,
      { id: opened.id, estado: 'En Proceso', actor: 'admin@vertice.example' },
      at(2),
    );
    await replyToCustomer(db, { incidentId: opened.id, author, body: 'Ya casi', brand }, at(4));
    const incident = await incidentByNumber(db, ' inc-20250102-2222 ');
    expect(incident?.id).toBe(opened.id);
    expect(await incidentByNumber(db, 'INC-20250102-9999')).toBeNull();
    const timeline = await staffTimeline(db, incident!);
    expect(timeline.map((entry) => [entry.kind, entry.autor])).toEqual([
      ['problem', opened.nombre],
      ['state', 'admin@vertice.example'],
      ['note', author.email],
      ['reply', author.email],
    ]);
    expect(timeline[0]).toMatchObject({ texto: 'No imprime' });
  });

  it('adds the nullable assigned_to column to incidents', async () => {
    const { db } = database();
    const incident = await insertIncident(db);
    const row = await db
      .selectFrom('incidents')
      .select('assignedTo')
      .where('id', '=', incident.id)
      .executeTakeFirstOrThrow();
    expect(row.assignedTo).toBeNull();
    await db.updateTable('incidents').set({ assignedTo: author.id }).where('id', '=', incident.id).execute();
    expect((await incidentByNumber(db, incident.numeroIncidencia!))?.id).toBe(incident.id);
  });
  it("keeps each incident's last activity and the customer-waiting mark with its timeline", async () => {
    const { db } = database();
    const incident = await insertIncident(db, { fecha: at(0).toISOString() });
    const activity = () =>
      db
        .selectFrom('incidents')
        .select(['lastActivityAt', 'customerWaiting'])
        .where('id', '=', incident.id)
        .executeTakeFirstOrThrow();
    const iso = (value: unknown) =>
      new Date(String(value instanceof Date ? value.toISOString() : value)).toISOString();
    expect(iso((await activity()).lastActivityAt)).toBe(at(0).toISOString());
    await addNote(db, { incidentId: incident.id, author, body: 'Nota' }, at(5));
    expect(iso((await activity()).lastActivityAt)).toBe(at(5).toISOString());
    await setIncidentState(db, { id: incident.id, estado: 'En Proceso', actor: author.email }, at(9));
    expect(iso((await activity()).lastActivityAt)).toBe(at(9).toISOString());
    await replyToCustomer(db, { incidentId: incident.id, author, body: 'Respuesta', brand }, at(12));
    expect(iso((await activity()).lastActivityAt)).toBe(at(12).toISOString());
    expect(Boolean((await activity()).customerWaiting)).toBe(false);
  });

  it('fills last activity and the customer-waiting mark from the history when migration 0013 runs', async () => {
    const { db } = database();
    const answered = await insertIncident(db, {
      numeroIncidencia: 'INC-20250102-0001',
      fecha: at(0).toISOString(),
    });
    const replied = await insertIncident(db, {
      numeroIncidencia: 'INC-20250102-0002',
      fecha: at(0).toISOString(),
    });
    const quiet = await insertIncident(db, {
      numeroIncidencia: 'INC-20250102-0003',
      fecha: at(3).toISOString(),
    });
    await setIncidentState(db, { id: answered.id, estado: 'Resuelto', actor: author.email }, at(20));
    const entry = (incidentId: number, kind: 'reply' | 'answer', minute: number) => ({
      incidentId,
      kind,
      authorId: kind === 'reply' ? author.id : null,
      authorEmail: kind === 'reply' ? author.email : null,
      body: kind,
      createdAt: at(minute).toISOString(),
    });
    await db
      .insertInto('incidentEntries')
      .values([
        entry(answered.id, 'reply', 10),
        entry(answered.id, 'answer', 30),
        entry(replied.id, 'answer', 10),
        entry(replied.id, 'reply', 40),
      ])
      .execute();

    // Back to before 0013 (with whatever came after it), then up again.
    const down = await migrator(db).migrateTo('0012_client_crm');
    expect(down.error).toBeUndefined();
    expect(down.results?.map((result) => result.migrationName)).toContain('0013_incident_activity');
    await migrateToLatest(db);

    const rows = await db
      .selectFrom('incidents')
      .select(['id', 'lastActivityAt', 'customerWaiting'])
      .orderBy('id')
      .execute();
    const iso = (value: unknown) =>
      new Date(String(value instanceof Date ? value.toISOString() : value)).toISOString();
    expect(rows.map((row) => [row.id, iso(row.lastActivityAt), Boolean(row.customerWaiting)])).toEqual([
      [answered.id, at(30).toISOString(), true],
      [replied.id, at(40).toISOString(), false],
      [quiet.id, at(3).toISOString(), false],
    ]);
  });
});
