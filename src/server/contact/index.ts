/**
 * Contact messages: stored first, with the staff notice queued in the same transaction. The visitor is
 * told "sent" once the row is stored; delivery is the outbox worker's job, so a mail server that is
 * down loses nothing.
 */
import type { Db } from '../db/index.ts';
import { contactMessageRow } from '../db/rows.ts';
import type { ContactMessage } from '../db/schema.ts';
import { enqueueMail, wakeMailWorkers } from '../mail/outbox.ts';
import { contactStaffNoticeMail } from '../mail/contact-mails.ts';
import type { MailBrand } from '../mail/templates.ts';

export type ContactFields = Pick<ContactMessage, 'name' | 'email' | 'message'>;

export interface SaveContactOptions {
  brand: MailBrand;
  staffInbox: string;
  now?: Date;
}

export async function saveContactMessage(db: Db, fields: ContactFields, options: SaveContactOptions): Promise<{ id: number; createdAt: string }> {
  const now = options.now ?? new Date();
  const createdAt = now.toISOString();
  const saved = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('contactMessages')
      .values(contactMessageRow({ ...fields, createdAt }))
      .returning('id')
      .executeTakeFirstOrThrow();
    await enqueueMail(trx, { kind: 'contact.received', ...contactStaffNoticeMail(options.brand, options.staffInbox, { ...fields, createdAt }) }, now);
    return { id: row.id, createdAt };
  });
  wakeMailWorkers();
  return saved;
}

/** A contact message to store as it stood elsewhere (`npm run data -- import`), who handled it already mapped to this database's id. */
export type ImportedContactMessage = ContactFields & Pick<ContactMessage, 'createdAt' | 'handledAt' | 'handledById' | 'handledByEmail'>;

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
