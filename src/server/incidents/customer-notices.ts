/**
 * The desk's one door to the channels (src/server/channels, docs/decisions/0020): what it tells a
 * customer is recorded here and handed to the incident's channel. The channels build on the desk (a
 * message opens an incident or joins one as the customer's answer), so the desk reaches them at run
 * time, by a dynamic import, and no import circle ties the two modules together.
 */
import type { Transaction } from 'kysely';
import type { NoticeDelivery } from '../../domain/channels.ts';
import type { CustomerNotice, NoticeOutcome } from '../channels/index.ts';
import type { Database, Db, Incident } from '../db/index.ts';
import type { MailBrand } from '../mail/index.ts';

let channels: typeof import('../channels/index.ts') | undefined;
const theChannels = async () => (channels ??= await import('../channels/index.ts'));

/**
 * Records the notice in the change's transaction and hands it to the incident's channel; `incident` is
 * its row as the change holds it.
 */
export async function noticeCustomer(
  trx: Transaction<Database>,
  incident: Incident,
  notice: CustomerNotice,
  options: { brand: MailBrand; customerMailDailyCap?: number; now: Date },
): Promise<NoticeOutcome> {
  return (await theChannels()).recordCustomerNotice(trx, incident, notice, options);
}

/** What became of each staff reply its channel sends itself (WhatsApp), by the reply's entry id. */
export async function replyDeliveries(db: Db, incidentId: number): Promise<Map<number, NoticeDelivery>> {
  return (await theChannels()).replyDeliveries(db, incidentId);
}
