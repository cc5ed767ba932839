/**
 * A data file with a record of every kind `npm run data` moves (tests/integration/data-round-trip.test.ts):
 * an incident with its whole timeline, files, mails, ratings and an inbound mail it came from; a client
 * with its timeline and meetings; contact messages; a saved reply; a blog article and a help article
 * with revisions, old addresses, votes and an image of their text; an announcement; two logos (one of
 * the build, one uploaded); a content import done.
 *
 * tests/fixtures/data-export-before-issue-40.json is this file imported into a new SQLite database and
 * exported by the code as it stood before issue 40 moved each area's rows into its own module:
 *
 *   node tests/support/data-file.ts OUT.json
 *
 * (run at the commit before, with ADMIN_EMAILS unset). The test imports that export and expects the
 * same file back.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

export const STAFF = [
  { id: 'staff-ana', email: 'ana@vertice.example', name: 'Ana Pérez' },
  { id: 'staff-luis', email: 'luis@vertice.example', name: 'Luis Gómez' },
];
const ANA = STAFF[0]!.email;
const LUIS = STAFF[1]!.email;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const bytes = (text: string) => new Uint8Array(Buffer.from(text));
const hash = (seed: string) => sha256(bytes(seed));
const at = (minutes: number) => new Date(Date.UTC(2026, 2, 2, 13, 0) + minutes * 60_000).toISOString();

const MAIL = bytes(
  'From: Rosa <rosa@cliente.example>\r\nTo: soporte@vertice.example\r\nSubject: Re: INC-20260302-4821\r\n' +
    'Message-ID: <respuesta-1@cliente.example>\r\n\r\nSigue sin imprimir.\r\n',
);
const PDF = bytes('%PDF-1.4\n% una factura\n%%EOF\n');
const THUMB = bytes('miniatura');
const IMAGE_WEBP = bytes('RIFF-webp-800');
const IMAGE_WEBP_SMALL = bytes('RIFF-webp-400');
const IMAGE_AVIF = bytes('avif-800');
const IMAGE_KEY = '0123456789abcdef';
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40"><rect width="120" height="40" fill="#123456"/></svg>';

const blobs = Object.fromEntries(
  [PDF, THUMB, IMAGE_WEBP, IMAGE_WEBP_SMALL, IMAGE_AVIF].map((item) => [sha256(item), base64(item)]),
);

const articleFields = (kind: 'blog' | 'ayuda', slug: string, title: string, body: string) => ({
  kind,
  slug,
  title,
  excerpt: `Resumen de ${title}.`,
  body,
  coverImage: null,
  coverAlt: '',
  author: 'Equipo Vértice',
  tags: ['facturación', 'ncf'],
  seoTitle: '',
  seoDescription: '',
  state: 'publicado',
  publishAt: at(30),
});

export const DATA_FILE = {
  exportedAt: at(100),
  blobs,
  incidents: [
    {
      numeroIncidencia: 'INC-20260302-4821',
      problema: 'No imprime la factura con NCF',
      nombre: 'Rosa Díaz',
      telefono: '809-555-0101',
      email: 'rosa@cliente.example',
      rnc: '131-00000-1',
      estado: 'En Proceso',
      fecha: at(0),
      historial: [
        { estado: 'Registrado', fecha: at(0), actor: null },
        { estado: 'En Proceso', fecha: at(3), actor: LUIS },
      ],
      assignedToEmail: LUIS,
      lastActivityAt: at(6),
      customerWaiting: true,
      origen: 'Correo',
      prioridad: 'Alta',
      channel: 'correo',
      channelAddress: 'rosa@cliente.example',
      priorityChanges: [{ desde: 'Normal', hasta: 'Alta', changedByEmail: ANA, createdAt: at(2) }],
      entries: [
        { kind: 'reply', authorEmail: LUIS, body: 'Reinstala el controlador.', createdAt: at(4) },
        { kind: 'note', authorEmail: ANA, body: 'Tiene contrato de soporte.', createdAt: at(5) },
        {
          kind: 'answer',
          authorEmail: null,
          body: 'Sigue sin imprimir.',
          createdAt: at(6),
          via: 'correo',
          inboundKey: 'message-id:respuesta-1@cliente.example',
        },
        {
          kind: 'answer',
          authorEmail: null,
          body: 'Adjunto la factura.',
          createdAt: at(7),
          via: 'correo',
          unverified: true,
          acceptedAt: at(8),
          acceptedBy: ANA,
        },
      ],
      assignments: [{ assigneeEmail: LUIS, assignedByEmail: ANA, createdAt: at(1) }],
      tokens: [{ tokenHash: hash('token-1'), createdAt: at(0) }],
      ratings: [
        {
          tokenHash: hash('rating-1'),
          resolvedAt: at(9),
          createdAt: at(9),
          valor: 4,
          comentario: 'Rápidos.',
          ratedAt: at(10),
        },
      ],
      attachments: [
        {
          entry: null,
          filename: 'factura.pdf',
          contentType: 'application/pdf',
          size: PDF.byteLength,
          createdAt: at(0),
          blob: sha256(PDF),
        },
        {
          entry: 3,
          filename: 'foto.pdf',
          contentType: 'application/pdf',
          size: PDF.byteLength,
          createdAt: at(7),
          blob: sha256(PDF),
          thumb: sha256(THUMB),
        },
        {
          entry: 2,
          filename: 'programa.exe',
          contentType: 'application/octet-stream',
          size: 4096,
          createdAt: at(6),
          dropped: 'type',
        },
      ],
      mails: [
        {
          messageId: 'confirmacion-1@vertice.example',
          kind: 'confirmation',
          replyTokenHash: hash('reply-1'),
          bouncedAt: null,
          delayedAt: at(1),
          readAt: at(2),
          complainedAt: null,
          createdAt: at(0),
        },
      ],
    },
  ],
  clients: [
    {
      razonSocial: 'Farmacia Los Prados SRL',
      nombreRepresentante: 'Ana Prados',
      telefono: '8295550123',
      email: 'compras@farmacialosprados.do',
      rnc: '101010101',
      tipoProyecto: 'Implementación AdmCloud',
      estadoProyecto: 'en curso',
      fechaRegistro: at(0),
      correoBienvenidaEnviado: true,
      archivedAt: null,
      events: [
        { kind: 'created', actorEmail: ANA, detail: null, createdAt: at(0) },
        { kind: 'note', actorEmail: LUIS, detail: 'Prefiere llamadas por la tarde.', createdAt: at(1) },
      ],
      meetings: [
        {
          organizerEmail: ANA,
          organizerName: 'Ana Pérez',
          startsAt: at(60 * 24),
          endsAt: at(60 * 24 + 45),
          durationMinutes: 45,
          place: 'Oficina del cliente',
          note: 'Revisar la facturación.',
          uid: 'reunion-1@vertice.example',
          sequence: 1,
          createdAt: at(2),
          cancelledAt: null,
          cancelledBy: null,
        },
      ],
    },
  ],
  contactMessages: [
    {
      name: 'Pedro Almonte',
      email: 'pedro@cliente.example',
      message: '¿Tienen soporte los sábados?',
      createdAt: at(1),
      handledAt: at(2),
      handledByEmail: LUIS,
    },
    {
      name: 'Carmen Ruiz',
      email: 'carmen@cliente.example',
      message: 'Quiero una demostración.',
      createdAt: at(3),
      handledAt: null,
      handledByEmail: null,
    },
  ],
  inboundMessages: [
    {
      channel: 'correo',
      dedupKey: 'message-id:respuesta-1@cliente.example',
      messageId: 'respuesta-1@cliente.example',
      sender: 'rosa@cliente.example',
      subject: 'Re: INC-20260302-4821',
      outcome: 'answer',
      reason: null,
      numeroIncidencia: 'INC-20260302-4821',
      receivedAt: at(6),
      reviewedAt: null,
      reviewedByEmail: null,
      rawGzipBase64: base64(gzipSync(MAIL)),
    },
    {
      channel: 'correo',
      dedupKey: `sha256:${hash('spam')}`,
      messageId: null,
      sender: 'ofertas@spam.example',
      subject: 'Gane dinero',
      outcome: 'rejected',
      reason: 'spam',
      numeroIncidencia: null,
      receivedAt: at(11),
      reviewedAt: at(12),
      reviewedByEmail: ANA,
      rawGzipBase64: null,
    },
  ],
  savedReplies: [
    {
      title: 'Saludo inicial',
      body: 'Hola {nombre}, ya revisamos la incidencia {numero}.',
      createdAt: at(0),
      createdByEmail: ANA,
      updatedAt: at(5),
      updatedByEmail: LUIS,
    },
  ],
  articles: [
    {
      ...articleFields(
        'blog',
        'facturacion-electronica',
        'Facturación electrónica',
        `La DGII pide e-CF.\n\n![Pantalla](/blog/imagenes/1-${IMAGE_KEY}-800x600)\n`,
      ),
      createdAt: at(20),
      createdByEmail: ANA,
      updatedAt: at(25),
      updatedByEmail: LUIS,
      oldSlugs: [{ kind: 'blog', slug: 'factura-electronica', createdAt: at(25) }],
      revisions: [
        {
          version: 1,
          ...articleFields('blog', 'factura-electronica', 'Factura electrónica', 'Primera versión.'),
          state: 'borrador',
          publishAt: null,
          createdAt: at(20),
          createdByEmail: ANA,
        },
        {
          version: 2,
          ...articleFields(
            'blog',
            'facturacion-electronica',
            'Facturación electrónica',
            `La DGII pide e-CF.\n\n![Pantalla](/blog/imagenes/1-${IMAGE_KEY}-800x600)\n`,
          ),
          createdAt: at(25),
          createdByEmail: LUIS,
        },
      ],
    },
    {
      ...articleFields(
        'ayuda',
        'imprimir-ncf',
        'Cómo imprimir con NCF',
        'Abre Facturación y elige Imprimir.',
      ),
      createdAt: at(21),
      createdByEmail: ANA,
      updatedAt: at(21),
      updatedByEmail: ANA,
      oldSlugs: [],
      votes: { helpful: 7, notHelpful: 2 },
    },
  ],
  articleImages: [
    {
      id: 1,
      key: IMAGE_KEY,
      width: 800,
      height: 600,
      createdAt: at(19),
      createdByEmail: ANA,
      files: [
        { width: 400, format: 'webp', sha256: sha256(IMAGE_WEBP_SMALL) },
        { width: 800, format: 'avif', sha256: sha256(IMAGE_AVIF) },
        { width: 800, format: 'webp', sha256: sha256(IMAGE_WEBP) },
      ],
    },
  ],
  announcements: [
    {
      key: 'nuevo-horario',
      title: 'Nuevo horario',
      message: 'Desde marzo atendemos los sábados.',
      link: '/contacto',
      startsOn: '2026-03-01',
      endsOn: '2026-04-01',
      createdAt: at(0),
      createdByEmail: ANA,
      updatedAt: at(1),
      updatedByEmail: LUIS,
    },
  ],
  clientLogos: [
    {
      name: 'Aceros Quisqueya',
      imageRef: 'asset:clients/aceros-quisqueya.svg',
      imageType: 'image/svg+xml',
      imageBase64: null,
      link: null,
      position: 1,
      visible: true,
      createdAt: at(0),
      createdByEmail: null,
      updatedAt: at(0),
      updatedByEmail: null,
    },
    {
      name: 'Cliente Subido',
      imageRef: null,
      imageType: 'image/svg+xml',
      imageBase64: base64(bytes(LOGO_SVG)),
      link: 'https://cliente.example',
      position: 2,
      visible: false,
      createdAt: at(1),
      createdByEmail: ANA,
      updatedAt: at(2),
      updatedByEmail: LUIS,
    },
  ],
  contentImports: ['announcements', 'client-logos'],
};

// `node tests/support/data-file.ts OUT.json`: DATA_FILE imported into a new SQLite database (with the
// two staff accounts) and exported, as the fixture (see above).
if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2];
  if (!out) throw new Error('uso: node tests/support/data-file.ts SALIDA.json');
  const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const { migrateToLatest, openDatabase } = await import('../../src/server/db/index.ts');
  const { exportData, importData } = await import('../../src/server/data/index.ts');
  const dir = mkdtempSync(join(tmpdir(), 'vertice-data-file-'));
  const { db } = openDatabase(join(dir, 'db.sqlite'));
  try {
    await migrateToLatest(db);
    for (const account of STAFF)
      await db
        .withoutPlugins()
        .insertInto('user')
        .values({
          ...account,
          emailVerified: 1,
          image: null,
          createdAt: at(0),
          updatedAt: at(0),
          mustChangePassword: 0,
          twoFactorEnabled: null,
        })
        .execute();
    const summary = await importData(db, JSON.parse(JSON.stringify(DATA_FILE)), {
      onRefused: (refusal) => console.error(refusal),
    });
    console.error(JSON.stringify(summary));
    writeFileSync(out, `${JSON.stringify(await exportData(db), null, 2)}\n`);
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}
