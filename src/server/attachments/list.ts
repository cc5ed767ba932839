/** The attachments of an incident as its timelines show them (no bytes). */
import type { Kysely } from 'kysely';
import type { AttachmentView } from '../../domain/attachments.ts';
import type { Database } from '../db/index.ts';

type Db = Kysely<Database>;

const DROPPED_TEXT: Record<string, string> = {
  type: 'tipo de archivo no admitido',
  'too-large': 'supera los 10 MB',
  empty: 'archivo vacío',
  'too-many': 'más de 5 archivos',
  'total-too-large': 'los archivos suman más de 20 MB',
  unfetched: 'no se pudo traer de WhatsApp',
};

/** The Spanish reason shown for a dropped file. */
export const droppedText = (reason: string): string => DROPPED_TEXT[reason] ?? 'no se guardó';

/** Every attachment of an incident, by entry id (`problem`: the problem's), oldest first. */
export async function attachmentsByEntry(
  db: Db,
  incidentId: number,
): Promise<{ problem: AttachmentView[]; byEntry: Map<number, AttachmentView[]> }> {
  const rows = await db
    .selectFrom('incidentAttachments')
    .select(['id', 'entryId', 'filename', 'contentType', 'size', 'thumbSha256', 'droppedReason'])
    .where('incidentId', '=', incidentId)
    .orderBy('id')
    .execute();
  const problem: AttachmentView[] = [];
  const byEntry = new Map<number, AttachmentView[]>();
  for (const row of rows) {
    const view: AttachmentView = {
      id: row.id,
      nombre: row.filename,
      tipo: row.contentType,
      tamano: Number(row.size),
      miniatura: row.thumbSha256 !== null,
      ...(row.droppedReason ? { descartado: droppedText(row.droppedReason) } : {}),
    };
    if (row.entryId === null) problem.push(view);
    else byEntry.set(row.entryId, [...(byEntry.get(row.entryId) ?? []), view]);
  }
  return { problem, byEntry };
}
