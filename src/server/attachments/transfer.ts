/**
 * The files' bytes of `npm run data` (issue 21; issue 40: each area moves its own rows): the blobs the
 * incidents' files and thumbnails name, base64 by SHA-256 in the file's `blobs`. They come back through
 * the incidents' writer (imported.ts, with `putBlob`), which stores each file with its bytes.
 */
import type { ExportedBlobs } from '../data-records.ts';
import type { Db } from '../db/index.ts';

/** Adds to `blobs` each blob an incident's file or thumbnail names, by SHA-256. */
export async function exportAttachmentBlobs(db: Db, blobs: ExportedBlobs): Promise<void> {
  const rows = await db
    .selectFrom('blobs')
    .select(['sha256', 'data'])
    .where((eb) =>
      eb.or([
        eb(
          'sha256',
          'in',
          eb.selectFrom('incidentAttachments').select('blobSha256').where('blobSha256', 'is not', null),
        ),
        eb(
          'sha256',
          'in',
          eb.selectFrom('incidentAttachments').select('thumbSha256').where('thumbSha256', 'is not', null),
        ),
      ]),
    )
    .orderBy('sha256')
    .execute();
  for (const row of rows) blobs[row.sha256] = Buffer.from(row.data).toString('base64');
}
