/**
 * The contact messages of `npm run data` (issue 40: each area moves its own rows): exported with their
 * handled state ('Marcar como atendido'), who handled it by e-mail; imported by the contact form's
 * rule for the e-mail, one already here (same e-mail, time and text) skipped.
 */
import { contactFormSchema } from '../../domain/forms/contact.ts';
import {
  email,
  RecordRefused,
  STAFF_EMAIL,
  text,
  toIsoTime,
  type Outcome,
  type StaffEmails,
  type StaffIds,
} from '../data-records.ts';
import { contactMessageRow } from '../db/index.ts';
import type { ContactMessage, Db } from '../db/index.ts';

/** `handledAt`/`handledByEmail`: 'Marcar como atendido' (null while pending). */
export type ExportedContactMessage = Pick<
  ContactMessage,
  'name' | 'email' | 'message' | 'createdAt' | 'handledAt' | 'handledByEmail'
>;

/** A contact message to store as it stood elsewhere (`npm run data -- import`), who handled it already mapped to this database's id. */
export type ImportedContactMessage = Pick<
  ContactMessage,
  'name' | 'email' | 'message' | 'createdAt' | 'handledAt' | 'handledById' | 'handledByEmail'
>;

/** Stores the message, in the caller's transaction; false when the same one (e-mail, time and text) is already here. */
export async function insertImportedMessage(trx: Db, message: ImportedContactMessage): Promise<boolean> {
  const exists = await trx
    .selectFrom('contactMessages')
    .select('id')
    .where('email', '=', message.email)
    .where('createdAt', '=', message.createdAt)
    .where('message', '=', message.message)
    .executeTakeFirst();
  if (exists) return false;
  await trx.insertInto('contactMessages').values(contactMessageRow(message)).execute();
  return true;
}

/** Every message, oldest first. */
export async function exportContactMessages(db: Db, staff: StaffEmails): Promise<ExportedContactMessage[]> {
  const messages = await db
    .selectFrom('contactMessages')
    .selectAll()
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  return messages.map((row) => ({
    name: row.name,
    email: row.email,
    message: row.message,
    createdAt: row.createdAt,
    handledAt: row.handledAt ?? null,
    handledByEmail: row.handledAt ? staff.emailOf(row.handledById ?? null, row.handledByEmail ?? null) : null,
  }));
}

/** One message of the file (ours, or the original site's `mensajes`), in the caller's transaction. */
export async function importContactMessage(
  trx: Db,
  record: Record<string, unknown>,
  staff: StaffIds,
): Promise<Outcome> {
  const createdAt = toIsoTime(record.createdAt ?? record.fecha);
  const message = text(record.message);
  if (!createdAt) throw new RecordRefused('la fecha falta o no es una fecha.');
  if (!message) throw new RecordRefused('el mensaje está vacío.');
  const address = email(record.email, contactFormSchema.shape.email, 'el correo');
  const handledAt = toIsoTime(record.handledAt);
  const handledByEmail = handledAt
    ? email(record.handledByEmail, STAFF_EMAIL, 'el correo de quien lo atendió', true)
    : null;
  const stored = await insertImportedMessage(trx, {
    name: text(record.name, 200),
    email: address,
    message,
    createdAt,
    handledAt,
    handledById: staff(handledByEmail),
    handledByEmail,
  });
  return stored ? 'imported' : 'skipped';
}
