/**
 * The transactional outbox: a mail is a row of `mail_outbox`, written in the same transaction as the
 * record that causes it (an incident, a contact message), so a stored record always gets its mail and
 * a rolled-back one never does. A worker in each server process sends due rows.
 *
 * Claiming: on PostgreSQL one UPDATE … FROM a materialized CTE that picks the rows FOR UPDATE SKIP
 * LOCKED (exactly the rows it returns are leased); on SQLite one UPDATE … WHERE id IN (SELECT …), a
 * single statement being atomic there. A claim sets a lease
 * (`locked_until`) so that no other worker takes the row while it is being sent; the lease outlives
 * every transport time-out. A process that dies mid-send leaves the lease to expire and the row is
 * tried again: delivery is at-least-once only in that crash window, never twice otherwise.
 *
 * A queued mail notifies {@link MAIL_CHANNEL} at its commit (src/server/db/notify.ts): the workers
 * (the loop of src/server/db/polling-worker.ts) wake then, in this process and on PostgreSQL in every
 * other, instead of at their next poll.
 */
import { sql, type Transaction } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../db/index.ts';
import { isPostgres, notifyAfterCommit, startPollingWorker } from '../db/index.ts';
import type { Database, OutboxMail } from '../db/index.ts';
import {
  MailDeliveryError,
  type MailAttachment,
  type MailMessage,
  type MailTransport,
  type QueuedMail,
} from './types.ts';

export const RETRY_BASE_MS = 60_000;
export const RETRY_MAX_MS = 60 * 60_000;
export const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;
const DEFAULT_LEASE_MS = 5 * 60_000;
const STOP_GRACE_MS = 7000;

/** Writes a mail row inside the caller's transaction; it is sent once that transaction commits (the workers wake then). */
export async function enqueueMail(
  trx: Transaction<Database> | Db,
  mail: QueuedMail,
  now: Date = new Date(),
): Promise<number> {
  const row = await trx
    .insertInto('mailOutbox')
    .values({
      kind: mail.kind,
      toAddress: mail.to,
      replyTo: mail.replyTo ?? null,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
      nextAttemptAt: now.toISOString(),
      lockedUntil: null,
      lastError: null,
      createdAt: now.toISOString(),
      sentAt: null,
      // Only set when there are files, so a mail without them writes the same row as before 0016.
      ...(mail.attachments?.length ? { attachments: JSON.stringify(mail.attachments) } : {}),
      // Likewise only when set (migration 0024).
      ...(mail.messageId ? { messageId: mail.messageId } : {}),
      ...(mail.headers && Object.keys(mail.headers).length ? { headers: JSON.stringify(mail.headers) } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await notifyAfterCommit(trx, MAIL_CHANNEL);
  return row.id;
}

/** The files of a stored row; rows from before migration 0016 (or without files) have none. */
export function storedAttachments(row: Pick<OutboxMail, 'attachments'>): { attachments?: MailAttachment[] } {
  if (!row.attachments) return {};
  const parsed = JSON.parse(row.attachments) as MailAttachment[];
  return Array.isArray(parsed) && parsed.length ? { attachments: parsed } : {};
}

/**
 * The files of a row with the bytes of those that name a stored blob (a staff reply's files: the row
 * keeps only their SHA-256, src/server/attachments), read now, when the mail is sent.
 */
export async function attachmentsToSend(
  db: Db,
  row: Pick<OutboxMail, 'attachments'>,
): Promise<{ attachments?: MailAttachment[] }> {
  const stored = storedAttachments(row);
  if (!stored.attachments?.some((file) => file.blob)) return stored;
  const attachments = await Promise.all(
    stored.attachments.map(async (file) => {
      if (!file.blob) return file;
      const blob = await db
        .selectFrom('blobs')
        .select('data')
        .where('sha256', '=', file.blob)
        .executeTakeFirst();
      if (!blob) throw new MailDeliveryError(`Falta el archivo adjunto ${file.filename}`, false);
      const data = blob.data as Uint8Array;
      return {
        ...file,
        content: Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength),
      };
    }),
  );
  return { attachments };
}

/** The Message-ID and extra headers of a stored row (none on rows from before migration 0024). */
export function storedHeaders(
  row: Pick<OutboxMail, 'messageId' | 'headers'>,
): Pick<MailMessage, 'messageId' | 'headers'> {
  const headers = row.headers ? (JSON.parse(row.headers) as Record<string, string>) : null;
  return {
    ...(row.messageId ? { messageId: row.messageId } : {}),
    ...(headers && Object.keys(headers).length ? { headers } : {}),
  };
}

/** Delay before attempt n+1 after n failed attempts: 1 min, 2, 4 … capped at 1 h. */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, failedAttempts - 1), RETRY_MAX_MS);
}

/**
 * Claims up to `limit` due rows for this worker until `now + leaseMs`: exactly the rows it returns. On
 * PostgreSQL the candidates are chosen once, in a materialized CTE that locks them (`FOR UPDATE SKIP
 * LOCKED`): a plain `id IN (SELECT … LIMIT n FOR UPDATE SKIP LOCKED)` may be evaluated again while the
 * UPDATE runs (a row a concurrent claimer changed is re-checked) and lease rows it does not return
 * (tests/integration/mail-claim.test.ts), as the delivery worker found (src/server/channels/delivery-worker.ts).
 */
export async function claimDueMail(
  db: Db,
  now: Date,
  limit: number,
  leaseMs: number = DEFAULT_LEASE_MS,
): Promise<OutboxMail[]> {
  const nowIso = now.toISOString();
  const due = <Q extends { where: (...args: any[]) => Q }>(query: Q): Q =>
    query
      .where('status', '=', 'pending')
      .where('nextAttemptAt', '<=', nowIso)
      .where((eb: any) => eb.or([eb('lockedUntil', 'is', null), eb('lockedUntil', '<', nowIso)]));
  const lease = {
    lockedUntil: new Date(now.getTime() + leaseMs).toISOString(),
    attempts: sql<number>`attempts + 1`,
  };
  const candidates = () =>
    due(db.selectFrom('mailOutbox').select('id')).orderBy('nextAttemptAt').orderBy('id').limit(limit);
  if (isPostgres(db))
    return db
      .with(
        (cte) => cte('candidate').materialized(),
        () => candidates().forUpdate().skipLocked(),
      )
      .updateTable('mailOutbox')
      .set(lease)
      .from('candidate')
      .whereRef('mailOutbox.id', '=', 'candidate.id')
      .returningAll('mailOutbox')
      .execute();
  // SQLite: one statement is atomic, and one writer at a time.
  return due(db.updateTable('mailOutbox').set(lease).where('id', 'in', candidates()))
    .returningAll()
    .execute();
}

export async function markSent(db: Db, id: number, now: Date): Promise<void> {
  await db
    .updateTable('mailOutbox')
    .set({ status: 'sent', sentAt: now.toISOString(), lockedUntil: null, lastError: null })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** Records a failed attempt: retry later with backoff, or give up ('failed') when final or too old. */
export async function markFailed(
  db: Db,
  row: OutboxMail,
  error: unknown,
  now: Date,
): Promise<'retry' | 'failed'> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
  const retriable = error instanceof MailDeliveryError ? error.retriable : true;
  const age = now.getTime() - new Date(row.createdAt).getTime();
  const giveUp = !retriable || age >= GIVE_UP_AFTER_MS;
  await db
    .updateTable('mailOutbox')
    .set(
      giveUp
        ? { status: 'failed', lockedUntil: null, lastError: message }
        : {
            nextAttemptAt: new Date(now.getTime() + retryDelayMs(row.attempts)).toISOString(),
            lockedUntil: null,
            lastError: message,
          },
    )
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .execute();
  return giveUp ? 'failed' : 'retry';
}

export interface MailWorkerOptions {
  db: Db;
  transport: MailTransport;
  log?: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Rows claimed per round. */
  batchSize?: number;
  /** Pause after a round that found work, and after an idle round. */
  busyDelayMs?: number;
  idleDelayMs?: number;
  leaseMs?: number;
  /** The clock (tests move it forward to reach retries). */
  now?: () => Date;
  /** False: no polling loop, rounds run only through `runOnce()` (tests drive them step by step). */
  poll?: boolean;
  /** How long `stop()` waits for the send in progress (default 7 s, within the 10 s shutdown). */
  stopGraceMs?: number;
  /** Runs before each round, e.g. to queue a digest that has come due (its failure is logged). */
  beforeRound?: () => Promise<unknown>;
}

export interface MailWorker {
  name: string;
  /** One round: claim due rows and send them; resolves with how many were attempted. */
  runOnce(): Promise<number>;
  /** Ends the sleep early (a mail was just queued). */
  wake(): void;
  /**
   * Stops after the current send; claimed rows not yet sent are released for others. A send that
   * outlasts the grace period (a mail server that stopped answering) is released too, and not waited for.
   */
  stop(): Promise<void>;
}

/** The channel of queued mail (src/server/db/notify.ts): {@link enqueueMail} notifies it, the workers listen. */
export const MAIL_CHANNEL = 'vertice_mail';

/** One attempt at a claimed row: sent, or re-scheduled / failed for good, as the error says. */
async function sendRow(
  db: Db,
  transport: MailTransport,
  row: OutboxMail,
  now: () => Date,
  log: MailWorkerOptions['log'],
): Promise<void> {
  try {
    await transport.send({
      to: row.toAddress,
      replyTo: row.replyTo,
      subject: row.subject,
      text: row.textBody,
      html: row.htmlBody,
      ...(await attachmentsToSend(db, row)),
      ...storedHeaders(row),
    });
    await markSent(db, row.id, now());
    log?.info(
      { mailId: row.id, kind: row.kind, attempt: row.attempts, transport: transport.kind },
      'mail sent',
    );
  } catch (error) {
    const outcome = await markFailed(db, row, error, now());
    const fields = {
      mailId: row.id,
      kind: row.kind,
      attempt: row.attempts,
      error: error instanceof Error ? error.message : String(error),
    };
    if (outcome === 'failed') log?.error(fields, 'mail failed for good');
    else log?.warn(fields, 'mail send failed; will retry');
  }
}

/** Gives claimed rows back (their lease ends now) so that another round, or process, sends them. */
async function releaseRows(db: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('mailOutbox')
    .set({ lockedUntil: null })
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .execute();
}

/** Starts the send loop (src/server/db/polling-worker.ts); see {@link MailWorker}. */
export function startMailWorker(options: MailWorkerOptions): MailWorker {
  const { db, transport, log } = options;
  const now = options.now ?? (() => new Date());
  /** Rows this worker has claimed and not yet sent or given back. */
  let unfinished = new Set<number>();

  const round = async (): Promise<number> => {
    const rows = await claimDueMail(db, now(), options.batchSize ?? 10, options.leaseMs);
    unfinished = new Set(rows.map((row) => row.id));
    let attempted = 0;
    for (const row of rows) {
      if (!worker.running && attempted > 0) {
        // Shutting down: hand the rest back instead of holding them until the lease expires.
        await releaseRows(db, [row.id]);
        unfinished.delete(row.id);
        continue;
      }
      attempted += 1;
      try {
        await sendRow(db, transport, row, now, log);
      } finally {
        unfinished.delete(row.id);
      }
    }
    return attempted;
  };

  const worker = startPollingWorker({
    name: 'mail-outbox',
    db,
    channel: MAIL_CHANNEL,
    round,
    beforeRound: options.beforeRound,
    busyDelayMs: options.busyDelayMs ?? 1000,
    idleDelayMs: options.idleDelayMs ?? 5000,
    poll: options.poll,
    stopGraceMs: options.stopGraceMs ?? STOP_GRACE_MS,
    failureMessage: 'mail outbox round failed',
    log,
    async release() {
      const stuck = [...unfinished];
      if (stuck.length === 0) return;
      // Hand the rows back so that the next start, or another process, sends them: if the stalled
      // server did take the message after all, it is delivered twice, the at-least-once window above.
      log?.warn({ mailIds: stuck }, 'mail send still running at shutdown; released for a retry');
      await releaseRows(db, stuck);
    },
  });
  return { name: worker.name, runOnce: worker.runOnce, wake: worker.wake, stop: worker.stop };
}
