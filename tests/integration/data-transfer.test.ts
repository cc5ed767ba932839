import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkMeetingForm } from '../../src/domain/forms/meeting.ts';
import { REOPENED_BY_CUSTOMER } from '../../src/domain/incidents.ts';
import {
  addClientNote,
  createClient,
  markWelcomeSent,
  setClientArchived,
  setClientState,
  updateClient,
} from '../../src/server/clients/index.ts';
import { saveContactMessage } from '../../src/server/contact/index.ts';
import { setMessageHandled } from '../../src/server/contact/inbox.ts';
import { toCsv } from '../../src/server/csv.ts';
import { exportCsv, exportData, type ExportData } from '../../src/server/data/export.ts';
import { collectRecords, importData, toIsoTime, type ImportRefusal } from '../../src/server/data/import.ts';
import { isPostgres } from '../../src/server/db/engine.ts';
import type { Db } from '../../src/server/db/index.ts';
import { assignIncident } from '../../src/server/incidents/assignment.ts';
import { addNote, answerFromCustomer, replyToCustomer } from '../../src/server/incidents/conversation.ts';
import { followUpByToken } from '../../src/server/incidents/follow-up.ts';
import { createIncident } from '../../src/server/incidents/index.ts';
import { setIncidentState } from '../../src/server/incidents/state.ts';
import { cancelMeeting, scheduleMeeting } from '../../src/server/meetings/index.ts';
import { createTestDatabase, describeEachEngine, postgresAvailable } from '../support/db.ts';
import { ALAMOS_FORM } from '../support/factories.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';
import { ROOT } from '../support/server.ts';

/** Shaped like the original site's document exports: a map of document id → document. */
const original = {
  incidencias: {
    a1: {
      numeroIncidencia: 'INC-20250310-4821',
      problema: 'No imprime la factura con NCF',
      nombre: 'José Núñez',
      telefono: '809-555-0101',
      email: 'jose@example.com',
      rnc: '131-00000-1',
      estado: 'En Proceso',
      fecha: { _seconds: 1741600000, _nanoseconds: 500000000 },
      historial: [
        { estado: 'Registrado', fecha: { seconds: 1741600000, nanoseconds: 0 } },
        { estado: 'En Proceso', fecha: '2025-03-11T14:00:00.000Z' },
      ],
    },
    a2: {
      numeroIncidencia: 'INC-20250312-1000',
      problema: '',
      nombre: '',
      telefono: '',
      email: '',
      rnc: '',
      estado: 'Registrado',
      fecha: 1741780800000,
      historial: [],
    },
    bad1: { numeroIncidencia: 'INC-2025-1', estado: 'Registrado', fecha: 1741780800000 },
    bad2: { numeroIncidencia: 'INC-20250312-2000', estado: 'Cerrado', fecha: 1741780800000 },
    bad3: { numeroIncidencia: 'INC-20250312-3000', estado: 'Registrado', fecha: 'ayer' },
  },
  clientes: [
    {
      razonSocial: 'Farmacia Los Prados SRL',
      nombreRepresentante: 'Ana Pérez',
      telefono: '8295550123',
      email: 'ana@farmacialosprados.do',
      rnc: '101010101',
      tipoProyecto: 'Implementación AdmCloud',
      estadoProyecto: 'pendiente',
      fechaRegistro: { seconds: 1741000000, nanoseconds: 0 },
      correoBienvenidaEnviado: true,
    },
    { razonSocial: '', fechaRegistro: 1741000000000 },
  ],
};

describe('toIsoTime', () => {
  it.each([
    ['2025-03-11T14:00:00.000Z', '2025-03-11T14:00:00.000Z'],
    [1741780800000, '2025-03-12T12:00:00.000Z'],
    ['1741780800000', '2025-03-12T12:00:00.000Z'],
    [{ seconds: 1741600000, nanoseconds: 500000000 }, '2025-03-10T09:46:40.500Z'],
    [{ _seconds: 1741600000, _nanoseconds: 0 }, '2025-03-10T09:46:40.000Z'],
  ])('reads %j', (input, expected) => {
    expect(toIsoTime(input)).toBe(expected);
  });

  it.each([['ayer'], [null], [{}], [Number.NaN], ['']])('rejects %j', (input) => {
    expect(toIsoTime(input)).toBeNull();
  });
});

describe('collectRecords', () => {
  it('accepts arrays of mixed documents and maps keyed by document id', () => {
    const fromMap = collectRecords(original);
    expect(fromMap.incidents).toHaveLength(5);
    expect(fromMap.clients).toHaveLength(2);
    const fromArray = collectRecords([
      ...Object.values(original.incidencias),
      ...original.clientes,
      { name: 'x', email: 'x@x.do', message: 'hola', createdAt: 1 },
    ]);
    expect(fromArray.incidents).toHaveLength(5);
    expect(fromArray.clients).toHaveLength(2);
    expect(fromArray.contactMessages).toHaveLength(1);
  });
});

describe('toCsv', () => {
  it('starts with a BOM, quotes what needs it and neutralises formulas', () => {
    const csv = toCsv(
      ['a', 'b'],
      [
        ['=HYPERLINK("x")', 'dice "hola", ¿sí?'],
        ['+1 809', '@SUM(A1)'],
      ],
    );
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    expect(csv).toContain('"dice ""hola"", ¿sí?"');
    expect(csv).toContain(`"'+1 809","'@SUM(A1)"`);
  });
});

describeEachEngine('import and export', (database) => {
  it('imports the original exports, counting invalid rows, and keeps the history', async () => {
    const { db } = database();
    const summary = await importData(db, original);
    expect(summary.incidents).toEqual({ imported: 2, skipped: 0, invalid: 3 });
    expect(summary.clients).toEqual({ imported: 1, skipped: 0, invalid: 1 });

    const incident = await db
      .selectFrom('incidents')
      .selectAll()
      .where('numeroIncidencia', '=', 'INC-20250310-4821')
      .executeTakeFirstOrThrow();
    expect(incident.fecha).toBe('2025-03-10T09:46:40.500Z');
    expect(incident.nombreNorm).toBe('jose nunez');
    const history = await db
      .selectFrom('incidentEvents')
      .select(['estado', 'fecha'])
      .where('incidentId', '=', incident.id)
      .orderBy('fecha')
      .execute();
    expect(history).toEqual([
      { estado: 'Registrado', fecha: '2025-03-10T09:46:40.000Z' },
      { estado: 'En Proceso', fecha: '2025-03-11T14:00:00.000Z' },
    ]);
    // An incident exported without history gets its creation entry.
    const bare = await db
      .selectFrom('incidents')
      .select('id')
      .where('numeroIncidencia', '=', 'INC-20250312-1000')
      .executeTakeFirstOrThrow();
    expect(
      await db.selectFrom('incidentEvents').select('estado').where('incidentId', '=', bare.id).execute(),
    ).toEqual([{ estado: 'Registrado' }]);
  });

  it('adds nothing when the same file is imported again', async () => {
    const { db } = database();
    await importData(db, original);
    const summary = await importData(db, original);
    expect(summary.incidents).toEqual({ imported: 0, skipped: 2, invalid: 3 });
    expect(summary.clients).toEqual({ imported: 0, skipped: 1, invalid: 1 });
  });

  it('keeps nothing of an import that fails part-way', async () => {
    const { db } = database();
    await importData(db, original);
    const before = await db.selectFrom('incidents').select('id').execute();
    const fresh = {
      incidencias: [
        { numeroIncidencia: 'INC-20250401-5555', estado: 'Registrado', fecha: 1743500000000 },
        { numeroIncidencia: 'INC-20250401-6666', estado: 'Registrado', fecha: 1743500000000 },
      ],
    };
    await expect(
      importData(db, fresh, {
        onProgress: (done) => {
          if (done === 2) throw new Error('interrumpido');
        },
      }),
    ).rejects.toThrow('interrumpido');
    expect(await db.selectFrom('incidents').select('id').execute()).toHaveLength(before.length);
  });

  it('refuses, with its reason, a record whose e-mail the form would refuse (issue 24 #7)', async () => {
    const { db } = database();
    const client = original.clientes[0]!;
    const refused: ImportRefusal[] = [];
    const summary = await importData(
      db,
      {
        clientes: [
          { ...client, razonSocial: 'Dos Correos SRL', email: 'a@x.do, b@y.do' },
          { ...client, razonSocial: 'Sin Correo SRL', email: '' },
          {
            ...client,
            razonSocial: 'Reunión Rara SRL',
            meetings: [
              {
                organizerEmail: 'ana@vertice.example; luis@vertice.example',
                startsAt: 1764599400000,
                durationMinutes: 60,
                uid: 'r@vertice.example',
                createdAt: 1764500000000,
              },
            ],
          },
          client,
        ],
        contactMessages: [
          { name: 'Rosa', email: 'rosa@x.do,pedro@y.do', message: 'Hola', createdAt: 1741000000000 },
          { name: 'Pedro', email: 'pedro@cliente.example', message: 'Hola', createdAt: 1741000000000 },
        ],
        incidencias: [
          { ...original.incidencias.a1, assignedToEmail: 'ana@vertice.example luis@vertice.example' },
        ],
      },
      { onRefused: (refusal) => refused.push(refusal) },
    );
    expect(summary).toEqual({
      incidents: { imported: 0, skipped: 0, invalid: 1 },
      clients: { imported: 1, skipped: 0, invalid: 3 },
      contactMessages: { imported: 1, skipped: 0, invalid: 1 },
      inboundMessages: { imported: 0, skipped: 0, invalid: 0 },
      savedReplies: { imported: 0, skipped: 0, invalid: 0 },
      articles: { imported: 0, skipped: 0, invalid: 0 },
      announcements: { imported: 0, skipped: 0, invalid: 0 },
      clientLogos: { imported: 0, skipped: 0, invalid: 0 },
    });
    expect(refused).toEqual([
      {
        kind: 'incidents',
        record: 'INC-20250310-4821',
        reason: expect.stringMatching(
          /^el correo de la persona asignada «ana@vertice\.example luis@vertice\.example»: /,
        ),
      },
      {
        kind: 'clients',
        record: 'Dos Correos SRL',
        reason: 'el correo «a@x.do, b@y.do»: Correo electrónico no válido.',
      },
      { kind: 'clients', record: 'Sin Correo SRL', reason: 'el correo «»: Este campo es obligatorio.' },
      {
        kind: 'clients',
        record: 'Reunión Rara SRL',
        reason: expect.stringMatching(
          /^el correo de quien organiza una reunión «ana@vertice\.example; luis@vertice\.example»: /,
        ),
      },
      {
        kind: 'contactMessages',
        record: 'rosa@x.do,pedro@y.do 1741000000000',
        reason: expect.stringContaining('Escribe un correo electrónico válido'),
      },
    ]);
    // Nothing of a refused record is stored, nested rows included.
    expect(await db.selectFrom('clients').select('email').execute()).toEqual([{ email: client.email }]);
    expect(await db.selectFrom('clientMeetings').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('incidents').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('contactMessages').select('email').execute()).toEqual([
      { email: 'pedro@cliente.example' },
    ]);
  });

  it('exports what it imported, with CSV for spreadsheets', async () => {
    const { db } = database();
    await importData(db, original);
    const data = await exportData(db);
    const incident = data.incidents.find((item) => item.numeroIncidencia === 'INC-20250310-4821');
    expect(incident?.historial.map((entry) => entry.estado)).toEqual(['Registrado', 'En Proceso']);
    expect(data.clients[0]?.correoBienvenidaEnviado).toBe(true);
    const csv = exportCsv(data);
    expect(csv.incidents).toContain('José Núñez');
    expect(csv.clients).toContain('Farmacia Los Prados SRL');
  });
});

const ANA = { id: 'source-ana', email: 'ana@vertice.example', name: 'Ana Pérez' };
const LUIS = { id: 'source-luis', email: 'luis@vertice.example', name: 'Luis Gómez' };
const STAFF_INBOX = 'soporte@vertice.example';
const TOKEN_IN_LINK = /seguimiento\?token=([A-Za-z0-9_-]{24})/;
const NOW = new Date('2026-11-23T15:00:00.000Z');
/** `minutes` after NOW, as a Date (for the writers) and as stored. */
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
const iso = (minutes: number) => at(minutes).toISOString();
const audit = (staff: typeof ANA) => ({
  actorId: staff.id,
  actorEmail: staff.email,
  network: '198.51.100.1',
});
const CLIENT = ALAMOS_FORM;

/** A Better Auth user row, as `npm run admin -- create` leaves it. */
async function addStaff(db: Db, account: { id: string; email: string; name: string }): Promise<void> {
  await db
    .withoutPlugins()
    .insertInto('user')
    .values({
      id: account.id,
      name: account.name,
      email: account.email,
      emailVerified: isPostgres(db) ? true : 1,
      image: null,
      createdAt: NOW.toISOString(),
      updatedAt: NOW.toISOString(),
      mustChangePassword: isPostgres(db) ? false : 0,
      twoFactorEnabled: null,
    })
    .execute();
}

function meeting(fecha: string, hora: string) {
  const checked = checkMeetingForm(
    { fecha, hora, duracion: '60', lugar: 'https://meet.example.com/abc', nota: 'Plan de migración.' },
    NOW,
  );
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return checked.meeting;
}

/**
 * One of everything the site records, written by the site's own functions: an incident assigned,
 * replied to, noted, resolved and reopened by the visitor's answer (with its follow-up tokens); a client
 * edited, moved on, noted, welcomed, sent two meetings (one cancelled) and archived; a contact message
 * marked handled and one pending. Returns the visitor's follow-up token.
 */
async function seedEverything(db: Db): Promise<{ token: string; numeroIncidencia: string }> {
  await addStaff(db, ANA);
  await addStaff(db, LUIS);
  const fields = {
    problema: 'No imprime la factura con NCF',
    nombre: 'José Núñez',
    telefono: '809-555-0101',
    email: 'jose@example.com',
    rnc: '131-00000-1',
  };
  const incident = await createIncident(db, fields, { brand, staffInbox: STAFF_INBOX, now: at(0) });
  const confirmation = await db
    .selectFrom('mailOutbox')
    .select('textBody')
    .where('kind', '=', 'incident.confirmation')
    .executeTakeFirstOrThrow();
  const token = TOKEN_IN_LINK.exec(confirmation.textBody)![1]!;
  await assignIncident(
    db,
    { incidentId: incident.id, assigneeId: LUIS.id, actor: ANA, brand, staffEmails: [ANA.email, LUIS.email] },
    at(1),
  );
  await replyToCustomer(
    db,
    { incidentId: incident.id, author: LUIS, body: 'Reinstale el controlador.', brand },
    at(2),
  );
  await addNote(db, { incidentId: incident.id, author: ANA, body: 'Tiene contrato de soporte.' }, at(3));
  await setIncidentState(db, { id: incident.id, estado: 'Resuelto', actor: LUIS.email }, at(4));
  await answerFromCustomer(
    db,
    {
      token,
      body: 'Sigue sin imprimir.',
      brand,
      staffInbox: STAFF_INBOX,
      staffEmails: [ANA.email, LUIS.email],
    },
    at(5),
  );

  const { client } = await createClient(db, CLIENT, at(0), audit(ANA));
  const edit = { ...CLIENT, telefono: '8295550199', tipoProyecto: 'Implementación Tiendao' };
  expect((await updateClient(db, client.id, edit, 1, audit(ANA), at(1))).kind).toBe('saved');
  await setClientState(db, client.id, 'en curso', audit(LUIS), at(2));
  await addClientNote(db, client.id, 'Prefiere llamadas por la tarde.', audit(ANA), at(3));
  await markWelcomeSent(db, client.id, audit(ANA), at(4));
  const kept = await scheduleMeeting(
    db,
    { clientId: client.id, organizer: ANA, meeting: meeting('2026-12-01', '10:30'), brand },
    at(5),
  );
  const dropped = await scheduleMeeting(
    db,
    { clientId: client.id, organizer: LUIS, meeting: meeting('2026-12-02', '09:00'), brand },
    at(6),
  );
  if (kept.kind !== 'sent' || dropped.kind !== 'sent') throw new Error('La reunión no se envió');
  await cancelMeeting(db, { clientId: client.id, meetingId: dropped.meeting.id, staff: ANA, brand }, at(7));
  await setClientArchived(db, client.id, true, audit(LUIS), at(8));

  const options = { brand, staffInbox: STAFF_INBOX };
  const handled = await saveContactMessage(
    db,
    { name: 'Pedro Núñez', email: 'pedro@cliente.example', message: 'Necesito una cotización.' },
    { ...options, now: at(0) },
  );
  await saveContactMessage(
    db,
    { name: 'Rosa Díaz', email: 'rosa@cliente.example', message: '¿Tienen soporte los sábados?' },
    { ...options, now: at(1) },
  );
  await setMessageHandled(db, { id: handled.id, handled: true, actor: audit(LUIS) }, at(2));
  return { token, numeroIncidencia: incident.numeroIncidencia };
}

const withoutStamp = ({ exportedAt: _stamp, ...data }: ExportData) => data;

/** The tables `npm run data` moves. */
const MOVED_TABLES = [
  'incidents',
  'incidentEvents',
  'incidentEntries',
  'incidentAssignments',
  'incidentTokens',
  'clients',
  'clientEvents',
  'clientMeetings',
  'incidentClockAlerts',
  'contactMessages',
] as const;
/** Columns that hold a staff account's id (compared on their own: each database has its accounts). */
const STAFF_ID_COLUMNS = new Set([
  'assignedTo',
  'authorId',
  'assigneeId',
  'assignedById',
  'actorId',
  'organizerId',
  'handledById',
]);
/** 0/1 on SQLite. */
const BOOLEAN_COLUMNS = new Set([
  'customerWaiting',
  'staffNoticePending',
  'correoBienvenidaEnviado',
  'unverified',
  'clockStarted',
  'firstReplyMet',
  'resolutionMet',
]);

/**
 * Every row of the moved tables, read from the database itself (not through the export), without
 * the ids each database gives (own and parent ids, staff ids), in a stable order.
 */
async function snapshot(db: Db): Promise<Record<string, Array<Record<string, unknown>>>> {
  const tables: Record<string, Array<Record<string, unknown>>> = {};
  for (const table of MOVED_TABLES) {
    const rows: Array<Record<string, unknown>> = await db.selectFrom(table).selectAll().execute();
    tables[table] = rows
      .map((row) =>
        Object.fromEntries(
          Object.entries(row)
            .filter(
              ([column]) =>
                !['id', 'incidentId', 'clientId'].includes(column) && !STAFF_ID_COLUMNS.has(column),
            )
            .map(([column, value]) => [column, BOOLEAN_COLUMNS.has(column) ? Boolean(value) : value]),
        ),
      )
      .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  }
  return tables;
}

/** How many rows each moved table holds. */
async function rowCounts(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of MOVED_TABLES) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.total);
  }
  return counts;
}

/** The per-state counts kept by the triggers of migration 0020, and the same counted from the table. */
async function stateCounts(db: Db) {
  const kept = await db.selectFrom('incidentStateCounts').select(['estado', 'total']).execute();
  const counted = await db
    .selectFrom('incidents')
    .select((eb) => ['estado', eb.fn.countAll<number | string>().as('total')])
    .groupBy('estado')
    .execute();
  const asMap = (rows: Array<{ estado: string; total: number | string }>) =>
    Object.fromEntries(
      rows.filter((row) => Number(row.total) !== 0).map((row) => [row.estado, Number(row.total)]),
    );
  return { kept: asMap(kept), counted: asMap(counted) };
}

/** An export as written before the support desk and the CRM: none of the fields added since. */
function oldFormat(data: ExportData) {
  return {
    exportedAt: data.exportedAt,
    incidents: data.incidents.map(
      ({
        assignedToEmail: _assignee,
        lastActivityAt: _activity,
        customerWaiting: _waiting,
        entries: _entries,
        assignments: _assignments,
        tokens: _tokens,
        ...incident
      }) => incident,
    ),
    clients: data.clients.map(
      ({ archivedAt: _archived, events: _events, meetings: _meetings, ...client }) => client,
    ),
    contactMessages: data.contactMessages.map(
      ({ handledAt: _handled, handledByEmail: _handledBy, ...message }) => message,
    ),
  };
}

describeEachEngine('moving the support desk and the CRM', (database) => {
  it('exports the conversation, assignments, tokens, client timeline, meetings and handled state', async () => {
    const { db } = database();
    await seedEverything(db);
    const data = await exportData(db);

    expect(data.incidents).toHaveLength(1);
    const incident = data.incidents[0]!;
    expect(incident).toMatchObject({
      estado: 'En Proceso',
      assignedToEmail: LUIS.email,
      lastActivityAt: iso(5),
      customerWaiting: true,
      entries: [
        { kind: 'reply', authorEmail: LUIS.email, body: 'Reinstale el controlador.', createdAt: iso(2) },
        { kind: 'note', authorEmail: ANA.email, body: 'Tiene contrato de soporte.', createdAt: iso(3) },
        { kind: 'answer', authorEmail: null, body: 'Sigue sin imprimir.', createdAt: iso(5) },
      ],
      assignments: [{ assigneeEmail: LUIS.email, assignedByEmail: ANA.email, createdAt: iso(1) }],
    });
    expect(incident.historial.map((entry) => entry.actor)).toEqual([null, LUIS.email, REOPENED_BY_CUSTOMER]);
    // The confirmation's link and the reply's.
    expect(incident.tokens.map((token) => token.createdAt)).toEqual([iso(0), iso(2)]);
    for (const token of incident.tokens) expect(token.tokenHash).toMatch(/^[0-9a-f]{64}$/);

    expect(data.clients).toHaveLength(1);
    const client = data.clients[0]!;
    expect(client).toMatchObject({
      telefono: '+1 829-555-0199',
      estadoProyecto: 'en curso',
      correoBienvenidaEnviado: true,
      archivedAt: iso(8),
    });
    expect(client.events.map(({ kind, actorEmail, createdAt }) => [kind, actorEmail, createdAt])).toEqual([
      ['created', ANA.email, iso(0)],
      ['edited', ANA.email, iso(1)],
      ['edited', ANA.email, iso(1)],
      ['state', LUIS.email, iso(2)],
      ['note', ANA.email, iso(3)],
      ['welcome', ANA.email, iso(4)],
      ['archived', LUIS.email, iso(8)],
    ]);
    expect(JSON.parse(client.events[1]!.detail!)).toEqual({
      field: 'telefono',
      from: '+1 809-555-0142',
      to: '+1 829-555-0199',
    });
    expect(client.events[4]!.detail).toBe('Prefiere llamadas por la tarde.');
    expect(client.meetings).toMatchObject([
      {
        organizerEmail: ANA.email,
        organizerName: ANA.name,
        durationMinutes: 60,
        sequence: 0,
        cancelledAt: null,
        cancelledBy: null,
      },
      {
        organizerEmail: LUIS.email,
        organizerName: LUIS.name,
        sequence: 1,
        cancelledAt: iso(7),
        cancelledBy: ANA.email,
      },
    ]);
    expect(client.meetings[0]!.uid).toMatch(/@vertice\.example$/);

    expect(data.contactMessages).toMatchObject([
      { name: 'Pedro Núñez', handledAt: iso(2), handledByEmail: LUIS.email },
      { name: 'Rosa Díaz', handledAt: null, handledByEmail: null },
    ]);
  });

  it.skipIf(!postgresAvailable)(
    'moves everything to the other engine: the same export back, staff mapped by e-mail, links working',
    async () => {
      const { db, engine } = database();
      const { token, numeroIncidencia } = await seedEverything(db);
      const first = await exportData(db);
      const target = await createTestDatabase(engine === 'sqlite' ? 'postgres' : 'sqlite');
      try {
        const to = target.db;
        // The same people, with accounts of their own in the target database.
        await addStaff(to, { ...ANA, id: 'target-ana' });
        await addStaff(to, { ...LUIS, id: 'target-luis' });
        const file: unknown = JSON.parse(JSON.stringify(first));
        expect(await importData(to, file)).toEqual({
          incidents: { imported: 1, skipped: 0, invalid: 0 },
          clients: { imported: 1, skipped: 0, invalid: 0 },
          contactMessages: { imported: 2, skipped: 0, invalid: 0 },
          inboundMessages: { imported: 0, skipped: 0, invalid: 0 },
          savedReplies: { imported: 0, skipped: 0, invalid: 0 },
          articles: { imported: 0, skipped: 0, invalid: 0 },
          announcements: { imported: 0, skipped: 0, invalid: 0 },
          clientLogos: { imported: 0, skipped: 0, invalid: 0 },
        });

        const second = await exportData(to);
        expect(withoutStamp(second)).toEqual(withoutStamp(first));
        // Read from the tables themselves: what the export leaves out shows here too.
        expect(await snapshot(to)).toEqual(await snapshot(db));

        // Staff ids are the target's accounts.
        const incident = await to.selectFrom('incidents').selectAll().executeTakeFirstOrThrow();
        expect(incident.assignedTo).toBe('target-luis');
        const entries = await to.selectFrom('incidentEntries').select('authorId').orderBy('id').execute();
        expect(entries.map((entry) => entry.authorId)).toEqual(['target-luis', 'target-ana', null]);
        expect(
          await to.selectFrom('incidentAssignments').select(['assigneeId', 'assignedById']).execute(),
        ).toEqual([{ assigneeId: 'target-luis', assignedById: 'target-ana' }]);
        const actors = await to.selectFrom('clientEvents').select('actorId').orderBy('id').execute();
        expect(new Set(actors.map((event) => event.actorId))).toEqual(new Set(['target-ana', 'target-luis']));
        const organizers = await to
          .selectFrom('clientMeetings')
          .select('organizerId')
          .orderBy('id')
          .execute();
        expect(organizers.map((row) => row.organizerId)).toEqual(['target-ana', 'target-luis']);
        const handled = await to
          .selectFrom('contactMessages')
          .select('handledById')
          .orderBy('createdAt')
          .execute();
        expect(handled.map((row) => row.handledById)).toEqual(['target-luis', null]);

        // Derived data as the site keeps it.
        const sourceIncident = await db.selectFrom('incidents').selectAll().executeTakeFirstOrThrow();
        expect(incident.resolvedAt).toBe(iso(4));
        expect(incident.resolvedAt).toBe(sourceIncident.resolvedAt);
        expect(Boolean(incident.customerWaiting)).toBe(true);
        const version = async (from: Db) =>
          Number((await from.selectFrom('clients').select('version').executeTakeFirstOrThrow()).version);
        expect(await version(to)).toBe(2);
        expect(await version(to)).toBe(await version(db));
        const counts = await stateCounts(to);
        expect(counts.kept).toEqual(counts.counted);
        expect(counts.kept).toEqual({ 'En Proceso': 1 });

        // The visitor's link from the first mail still opens the incident.
        expect((await followUpByToken(to, token))?.numeroIncidencia).toBe(numeroIncidencia);

        // The same file again: nothing new, nested rows included.
        const before = await rowCounts(to);
        expect(await importData(to, file)).toEqual({
          incidents: { imported: 0, skipped: 1, invalid: 0 },
          clients: { imported: 0, skipped: 1, invalid: 0 },
          contactMessages: { imported: 0, skipped: 2, invalid: 0 },
          inboundMessages: { imported: 0, skipped: 0, invalid: 0 },
          savedReplies: { imported: 0, skipped: 0, invalid: 0 },
          articles: { imported: 0, skipped: 0, invalid: 0 },
          announcements: { imported: 0, skipped: 0, invalid: 0 },
          clientLogos: { imported: 0, skipped: 0, invalid: 0 },
        });
        expect(await rowCounts(to)).toEqual(before);
      } finally {
        await target.cleanup();
      }
    },
  );

  it('keeps the e-mails of staff without an account in the target, and leaves the incident unassigned', async () => {
    const { db, engine } = database();
    await seedEverything(db);
    const first = await exportData(db);
    const target = await createTestDatabase(engine);
    try {
      const to = target.db;
      await importData(to, JSON.parse(JSON.stringify(first)));
      const incident = await to.selectFrom('incidents').selectAll().executeTakeFirstOrThrow();
      expect(incident.assignedTo ?? null).toBeNull();
      expect(
        await to
          .selectFrom('incidentAssignments')
          .select(['assigneeId', 'assigneeEmail', 'assignedById', 'assignedByEmail'])
          .execute(),
      ).toEqual([
        { assigneeId: null, assigneeEmail: LUIS.email, assignedById: '', assignedByEmail: ANA.email },
      ]);
      const entries = await to
        .selectFrom('incidentEntries')
        .select(['authorId', 'authorEmail'])
        .orderBy('id')
        .execute();
      expect(entries).toEqual([
        { authorId: null, authorEmail: LUIS.email },
        { authorId: null, authorEmail: ANA.email },
        { authorId: null, authorEmail: null },
      ]);
      const organizers = await to
        .selectFrom('clientMeetings')
        .select(['organizerId', 'organizerEmail'])
        .orderBy('id')
        .execute();
      expect(organizers).toEqual([
        { organizerId: '', organizerEmail: ANA.email },
        { organizerId: '', organizerEmail: LUIS.email },
      ]);
      const second = await exportData(to);
      expect(second.incidents[0]!.assignedToEmail).toBeNull();
      // Everything else reads the same.
      const {
        incidents: [moved],
        ...rest
      } = withoutStamp(second);
      const {
        incidents: [original],
        ...originalRest
      } = withoutStamp(first);
      expect(moved).toEqual({ ...original, assignedToEmail: null });
      expect(rest).toEqual(originalRest);
    } finally {
      await target.cleanup();
    }
  });

  it('keeps no nested row of an import that fails after its parent', async () => {
    const { db, engine } = database();
    await seedEverything(db);
    const file: unknown = JSON.parse(JSON.stringify(await exportData(db)));
    const target = await createTestDatabase(engine);
    try {
      const empty = await rowCounts(target.db);
      await expect(
        importData(target.db, file, {
          // After the incident and the client, with everything nested in them.
          onProgress: (done) => {
            if (done === 2) throw new Error('interrumpido');
          },
        }),
      ).rejects.toThrow('interrumpido');
      expect(await rowCounts(target.db)).toEqual(empty);
    } finally {
      await target.cleanup();
    }
  });

  it('still imports an export written before the support desk and the CRM', async () => {
    const { db, engine } = database();
    await seedEverything(db);
    const old = oldFormat(await exportData(db));
    const target = await createTestDatabase(engine);
    try {
      const to = target.db;
      expect(await importData(to, JSON.parse(JSON.stringify(old)))).toEqual({
        incidents: { imported: 1, skipped: 0, invalid: 0 },
        clients: { imported: 1, skipped: 0, invalid: 0 },
        contactMessages: { imported: 2, skipped: 0, invalid: 0 },
        inboundMessages: { imported: 0, skipped: 0, invalid: 0 },
        savedReplies: { imported: 0, skipped: 0, invalid: 0 },
        articles: { imported: 0, skipped: 0, invalid: 0 },
        announcements: { imported: 0, skipped: 0, invalid: 0 },
        clientLogos: { imported: 0, skipped: 0, invalid: 0 },
      });
      const incident = await to.selectFrom('incidents').selectAll().executeTakeFirstOrThrow();
      // Its last activity is the newest history entry; the rest is as an incident without conversation.
      expect(incident).toMatchObject({ estado: 'En Proceso', lastActivityAt: iso(5), resolvedAt: iso(4) });
      expect(incident.assignedTo ?? null).toBeNull();
      expect(Boolean(incident.customerWaiting)).toBe(false);
      const events = await to.selectFrom('clientEvents').select(['kind', 'createdAt']).execute();
      expect(events).toEqual([{ kind: 'created', createdAt: old.clients[0]!.fechaRegistro }]);
      const client = await to
        .selectFrom('clients')
        .select(['version', 'archivedAt'])
        .executeTakeFirstOrThrow();
      expect({ version: Number(client.version), archivedAt: client.archivedAt ?? null }).toEqual({
        version: 1,
        archivedAt: null,
      });
      const messages = await to.selectFrom('contactMessages').select('handledAt').execute();
      expect(messages.map((row) => row.handledAt ?? null)).toEqual([null, null]);
      const counts = await stateCounts(to);
      expect(counts.kept).toEqual(counts.counted);
      // And the full export over it adds nothing: the records are already there.
      expect((await importData(to, JSON.parse(JSON.stringify(await exportData(db))))).incidents).toEqual({
        imported: 0,
        skipped: 1,
        invalid: 0,
      });
    } finally {
      await target.cleanup();
    }
  });
});

describe('npm run data (command line)', () => {
  // Four runs of the script, each a Node process loading the server's modules: about 30 s on a loaded 2-core machine.
  it('exports, then imports the export into another database idempotently', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vertice-data-'));
    try {
      const source = join(dir, 'a.db');
      const target = join(dir, 'b.db');
      const file = join(dir, 'original.json');
      writeFileSync(file, JSON.stringify(original));
      const run = (database: string, ...args: string[]) =>
        execFileSync(process.execPath, ['scripts/data.ts', ...args], {
          cwd: ROOT,
          env: { ...process.env, DATABASE_URL: database, LOG_LEVEL: 'silent' },
          encoding: 'utf8',
        });
      const imported = run(source, 'import', file);
      expect(imported).toMatch(/Incidencias\s+2\s+0\s+3/);
      // Each record left out, with its reason.
      expect(imported).toContain('- Incidencias: INC-2025-1: el número no tiene la forma INC-AAAAMMDD-NNNN.');
      expect(imported).toContain('- Incidencias: INC-20250312-2000: el estado «Cerrado» no existe.');
      expect(imported).toContain('- Incidencias: INC-20250312-3000: la fecha falta o no es una fecha.');
      expect(imported).toContain('- Clientes: (sin razón social): falta la razón social.');
      expect(run(source, 'export', join(dir, 'out'))).toMatch(/Exportados 2 incidencias, 1 clientes/);
      const exported = join(dir, 'out', 'export.json');
      expect(readFileSync(join(dir, 'out', 'incidents.csv'), 'utf8')).toContain('INC-20250310-4821');
      expect(run(target, 'import', exported)).toMatch(/Incidencias\s+2\s+0\s+0/);
      expect(run(target, 'import', exported)).toMatch(/Incidencias\s+0\s+2\s+0/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
