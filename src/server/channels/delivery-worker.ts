/**
 * The delivery worker (issue 37): sends the customer notices a channel left `pending` (delivery.ts) —
 * the WhatsApp channel's, which speak to Meta's API — after the desk's commit, with the mail outbox's
 * guarantees (src/server/mail/outbox.ts):
 *
 * - Claiming: one notice at a time, by one UPDATE of the row a materialized CTE picked FOR UPDATE SKIP
 *   LOCKED on PostgreSQL (on SQLite, UPDATE … WHERE id IN (SELECT …): one statement is atomic there), which
 *   sets a lease (`locked_until`) and counts the attempt. Another process skips a leased notice, so that
 *   with two processes each notice is sent by one. Every later write names the lease it holds, so that a
 *   worker whose lease ran out (and whose notice another took) changes nothing.
 * - A crash mid-send leaves the lease to expire and the notice is tried again: delivery is at-least-once
 *   in that window only. A reply's parts already sent (its text, each file) are recorded as they go
 *   (`_send.progress`), so a retry sends only what is left; the one part cut short may go twice.
 * - A retryable failure (Meta down, 5xx, 429, a time-out) re-schedules with back-off (15 s, 30 s, 1 min…
 *   capped at 30 min) and gives up after 24 h; a permanent one (131026, a refused parameter) fails the
 *   notice with the staff's words ('No se pudo entregar: …'). Each attempt is on the row (`attempts`,
 *   `last_error`), which the incident's timeline shows on the reply.
 * - Woken at the commit that recorded a notice (`vertice_delivery`, src/server/db/notify.ts: on
 *   PostgreSQL in every process), and by its own timer; the loop is src/server/db/polling-worker.ts's.
 */
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { CustomerNoticeRow } from '../db/index.ts';
import { isPostgres, startPollingWorker, type Db } from '../db/index.ts';
import type { Channel } from './channel.ts';
import { DELIVERY_CHANNEL, noticePayload, readNoticePayload } from './delivery.ts';

export const DELIVERY_RETRY_BASE_MS = 15_000;
export const DELIVERY_RETRY_MAX_MS = 30 * 60_000;
export const DELIVERY_GIVE_UP_AFTER_MS = 24 * 60 * 60_000;
/** Outlives every Graph call's time-out (15 s) times the parts of a reply with files. */
const DEFAULT_LEASE_MS = 5 * 60_000;
const STOP_GRACE_MS = 7000;

/** A channel the worker sends for: its id, its send and its words for a failure. */
export type NoticeSender = Pick<Channel, 'id' | 'describeError'> & { send: NonNullable<Channel['send']> };

/** Delay before attempt n+1 after n failed attempts: 15 s, 30 s, 1 min … capped at 30 min. */
export function deliveryRetryDelayMs(failedAttempts: number): number {
  return Math.min(DELIVERY_RETRY_BASE_MS * 2 ** Math.max(0, failedAttempts - 1), DELIVERY_RETRY_MAX_MS);
}

/**
 * Claims the next due notice of these channels for this worker until `now + leaseMs`: its row, or none.
 * On PostgreSQL the candidate is chosen once, in a materialized CTE: a plain `id IN (SELECT … LIMIT 1
 * FOR UPDATE SKIP LOCKED)` may be evaluated again for each row the UPDATE scans and lease several rows
 * while one is returned (a two-worker test saw it). Should a statement ever lease more than one, every
 * row it returns is sent (the caller takes them all).
 */
export async function claimDueNotices(
  db: Db,
  channels: readonly string[],
  now: Date,
  leaseMs: number = DEFAULT_LEASE_MS,
): Promise<CustomerNoticeRow[]> {
  if (channels.length === 0) return [];
  const nowIso = now.toISOString();
  const due = <Q extends { where: (...args: any[]) => Q }>(query: Q): Q =>
    query
      .where('status', '=', 'pending')
      .where('channel', 'in', channels)
      .where('nextAttemptAt', '<=', nowIso)
      .where((eb: any) => eb.or([eb('lockedUntil', 'is', null), eb('lockedUntil', '<', nowIso)]));
  const lease = {
    lockedUntil: new Date(now.getTime() + leaseMs).toISOString(),
    attempts: sql<number>`attempts + 1`,
  };
  if (isPostgres(db))
    return due(
      db
        .with(
          (cte) => cte('candidate').materialized(),
          (qb) =>
            due(qb.selectFrom('customerNotices').select('id'))
              .orderBy('nextAttemptAt')
              .orderBy('id')
              .limit(1)
              .forUpdate()
              .skipLocked(),
        )
        .updateTable('customerNotices')
        .set(lease)
        .where('id', 'in', (eb) => eb.selectFrom('candidate').select('candidate.id')),
    )
      .returningAll()
      .execute();
  const candidate = due(db.selectFrom('customerNotices').select('id'))
    .orderBy('nextAttemptAt')
    .orderBy('id')
    .limit(1);
  return due(db.updateTable('customerNotices').set(lease).where('id', 'in', candidate))
    .returningAll()
    .execute();
}

/** {@link claimDueNotices}' first row (it returns one unless the engine surprised us). */
export async function claimDueNotice(
  db: Db,
  channels: readonly string[],
  now: Date,
  leaseMs: number = DEFAULT_LEASE_MS,
): Promise<CustomerNoticeRow | null> {
  return (await claimDueNotices(db, channels, now, leaseMs))[0] ?? null;
}

/** A stored time as ISO 8601 (PostgreSQL's driver hands back a Date). */
const isoOf = (value: string | Date): string => (value instanceof Date ? value.toISOString() : value);

/** The claimed row, while this worker still holds its lease. */
function held(db: Db, row: CustomerNoticeRow) {
  return db
    .updateTable('customerNotices')
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .where('lockedUntil', '=', isoOf(row.lockedUntil!));
}

/** Whether an error says trying again cannot help (`retryable: false`, a refused argument). */
function permanent(error: unknown): boolean {
  if (error instanceof RangeError) return true;
  const retryable = (error as { retryable?: unknown } | null)?.retryable;
  return retryable === false;
}

export interface DeliveryWorkerOptions {
  db: Db;
  /** The channels it sends for (the WhatsApp channel's `send`, when its settings turn it on). */
  senders: readonly NoticeSender[];
  log?: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Notices sent per round at most (one claimed at a time). */
  batchSize?: number;
  busyDelayMs?: number;
  idleDelayMs?: number;
  leaseMs?: number;
  /** The clock (tests move it forward to reach retries). */
  now?: () => Date;
  /** False: no polling loop, rounds run only through `runOnce()` (tests drive them step by step). */
  poll?: boolean;
  stopGraceMs?: number;
}

export type AttemptOutcome = 'sent' | 'retry' | 'failed' | 'lost-lease';

export interface DeliveryWorker {
  name: string;
  /** One round: claim due notices one by one and send them; resolves with how many were attempted. */
  runOnce(): Promise<number>;
  /** Ends the sleep early (a notice was just recorded). */
  wake(): void;
  /** Stops after the current send; a send outlasting the grace period has its notice released. */
  stop(): Promise<void>;
}

/** One attempt at a claimed notice: sent, re-scheduled, failed for good, or its lease lost meanwhile. */
export async function attemptNotice(
  db: Db,
  row: CustomerNoticeRow,
  sender: NoticeSender,
  now: () => Date,
): Promise<{ outcome: AttemptOutcome; error?: unknown }> {
  const { notice, prepared, progress } = readNoticePayload(row.payload);
  const incident = await db
    .selectFrom('incidents')
    .selectAll()
    .where('id', '=', row.incidentId)
    .executeTakeFirstOrThrow();
  try {
    const result = await sender.send({
      db,
      notice,
      noticeId: row.id,
      incident,
      now: now(),
      prepared,
      progress,
      async record(parts) {
        Object.assign(progress, parts);
        const updated = await held(db, row)
          .set({ payload: noticePayload(notice, prepared, progress) })
          .executeTakeFirst();
        // Another worker took the notice (this lease expired): stop before sending more.
        if (Number(updated.numUpdatedRows) === 0) throw new LostLease();
      },
    });
    const done = now().toISOString();
    // Sent: the links' tokens leave the row (they were only kept for a retry).
    const updated = await held(db, row)
      .set({
        status: 'sent',
        externalId: result.externalId,
        outcome: result.sentAs ?? 'sent',
        payload: JSON.stringify(notice),
        lockedUntil: null,
        lastError: null,
        doneAt: done,
      })
      .executeTakeFirst();
    return { outcome: Number(updated.numUpdatedRows) ? 'sent' : 'lost-lease' };
  } catch (error) {
    if (error instanceof LostLease) return { outcome: 'lost-lease' };
    const at = now();
    const words = (
      sender.describeError?.(error) ?? (error instanceof Error ? error.message : String(error))
    ).slice(0, 500);
    const age = at.getTime() - new Date(isoOf(row.createdAt)).getTime();
    const giveUp = permanent(error) || age >= DELIVERY_GIVE_UP_AFTER_MS;
    const updated = await held(db, row)
      .set(
        giveUp
          ? { status: 'failed', lockedUntil: null, lastError: words, doneAt: at.toISOString() }
          : {
              nextAttemptAt: new Date(at.getTime() + deliveryRetryDelayMs(row.attempts)).toISOString(),
              lockedUntil: null,
              lastError: words,
            },
      )
      .executeTakeFirst();
    if (!Number(updated.numUpdatedRows)) return { outcome: 'lost-lease', error };
    return { outcome: giveUp ? 'failed' : 'retry', error };
  }
}

class LostLease extends Error {
  override name = 'LostLease';
}

/** Logs what became of one attempt. */
function logAttempt(
  log: DeliveryWorkerOptions['log'],
  row: CustomerNoticeRow,
  { outcome, error }: { outcome: AttemptOutcome; error?: unknown },
): void {
  const fields = { noticeId: row.id, kind: row.kind, channel: row.channel, attempt: row.attempts };
  const message = error instanceof Error ? error.message : error ? String(error) : undefined;
  if (outcome === 'sent') log?.info(fields, 'customer notice sent');
  else if (outcome === 'retry')
    log?.warn({ ...fields, error: message }, 'customer notice failed; will retry');
  else if (outcome === 'failed') log?.error({ ...fields, error: message }, 'customer notice failed for good');
  else log?.warn(fields, 'customer notice lease lost; another worker has it');
}

/** Starts the send loop (src/server/db/polling-worker.ts); see {@link DeliveryWorker}. */
export function startDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { db, log } = options;
  const senders = new Map(options.senders.map((sender) => [sender.id as string, sender]));
  const channels = [...senders.keys()];
  const batchSize = options.batchSize ?? 20;
  const now = options.now ?? (() => new Date());
  let current: CustomerNoticeRow | null = null;

  const round = async (): Promise<number> => {
    let attempted = 0;
    while (attempted < batchSize && (worker.running || options.poll === false)) {
      const rows = await claimDueNotices(db, channels, now(), options.leaseMs);
      if (rows.length === 0) break;
      for (const row of rows) {
        attempted += 1;
        current = row;
        try {
          logAttempt(log, row, await attemptNotice(db, row, senders.get(row.channel)!, now));
        } finally {
          current = null;
        }
      }
    }
    return attempted;
  };

  const worker = startPollingWorker({
    name: 'delivery',
    db,
    channel: DELIVERY_CHANNEL,
    round,
    busyDelayMs: options.busyDelayMs ?? 200,
    idleDelayMs: options.idleDelayMs ?? 5000,
    poll: options.poll,
    stopGraceMs: options.stopGraceMs ?? STOP_GRACE_MS,
    failureMessage: 'delivery round failed',
    log,
    async release() {
      const stuck = current;
      if (!stuck) return;
      // Handed back so that the next start, or another process, sends it (the at-least-once window).
      log?.warn({ noticeId: stuck.id }, 'notice send still running at shutdown; released for a retry');
      await held(db, stuck).set({ lockedUntil: null }).execute();
    },
  });
  return { name: worker.name, runOnce: worker.runOnce, wake: worker.wake, stop: worker.stop };
}
