/**
 * The e-mail channel's mailbox reader (issue 21): polls `INBOUND_IMAP_URL` with imapflow every
 * `INBOUND_POLL_SECONDS` and hands each mail to the one inbound path (src/server/channels/intake.ts).
 *
 * - A mail is flagged `\Seen` and moved to 'Procesados', or to 'Rechazados' when the path refused it
 *   (spam, too many new incidents from one sender, larger than `INBOUND_MAX_BYTES`); both folders are
 *   created when missing. Nothing is ever deleted.
 * - Storing comes before moving: a crash between the two leaves the mail in the inbox, and the next
 *   round finds it already stored (a duplicate: nothing done twice) and only moves it. A failure
 *   before storing (the database is down) leaves the mail where it was, for the next round.
 * - On PostgreSQL, several processes may run the poller: a session advisory lock lets one poll at a
 *   time, and when that process stops its session ends and the next round of another takes over.
 * - A mail is downloaded by the mail reader's worker on a connection of its own (mime-worker.ts), not
 *   through the round's: the socket's reads of a 25 MB mail stay off the server's thread.
 */
import { sql } from 'kysely';
import type { ImapFlow, ImapFlowOptions } from 'imapflow';
import type { Logger } from 'pino';
import { isPostgres } from '../../db/index.ts';
import type { Db } from '../../db/index.ts';
import { ingestMessage, type InboundSettings, type IngestResult } from '../intake.ts';
import { MAIL_CHANNEL, readMailStream } from './read.ts';
import { MailStream } from './mime-worker.ts';
import { RequestTimeoutError } from '../../request-worker.ts';

export const PROCESSED_FOLDER = 'Procesados';
export const REJECTED_FOLDER = 'Rechazados';
/** The advisory lock key of the poller (PostgreSQL): "issue 21". */
const POLL_LOCK_KEY = 210_021;

type Log = Pick<Logger, 'info' | 'warn' | 'error'>;

/** Where and as whom to read, from `INBOUND_IMAP_URL` (validated at start: src/server/config.ts). */
export function imapTarget(url: string) {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'imaps:';
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : secure ? 993 : 143,
    secure,
    auth: { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) },
    mailbox: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'INBOX',
  };
}

/**
 * A client for the mailbox `INBOUND_IMAP_URL` names (not yet connected), with ImapFlow's own log off.
 * imapflow is loaded with the first client: a server without a mailbox never needs it (0.1 s of CPU).
 */
async function mailboxClient(
  target: ReturnType<typeof imapTarget>,
  extra: Partial<ImapFlowOptions> = {},
): Promise<ImapFlow> {
  const { ImapFlow: Client } = await import('imapflow');
  return new Client({
    host: target.host,
    port: target.port,
    secure: target.secure,
    auth: target.auth,
    logger: false,
    ...extra,
  });
}

export interface PollOptions {
  url: string;
  settings: InboundSettings;
  /** `INBOUND_MAX_BYTES`: a larger mail is not downloaded; it goes to 'Rechazados'. */
  maxBytes: number;
  log?: Log;
  now?: () => Date;
}

export interface PollResult {
  /** `locked`: another process is polling (PostgreSQL), nothing was done. */
  status: 'done' | 'locked';
  processed: number;
  rejected: number;
}

/** Runs `round` holding the poller's advisory lock on PostgreSQL (one process at a time); SQLite has one process. */
async function withPollLock<T>(db: Db, round: () => Promise<T>): Promise<T | 'locked'> {
  if (!isPostgres(db)) return round();
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_lock(${POLL_LOCK_KEY}) as locked`.execute(connection);
    if (!rows[0]?.locked) return 'locked';
    try {
      return await round();
    } finally {
      await sql`select pg_advisory_unlock(${POLL_LOCK_KEY})`.execute(connection);
    }
  });
}

/** Creates the folders a mail is moved to, when the mailbox lacks them. */
async function ensureFolders(client: ImapFlow): Promise<void> {
  const existing = new Set((await client.list()).map((mailbox) => mailbox.path));
  for (const folder of [PROCESSED_FOLDER, REJECTED_FOLDER])
    if (!existing.has(folder)) await client.mailboxCreate(folder);
}

type Envelope =
  { messageId?: string; subject?: string; from?: Array<{ address?: string; name?: string }> } | undefined;

/**
 * A mail not read (too large to download, or its reading failed in the reader's worker): recorded
 * through the same path from what the server's envelope says (so it is counted once), refused, with no
 * original (the mail itself is in 'Rechazados'). `unreadable`: why its reading failed.
 */
async function refuseUnread(
  db: Db,
  settings: InboundSettings,
  uid: number,
  envelope: Envelope,
  now: Date,
  unreadable: string | null = null,
): Promise<IngestResult> {
  const messageId = envelope?.messageId?.replace(/^<|>$/g, '') ?? null;
  const from = envelope?.from?.[0];
  return ingestMessage(
    db,
    {
      channel: MAIL_CHANNEL,
      dedupKey: messageId ? `message-id:${messageId}` : `imap-too-large:${uid}:${envelope?.subject ?? ''}`,
      messageId,
      sender: from?.address ? { address: from.address.toLowerCase(), name: from.name ?? '' } : null,
      recipients: [],
      threadKeys: [],
      subject: envelope?.subject ?? '',
      text: '',
      files: [],
      raw: null,
      refusal: unreadable ? null : { outcome: 'rejected', reason: 'too-large' },
      report: null,
      unreadable,
    },
    settings,
    now,
  );
}

/** Why the reading of a mail failed, as 'Rechazados' shows it (after 'No se pudo leer el correo'). */
function unreadText(error: unknown): string {
  if (error instanceof RequestTimeoutError) return 'tardó demasiado en leerse';
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** The channel name of the mailbox reader in `inbound_polls`. */
export const IMAP_POLLER = 'imap';
const ERROR_MAX = 500;

/** An error as 'Correo entrante' shows it: its message, without the mailbox's password, capped. */
export function roundErrorText(error: unknown, url: string): string {
  const { auth } = imapTarget(url);
  const detail = error as { message?: string; responseText?: string; code?: string };
  let text = [detail?.message ?? String(error), detail?.responseText, detail?.code]
    .filter((part, index, all) => part && all.indexOf(part) === index)
    .join(' · ');
  if (auth.pass) text = text.replaceAll(auth.pass, '***').replaceAll(encodeURIComponent(auth.pass), '***');
  return text.length > ERROR_MAX ? `${text.slice(0, ERROR_MAX - 1)}…` : text;
}

/**
 * Records how a round ended (`inbound_polls`, one row per reader). Never throws: when the database is
 * what failed, the record fails with it, and the round's own error is what the caller sees.
 */
async function recordRound(
  db: Db,
  round: { error: unknown; url: string; idle: boolean; now: Date },
): Promise<void> {
  const at = round.now.toISOString();
  const values = round.error
    ? {
        lastRoundAt: at,
        lastError: roundErrorText(round.error, round.url),
        lastErrorAt: at,
        idle: round.idle,
      }
    : { lastRoundAt: at, lastOkAt: at, lastError: null, idle: round.idle };
  await db
    .insertInto('inboundPolls')
    .values({ channel: IMAP_POLLER, ...values })
    .onConflict((oc) => oc.column('channel').doUpdateSet(values))
    .execute()
    .catch(() => {});
}

/**
 * The raw mail, downloaded by the reader's worker on a connection of its own and read there as it comes
 * ({@link MailStream.download}): neither the mail nor the socket's reads it is assembled from pass through
 * the server's thread. Null when it is gone (nothing read).
 */
async function downloadMail(
  target: ReturnType<typeof imapTarget>,
  uid: number,
  max: number,
): Promise<MailStream | null> {
  const stream = new MailStream();
  return (await stream.download(target, uid, max)) ? stream : null;
}

/**
 * One round: every mail in the mailbox's folder, oldest first, stored then flagged and moved. Throws
 * when the mailbox or the database fails (what was not stored stays for the next round).
 */
export async function pollMailbox(db: Db, options: PollOptions): Promise<PollResult> {
  const now = options.now ?? (() => new Date());
  let idle = false;
  const outcome = await withPollLock(db, async () => {
    const target = imapTarget(options.url);
    const client = await mailboxClient(target);
    const result: PollResult = { status: 'done', processed: 0, rejected: 0 };
    // Whatever ends the round (done, or an error thrown to the caller) is recorded for 'Correo entrante'.
    try {
      await client.connect();
      idle = client.capabilities.has('IDLE');
    } catch (error) {
      await recordRound(db, { error, url: options.url, idle, now: now() });
      throw error;
    }
    try {
      await ensureFolders(client);
      const lock = await client.getMailboxLock(target.mailbox);
      try {
        const uids = (await client.search({ all: true }, { uid: true })) || [];
        for (const uid of uids) {
          const range = String(uid);
          const meta = await client.fetchOne(range, { size: true, envelope: true }, { uid: true });
          if (!meta) continue;
          let stored: IngestResult;
          const envelope = meta.envelope as Envelope;
          if ((meta.size ?? 0) > options.maxBytes) {
            stored = await refuseUnread(db, options.settings, uid, envelope, now());
          } else {
            const mail = await downloadMail(target, uid, options.maxBytes);
            if (!mail) continue;
            // A mail whose reading fails (it outlasted the reader's time-out, or ended its worker) is
            // refused on its own, and the round goes on: a failed read of one mail never keeps the others
            // waiting behind it. One that cannot be parsed comes back read as unreadable, its original kept.
            const read = await readMailStream(mail).then(
              (message) => ({ message }),
              (error: unknown) => ({ error }),
            );
            mail.abort();
            if ('message' in read) {
              stored = await ingestMessage(db, read.message, options.settings, now());
            } else {
              options.log?.warn({ err: read.error, uid }, 'inbound mail could not be read');
              stored = await refuseUnread(db, options.settings, uid, envelope, now(), unreadText(read.error));
            }
          }
          const refused =
            (stored.outcome === 'duplicate' ? stored.firstOutcome : stored.outcome) === 'rejected';
          await client.messageFlagsAdd(range, ['\\Seen'], { uid: true });
          await client.messageMove(range, refused ? REJECTED_FOLDER : PROCESSED_FOLDER, { uid: true });
          if (refused) result.rejected += 1;
          else result.processed += 1;
          options.log?.info(
            {
              inbound: stored.outcome,
              reason: stored.reason,
              numeroIncidencia: stored.numeroIncidencia,
              channel: 'imap',
            },
            'inbound mail received',
          );
        }
      } finally {
        lock.release();
      }
    } catch (error) {
      await recordRound(db, { error, url: options.url, idle, now: now() });
      throw error;
    } finally {
      await client.logout().catch(() => client.close());
    }
    await recordRound(db, { error: null, url: options.url, idle, now: now() });
    return result;
  });
  return outcome === 'locked' ? { status: 'locked', processed: 0, rejected: 0 } : outcome;
}

export interface MailboxPoller {
  name: string;
  /** One round now (tests; the loop runs them by itself). */
  runOnce(): Promise<PollResult>;
  stop(): Promise<void>;
}

/** How long one IDLE command lasts before it is issued again (RFC 2177: servers may end it after 30 min). */
const IDLE_RENEW_MS = 10 * 60 * 1000;

/**
 * Polls every `intervalMs` until stopped; a failed round is logged and retried at the next one. Where
 * the server offers IDLE, a second connection waits on the mailbox between rounds and a new mail wakes
 * the loop at once (a round already running is followed by another); the interval stays the fallback,
 * and what the round does is the same either way. Without IDLE, or while the waiting connection is
 * down (it is opened again after the next round), the loop only polls.
 */
export function startMailboxPoller(
  db: Db,
  options: PollOptions & { intervalMs: number; poll?: boolean; idle?: boolean },
): MailboxPoller {
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();
  let inRound = false;
  let again = false;
  let watcher: ImapFlow | null = null;
  const runOnce = () => {
    const round = pollMailbox(db, options);
    current = round.catch(() => {});
    return round;
  };

  /** Runs rounds until no mail arrived during the last one, then waits (IDLE, or the interval). */
  const wake = async (): Promise<void> => {
    if (!running) return;
    if (inRound) {
      again = true;
      return;
    }
    inRound = true;
    clearTimeout(timer);
    try {
      do {
        again = false;
        await runOnce().catch((error: unknown) =>
          options.log?.error({ err: error }, 'inbound mailbox round failed'),
        );
      } while (again && running);
      if (running) await watch();
    } finally {
      inRound = false;
    }
    if (running) timer = setTimeout(() => void wake(), options.intervalMs);
  };

  /** Opens the connection that waits in IDLE, when the server offers it and none is open. */
  const watch = async (): Promise<void> => {
    if (options.idle === false || watcher?.usable) return;
    const target = imapTarget(options.url);
    const client = await mailboxClient(target, { disableAutoIdle: true, maxIdleTime: IDLE_RENEW_MS });
    client.on('error', (error: unknown) =>
      options.log?.warn({ err: error }, 'inbound IDLE connection failed'),
    );
    client.on('close', () => {
      if (watcher === client) watcher = null;
    });
    try {
      await client.connect();
      if (!client.capabilities.has('IDLE')) {
        await client.logout();
        return;
      }
      await client.mailboxOpen(target.mailbox, { readOnly: true });
    } catch (error) {
      options.log?.warn({ err: error }, 'inbound IDLE connection failed');
      client.close();
      return;
    }
    if (!running) {
      await client.logout().catch(() => client.close());
      return;
    }
    watcher = client;
    // Only a new mail wakes the loop (the count also moves when a round takes mail out of the folder).
    client.on('exists', (data: { count: number; prevCount: number }) => {
      if (data.count > data.prevCount) void wake();
    });
    void (async () => {
      // IDLE ends every IDLE_RENEW_MS and is issued again; one that fails closes this connection (the
      // next round opens another) rather than being retried in a loop.
      while (running && watcher === client && client.usable) {
        if ((await client.idle().catch(() => false)) === false) {
          if (watcher === client) watcher = null;
          client.close();
          return;
        }
      }
    })();
  };

  if (options.poll !== false) void wake();
  return {
    name: 'inbound-mailbox',
    runOnce,
    async stop() {
      running = false;
      clearTimeout(timer);
      const closing = watcher;
      watcher = null;
      await closing?.logout().catch(() => closing.close());
      await current;
    },
  };
}
