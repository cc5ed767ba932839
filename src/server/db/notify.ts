/**
 * The one way a process hears that something committed (issue 40): the public pages' renderer, the
 * live hub, the mail and delivery workers all wake on a channel here instead of each keeping its own
 * LISTEN client or its own registry of wake-ups.
 *
 * - {@link notifyAfterCommit} inside a transaction: on PostgreSQL a `NOTIFY` in that transaction, so
 *   every process hears it at the commit and none hears a rollback; on both engines this process's
 *   listeners are called once the transaction committed (SQLite has one process, so that is all).
 * - {@link listen}: a channel's listener. On PostgreSQL one LISTEN connection per process (per database
 *   and schema) serves every listener; it reconnects with back-off, and after a reconnection every
 *   listener is told (`reconnected`) so it re-reads what it may have missed meanwhile.
 *
 * A channel is a name such as `vertice_content`; on PostgreSQL it is suffixed with the schema
 * (`vertice_content_<schema>`, so the test runs sharing a database never hear each other). The process
 * that sent a notice hears it once, at its commit: the LISTEN connection drops what comes back from a
 * backend this process sent notices through (its pool's connections, by backend pid). A listener is a
 * wake-up: a notice may be lost with a dropped connection, so listeners re-read rather than trust a
 * payload for data.
 *
 * The listeners and the connection live on `globalThis` (docs/decisions/0001): the bundled server
 * (actions, the live stream) and the modules the start script runs from source (the workers, the public
 * pages) load separate copies of this module and must share them.
 */
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { getLogger } from '../log.ts';
import { afterCommit, scopeOfDatabase } from './commit-hooks.ts';
import { isPostgres, postgresTargetOf, type PostgresTarget } from './engine.ts';

/** What a listener hears: a notice on its channel, or that the LISTEN connection came back. */
export type Heard = { kind: 'notice'; payload: string } | { kind: 'reconnected' };
export type Listener = (heard: Heard) => void;

/** The first wait before reconnecting, doubled at each failure up to {@link RECONNECT_MAX_MS}. */
const RECONNECT_FIRST_MS = 250;
const RECONNECT_MAX_MS = 15_000;

/** A process's LISTEN connection to one database and schema. */
interface Listening {
  target: PostgresTarget;
  scope: string;
  client: pg.Client | null;
  /** The schema the connection works in (its channels' suffix), once connected. */
  schema: string | null;
  /** The channels LISTENed on the current client. */
  listened: Set<string>;
  /** The first connection attempt (listen() waits for it). */
  ready: Promise<void>;
  /** Whether a connection ever came up or failed: the next success is a reconnection. */
  tried: boolean;
  failures: number;
  timer: NodeJS.Timeout | undefined;
  closed: boolean;
  /** LISTEN/UNLISTEN one after another. */
  queue: Promise<void>;
}

interface NotifyHolder {
  /** Scope → channel → its listeners in this process. */
  listeners: Map<string, Map<string, Set<Listener>>>;
  connections: Map<string, Listening>;
  /** Scope → the backends (pids) of this process's pools that sent a notice: their echo is not told again. */
  senders: Map<string, Set<number>>;
}

const NOTIFY_KEY = Symbol.for('vertice.db.notify');

function state(): NotifyHolder {
  const holder = globalThis as { [NOTIFY_KEY]?: NotifyHolder };
  holder[NOTIFY_KEY] ??= { listeners: new Map(), connections: new Map(), senders: new Map() };
  return holder[NOTIFY_KEY];
}

function channelsOf(scope: string): Map<string, Set<Listener>> {
  const listeners = state().listeners;
  let channels = listeners.get(scope);
  if (!channels) listeners.set(scope, (channels = new Map()));
  return channels;
}

function tell(listeners: Iterable<Listener> | undefined, heard: Heard): void {
  for (const listener of [...(listeners ?? [])]) {
    try {
      listener(heard);
    } catch (error) {
      getLogger().error({ err: error }, 'notice listener failed');
    }
  }
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * Calls `listener` on each notice of `channel` for `db`'s data (this process's commits; on PostgreSQL
 * every process's) until the returned function is called. Resolves once listening (on PostgreSQL: once
 * the connection's first attempt is over; if it failed, the listener hears `reconnected` when it is up).
 */
export async function listen(
  db: Kysely<any>,
  channel: string,
  listener: Listener,
): Promise<() => Promise<void>> {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`Nombre de canal no válido: ${channel}`);
  const scope = scopeOfDatabase(db);
  const channels = channelsOf(scope);
  let listeners = channels.get(channel);
  if (!listeners) channels.set(channel, (listeners = new Set()));
  listeners.add(listener);
  const target = isPostgres(db) ? postgresTargetOf(db) : undefined;
  let listening: Listening | undefined;
  if (target) {
    listening = state().connections.get(scope);
    if (!listening) {
      listening = open(target, scope);
      state().connections.set(scope, listening);
    }
    await listening.ready;
    await synced(listening);
  }
  let done = false;
  return async () => {
    if (done) return;
    done = true;
    listeners.delete(listener);
    if (listeners.size === 0 && channels.get(channel) === listeners) channels.delete(channel);
    if (channels.size === 0 && state().listeners.get(scope) === channels) state().listeners.delete(scope);
    if (!listening) return;
    if (channels.size === 0) await close(listening);
    else await synced(listening);
  };
}

/**
 * Tells `channel`'s listeners once `trx` commits: on PostgreSQL every process's (a `NOTIFY` in the
 * transaction), on both engines this process's (after the commit). Outside a transaction it is sent at
 * once, this process's listeners called before the promise is returned. Several notices of one channel
 * and payload in a transaction make one.
 */
export async function notifyAfterCommit(trx: Kysely<any>, channel: string, payload = ''): Promise<void> {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`Nombre de canal no válido: ${channel}`);
  const { first, scope } = await afterCommit(trx, `notify:${channel}:${payload}`, (scope) =>
    tell(state().listeners.get(scope)?.get(channel), { kind: 'notice', payload }),
  );
  if (!first || !isPostgres(trx)) return;
  const notify = sql`pg_notify(${`${channel}_`} || current_schema(), ${payload})`;
  if (trx.isTransaction) {
    // Sent at the commit, after this answer: the backend is known by then (its echo is dropped, see above).
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid, ${notify}`.execute(trx);
    sendersOf(scope).add(Number(rows[0]?.pid));
    return;
  }
  // Outside a transaction the notice goes at once: the backend is made known first.
  await trx.connection().execute(async (db) => {
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
    sendersOf(scope).add(Number(rows[0]?.pid));
    await sql`select ${notify}`.execute(db);
  });
}

function sendersOf(scope: string): Set<number> {
  let senders = state().senders.get(scope);
  if (!senders) state().senders.set(scope, (senders = new Set()));
  return senders;
}

/** A backend of this process's pool ended (openDatabase's pool says so): its pid may be another's next. */
export function backendEnded(scope: string, pid: number | null | undefined): void {
  if (pid != null) state().senders.get(scope)?.delete(pid);
}

function open(target: PostgresTarget, scope: string): Listening {
  const listening: Listening = {
    target,
    scope,
    client: null,
    schema: null,
    listened: new Set(),
    ready: Promise.resolve(),
    tried: false,
    failures: 0,
    timer: undefined,
    closed: false,
    queue: Promise.resolve(),
  };
  listening.ready = connect(listening);
  return listening;
}

/** One connection attempt; on failure (or, later, on loss) the next is scheduled with back-off. */
async function connect(listening: Listening): Promise<void> {
  const { target } = listening;
  const client = new pg.Client({
    connectionString: target.url,
    connectionTimeoutMillis: 5000,
    // What an operator sees in pg_stat_activity (and the tests count).
    application_name: 'vertice notify',
    options: target.schema ? `-c search_path=${target.schema}` : undefined,
  });
  const reconnection = listening.tried;
  listening.tried = true;
  listening.client = client;
  listening.listened = new Set();
  let lost = false;
  const lose = (error?: unknown) => {
    if (lost) return;
    lost = true;
    if (listening.client === client) listening.client = null;
    void client.end().catch(() => {});
    if (listening.closed) return;
    getLogger().warn({ err: error }, 'notice listener lost; reconnecting');
    const wait = Math.min(RECONNECT_FIRST_MS * 2 ** listening.failures, RECONNECT_MAX_MS);
    listening.failures += 1;
    listening.timer = setTimeout(() => void connect(listening), wait);
    listening.timer.unref();
  };
  client.on('error', lose);
  client.on('end', () => lose());
  client.on('notification', (message) => {
    if (listening.client !== client || !listening.schema) return;
    // Sent by this process: its listeners heard it at the commit.
    if (state().senders.get(listening.scope)?.has(message.processId)) return;
    const suffix = `_${listening.schema}`;
    if (!message.channel.endsWith(suffix)) return;
    const channel = message.channel.slice(0, -suffix.length);
    tell(state().listeners.get(listening.scope)?.get(channel), {
      kind: 'notice',
      payload: message.payload ?? '',
    });
  });
  try {
    await client.connect();
    const { rows } = await client.query<{ schema: string }>('select current_schema() as schema');
    listening.schema = rows[0]?.schema ?? 'public';
    await sync(listening, client);
  } catch (error) {
    lose(error);
    return;
  }
  if (listening.closed) {
    void client.end().catch(() => {});
    return;
  }
  listening.failures = 0;
  // Whatever was said while the connection was away went unheard: every listener re-reads.
  if (reconnection)
    for (const listeners of state().listeners.get(listening.scope)?.values() ?? [])
      tell(listeners, { kind: 'reconnected' });
}

/** LISTENs the channels that have listeners and UNLISTENs the others, on the current client. */
async function sync(listening: Listening, client: pg.Client): Promise<void> {
  const wanted = new Set(state().listeners.get(listening.scope)?.keys() ?? []);
  const quoted = (channel: string) => `"${channel}_${listening.schema}"`;
  for (const channel of wanted)
    if (!listening.listened.has(channel)) {
      await client.query(`listen ${quoted(channel)}`);
      listening.listened.add(channel);
    }
  for (const channel of [...listening.listened])
    if (!wanted.has(channel)) {
      await client.query(`unlisten ${quoted(channel)}`);
      listening.listened.delete(channel);
    }
}

/** {@link sync}, after the ones under way, if the connection is up (a failure there is the connection's loss). */
function synced(listening: Listening): Promise<void> {
  listening.queue = listening.queue.then(async () => {
    const client = listening.client;
    if (!client || !listening.schema || listening.closed) return;
    await sync(listening, client).catch((error: unknown) => {
      getLogger().warn({ err: error }, 'listen failed');
      client.emit('error', error);
    });
  });
  return listening.queue;
}

/** Ends the connection once no listener is left. */
async function close(listening: Listening): Promise<void> {
  listening.closed = true;
  clearTimeout(listening.timer);
  if (state().connections.get(listening.scope) === listening) state().connections.delete(listening.scope);
  const client = listening.client;
  listening.client = null;
  await listening.queue;
  await client?.end().catch(() => {});
}
