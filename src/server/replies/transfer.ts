/**
 * The saved replies of `npm run data` ('Respuestas guardadas', issue 22; issue 40: each area moves its
 * own rows): exported with who created and last edited each (e-mails, as stored), imported by the
 * rules of Configuración (title, text, variables); one whose title is already here (ignoring case) is
 * skipped.
 */
import {
  normalSavedReply,
  SAVED_REPLY_BODY_MAX,
  SAVED_REPLY_TITLE_MAX,
  savedReplyProblems,
} from '../../domain/saved-replies.ts';
import {
  email,
  RecordRefused,
  refusedWith,
  STAFF_EMAIL,
  text,
  toIsoTime,
  type Outcome,
} from '../data-records.ts';
import type { Db } from '../db/index.ts';

/** A saved reply ('Respuestas guardadas'); who created and last edited it by e-mail. */
export interface ExportedSavedReply {
  title: string;
  body: string;
  createdAt: string;
  createdByEmail: string | null;
  updatedAt: string;
  updatedByEmail: string | null;
}

/** Every saved reply, oldest first. */
export async function exportSavedReplies(db: Db): Promise<ExportedSavedReply[]> {
  const rows = await db.selectFrom('savedReplies').selectAll().orderBy('createdAt').orderBy('id').execute();
  return rows.map((row) => ({
    title: row.title,
    body: row.body,
    createdAt: row.createdAt,
    createdByEmail: row.createdBy,
    updatedAt: row.updatedAt,
    updatedByEmail: row.updatedBy,
  }));
}

/** One saved reply of the file, in the caller's transaction. */
export async function importSavedReply(trx: Db, record: Record<string, unknown>): Promise<Outcome> {
  const input = {
    title: text(record.title, SAVED_REPLY_TITLE_MAX * 4),
    body: text(record.body, SAVED_REPLY_BODY_MAX * 4),
  };
  const problems = savedReplyProblems(input);
  const problem = problems.titulo ?? problems.texto;
  if (problem) throw refusedWith(problem);
  const reply = normalSavedReply(input);
  const key = reply.title.toLocaleLowerCase('es');
  const titles = await trx.selectFrom('savedReplies').select('title').execute();
  if (titles.some((row) => row.title.toLocaleLowerCase('es') === key)) return 'skipped';
  const createdAt = toIsoTime(record.createdAt);
  if (!createdAt) throw new RecordRefused('la fecha de creación falta o no es una fecha.');
  const updatedAt = toIsoTime(record.updatedAt) ?? createdAt;
  await trx
    .insertInto('savedReplies')
    .values({
      title: reply.title,
      body: reply.body,
      createdAt,
      createdBy: email(record.createdByEmail, STAFF_EMAIL, 'el correo de quien la creó', true),
      updatedAt,
      updatedBy: email(record.updatedByEmail, STAFF_EMAIL, 'el correo de quien la editó', true),
    })
    .execute();
  return 'imported';
}
