/**
 * Issue 21: the desk hears customers by e-mail, on both engines, through the one inbound path
 * (src/server/channels) with real raw mails (tests/fixtures/inbound): replies to the confirmation, to a
 * state notice and to a staff reply land by each of the rules 1–3; quoted history and signatures are
 * removed; HTML-only mail becomes text; a new sender opens an incident of origin 'Correo' (at most 5 an
 * hour); automatic mail, lists, spam, our own mail and bounces change nothing but what they must; the
 * same mail twice is stored once; the original is kept compressed.
 */
import { gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { ANSWERED_BY_CUSTOMER, REOPENED_BY_CUSTOMER } from '../../src/domain/incidents.ts';
import type { Db } from '../../src/server/db/index.ts';
import { assignIncident } from '../../src/server/incidents/assignment.ts';
import { incidentByNumber, replyToCustomer, staffTimeline } from '../../src/server/incidents/conversation.ts';
import { listIncidents } from '../../src/server/incidents/search.ts';
import { setIncidentState } from '../../src/server/incidents/state.ts';
import { inboundOriginal, originalGzip } from '../../src/server/channels/mail/original.ts';
import { discardRefused } from '../../src/server/channels/refused.ts';
import { NEW_INCIDENTS_PER_SENDER_PER_HOUR } from '../../src/server/channels/intake.ts';
import { receiveMail } from '../../src/server/channels/mail/read.ts';
import { exportData } from '../../src/server/data/export.ts';
import { importData } from '../../src/server/data/import.ts';
import { createTestDatabase, describeEachEngine, postgresAvailable } from '../support/db.ts';
import { insertStaffAccount } from '../support/factories.ts';
import {
  inboundBrand as brand,
  inboundFixture,
  lastCustomerMail,
  openFormIncident,
  STAFF_INBOX,
  testInboundSettings,
  withMessageId,
} from '../support/inbound.ts';

const settings = testInboundSettings(['ana@vertice.example']);
const ana = { id: 'user-ana', email: 'ana@vertice.example', name: 'Ana Pérez' };
const at = (hour: number, minute = 0) => new Date(Date.UTC(2025, 2, 3, hour, minute));

/** An incident opened on the form by María, with its confirmation queued: its reply token and Message-ID. */
const openIncident = (db: Db, email = 'maria@cliente.example') => openFormIncident(db, at(14), { email });

async function snapshot(db: Db) {
  const [incidents, entries, outbox] = await Promise.all([
    db.selectFrom('incidents').select(['id', 'estado', 'customerWaiting']).orderBy('id').execute(),
    db.selectFrom('incidentEntries').select('id').execute(),
    db.selectFrom('mailOutbox').select('id').execute(),
  ]);
  return {
    incidents: incidents.map((row) => ({ ...row, customerWaiting: Boolean(row.customerWaiting) })),
    entries: entries.length,
    outbox: outbox.length,
  };
}

const withoutStamp = ({ exportedAt: _stamp, ...data }: Awaited<ReturnType<typeof exportData>>) => data;

const answers = (db: Db, incidentId: number) =>
  db
    .selectFrom('incidentEntries')
    .selectAll()
    .where('incidentId', '=', incidentId)
    .where('kind', '=', 'answer')
    .orderBy('id')
    .execute();

describeEachEngine('inbound mail', (database) => {
  it('rule 1: a Gmail reply to the confirmation, by its reply address alone, is the customer answer without the quoted history', async () => {
    const { db } = database();
    const incident = await openIncident(db);
    // The thread key names a mail we never sent: only the token matches.
    const raw = inboundFixture('gmail-reply', { token: incident.token, numero: incident.numero });
    const result = await receiveMail(db, raw, settings, at(15));
    expect(result).toMatchObject({
      outcome: 'answer',
      incidentId: incident.id,
      numeroIncidencia: incident.numero,
    });

    const [answer] = await answers(db, incident.id);
    expect(answer).toMatchObject({ via: 'correo', authorEmail: null, inboundMessageId: result.inboundId });
    expect(Boolean(answer!.unverified)).toBe(false);
    expect(answer!.body).toBe(
      'Hola:\n\nYa reinicié la impresora fiscal y sigue sin imprimir las facturas. En pantalla sale "Error 0x31 - papel atascado", pero no hay papel atascado.\n\nGracias,\nMaría Rodríguez\nFarmacia San Rafael',
    );
    expect(answer!.body).not.toContain('escribió');
    expect(answer!.body).not.toContain('Recibimos tu solicitud');

    const row = await db
      .selectFrom('incidents')
      .select(['customerWaiting', 'estado'])
      .where('id', '=', incident.id)
      .executeTakeFirstOrThrow();
    expect(Boolean(row.customerWaiting)).toBe(true);
    // Nobody assigned: the staff inbox hears it, 'por correo'.
    const notice = await db
      .selectFrom('mailOutbox')
      .selectAll()
      .where('kind', '=', 'incident.answer')
      .executeTakeFirstOrThrow();
    expect(notice.toAddress).toBe(STAFF_INBOX);
    expect(notice.textBody).toContain('respondió por correo');
    expect(notice.textBody).toContain('Ya reinicié la impresora fiscal');

    const timeline = await staffTimeline(db, (await incidentByNumber(db, incident.numero))!);
    expect(timeline.at(-1)).toMatchObject({ kind: 'answer', via: 'correo', original: result.inboundId });
    expect(timeline.at(-1)).not.toHaveProperty('sinVerificar');
  });

  it("a reply by mail to an incident 'Esperando al cliente' sets it back to 'En Proceso' and restarts its clock (issue 22)", async () => {
    const { db } = database();
    const incident = await openIncident(db, 'luis.almonte@ferreteria.example');
    await setIncidentState(
      db,
      { id: incident.id, estado: 'Esperando al cliente', actor: ana.email, notify: brand },
      at(14, 30),
    );
    const paused = await db
      .selectFrom('incidents')
      .select(['clockSince', 'dueAt'])
      .where('id', '=', incident.id)
      .executeTakeFirstOrThrow();
    expect(paused).toEqual({ clockSince: null, dueAt: null });
    const notice = await lastCustomerMail(db, incident.id);
    const raw = inboundFixture('outlook-reply', { messageId: notice.messageId, numero: incident.numero });
    expect(await receiveMail(db, raw, settings, at(15))).toMatchObject({
      outcome: 'answer',
      incidentId: incident.id,
    });
    const resumed = await incidentByNumber(db, incident.numero);
    expect(resumed!.estado).toBe('En Proceso');
    expect(resumed!.historial.at(-1)).toMatchObject({ estado: 'En Proceso', actor: ANSWERED_BY_CUSTOMER });
    const running = await db
      .selectFrom('incidents')
      .select(['clockSince', 'dueAt'])
      .where('id', '=', incident.id)
      .executeTakeFirstOrThrow();
    expect(running.clockSince).toBe(at(15).toISOString());
    expect(running.dueAt).not.toBeNull();
  });

  it('rule 2: an Outlook reply to a state notice, naming only its Message-ID, reopens the resolved incident', async () => {
    const { db } = database();
    const incident = await openIncident(db, 'luis.almonte@ferreteria.example');
    await setIncidentState(
      db,
      { id: incident.id, estado: 'Resuelto', actor: ana.email, notify: brand },
      at(14, 30),
    );
    const notice = await lastCustomerMail(db, incident.id);
    expect(notice.messageId).not.toBe(incident.messageId);
    const raw = inboundFixture('outlook-reply', { messageId: notice.messageId, numero: incident.numero });
    const result = await receiveMail(db, raw, settings, at(15));
    expect(result).toMatchObject({ outcome: 'answer', incidentId: incident.id });

    const [answer] = await answers(db, incident.id);
    expect(answer!.body).toBe(
      'Buenos días,\n\nLes confirmo que el cierre de caja ya cuadra después de la actualización. Solo queda pendiente el reporte 606 para la DGII.\n\nSaludos cordiales,\n\nLuis Almonte\nEncargado de Administración | Ferretería El Progreso\nTel. 809-555-0188',
    );
    const reopened = await incidentByNumber(db, incident.numero);
    expect(reopened!.estado).toBe('En Proceso');
    expect(reopened!.historial.at(-1)).toMatchObject({ estado: 'En Proceso', actor: REOPENED_BY_CUSTOMER });
    const staffNotice = await db
      .selectFrom('mailOutbox')
      .selectAll()
      .where('kind', '=', 'incident.answer')
      .executeTakeFirstOrThrow();
    expect(staffNotice.textBody).toContain('reabierta por el cliente');
  });

  it('an HTML-only reply to a staff reply becomes text: no markup, no link targets, no quoted block', async () => {
    const { db } = database();
    const incident = await openIncident(db, 'luis.almonte@ferreteria.example');
    await replyToCustomer(
      db,
      {
        incidentId: incident.id,
        author: ana,
        body: 'Ya revisamos la impresora. ¿Podemos pasar mañana?',
        brand,
      },
      at(14, 10),
    );
    const reply = await lastCustomerMail(db, incident.id);
    const result = await receiveMail(db, inboundFixture('html-only', { ...reply }), settings, at(15));
    expect(result.outcome).toBe('answer');
    const [answer] = await answers(db, incident.id);
    expect(answer!.body).toBe(
      'Perfecto, mañana a las 9 les espero en la tienda.\n\nTraigan el manual del lector, por favor.',
    );
  });

  it('rule 3: the number in the subject and the incident e-mail as sender join it unverified: no state change, only the assignee told', async () => {
    const { db } = database();
    const incident = await openIncident(db);
    await setIncidentState(db, { id: incident.id, estado: 'Resuelto', actor: ana.email }, at(14, 20));
    const before = await snapshot(db);
    const result = await receiveMail(
      db,
      inboundFixture('subject-only', { numero: incident.numero }),
      settings,
      at(15),
    );
    expect(result).toMatchObject({ outcome: 'unverified', incidentId: incident.id });
    const [answer] = await answers(db, incident.id);
    expect(Boolean(answer!.unverified)).toBe(true);
    expect(answer!.body).toContain('hoy volvió a fallar');
    const after = await snapshot(db);
    // Resolved it stays, without the 'Respuesta del cliente' mark, and no mail: nobody is assigned.
    expect(after.incidents).toEqual(before.incidents);
    expect(after.outbox).toBe(before.outbox);
    const timeline = await staffTimeline(db, (await incidentByNumber(db, incident.numero))!);
    expect(timeline.at(-1)).toMatchObject({ kind: 'answer', via: 'correo', sinVerificar: true });

    // Assigned: the assignee alone hears of the next one.
    await insertStaffAccount(db, ana);
    await assignIncident(
      db,
      { incidentId: incident.id, assigneeId: ana.id, actor: ana, brand, staffEmails: [ana.email] },
      at(15, 5),
    );
    const second = withMessageId(
      inboundFixture('subject-only', { numero: incident.numero }),
      'otra-vez@cliente.example',
    );
    expect((await receiveMail(db, second, settings, at(15, 10))).outcome).toBe('unverified');
    const notices = await db
      .selectFrom('mailOutbox')
      .selectAll()
      .where('kind', '=', 'incident.answer')
      .execute();
    expect(notices.map((mail) => mail.toAddress)).toEqual([ana.email]);
    expect(notices[0]!.textBody).toContain('remitente sin verificar');
    expect((await incidentByNumber(db, incident.numero))!.estado).toBe('Resuelto');
  });

  it('rule 3 needs the sender to be the incident e-mail: another sender with the number opens an incident of its own', async () => {
    const { db } = database();
    const incident = await openIncident(db, 'otra@cliente.example');
    const result = await receiveMail(
      db,
      inboundFixture('subject-only', { numero: incident.numero }),
      settings,
      at(15),
    );
    expect(result.outcome).toBe('new-incident');
    expect(result.incidentId).not.toBe(incident.id);
    expect(await answers(db, incident.id)).toEqual([]);
  });

  it('a mail from a new sender opens an incident of origin Correo, confirmed in its thread, at most 5 an hour per sender', async () => {
    const { db } = database();
    const raw = inboundFixture('new-incident');
    const result = await receiveMail(db, raw, settings, at(9));
    expect(result.outcome).toBe('new-incident');
    const incident = await db
      .selectFrom('incidents')
      .selectAll()
      .where('id', '=', result.incidentId!)
      .executeTakeFirstOrThrow();
    expect(incident).toMatchObject({
      origen: 'Correo',
      nombre: 'Carmen Peralta',
      email: 'carmen@panaderia.example',
      telefono: '',
      rnc: '',
      estado: 'Registrado',
    });
    expect(incident.problema).toBe(
      'No puedo entrar a Restaurant.pe\n\nBuenos días:\n\nDesde esta mañana el sistema de Restaurant.pe me dice "usuario bloqueado"\ncuando intento abrir la caja. Ya probé con otra computadora y pasa lo mismo.\n\n¿Me pueden ayudar? Abrimos a las 11.',
    );
    const confirmation = await db
      .selectFrom('mailOutbox')
      .selectAll()
      .where('kind', '=', 'incident.confirmation')
      .executeTakeFirstOrThrow();
    expect(confirmation.toAddress).toBe('carmen@panaderia.example');
    expect(confirmation.replyTo).toMatch(/^soporte\+[0-9a-f]{32}@vertice\.example$/);
    const customerId = 'CAH7uXq4Zr9t1nE0bQf2W3vX5yZ6aB7cD8eF9gH0iJ1kL2mN3oP@mail.gmail.com';
    expect(JSON.parse(confirmation.headers!)).toEqual({
      'Auto-Submitted': 'auto-replied',
      'In-Reply-To': `<${customerId}>`,
      References: `<${customerId}>`,
    });
    expect(
      await db.selectFrom('mailOutbox').select('id').where('kind', '=', 'incident.staff-notice').execute(),
    ).toHaveLength(1);

    for (let index = 2; index <= NEW_INCIDENTS_PER_SENDER_PER_HOUR; index += 1)
      expect(
        (
          await receiveMail(
            db,
            withMessageId(raw, `nueva-${index}@panaderia.example`),
            settings,
            at(9, index),
          )
        ).outcome,
      ).toBe('new-incident');
    const refused = await receiveMail(
      db,
      withMessageId(raw, 'nueva-6@panaderia.example'),
      settings,
      at(9, 30),
    );
    expect(refused).toMatchObject({ outcome: 'rejected', reason: 'rate-limit' });
    expect(
      await db.selectFrom('incidents').select('id').where('origen', '=', 'Correo').execute(),
    ).toHaveLength(5);
    // An hour later the sender may open one again.
    expect(
      (await receiveMail(db, withMessageId(raw, 'nueva-7@panaderia.example'), settings, at(10, 1))).outcome,
    ).toBe('new-incident');
  });

  it.each([
    ['out-of-office', 'ignored', 'auto-submitted'],
    ['mailing-list', 'ignored', 'precedence'],
    ['spam', 'rejected', 'spam'],
  ] as const)('%s changes nothing (%s: %s)', async (fixture, outcome, reason) => {
    const { db } = database();
    const incident = await openIncident(db);
    const before = await snapshot(db);
    const result = await receiveMail(db, inboundFixture(fixture, incident), settings, at(15));
    expect(result).toMatchObject({ outcome, reason });
    expect(await snapshot(db)).toEqual(before);
    expect(await db.selectFrom('inboundMessages').select(['outcome', 'reason']).execute()).toEqual([
      { outcome, reason },
    ]);
  });

  it('a List-Id alone, X-Autoreply, X-Auto-Response-Suppress: All or OOF, our own addresses and mailer-daemon change nothing either', async () => {
    const { db } = database();
    const incident = await openIncident(db);
    const gmail = inboundFixture('gmail-reply', incident).toString('utf8');
    const variants: Array<[string, string, string]> = [
      [
        'list-id',
        gmail.replace(
          'MIME-Version: 1.0\r\n',
          'MIME-Version: 1.0\r\nList-Id: <clientes.cliente.example>\r\n',
        ),
        'list-id',
      ],
      [
        'x-autoreply',
        gmail.replace('MIME-Version: 1.0\r\n', 'MIME-Version: 1.0\r\nX-Autoreply: yes\r\n'),
        'x-autoreply',
      ],
      [
        'x-autorespond',
        gmail.replace('MIME-Version: 1.0\r\n', 'MIME-Version: 1.0\r\nX-Autorespond: yes\r\n'),
        'x-autorespond',
      ],
      // Outlook's out-of-office reply marks itself only so (issue 38; Zammad's filter reads it too).
      [
        'x-auto-response-suppress-all',
        gmail.replace('MIME-Version: 1.0\r\n', 'MIME-Version: 1.0\r\nX-Auto-Response-Suppress: All\r\n'),
        'x-auto-response-suppress',
      ],
      [
        'x-auto-response-suppress-oof',
        gmail.replace(
          'MIME-Version: 1.0\r\n',
          'MIME-Version: 1.0\r\nX-Auto-Response-Suppress: DR, OOF, AutoReply\r\n',
        ),
        'x-auto-response-suppress',
      ],
      [
        'from-no-reply',
        gmail.replace(/^From: .*$/m, 'From: Vértice Consultores <no-reply@vertice.example>'),
        'own-address',
      ],
      ['from-staff-inbox', gmail.replace(/^From: .*$/m, `From: Equipo <${STAFF_INBOX}>`), 'own-address'],
      [
        'from-plus-address',
        gmail.replace(/^From: .*$/m, `From: <soporte+${incident.token}@vertice.example>`),
        'own-address',
      ],
      ['from-postmaster', gmail.replace(/^From: .*$/m, 'From: postmaster@cliente.example'), 'mailer-daemon'],
    ];
    const before = await snapshot(db);
    for (const [name, text, reason] of variants) {
      const result = await receiveMail(
        db,
        withMessageId(Buffer.from(text), `${name}@cliente.example`),
        settings,
        at(15),
      );
      expect({ name, ...result }).toMatchObject({ name, outcome: 'ignored', reason });
    }
    expect(await snapshot(db)).toEqual(before);
    // Auto-Submitted: no is a person's mail, and so is one asking only for no read receipts.
    const person = gmail.replace('MIME-Version: 1.0\r\n', 'MIME-Version: 1.0\r\nAuto-Submitted: no\r\n');
    expect((await receiveMail(db, Buffer.from(person), settings, at(16))).outcome).toBe('answer');
    const receipts = gmail.replace(
      'MIME-Version: 1.0\r\n',
      'MIME-Version: 1.0\r\nX-Auto-Response-Suppress: RN, NRN\r\n',
    );
    expect(
      (await receiveMail(db, withMessageId(Buffer.from(receipts), 'acuse@cliente.example'), settings, at(16)))
        .outcome,
    ).toBe('answer');
  });

  it('a bounce marks our mail rebotado and the timeline says so, and changes nothing else', async () => {
    const { db } = database();
    const incident = await openIncident(db);
    const before = await snapshot(db);
    const result = await receiveMail(db, inboundFixture('bounce', incident), settings, at(14, 1));
    expect(result).toMatchObject({ outcome: 'bounce', incidentId: incident.id });
    const mail = await db
      .selectFrom('incidentMails')
      .selectAll()
      .where('messageId', '=', incident.messageId)
      .executeTakeFirstOrThrow();
    expect(mail.bouncedAt).toBeTruthy();
    const after = await snapshot(db);
    expect(after.entries).toBe(before.entries);
    expect(after.outbox).toBe(before.outbox);
    expect(after.incidents).toEqual(before.incidents);
    const timeline = await staffTimeline(db, (await incidentByNumber(db, incident.numero))!);
    expect(timeline.filter((entry) => entry.kind === 'bounce')).toEqual([
      { kind: 'bounce', fecha: at(14, 1).toISOString(), autor: null },
    ]);

    // A report of a mail we never sent is only recorded.
    const unknown = withMessageId(
      inboundFixture('bounce', { ...incident, messageId: 'ajeno@otro.example' }),
      'otro-rebote@mx.vertice.example',
    );
    expect(await receiveMail(db, unknown, settings, at(14, 2))).toMatchObject({
      outcome: 'ignored',
      reason: 'report-unknown',
    });
  });

  it('the same mail delivered twice is stored and acted on once; without a Message-ID, by the hash of its bytes', async () => {
    const { db } = database();
    const incident = await openIncident(db);
    const raw = inboundFixture('gmail-reply', incident);
    expect((await receiveMail(db, raw, settings, at(15))).outcome).toBe('answer');
    expect(await receiveMail(db, raw, settings, at(15, 1))).toMatchObject({
      outcome: 'duplicate',
      firstOutcome: 'answer',
    });
    expect(await answers(db, incident.id)).toHaveLength(1);

    const anonymous = withMessageId(raw, null);
    expect((await receiveMail(db, anonymous, settings, at(15, 2))).outcome).toBe('answer');
    expect(await receiveMail(db, anonymous, settings, at(15, 3))).toMatchObject({
      outcome: 'duplicate',
      firstOutcome: 'answer',
    });
    expect(await answers(db, incident.id)).toHaveLength(2);
    const stored = await db.selectFrom('inboundMessages').select('dedupKey').orderBy('id').execute();
    expect(stored.map((row) => row.dedupKey)).toEqual([
      'message-id:CAJx8sN0fXq2+Vd1yH3kP_u7wQm9LzR4oT5bE6cA1dG2hF3iJ4k@mail.gmail.com',
      expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    ]);
  });

  it('keeps the original compressed, for Ver original', async () => {
    const { db } = database();
    const incident = await openIncident(db);
    const raw = inboundFixture('gmail-reply', incident);
    const { inboundId } = await receiveMail(db, raw, settings, at(15));
    const gzip = await originalGzip(db, inboundId!);
    expect(gzip!.length).toBeLessThan(raw.length);
    expect(Buffer.from(gunzipSync(gzip!)).equals(raw)).toBe(true);
    expect(await inboundOriginal(db, inboundId!)).toBe(raw.toString('utf8'));
    expect(await inboundOriginal(db, inboundId! + 1000)).toBeNull();
  });

  it('the staff list shows and filters the origin, with and without a text filter', async () => {
    const { db } = database();
    const form = await openIncident(db, 'carmen@panaderia.example');
    const mailed = await receiveMail(db, inboundFixture('new-incident'), settings, at(15));
    const numbers = async (filters: Parameters<typeof listIncidents>[1]) =>
      (await listIncidents(db, filters)).items.map((item) => [item.numeroIncidencia, item.origen]);
    expect(await numbers({})).toEqual([
      [mailed.numeroIncidencia, 'Correo'],
      [form.numero, 'Formulario'],
    ]);
    expect(await numbers({ origen: 'Correo' })).toEqual([[mailed.numeroIncidencia, 'Correo']]);
    expect(await numbers({ origen: 'Formulario' })).toEqual([[form.numero, 'Formulario']]);
    // Both names hold an «r»: the text filter alone finds both.
    expect(await numbers({ nombre: 'r' })).toHaveLength(2);
    expect(await numbers({ origen: 'Formulario', nombre: 'r' })).toEqual([[form.numero, 'Formulario']]);
    expect(await numbers({ origen: 'Correo', nombre: 'r' })).toEqual([[mailed.numeroIncidencia, 'Correo']]);
    expect((await incidentByNumber(db, mailed.numeroIncidencia!))!.origen).toBe('Correo');
  });

  it('npm run data moves the origin and how each answer came', async () => {
    const { db, engine } = database();
    const incident = await openIncident(db);
    await receiveMail(db, inboundFixture('gmail-reply', incident), settings, at(15));
    await receiveMail(db, inboundFixture('subject-only', { numero: incident.numero }), settings, at(15, 5));
    const mailed = await receiveMail(db, inboundFixture('new-incident'), settings, at(15, 10));
    const exported = await exportData(db);
    const target = await createTestDatabase(engine);
    try {
      await importData(target.db, JSON.parse(JSON.stringify(exported)));
      const origins = await target.db
        .selectFrom('incidents')
        .select(['numeroIncidencia', 'origen'])
        .orderBy('numeroIncidencia')
        .execute();
      expect(origins).toHaveLength(2);
      expect(origins).toContainEqual({ numeroIncidencia: incident.numero, origen: 'Formulario' });
      expect(origins).toContainEqual({ numeroIncidencia: mailed.numeroIncidencia, origen: 'Correo' });
      const moved = await target.db
        .selectFrom('incidentEntries')
        .select(['via', 'unverified'])
        .orderBy('createdAt')
        .execute();
      expect(moved.map((entry) => [entry.via, Boolean(entry.unverified)])).toEqual([
        ['correo', false],
        ['correo', true],
      ]);
      expect(withoutStamp(await exportData(target.db))).toEqual(withoutStamp(exported));
    } finally {
      await target.cleanup();
    }
  });
  it('npm run data carries the mails sent and received, both ways between the engines: a reply after the move still lands, a duplicate is still one, Ver original still opens', async () => {
    const { db, engine } = database();
    const incident = await openIncident(db);
    const reply = await receiveMail(db, inboundFixture('gmail-reply', incident), settings, at(15));
    const mailed = await receiveMail(db, inboundFixture('new-incident'), settings, at(15, 10));
    await receiveMail(db, inboundFixture('bounce', { messageId: incident.messageId }), settings, at(15, 20));
    const spam = await receiveMail(db, inboundFixture('spam'), settings, at(15, 30));
    await discardRefused(db, spam.inboundId!, { actorEmail: ana.email, network: '203.0.113.5' }, at(16));
    // The newest mail to María, whose reply address the move must keep working.
    const later = await lastCustomerMail(db, incident.id);
    const exported = await exportData(db);
    expect(exported.inboundMessages).toHaveLength(4);
    expect(exported.inboundMessages![1]).toMatchObject({
      outcome: 'new-incident',
      numeroIncidencia: mailed.numeroIncidencia,
      rawGzipBase64: expect.any(String),
    });
    expect(exported.inboundMessages![3]).toMatchObject({ outcome: 'rejected', reviewedByEmail: ana.email });
    expect(exported.incidents.find((item) => item.numeroIncidencia === incident.numero)!.mails).toEqual([
      expect.objectContaining({ kind: 'incident.confirmation', bouncedAt: at(15, 20).toISOString() }),
    ]);

    for (const other of [engine === 'sqlite' ? 'postgres' : 'sqlite', engine] as const) {
      if (other === 'postgres' && !postgresAvailable) continue;
      const target = await createTestDatabase(other);
      try {
        const file: unknown = JSON.parse(JSON.stringify(exported));
        expect((await importData(target.db, file)).inboundMessages).toEqual({
          imported: 4,
          skipped: 0,
          invalid: 0,
        });
        expect(withoutStamp(await exportData(target.db))).toEqual(withoutStamp(exported));
        // Again: nothing more.
        expect((await importData(target.db, file)).inboundMessages).toEqual({
          imported: 0,
          skipped: 4,
          invalid: 0,
        });

        // 'Ver original' of the answer and of the mail that opened an incident.
        const moved = (await incidentByNumber(target.db, incident.numero))!;
        const answer = (await staffTimeline(target.db, moved)).find((entry) => entry.kind === 'answer');
        expect(answer).toMatchObject({ via: 'correo', original: expect.any(Number) });
        expect(await inboundOriginal(target.db, (answer as { original: number }).original)).toBe(
          inboundFixture('gmail-reply', incident).toString('utf8'),
        );
        const opened = (
          await staffTimeline(target.db, (await incidentByNumber(target.db, mailed.numeroIncidencia!))!)
        )[0];
        expect(opened).toMatchObject({ kind: 'problem', via: 'correo', original: expect.any(Number) });
        expect((await staffTimeline(target.db, moved)).some((entry) => entry.kind === 'bounce')).toBe(true);

        // The same mail delivered after the move is still a duplicate; a reply to the newest mail still
        // finds its incident by its reply address (rule 1).
        expect(
          (await receiveMail(target.db, inboundFixture('gmail-reply', incident), settings, at(17))).outcome,
        ).toBe('duplicate');
        const after = await receiveMail(
          target.db,
          withMessageId(
            inboundFixture('gmail-reply', { token: later.token, numero: later.numero }),
            'despues@gmail.com',
          ),
          settings,
          at(17),
        );
        expect(after).toMatchObject({ outcome: 'answer', numeroIncidencia: incident.numero });
      } finally {
        await target.cleanup();
      }
    }
    expect(reply.outcome).toBe('answer');
  });
});
