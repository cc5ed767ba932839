/**
 * Contact messages: stored first, with the staff notice and the confirmation to the person who wrote
 * queued in the same transaction. The visitor is told "sent" once the row is stored; delivery is the
 * outbox worker's job, so a mail server that is down loses nothing. The confirmation counts against the
 * caps every visitor mail has (incidents/notices.ts: 3 confirmations per address per UTC day, incidents'
 * and messages' together, and `VISITOR_MAIL_DAILY_CAP`); past one the message is stored and the staff
 * told all the same.
 */
import { looksLikeEmail } from '../../domain/email.ts';
import type { Db } from '../db/index.ts';
import { contactMessageRow } from '../db/index.ts';
import type { ContactMessage } from '../db/index.ts';
import {
  DEFAULT_CUSTOMER_MAIL_DAILY_CAP,
  reserveCustomerMail,
  type CustomerMailRefusal,
} from '../incidents/index.ts';
import { enqueueMail } from '../mail/index.ts';
import { recordLiveEvent } from '../live/index.ts';
import { contactConfirmationMail, contactStaffNoticeMail } from '../mail/index.ts';
import type { MailBrand } from '../mail/index.ts';

export type ContactFields = Pick<ContactMessage, 'name' | 'email' | 'message'>;

export interface SaveContactOptions {
  brand: MailBrand;
  staffInbox: string;
  /** `VISITOR_MAIL_DAILY_CAP` (0: no cap). */
  customerMailDailyCap?: number;
  now?: Date;
}

/** What became of the confirmation to the person who wrote: queued, no address to send it to, or a cap reached. */
export type ContactConfirmationOutcome = 'queued' | 'no-email' | CustomerMailRefusal;

export async function saveContactMessage(
  db: Db,
  fields: ContactFields,
  options: SaveContactOptions,
): Promise<{ id: number; createdAt: string; confirmation: ContactConfirmationOutcome }> {
  const now = options.now ?? new Date();
  const createdAt = now.toISOString();
  const saved = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('contactMessages')
      .values(contactMessageRow({ ...fields, createdAt }))
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await recordLiveEvent(trx, { kind: 'message.created', messageId: id }, now);
    await enqueueMail(
      trx,
      {
        kind: 'contact.received',
        ...contactStaffNoticeMail(options.brand, options.staffInbox, { id, ...fields, createdAt }),
      },
      now,
    );
    const email = fields.email.trim();
    let confirmation: ContactConfirmationOutcome = 'no-email';
    if (looksLikeEmail(email)) {
      confirmation =
        (await reserveCustomerMail(trx, {
          kind: 'confirmation',
          address: email,
          dailyCap: options.customerMailDailyCap ?? DEFAULT_CUSTOMER_MAIL_DAILY_CAP,
          now,
        })) ?? 'queued';
      if (confirmation === 'queued') {
        await enqueueMail(
          trx,
          { kind: 'contact.confirmation', ...contactConfirmationMail(options.brand, { email, createdAt }) },
          now,
        );
      }
    }
    return { id, createdAt, confirmation };
  });
  return saved;
}

export {
  exportContactMessages,
  importContactMessage,
  insertImportedMessage,
  type ExportedContactMessage,
  type ImportedContactMessage,
} from './transfer.ts';
export { countPendingMessages, exportMessagesCsv, listMessages, setMessageHandled } from './inbox.ts';
