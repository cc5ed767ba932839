/**
 * 'Respuestas guardadas' (issue 22) on both engines: the rules of a saved reply (title and text
 * required and limited, a title once, an unknown variable refused by name), the writes with their
 * audit events, the text filled for an incident (the follow-up link a real one, that opens the
 * incident), and the saved replies carried by `npm run data` (export, import, import again).
 */
import { expect, it } from 'vitest';
import {
  appendToReply,
  SAVED_REPLY_BODY_MAX,
  SAVED_REPLY_MESSAGES,
  SAVED_REPLY_TITLE_MAX,
  savedReplyProblems,
  unknownVariables,
} from '../../src/domain/saved-replies.ts';
import { describeEvents, recentEvents } from '../../src/server/audit/index.ts';
import { exportData } from '../../src/server/data/export.ts';
import { importData } from '../../src/server/data/import.ts';
import { incidentIdByToken } from '../../src/server/incidents/follow-up.ts';
import {
  createSavedReply,
  deleteSavedReply,
  editSavedReply,
  fillSavedReplyFor,
  listSavedReplies,
  SavedReplyRefusal,
} from '../../src/server/replies/index.ts';
import { createTestDatabase, describeEachEngine } from '../support/db.ts';
import { insertIncident } from '../support/factories.ts';
import { MAIL_BRAND as brand } from '../support/mail-brand.ts';

const ANA = { actorId: 'user-ana', actorEmail: 'ana@vertice.example', network: '203.0.113.0/24' };
const GREETING =
  'Hola, {nombre}: tu incidencia {numero} está «{estado}». Síguela aquí: {enlace_seguimiento}\n\n{mi_nombre}';

it('checks a saved reply: title and text required and limited, only known variables (each unknown one named)', () => {
  expect(savedReplyProblems({ title: '  ', body: '' })).toEqual({
    titulo: SAVED_REPLY_MESSAGES.titleEmpty,
    texto: SAVED_REPLY_MESSAGES.bodyEmpty,
  });
  expect(savedReplyProblems({ title: 'Uno\ndos', body: 'x' })).toEqual({
    titulo: SAVED_REPLY_MESSAGES.titleControl,
  });
  expect(
    savedReplyProblems({ title: 'ñ'.repeat(SAVED_REPLY_TITLE_MAX), body: 'ñ'.repeat(SAVED_REPLY_BODY_MAX) }),
  ).toEqual({});
  expect(
    savedReplyProblems({
      title: 'ñ'.repeat(SAVED_REPLY_TITLE_MAX + 1),
      body: 'ñ'.repeat(SAVED_REPLY_BODY_MAX + 1),
    }),
  ).toEqual({
    titulo: SAVED_REPLY_MESSAGES.titleLong,
    texto: SAVED_REPLY_MESSAGES.bodyLong,
  });
  expect(savedReplyProblems({ title: 'Saludo', body: GREETING })).toEqual({});
  const refused = savedReplyProblems({
    title: 'Saludo',
    body: 'Hola {cliente}, {Nombre} y {cliente} { } {nombre}',
  });
  expect(unknownVariables('Hola {cliente}, {Nombre} y {cliente}')).toEqual(['cliente', 'Nombre']);
  expect(refused.texto).toBe(SAVED_REPLY_MESSAGES.unknown(['cliente', 'Nombre']));
  expect(refused.texto).toMatch(/^Las variables \{cliente\}, \{Nombre\} no existen\. Puedes usar \{nombre\}/);
  expect(savedReplyProblems({ title: 'x', body: '{telefono}' }).texto).toMatch(
    /^La variable \{telefono\} no existe\./,
  );
  expect(appendToReply('', 'B')).toBe('B');
  expect(appendToReply('A  \n', 'B')).toBe('A\n\nB');
});

describeEachEngine('saved replies', (database) => {
  it('creates, edits and deletes with audit events; refuses a taken title, an unknown variable, one gone', async () => {
    const { db } = database();
    const now = new Date('2025-03-03T14:00:00Z');
    const saludo = await createSavedReply(
      db,
      { title: '  Saludo   inicial ', body: 'Hola, {nombre}.\r\nGracias.' },
      ANA,
      now,
    );
    expect(saludo).toMatchObject({
      title: 'Saludo inicial',
      body: 'Hola, {nombre}.\nGracias.',
      createdBy: ANA.actorEmail,
    });
    await createSavedReply(db, { title: 'Ánimo', body: 'Seguimos en ello.' }, ANA, now);
    expect((await listSavedReplies(db)).map((reply) => reply.title)).toEqual(['Ánimo', 'Saludo inicial']);

    const taken = await createSavedReply(db, { title: 'saludo INICIAL', body: 'x' }, ANA).catch(
      (error: unknown) => error,
    );
    expect(taken).toBeInstanceOf(SavedReplyRefusal);
    expect((taken as SavedReplyRefusal).errors).toEqual({ titulo: SAVED_REPLY_MESSAGES.titleTaken });
    const unknown = await editSavedReply(
      db,
      saludo.id,
      { title: 'Saludo', body: 'Hola {cliente}' },
      ANA,
    ).catch((error: unknown) => error);
    expect((unknown as SavedReplyRefusal).errors.texto).toMatch(/^La variable \{cliente\} no existe\./);

    const edited = await editSavedReply(
      db,
      saludo.id,
      { title: 'Saludo', body: 'Hola, {nombre}.' },
      ANA,
      new Date('2025-03-04T10:00:00Z'),
    );
    expect(edited).toMatchObject({
      title: 'Saludo',
      body: 'Hola, {nombre}.',
      updatedAt: '2025-03-04T10:00:00.000Z',
    });
    // Its own title again is not "taken".
    await editSavedReply(db, saludo.id, { title: 'saludo', body: 'Hola, {nombre}.' }, ANA);

    expect(await deleteSavedReply(db, saludo.id, ANA)).toBe(true);
    expect(await deleteSavedReply(db, saludo.id, ANA)).toBe(false);
    const gone = await editSavedReply(db, saludo.id, { title: 'Saludo', body: 'x' }, ANA).catch(
      (error: unknown) => error,
    );
    expect((gone as SavedReplyRefusal).notFound).toBe(true);
    expect((await listSavedReplies(db)).map((reply) => reply.title)).toEqual(['Ánimo']);

    const events = await describeEvents(db, await recentEvents(db));
    expect(events.map((event) => [event.label, event.subject?.text, event.detail]).reverse()).toEqual([
      ['Respuesta guardada creada', 'Saludo inicial', null],
      ['Respuesta guardada creada', 'Ánimo', null],
      ['Respuesta guardada editada', 'Saludo', 'Antes: Saludo inicial'],
      ['Respuesta guardada editada', 'saludo', 'Antes: Saludo'],
      ['Respuesta guardada eliminada', 'saludo', null],
    ]);
  });

  it('fills the variables for an incident: its customer, number, state, a real follow-up link and my name', async () => {
    const { db } = database();
    const incident = await insertIncident(db, { nombre: 'María Peña', estado: 'En Proceso' });
    const reply = await createSavedReply(db, { title: 'Saludo', body: GREETING }, ANA);
    const staff = { name: 'Ana Pérez', email: ANA.actorEmail };
    const filled = await fillSavedReplyFor(db, reply.id, { incident, staff, brand });
    expect(filled?.title).toBe('Saludo');
    const link = /https:\/\/vertice\.example\/soporte\/seguimiento\?token=([A-Za-z0-9_-]{24})/.exec(
      filled!.text,
    );
    expect(link).not.toBeNull();
    expect(filled!.text).toBe(
      `Hola, María Peña: tu incidencia ${incident.numeroIncidencia} está «En Proceso». Síguela aquí: ${link![0]}\n\nAna Pérez`,
    );
    // The link is the customer's: its token opens this incident.
    expect(await incidentIdByToken(db, link![1]!)).toBe(incident.id);

    // A staff member without a name signs with the e-mail; a text without the link issues no token.
    const plain = await createSavedReply(db, { title: 'Firma', body: '{mi_nombre} · {numero}' }, ANA);
    const before = await db.selectFrom('incidentTokens').select('tokenHash').execute();
    expect(
      (await fillSavedReplyFor(db, plain.id, { incident, staff: { name: '', email: ANA.actorEmail }, brand }))
        ?.text,
    ).toBe(`${ANA.actorEmail} · ${incident.numeroIncidencia}`);
    expect(await db.selectFrom('incidentTokens').select('tokenHash').execute()).toHaveLength(before.length);
    expect(await fillSavedReplyFor(db, 999_999, { incident, staff, brand })).toBeNull();
  });

  it('carries the saved replies through npm run data: exported, imported elsewhere, skipped the second time, a bad one refused', async () => {
    const { db, engine } = database();
    await createSavedReply(db, { title: 'Saludo', body: GREETING }, ANA, new Date('2025-03-03T14:00:00Z'));
    await createSavedReply(
      db,
      { title: 'Cierre', body: 'Quedamos atentos.\n{mi_nombre}' },
      ANA,
      new Date('2025-03-03T15:00:00Z'),
    );
    const exported = await exportData(db);
    expect(exported.savedReplies?.map((reply) => reply.title)).toEqual(['Saludo', 'Cierre']);

    const target = await createTestDatabase(engine);
    try {
      const refused: string[] = [];
      const file = JSON.parse(
        JSON.stringify({
          ...exported,
          savedReplies: [
            ...exported.savedReplies!,
            { title: 'Mala', body: 'Hola {apodo}', createdAt: '2025-03-03T16:00:00Z' },
          ],
        }),
      );
      const first = await importData(target.db, file, {
        onRefused: (refusal) => refused.push(`${refusal.record}: ${refusal.reason}`),
      });
      expect(first.savedReplies).toEqual({ imported: 2, skipped: 0, invalid: 1 });
      expect(refused).toEqual([expect.stringMatching(/^Mala: la variable \{apodo\} no existe\./)]);
      const again = await importData(target.db, JSON.parse(JSON.stringify(exported)));
      expect(again.savedReplies).toEqual({ imported: 0, skipped: 2, invalid: 0 });
      const back = await exportData(target.db);
      expect(back.savedReplies).toEqual(exported.savedReplies);
    } finally {
      await target.cleanup();
    }
  });
});
