/**
 * Addresses whose owner reported one of our mails as spam (issue 41: a mailbox provider's feedback
 * report naming a mail of ours, src/server/channels/intake.ts). Automatic mail to them (an incident's
 * confirmation, its state notices) is not queued; a staff member's reply, which a person writes, still
 * goes, and the staff are told so (the timeline's 'Queja de spam' and their notice).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/index.ts';

const normalized = (address: string) => address.trim().toLowerCase();

/** Whether this address complained of our mail (automatic mail to it is then not queued). */
export async function hasComplained(trx: Kysely<Database>, address: string): Promise<boolean> {
  const row = await trx
    .selectFrom('mailComplaints')
    .select('address')
    .where('address', '=', normalized(address))
    .executeTakeFirst();
  return row !== undefined;
}

/** Records a complaint of this address (the first one stays). */
export async function recordComplaint(
  trx: Kysely<Database>,
  complaint: { address: string; incidentId: number; inboundMessageId: number },
  now: Date,
): Promise<void> {
  await trx
    .insertInto('mailComplaints')
    .values({
      address: normalized(complaint.address),
      incidentId: complaint.incidentId,
      inboundMessageId: complaint.inboundMessageId,
      complainedAt: now.toISOString(),
    })
    .onConflict((oc) => oc.column('address').doNothing())
    .execute();
}
