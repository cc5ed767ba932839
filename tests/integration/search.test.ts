/**
 * The staff search (issue 22, `/admin/buscar`) on both engines, with the real index of migration 0030:
 * accents and case, Spanish word forms, identifiers typed with or without dashes, the matching words
 * marked and everything else escaped (an XSS payload in the text), the grouping and the order, the
 * index kept in step by every writer (replies, notes, inbound answers, client edits and notes, imports,
 * updates and deletes made straight in SQL), the incident list's 'Texto' filter and the inbox's search,
 * and the migration indexing the rows stored before it.
 */
import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { listMessages } from '../../src/server/contact/inbox.ts';
import { addClientNote, updateClient } from '../../src/server/clients/index.ts';
import { importData } from '../../src/server/data/import.ts';
import { isPostgres } from '../../src/server/db/engine.ts';
import { migrator } from '../../src/server/db/index.ts';
import { addNote } from '../../src/server/incidents/conversation.ts';
import { listIncidents } from '../../src/server/incidents/search.ts';
import { searchEverything, type SearchResults } from '../../src/server/search/index.ts';
import { highlight, queryWords, termsOf } from '../../src/server/search-terms.ts';
import { describeEachEngine } from '../support/db.ts';
import {
  buildClient,
  buildContactMessage,
  insertClient,
  insertContactMessage,
  insertIncident,
  insertIncidents,
} from '../support/factories.ts';

const author = { id: 'user-1', email: 'soporte@example.com' };
const group = (results: SearchResults, kind: 'incidents' | 'messages' | 'clients') =>
  results.groups.find((item) => item.kind === kind)!;
const ids = (results: SearchResults, kind: 'incidents' | 'messages' | 'clients') =>
  group(results, kind).hits.map((hit) => hit.id);

it('reads a query as lower-case words with their accents, a digit run with separators as its digits', () => {
  expect(queryWords('  INC-20261127-1234 Facturación, 1-31-24675-7 ¿imprime? facturación ')).toEqual([
    'inc',
    '202611271234',
    'facturación',
    '131246757',
    'imprime',
  ]);
  // The same word with and without its accent is one word: the first spelling is kept.
  expect(queryWords('Facturación facturacion FACTURACION')).toEqual(['facturación']);
  expect(queryWords('<script>%_')).toEqual(['script']);
  expect(queryWords('%%')).toEqual([]);
});

it('marks the matching words and escapes everything else', () => {
  expect(highlight('La <b>impresora</b> no imprime & "falla"', queryWords('imprimir'))).toBe(
    'La &#60;b&#62;impresora&#60;/b&#62; no <mark>imprime</mark> &#38; &#34;falla&#34;',
  );
  // A digit run is marked whole when its digits, or one of its parts, were asked for.
  expect(highlight('RNC 1-31-24675-7', queryWords('131246757'))).toBe('RNC <mark>1-31-24675-7</mark>');
  expect(highlight('INC-20261127-1234', queryWords('1234'))).toBe('INC-<mark>20261127-1234</mark>');
  // A long text is cut around the first match.
  const long = `${'palabra '.repeat(100)}facturación ${'otra '.repeat(100)}`;
  const cut = highlight(long, queryWords('facturacion'), 120);
  expect(cut).toMatch(/^… .*<mark>facturación<\/mark>.* …$/);
  expect(cut.length).toBeLessThan(200);
  // A word of the same family is marked, whichever form was asked for.
  expect(highlight('Facturación del día; la factura llegó', queryWords('facturar'))).toBe(
    '<mark>Facturación</mark> del día; la <mark>factura</mark> llegó',
  );
});

it("gives a word its folded stem and, when Snowball's accented suffixes make it differ, its stem as written", () => {
  expect(termsOf('Facturación')).toEqual(['facturacion', 'factur']);
  // Typed without its accent, a final '-cion' is read as Spanish writes it.
  expect(termsOf('facturacion')).toEqual(['facturacion', 'factur']);
  expect(termsOf('acciones')).toEqual(['accion']);
  expect(termsOf('factura')).toEqual(['factur']);
  expect(termsOf('contraseña')).toEqual(['contrasen']);
  expect(termsOf('2026')).toEqual(['2026']);
});

describeEachEngine('staff search', (database) => {
  it('ignores accents and case, matches Spanish word forms, and finds identifiers with or without dashes', async () => {
    const { db } = database();
    const printer = await insertIncident(db, {
      numeroIncidencia: 'INC-20261127-4321',
      nombre: 'María Núñez',
      email: 'maria.nunez@colmado.example',
      rnc: '1-31-24675-7',
      problema: 'La impresora de la caja no quiere imprimir la Facturación del día.',
    });
    const other = await insertIncident(db, {
      problema: 'No carga el inventario.',
      nombre: 'Pedro Báez',
      rnc: '402000000',
    });
    const setup = await insertIncident(db, {
      problema: 'Necesito ayuda para configurar el correo.',
      nombre: 'Rosa Peña',
      rnc: '402000001',
    });

    // 'factura' and 'facturar' find 'Facturación': Snowball's suffixes carry their accents, so the word as
    // written is stemmed too (with the accent dropped, 'facturacion' would stay a word of its own).
    for (const query of [
      'facturacion',
      'FACTURACIÓN',
      'factura',
      'Facturar',
      'imprime',
      'Imprimiendo',
      'nunez',
      'MARIA NUÑEZ',
    ]) {
      expect(ids(await searchEverything(db, query), 'incidents'), query).toEqual([printer.id]);
    }
    // And back: 'configuración' finds 'configurar', typed with its accent or without.
    for (const query of ['configuración', 'configuracion', 'Configurar', 'configurando']) {
      expect(ids(await searchEverything(db, query), 'incidents'), query).toEqual([setup.id]);
    }
    for (const query of [
      'INC-20261127-4321',
      '4321',
      '131246757',
      '1-31-24675-7',
      'maria.nunez@colmado.example',
    ]) {
      expect(ids(await searchEverything(db, query), 'incidents'), query).toEqual([printer.id]);
    }
    // Every word must be there (in any field).
    expect(ids(await searchEverything(db, 'inventario baez'), 'incidents')).toEqual([other.id]);
    expect(ids(await searchEverything(db, 'inventario nunez'), 'incidents')).toEqual([]);
    // No word at all: nothing is searched.
    expect((await searchEverything(db, '  %%  ')).groups).toEqual([]);
  });

  it('searches the whole conversation, groups incidents, messages and clients, best first, and escapes an XSS payload', async () => {
    const { db } = database();
    const payload = '<img src=x onerror=alert(1)> la conciliación bancaria falla';
    // Oldest, but the word is its e-mail address: identifiers rank first.
    const byEmail = await insertIncident(db, {
      problema: 'Otra cosa.',
      email: 'conciliacion@banco.example',
      nombre: 'Banco',
    });
    // The word in the name ranks above the one in a note, though older.
    const byName = await insertIncident(db, { problema: 'Pregunta general.', nombre: 'Conciliación Pérez' });
    const byNote = await insertIncident(db, { problema: 'No entra al sistema.', nombre: 'Luis Reyes' });
    await addNote(db, { incidentId: byNote.id, author, body: payload });
    const message = await insertContactMessage(db, {
      name: 'Ana',
      message: 'Quiero la conciliación automática.',
    });
    const client = await insertClient(db, { razonSocial: 'Conciliación del Caribe SRL', rnc: '130000001' });
    await insertClient(db, { razonSocial: 'Otra Empresa SRL', rnc: '130000002' });

    const results = await searchEverything(db, 'conciliacion');
    expect(results.groups.map((item) => item.kind)).toEqual(['incidents', 'messages', 'clients']);
    expect(ids(results, 'incidents')).toEqual([byEmail.id, byName.id, byNote.id]);
    expect(ids(results, 'messages')).toEqual([message.id]);
    expect(ids(results, 'clients')).toEqual([client.id]);
    expect(group(results, 'incidents').total).toBe(3);

    const noted = group(results, 'incidents').hits[2]!;
    expect(noted.snippet).toEqual({
      label: 'Nota interna',
      html: '&#60;img src=x onerror=alert(1)&#62; la <mark>conciliación</mark> bancaria falla',
    });
    expect(noted.snippet!.html).not.toContain('<img');
    expect(group(results, 'incidents').hits[0]!.detailHtml).toContain(
      '<mark>conciliacion</mark>@banco.example',
    );
    expect(group(results, 'incidents').hits[1]!.titleHtml).toContain('<mark>Conciliación</mark> Pérez');
    expect(group(results, 'messages').hits[0]!.href).toMatch(
      new RegExp(`^/admin/mensajes\\?q=conciliacion#mensaje-${message.id}$`),
    );
    expect(group(results, 'clients').hits[0]!.href).toBe(`/admin/clientes/${client.id}`);
  });

  it('keeps the index in step with every writer, updates and deletes included', async () => {
    const { db } = database();
    const incident = await insertIncident(db, { problema: 'Pantalla en blanco.' });
    await addNote(db, { incidentId: incident.id, author, body: 'Revisar el cableado del servidor.' });
    expect(ids(await searchEverything(db, 'cableado'), 'incidents')).toEqual([incident.id]);

    const client = await insertClient(db, { razonSocial: 'Ferretería El Martillo SRL' });
    await addClientNote(db, client.id, 'Prefiere reuniones por videollamada.');
    expect(ids(await searchEverything(db, 'videollamadas'), 'clients')).toEqual([client.id]);
    const { id: _id, ...fields } = client;
    const edited = await updateClient(
      db,
      client.id,
      {
        razonSocial: 'Ferretería La Tuerca SRL',
        nombreRepresentante: fields.nombreRepresentante,
        telefono: fields.telefono,
        email: fields.email,
        rnc: fields.rnc,
        tipoProyecto: fields.tipoProyecto,
      },
      1,
    );
    expect(edited.kind).toBe('saved');
    expect(ids(await searchEverything(db, 'martillo'), 'clients')).toEqual([]);
    expect(ids(await searchEverything(db, 'tuerca'), 'clients')).toEqual([client.id]);
    // The note survives the edit.
    expect(ids(await searchEverything(db, 'videollamada'), 'clients')).toEqual([client.id]);

    // Changes made in SQL, by whatever writer: the triggers follow.
    await db
      .updateTable('incidents')
      .set({ problema: 'Teclado dañado.' })
      .where('id', '=', incident.id)
      .execute();
    expect(ids(await searchEverything(db, 'pantalla'), 'incidents')).toEqual([]);
    expect(ids(await searchEverything(db, 'teclados'), 'incidents')).toEqual([incident.id]);
    expect(ids(await searchEverything(db, 'cableado'), 'incidents')).toEqual([incident.id]);
    await db
      .updateTable('incidentEntries')
      .set({ body: 'Cambiar la fuente.' })
      .where('incidentId', '=', incident.id)
      .execute();
    expect(ids(await searchEverything(db, 'cableado'), 'incidents')).toEqual([]);
    expect(ids(await searchEverything(db, 'fuente'), 'incidents')).toEqual([incident.id]);
    await db.deleteFrom('incidentEntries').where('incidentId', '=', incident.id).execute();
    expect(ids(await searchEverything(db, 'fuente'), 'incidents')).toEqual([]);

    const message = await insertContactMessage(db, { message: 'Solicito una demostración de Tiendao.' });
    expect(ids(await searchEverything(db, 'demostracion'), 'messages')).toEqual([message.id]);
    await db.deleteFrom('contactMessages').where('id', '=', message.id).execute();
    await db.deleteFrom('incidentEvents').where('incidentId', '=', incident.id).execute();
    await db.deleteFrom('incidents').where('id', '=', incident.id).execute();
    expect(ids(await searchEverything(db, 'demostracion'), 'messages')).toEqual([]);
    expect(ids(await searchEverything(db, 'teclado'), 'incidents')).toEqual([]);

    // `npm run data -- import` writes through the same tables.
    await importData(db, [
      {
        numeroIncidencia: 'INC-20240105-2001',
        problema: 'El escáner no lee los códigos.',
        nombre: 'Rosa Almonte',
        telefono: '8095550101',
        email: 'rosa@example.com',
        rnc: '',
        estado: 'Registrado',
        fecha: '2024-01-05T10:00:00.000Z',
      },
      {
        name: 'Carlos',
        email: 'carlos@example.com',
        message: 'Consulta sobre nóminas.',
        createdAt: '2024-01-06T10:00:00.000Z',
      },
    ]);
    expect(group(await searchEverything(db, 'escaner'), 'incidents').total).toBe(1);
    expect(group(await searchEverything(db, 'nomina'), 'messages').total).toBe(1);
  });

  it('indexes every row of a statement that inserts many, in each table, before and after migration 0039', async () => {
    const { db } = database();
    // Each table gets one statement of three rows (PostgreSQL: one trigger call per statement since 0039).
    const seed = async (word: string) => {
      const incidents = await insertIncidents(
        db,
        ['uno', 'dos', 'tres'].map((n) => ({ problema: `${word} ${n}: la caja no abre.` })),
      );
      const entries = await db
        .insertInto('incidentEntries')
        .values(
          incidents.map((incidentId, index) => ({
            incidentId,
            kind: 'reply' as const,
            authorId: author.id,
            authorEmail: author.email,
            body: `Respuesta ${word}respuesta número ${index}.`,
            createdAt: '2025-01-01T11:00:00.000Z',
          })),
        )
        .returning('id')
        .execute();
      expect(entries).toHaveLength(3);
      const messages = await db
        .insertInto('contactMessages')
        .values(
          ['Ana', 'Luis', 'Eva'].map((name) => buildContactMessage({ name, message: `${word} mensaje.` })),
        )
        .returning('id')
        .execute();
      const clients = await db
        .insertInto('clients')
        .values(
          ['Uno', 'Dos', 'Tres'].map((n, index) =>
            buildClient({
              razonSocial: `${word} ${n} SRL`,
              rnc: `10101010${index}`,
              email: `${n}@example.com`,
            }),
          ),
        )
        .returning('id')
        .execute();
      // Only notes are searched: the meeting in the same statement indexes nothing of its own.
      await db
        .insertInto('clientEvents')
        .values(
          clients.map(({ id }, index) => ({
            clientId: id,
            kind: index === 2 ? 'created' : 'note',
            actorId: null,
            actorEmail: null,
            detail: `${word}nota del cliente.`,
            createdAt: '2025-01-01T11:00:00.000Z',
          })),
        )
        .execute();
      const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
      const found = async (query: string, kind: 'incidents' | 'messages' | 'clients') =>
        sorted(ids(await searchEverything(db, query), kind));
      expect(await found(word, 'incidents')).toEqual(sorted(incidents));
      expect(await found(`${word}respuesta`, 'incidents')).toEqual(sorted(incidents));
      expect(await found(word, 'messages')).toEqual(sorted(messages.map(({ id }) => id)));
      expect(await found(`${word}nota`, 'clients')).toEqual(sorted(clients.slice(0, 2).map(({ id }) => id)));
      expect(await found(word, 'clients')).toEqual(sorted(clients.map(({ id }) => id)));
    };
    await seed('girasol');
    await migrator(db).migrateTo('0038_search_stems');
    await seed('amapola');
    await migrator(db).migrateToLatest();
    await seed('azucena');
  });

  it("filters the incident list by 'Texto' and the inbox by its search through the same index", async () => {
    const { db } = database();
    const first = await insertIncident(db, {
      problema: 'Error al imprimir el cierre.',
      fecha: '2025-01-01T10:00:00.000Z',
    });
    await insertIncident(db, { problema: 'Otra cosa.', fecha: '2025-01-02T10:00:00.000Z' });
    const second = await insertIncident(db, {
      problema: 'La impresora se traba.',
      fecha: '2025-01-03T10:00:00.000Z',
    });
    await addNote(db, { incidentId: second.id, author, body: 'Ya imprime bien después de limpiarla.' });
    const page = await listIncidents(db, { q: 'imprime' });
    expect(page.items.map((item) => item.id)).toEqual([second.id, first.id]);
    expect((await listIncidents(db, { q: 'imprime', estado: 'Resuelto' })).items).toEqual([]);
    expect((await listIncidents(db, { q: 'cierre', nombre: 'josé' })).items.map((item) => item.id)).toEqual([
      first.id,
    ]);

    await insertContactMessage(db, {
      name: 'Ana',
      message: 'Facturación electrónica',
      createdAt: '2025-01-01T10:00:00.000Z',
    });
    const inbox = await listMessages(db, { estado: 'pendientes', q: 'FACTURACION', pagina: 1 });
    expect(inbox.items.map((item) => item.name)).toEqual(['Ana']);
  });

  it('indexes the rows stored before migration 0030', async () => {
    const { db } = database();
    await migrator(db).migrateTo('0029_incident_priority');
    const incident = await insertIncident(db, { problema: 'Sin conexión a la base de datos.' });
    await db
      .insertInto('incidentEntries')
      .values({
        incidentId: incident.id,
        kind: 'reply',
        authorId: 'user-1',
        authorEmail: author.email,
        body: 'Reiniciamos el enrutador.',
        createdAt: '2025-01-01T11:00:00.000Z',
      })
      .execute();
    const message = await insertContactMessage(db, { message: 'Pregunta por la contabilidad.' });
    const client = await insertClient(db, { razonSocial: 'Panadería Dulce Hogar SRL' });
    await db
      .insertInto('clientEvents')
      .values({
        clientId: client.id,
        kind: 'note',
        actorId: null,
        actorEmail: null,
        detail: 'Llamar los lunes.',
        createdAt: '2025-01-01T11:00:00.000Z',
      })
      .execute();
    await migrator(db).migrateToLatest();
    expect(ids(await searchEverything(db, 'enrutador'), 'incidents')).toEqual([incident.id]);
    expect(ids(await searchEverything(db, 'conexion'), 'incidents')).toEqual([incident.id]);
    expect(ids(await searchEverything(db, 'contabilidad'), 'messages')).toEqual([message.id]);
    expect(ids(await searchEverything(db, 'panaderia lunes'), 'clients')).toEqual([client.id]);
  });

  it("writes every document again in migration 0038, with each word's second form, and goes down and up again", async () => {
    const { db } = database();
    await migrator(db).migrateTo('0037_article_revisions');
    const incident = await insertIncident(db, { problema: 'La facturación mensual no cuadra.' });
    if (!isPostgres(db)) {
      // SQLite's terms come from the running code: write the document as the one-form rule of 0030 did.
      await sql`insert or replace into search_incidents(rowid, ident, nombre, texto, conversacion)
        values (${incident.id}, '', '', 'la facturacion mensual no cuadr', '')`.execute(db);
    }
    const found = async () => ids(await searchEverything(db, 'factura'), 'incidents');
    expect(await found()).toEqual([]);
    expect(ids(await searchEverything(db, 'facturacion'), 'incidents')).toEqual([incident.id]);
    await migrator(db).migrateToLatest();
    expect(await found()).toEqual([incident.id]);
    expect(ids(await searchEverything(db, 'facturacion'), 'incidents')).toEqual([incident.id]);
    // PostgreSQL's down puts back 0030's functions and documents; SQLite's extra terms stay, harmless.
    await migrator(db).migrateTo('0037_article_revisions');
    expect(await found()).toEqual(isPostgres(db) ? [] : [incident.id]);
    expect(ids(await searchEverything(db, 'facturacion'), 'incidents')).toEqual([incident.id]);
    await migrator(db).migrateToLatest();
    expect(await found()).toEqual([incident.id]);
  });
});
