/**
 * The desk's one way to tell a customer something (issue 37): {@link recordCustomerNotice} writes a
 * channel-neutral `customer_notices` row in the change's own transaction, like `live_events`, and hands
 * the notice to the channel the incident came from (`incidents.channel`, registry.ts). The mail channel
 * takes it at once, in that transaction (its mail outbox then sends it: channels/mail/notices.ts); a
 * channel that speaks to an outside service leaves it `pending` for the delivery worker, which sends
 * it after the commit and retries with back-off. The desk never names a channel.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../db/index.ts';
import type { MailBrand } from '../mail/index.ts';
import { wakeMailWorkers } from '../mail/index.ts';
import type { CustomerNotice, NoticeOutcome } from './channel.ts';
import { channelOf } from './registry.ts';

export type { CustomerNotice, NoticeOutcome } from './channel.ts';

/** Records the notice and hands it to the incident's channel; what the channel did with it. */
export async function recordCustomerNotice(
  trx: Transaction<Database>,
  incidentId: number,
  notice: CustomerNotice,
  options: { brand: MailBrand; visitorMailDailyCap?: number; now: Date },
): Promise<NoticeOutcome> {
  const incident = await trx
    .selectFrom('incidents')
    .selectAll()
    .where('id', '=', incidentId)
    .executeTakeFirstOrThrow();
  const channel = channelOf(incident.channel);
  const { outcome, deferred } = await channel.deliver(notice, { trx, incident, ...options });
  const at = options.now.toISOString();
  await trx
    .insertInto('customerNotices')
    .values({
      incidentId,
      channel: channel.id,
      kind: notice.kind,
      payload: JSON.stringify(notice),
      status: outcome !== 'queued' ? 'skipped' : deferred ? 'pending' : 'handed',
      outcome,
      nextAttemptAt: at,
      lockedUntil: null,
      lastError: null,
      externalId: null,
      createdAt: at,
      doneAt: outcome !== 'queued' || !deferred ? at : null,
    })
    .execute();
  return outcome;
}

/** After the commit of a change that recorded notices: the workers that send them look now. */
export function wakeDelivery(): void {
  wakeMailWorkers();
}
