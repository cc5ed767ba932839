/**
 * Issue 38, F4, on both engines: a kept file is named with the extension of the type its content was
 * found to be, not the one it was sent with: `factura.jar` (a ZIP that is both a DOCX and a runnable
 * JAR) is `factura.docx`, `informe.html` starting with `%PDF-` is `informe.pdf`, a PNG sent as
 * `setup.exe` is `setup.png`, a JPEG sent as `script.svg` is `script.jpg`; so it is served, mailed (a
 * staff reply's files through a real SMTP peer), exported and imported again. A name that fits keeps
 * its own spelling.
 */
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { attachmentHeaders, attachmentsByEntry, prepareFiles } from '../../src/server/attachments/index.ts';
import { attachmentForToken } from '../../src/server/incidents/index.ts';
import { fileNameForType } from '../../src/domain/attachments.ts';
import { exportData } from '../../src/server/data/export.ts';
import { importData } from '../../src/server/data/import.ts';
import { replyToCustomer } from '../../src/server/incidents/conversation.ts';
import { issueFollowUpToken } from '../../src/server/incidents/follow-up.ts';
import { createIncident } from '../../src/server/incidents/index.ts';
import { startMailWorker } from '../../src/server/mail/outbox.ts';
import { smtpTransport } from '../../src/server/mail/transports.ts';
import { zipOf } from '../support/attachments.ts';
import { createTestDatabase, describeEachEngine } from '../support/db.ts';
import { MAIL_BRAND } from '../support/mail-brand.ts';
import { startSmtpPeer } from '../support/smtp.ts';

const STAFF_INBOX = 'equipo@vertice.example';
const brand = { ...MAIL_BRAND, staffInbox: STAFF_INBOX };
const ana = { id: 'user-ana', email: 'ana@vertice.example', name: 'Ana Pérez' };
const at = (hour: number) => new Date(Date.UTC(2025, 2, 3, hour));
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A DOCX whose ZIP also carries a JAR's manifest and main class: Word opens it, `java -jar` runs it. */
const docxJar = () =>
  zipOf({
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="${DOCX}.main+xml"/></Types>`,
    'word/document.xml': '<document/>',
    'META-INF/MANIFEST.MF': 'Manifest-Version: 1.0\r\nMain-Class: Factura\r\n',
    'Factura.class': '\u00ca\u00fe\u00ba\u00be',
  });

/** The four files of the finding: the name each was sent with, its bytes, and the name it must be kept under. */
async function disguised() {
  const image = sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } });
  return [
    { filename: 'factura.jar', data: docxJar(), kept: 'factura.docx', type: DOCX },
    {
      filename: 'informe.html',
      data: Buffer.from('%PDF-1.4\n<html><script>alert(document.domain)</script></html>\n%%EOF\n'),
      kept: 'informe.pdf',
      type: 'application/pdf',
    },
    {
      filename: 'setup.exe',
      data: await image.clone().png().toBuffer(),
      kept: 'setup.png',
      type: 'image/png',
    },
    {
      filename: 'script.svg',
      data: await image.clone().jpeg().toBuffer(),
      kept: 'script.jpg',
      type: 'image/jpeg',
    },
  ];
}

it('names a file by its type, keeping a fitting extension as written', () => {
  expect(fileNameForType('factura.jar', DOCX)).toBe('factura.docx');
  expect(fileNameForType('FOTO.JPEG', 'image/jpeg')).toBe('FOTO.JPEG');
  expect(fileNameForType('acta', 'application/pdf')).toBe('acta.pdf');
  expect(fileNameForType('acta 1.5', 'application/pdf')).toBe('acta 1.5.pdf');
  expect(fileNameForType('notas.txt', 'text/plain; charset=utf-8')).toBe('notas.txt');
  expect(fileNameForType('.jar', DOCX)).toBe('jar.docx');
});

describeEachEngine('file names by type', (database) => {
  const cases = [
    'factura.jar → factura.docx',
    'informe.html → informe.pdf',
    'setup.exe → setup.png',
    'script.svg → script.jpg',
  ];
  cases.forEach((name, index) =>
    it(`${name}: kept, served and exported under its type's extension`, async () => {
      const { db } = database();
      const file = (await disguised())[index]!;
      const { prepared, refused } = await prepareFiles([{ filename: file.filename, data: file.data }]);
      expect(refused).toEqual([]);
      expect(prepared.map((kept) => [kept.filename, kept.contentType])).toEqual([[file.kept, file.type]]);

      const created = await createIncident(
        db,
        {
          problema: 'Adjunto el archivo',
          nombre: 'María',
          telefono: '',
          email: 'maria@cliente.example',
          rnc: '',
        },
        { brand, staffInbox: STAFF_INBOX, now: at(14), files: prepared },
      );
      const token = await issueFollowUpToken(db, created.id, at(14));
      const [view] = (await attachmentsByEntry(db, created.id)).problem;
      expect(view!.nombre).toBe(file.kept);
      const served = await attachmentForToken(db, view!.id, token);
      expect(attachmentHeaders(served!, served!.data)['Content-Disposition']).toContain(
        `filename="${file.kept}"`,
      );
      const exported = await exportData(db);
      expect(exported.incidents[0]!.attachments!.map((kept) => kept.filename)).toEqual([file.kept]);
    }),
  );

  it("a staff reply's disguised files are mailed under their types' names (real SMTP peer)", async () => {
    const { db } = database();
    const files = await disguised();
    const { prepared } = await prepareFiles(files.map(({ filename, data }) => ({ filename, data })));
    const created = await createIncident(
      db,
      {
        problema: 'Necesito la factura',
        nombre: 'María',
        telefono: '',
        email: 'maria@cliente.example',
        rnc: '',
      },
      { brand, staffInbox: STAFF_INBOX, now: at(14) },
    );
    await replyToCustomer(
      db,
      { incidentId: created.id, author: ana, body: 'Te envío los archivos.', brand, files: prepared },
      at(15),
    );
    const peer = await startSmtpPeer();
    const worker = startMailWorker({
      db,
      transport: smtpTransport(peer.url, 'Vértice <no-reply@vertice.example>'),
      poll: false,
      now: () => at(15),
    });
    try {
      await worker.runOnce();
      const mail = await peer.waitFor((message) => message.subject?.startsWith('Respuesta a tu') ?? false);
      expect(mail.attachments.map((attachment) => attachment.filename)).toEqual(
        files.map((file) => file.kept),
      );
      expect(mail.text).toContain(files.map((file) => file.kept).join(', '));
    } finally {
      await worker.stop();
      await peer.stop();
    }
  });

  it('an export of an older version naming a file by what it was sent as is imported under its type', async () => {
    const { db } = database();
    const [jar] = await disguised();
    const { prepared } = await prepareFiles([{ filename: jar!.filename, data: jar!.data }]);
    await createIncident(
      db,
      {
        problema: 'Adjunto la factura',
        nombre: 'María',
        telefono: '',
        email: 'maria@cliente.example',
        rnc: '',
      },
      { brand, staffInbox: STAFF_INBOX, now: at(14), files: prepared },
    );
    const exported = JSON.parse(JSON.stringify(await exportData(db)));
    exported.incidents[0].attachments[0].filename = 'factura.jar';
    const destination = await createTestDatabase('sqlite');
    try {
      await importData(destination.db, exported);
      const [copy] = await destination.db.selectFrom('incidents').select('id').execute();
      const files = await attachmentsByEntry(destination.db, copy!.id);
      expect(files.problem.map((file) => file.nombre)).toEqual(['factura.docx']);
    } finally {
      await destination.cleanup();
    }
  });
});
