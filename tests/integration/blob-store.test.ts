/**
 * Files' bytes stored ahead of their transaction (src/server/attachments/blob-store.ts), on both engines:
 * keyed by their SHA-256, each stored once, thumbnails too; a file already stored is not written again;
 * on SQLite the worker's connection waits for a transaction of this process's connection to end rather
 * than competing with it (PostgreSQL's pool writes beside it), and what it wrote is there for the rows
 * that name it.
 */
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { storeBlobs } from '../../src/server/attachments/blob-store.ts';
import type { PreparedFile } from '../../src/server/attachments/files.ts';
import { createIncident } from '../../src/server/incidents/index.ts';
import { describeEachEngine } from '../support/db.ts';
import { MAIL_BRAND } from '../support/mail-brand.ts';

const sha = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
const file = (name: string, size: number, fill: number, thumb?: Uint8Array): PreparedFile => ({
  filename: name,
  contentType: 'application/pdf',
  data: new Uint8Array(size).fill(fill),
  thumb: thumb ?? null,
});

describeEachEngine('files stored before their transaction', (database) => {
  it('stores each file and thumbnail once under its SHA-256, and moves a reused one on', async () => {
    const { db } = database();
    const thumb = new Uint8Array(500).fill(7);
    const big = file('grande.pdf', 3_000_000, 1, thumb);
    const small = file('nota.txt', 12, 2);
    const first = new Date('2025-03-03T10:00:00Z');
    const stored = await storeBlobs(db, [big, small], first);
    expect(stored.map((item) => [item.filename, item.blob, item.thumbBlob])).toEqual([
      ['grande.pdf', sha(big.data), sha(thumb)],
      ['nota.txt', sha(small.data), null],
    ]);
    const rows = await db
      .selectFrom('blobs')
      .select(['sha256', 'size', 'data', 'createdAt'])
      .orderBy('size')
      .execute();
    expect(rows.map((row) => [row.sha256, row.size])).toEqual([
      [sha(small.data), 12],
      [sha(thumb), 500],
      [sha(big.data), 3_000_000],
    ]);
    expect(Buffer.from(rows[2]!.data as Uint8Array).equals(Buffer.from(big.data))).toBe(true);

    // The same bytes again (another name): no second row, its time moved on.
    const later = new Date('2025-03-04T10:00:00Z');
    const again = await storeBlobs(db, [{ ...small, filename: 'otra.txt' }], later);
    expect(again[0]!.blob).toBe(sha(small.data));
    const count = await db
      .selectFrom('blobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(3);
    const moved = await db
      .selectFrom('blobs')
      .select('createdAt')
      .where('sha256', '=', sha(small.data))
      .executeTakeFirstOrThrow();
    expect(new Date(moved.createdAt).toISOString()).toBe(later.toISOString());

    // A file that already carries its key is handed back as it is, without writing.
    await db.deleteFrom('blobs').where('sha256', '=', sha(small.data)).execute();
    const kept = await storeBlobs(db, again, later);
    expect(kept[0]!.blob).toBe(sha(small.data));
    expect(
      await db.selectFrom('blobs').select('sha256').where('sha256', '=', sha(small.data)).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('on SQLite waits for a transaction of this connection to end, then writes; the rows can name what it wrote', async () => {
    const { db } = database();
    const order: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await trx
        .insertInto('blobs')
        .values({
          sha256: 'a'.repeat(64),
          size: 1,
          data: Buffer.from('x'),
          createdAt: new Date().toISOString(),
        })
        .execute();
      order.push('transaction wrote');
      await held;
      order.push('transaction ends');
    });
    // Let the transaction take the connection first.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const storing = storeBlobs(db, [file('captura.pdf', 200_000, 3)]).then((files) => {
      order.push('files stored');
      return files;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    const [stored] = await storing;
    // SQLite: one writer at a time, and this process's connection keeps its turn. PostgreSQL's pool
    // writes beside the open transaction, finishing before or after it ends as the machine allows.
    if (database().engine === 'sqlite')
      expect(order).toEqual(['transaction wrote', 'transaction ends', 'files stored']);
    else expect([...order].sort()).toEqual(['files stored', 'transaction ends', 'transaction wrote']);

    const created = await createIncident(
      db,
      { problema: 'No imprime la factura', nombre: 'María', telefono: '', email: '', rnc: '' },
      { brand: MAIL_BRAND, staffInbox: 'equipo@vertice.example', files: [stored!] },
    );
    const attachment = await db
      .selectFrom('incidentAttachments')
      .innerJoin('blobs', 'blobs.sha256', 'incidentAttachments.blobSha256')
      .select(['incidentAttachments.filename', 'blobs.size'])
      .where('incidentAttachments.incidentId', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(attachment).toEqual({ filename: 'captura.pdf', size: 200_000 });
  });
});
