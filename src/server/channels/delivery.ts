/**
 * The desk's one way to tell a customer something (issue 37): {@link recordCustomerNotice} writes a
 * channel-neutral `customer_notices` row in the change's own transaction, like `live_events`, and hands
 * the notice to the channel the incident came from (`incidents.channel`, registry.ts). The mail channel
 * takes it at once, in that transaction (its mail outbox then sends it: channels/mail/notices.ts); a
 * channel that speaks to an outside service leaves it `pending` for the delivery worker, which sends
 * it after the commit (woken by {@link DELIVERY_CHANNEL}) and retries with back-off. The desk never
 * names a channel.
 */
import type { Transaction } from 'kysely';
import type { Database, Db, Incident } from '../db/index.ts';
import { notifyAfterCommit } from '../db/index.ts';
import type { MailBrand } from '../mail/index.ts';
import type { CustomerNotice, NoticeOutcome, SeenIncident } from './channel.ts';
import { channelOf } from './registry.ts';

export type { CustomerNotice, NoticeOutcome } from './channel.ts';

/**
 * The channel of notices left for the delivery worker (src/server/db/notify.ts): notified in the
 * transaction that records one, so the workers look at its commit (a rolled-back one wakes nobody).
 */
export const DELIVERY_CHANNEL = 'vertice_delivery';

/**
 * Records the notice and hands it to the incident's channel; what the channel did with it. `incident`
 * is the row as the caller's change holds it (inserted, updated or read in this transaction): the
 * notice costs no second read of it.
 */
export async function recordCustomerNotice(
  trx: Transaction<Database>,
  incident: Incident,
  notice: CustomerNotice,
  options: { brand: MailBrand; customerMailDailyCap?: number; now: Date },
): Promise<NoticeOutcome> {
  const channel = channelOf(incident.channel);
  const { outcome, deferred, prepared } = await channel.deliver(notice, { trx, incident, ...options });
  const at = options.now.toISOString();
  await trx
    .insertInto('customerNotices')
    .values({
      incidentId: incident.id,
      channel: channel.id,
      kind: notice.kind,
      payload: noticePayload(notice, deferred && outcome === 'queued' ? prepared : undefined),
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
  if (deferred && outcome === 'queued') await notifyAfterCommit(trx, DELIVERY_CHANNEL);
  return outcome;
}

/**
 * The stored payload: the notice's JSON, and for one the delivery worker sends, under `_send`, what
 * `deliver` prepared and the parts sent so far (delivery-worker.ts drops `_send` once it is sent).
 */
export function noticePayload(
  notice: CustomerNotice,
  prepared?: Record<string, string>,
  progress: Record<string, string> = {},
): string {
  return JSON.stringify(prepared ? { ...notice, _send: { prepared, progress } } : notice);
}

/** A stored payload read back: the notice, and what its send carries. */
export function readNoticePayload(payload: string): {
  notice: CustomerNotice;
  prepared: Record<string, string>;
  progress: Record<string, string>;
} {
  const { _send, ...notice } = JSON.parse(payload) as CustomerNotice & {
    _send?: { prepared?: Record<string, string>; progress?: Record<string, string> };
  };
  return {
    notice: notice as CustomerNotice,
    prepared: _send?.prepared ?? {},
    progress: _send?.progress ?? {},
  };
}

/**
 * A staff member opened the incident: its channel tells the customer their messages were seen, if it
 * can (a WhatsApp message marked read, sent later by the delivery worker); whether it recorded anything.
 * The notice is recorded in a transaction of its own whose commit wakes the delivery workers.
 */
export async function markIncidentSeen(
  db: Db,
  incident: SeenIncident,
  now: Date = new Date(),
): Promise<boolean> {
  const receipt = channelOf(incident.channel).receipt;
  if (!receipt) return false;
  return db.transaction().execute(async (trx) => {
    const recorded = await receipt(trx, incident, now);
    if (recorded) await notifyAfterCommit(trx, DELIVERY_CHANNEL);
    return recorded;
  });
}
