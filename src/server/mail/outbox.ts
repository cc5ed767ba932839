/**
 * The transactional outbox: a mail is a row of `mail_outbox`, written in the same transaction as the
 * record that causes it (an incident, a contact message), so a stored record always gets its mail and
 * a rolled-back one never does. A worker in each server process sends due rows.
 *
 * Claiming: one UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) on PostgreSQL, the same
 * statement without the row lock on SQLite (a single statement is atomic there). A claim sets a lease
 * (`locked_until`) so that no other worker takes the row while it is being sent; the lease outlives
 * every transport time-out. A process that dies mid-send leaves the lease to expire and the row is
 * tried again: delivery is at-least-once only in that crash window, never twice otherwise.
 */
import { sql, type Transaction } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../db/index.ts';
import { isPostgres } from '../db/index.ts';
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

/** Writes a mail row inside the caller's transaction; it is sent once that transaction commits. */
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

/** Claims up to `limit` due rows for this worker until `now + leaseMs`. */
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
  let candidates = due(db.selectFrom('mailOutbox').select('id'))
    .orderBy('nextAttemptAt')
    .orderBy('id')
    .limit(limit);
  if (isPostgres(db)) candidates = candidates.forUpdate().skipLocked();
  return due(
    db
      .updateTable('mailOutbox')
      .set({
        lockedUntil: new Date(now.getTime() + leaseMs).toISOString(),
        attempts: sql<number>`attempts + 1`,
      })
      .where('id', 'in', candidates),
  )
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

const WAKERS_KEY = Symbol.for('vertice.mail.wakers');
type WakerHolder = { [WAKERS_KEY]?: Set<() => void> };

function wakers(): Set<() => void> {
  const holder = globalThis as WakerHolder;
  holder[WAKERS_KEY] ??= new Set();
  return holder[WAKERS_KEY];
}

/**
 * Wakes this process's workers after a commit that queued mail. Goes through `globalThis` because the
 * bundled server (actions) and the start script (worker) load separate copies of this module.
 */
export function wakeMailWorkers(): void {
  for (const wake of wakers()) wake();
}

/** Starts the send loop; see {@link MailWorker}. */
export function startMailWorker(options: MailWorkerOptions): MailWorker {
  const { db, transport } = options;
  const log = options.log;
  const batchSize = options.batchSize ?? 10;
  const busyDelayMs = options.busyDelayMs ?? 1000;
  const idleDelayMs = options.idleDelayMs ?? 5000;
  const now = options.now ?? (() => new Date());

  let running = true;
  /** Rows this worker has claimed and not yet sent or given back. */
  let unfinished = new Set<number>();
  let wakeRequested = false;
  let interruptSleep: (() => void) | null = null;

  const wake = () => {
    wakeRequested = true;
    interruptSleep?.();
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (wakeRequested || !running) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        interruptSleep = null;
        resolve();
      }
      interruptSleep = done;
    });

  const runOnce = async (): Promise<number> => {
    const rows = await claimDueMail(db, now(), batchSize, options.leaseMs);
    unfinished = new Set(rows.map((row) => row.id));
    let attempted = 0;
    for (const row of rows) {
      if (!running && attempted > 0) {
        // Shutting down: hand the rest back instead of holding them until the lease expires.
        await db
          .updateTable('mailOutbox')
          .set({ lockedUntil: null })
          .where('id', '=', row.id)
          .where('status', '=', 'pending')
          .execute();
        unfinished.delete(row.id);
        continue;
      }
      attempted += 1;
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
        const message = error instanceof Error ? error.message : String(error);
        if (outcome === 'failed')
          log?.error(
            { mailId: row.id, kind: row.kind, attempt: row.attempts, error: message },
            'mail failed for good',
          );
        else
          log?.warn(
            { mailId: row.id, kind: row.kind, attempt: row.attempts, error: message },
            'mail send failed; will retry',
          );
      } finally {
        unfinished.delete(row.id);
      }
    }
    return attempted;
  };

  const loop = (async () => {
    while (running && options.poll !== false) {
      wakeRequested = false;
      let attempted = 0;
      try {
        await options.beforeRound?.();
        attempted = await runOnce();
      } catch (error) {
        // The database may be restarting; keep polling, it recovers by itself.
        log?.error(
          { error: error instanceof Error ? error.message : String(error) },
          'mail outbox round failed',
        );
      }
      if (!running) break;
      await sleep(attempted > 0 ? busyDelayMs : idleDelayMs);
    }
  })();

  wakers().add(wake);
  return {
    name: 'mail-outbox',
    runOnce,
    wake,
    async stop() {
      running = false;
      wakers().delete(wake);
      interruptSleep?.();
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'grace-over'>(
        (resolve) => (timer = setTimeout(() => resolve('grace-over'), options.stopGraceMs ?? STOP_GRACE_MS)),
      );
      const outcome = await Promise.race([loop, graceOver]);
      clearTimeout(timer);
      const stuck = [...unfinished];
      if (outcome === 'grace-over' && stuck.length > 0) {
        // Hand the rows back so that the next start, or another process, sends them: if the stalled
        // server did take the message after all, it is delivered twice, the at-least-once window above.
        log?.warn({ mailIds: stuck }, 'mail send still running at shutdown; released for a retry');
        await db
          .updateTable('mailOutbox')
          .set({ lockedUntil: null })
          .where('id', 'in', stuck)
          .where('status', '=', 'pending')
          .execute();
      }
    },
  };
}
