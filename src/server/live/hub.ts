/**
 * This process's side of the live updates (docs/decisions/0018): one hub per process (kept on
 * `globalThis`, as the database connection is: decision 0001) reads the new events of `live_events`
 * when told there are some (the `vertice_live` channel of src/server/db/notify.ts: this process's
 * commits, and on PostgreSQL every process's) and hands them to every event stream open in this
 * process. It also keeps who has which incident open ('También está viendo'): in memory, shared between
 * processes on PostgreSQL by notices (each process repeats its own every 20 s, and when a newly started
 * or reconnected hub asks; another's expires after 50 s).
 */
import { createHash, randomUUID } from 'node:crypto';
import { getDb, isPostgres, listen, notifyAfterCommit } from '../db/index.ts';
import { getLogger } from '../log.ts';
import { LIVE_CHANNEL, latestLiveEventId, liveEventsAfter, type LiveEvent } from './events.ts';

export interface Viewer {
  id: string;
  name: string;
}

export interface LiveSubscriber {
  /** The incident this browser has open (its number), for presence. */
  incident: string | null;
  viewer: Viewer;
  /** Its staff session, as {@link liveSessionKey} names it: counted, and ended at sign-out. */
  session?: string;
  event(event: LiveEvent): void;
  presence(numero: string, viewers: Viewer[]): void;
  close(): void;
}

/** Streams one staff session may hold at once (issue 38): the next is answered 429. */
export const MAX_LIVE_STREAMS_PER_SESSION = 10;

/**
 * How a stream names its session: the SHA-256 of the session token, never the token itself (it is
 * also what the processes tell each other on PostgreSQL at a sign-out).
 */
export const liveSessionKey = (sessionToken: string) =>
  createHash('sha256').update(sessionToken).digest('hex');

/** Who has which incident open, between processes (src/server/db/notify.ts adds the schema). */
const PRESENCE_CHANNEL = 'vertice_presence';
const PRESENCE_REPEAT_MS = 20_000;
const PRESENCE_EXPIRES_MS = 50_000;
/** A safety net: the hub also looks for new events this often while streams are open. */
const POLL_MS = 15_000;

class LiveHub {
  readonly process = randomUUID();
  private subscribers = new Set<LiveSubscriber>();
  private lastId = 0;
  private started: Promise<void> | null = null;
  private reading = false;
  private again = false;
  private unlisten: Array<() => Promise<void>> = [];
  private postgres = false;
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;
  /** Other processes' viewers: process → incident → viewers, with when it expires. */
  private remote = new Map<string, Map<string, { viewers: Viewer[]; expires: number }>>();

  /** The newest event id this hub has handed out (the stream's starting point when a browser gives none). */
  get cursor(): number {
    return this.lastId;
  }

  start(): Promise<void> {
    // A start that failed (the database did not answer) is tried again by the next stream.
    this.started ??= this.begin().catch((error: unknown) => {
      this.started = null;
      throw error;
    });
    return this.started;
  }

  private async begin(): Promise<void> {
    const db = getDb();
    this.lastId = await latestLiveEventId(db);
    this.postgres = isPostgres(db);
    this.unlisten = await Promise.all([
      // A reconnection of the LISTEN connection is heard as a wake-up too: whatever committed meanwhile.
      listen(db, LIVE_CHANNEL, () => void this.wake()),
      listen(db, PRESENCE_CHANNEL, (heard) => {
        if (heard.kind === 'notice') this.remotePresence(heard.payload);
        else this.rejoin();
      }),
    ]);
    if (this.stopped) {
      for (const stop of this.unlisten.splice(0)) void stop().catch(() => {});
      return;
    }
    // Whatever committed before this hub listened.
    void this.wake();
    this.rejoin();
    const poll = setInterval(() => {
      if (this.subscribers.size) void this.wake();
    }, POLL_MS);
    const repeat = setInterval(() => this.repeatPresence(), PRESENCE_REPEAT_MS);
    poll.unref();
    repeat.unref();
    this.timers.push(poll, repeat);
  }

  /** Once listening (again): this process's viewers to the others, and theirs asked for (a hub that has just started knows nobody's). */
  private rejoin(): void {
    this.repeatPresence();
    this.tellProcesses({ p: this.process, q: 1 });
  }

  /** A presence message to the other processes (PostgreSQL; on SQLite there are none). */
  private tellProcesses(message: object): Promise<void> {
    if (!this.postgres) return Promise.resolve();
    return notifyAfterCommit(getDb(), PRESENCE_CHANNEL, JSON.stringify(message));
  }

  /** Reads the events after the cursor and hands them out; called again while reading, it reads once more. */
  async wake(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    try {
      do {
        this.again = false;
        for (;;) {
          const events = await liveEventsAfter(getDb(), this.lastId, 500);
          for (const event of events) {
            this.lastId = event.id;
            for (const subscriber of this.subscribers) subscriber.event(event);
          }
          if (events.length < 500) break;
        }
      } while (this.again);
    } catch (error) {
      getLogger().warn({ err: error }, 'live events could not be read');
    } finally {
      this.reading = false;
    }
  }

  add(subscriber: LiveSubscriber): void {
    this.subscribers.add(subscriber);
    this.trace('live stream opened', subscriber);
    if (subscriber.incident) this.presenceChanged(subscriber.incident);
    else this.sendPresenceTo(subscriber);
  }

  remove(subscriber: LiveSubscriber): void {
    if (!this.subscribers.delete(subscriber)) return;
    this.trace('live stream closed', subscriber);
    if (subscriber.incident) this.presenceChanged(subscriber.incident);
  }

  /** At LOG_LEVEL=debug, each stream's start and end: who, which incident, how many streams are open. */
  private trace(message: string, subscriber: LiveSubscriber): void {
    getLogger().debug(
      { viewer: subscriber.viewer.id, incident: subscriber.incident, streams: this.subscribers.size },
      message,
    );
  }

  /** How many streams of this session are open in this process. */
  streamsOf(session: string): number {
    let open = 0;
    for (const subscriber of this.subscribers) if (subscriber.session === session) open += 1;
    return open;
  }

  /**
   * The session ended (signed out): its streams end now, here and, on PostgreSQL, in the other
   * processes (told by NOTIFY), instead of at each stream's next minute check. The browser's reconnection
   * is then refused (401) and EventSource gives up.
   */
  endSession(session: string): void {
    this.closeSessionHere(session);
    void this.tellProcesses({ p: this.process, s: session }).catch(() => {});
  }

  private closeSessionHere(session: string): void {
    for (const subscriber of [...this.subscribers]) if (subscriber.session === session) subscriber.close();
  }

  /** Ends every stream (shutdown: the browsers reconnect to another process with Last-Event-ID). */
  closeAll(): void {
    this.stopped = true;
    for (const subscriber of [...this.subscribers]) subscriber.close();
    this.subscribers.clear();
    for (const timer of this.timers) clearInterval(timer);
    for (const stop of this.unlisten.splice(0)) void stop().catch(() => {});
  }

  private localViewers(numero: string): Viewer[] {
    const byId = new Map<string, Viewer>();
    for (const subscriber of this.subscribers)
      if (subscriber.incident === numero) byId.set(subscriber.viewer.id, subscriber.viewer);
    return [...byId.values()];
  }

  /** Everyone with this incident open, on any process. */
  viewersOf(numero: string): Viewer[] {
    const byId = new Map<string, Viewer>();
    const now = Date.now();
    for (const incidents of this.remote.values()) {
      const entry = incidents.get(numero);
      if (entry && entry.expires > now) for (const viewer of entry.viewers) byId.set(viewer.id, viewer);
    }
    for (const viewer of this.localViewers(numero)) byId.set(viewer.id, viewer);
    return [...byId.values()];
  }

  private sendPresenceTo(subscriber: LiveSubscriber): void {
    if (subscriber.incident) subscriber.presence(subscriber.incident, this.viewersOf(subscriber.incident));
  }

  /** Tells this process's viewers of the incident, and the other processes. */
  private presenceChanged(numero: string): void {
    this.tellLocal(numero);
    this.publish(numero, this.localViewers(numero));
  }

  private tellLocal(numero: string): void {
    const viewers = this.viewersOf(numero);
    for (const subscriber of this.subscribers)
      if (subscriber.incident === numero) subscriber.presence(numero, viewers);
  }

  private publish(numero: string, viewers: Viewer[]): void {
    const log = getLogger();
    if (!this.postgres) return;
    void this.tellProcesses({ p: this.process, n: numero, v: viewers }).then(
      () => log.debug({ incident: numero, viewers: viewers.length }, 'presence published'),
      (error: unknown) => log.debug({ err: error, incident: numero }, 'presence not published'),
    );
  }

  private repeatPresence(): void {
    const open = new Set<string>();
    for (const subscriber of this.subscribers) if (subscriber.incident) open.add(subscriber.incident);
    for (const numero of open) this.publish(numero, this.localViewers(numero));
  }

  private remotePresence(payload: string): void {
    let message: { p?: unknown; n?: unknown; v?: unknown; q?: unknown; s?: unknown };
    try {
      message = JSON.parse(payload) as typeof message;
    } catch {
      return;
    }
    if (typeof message.p !== 'string' || message.p === this.process) return;
    if (message.q === 1) {
      this.repeatPresence();
      return;
    }
    // A sign-out in another process: this one's streams of that session end too.
    if (typeof message.s === 'string') {
      this.closeSessionHere(message.s);
      return;
    }
    if (typeof message.n !== 'string' || !Array.isArray(message.v)) return;
    const viewers = (message.v as Viewer[]).filter(
      (viewer) => typeof viewer?.id === 'string' && typeof viewer?.name === 'string',
    );
    const incidents = this.remote.get(message.p) ?? new Map();
    const before = JSON.stringify(incidents.get(message.n)?.viewers ?? []);
    if (viewers.length) incidents.set(message.n, { viewers, expires: Date.now() + PRESENCE_EXPIRES_MS });
    else incidents.delete(message.n);
    if (incidents.size) this.remote.set(message.p, incidents);
    else this.remote.delete(message.p);
    getLogger().debug(
      { from: message.p, incident: message.n, viewers: viewers.length },
      'presence from another process',
    );
    if (before !== JSON.stringify(viewers)) this.tellLocal(message.n);
  }
}

const HUB_KEY = Symbol.for('vertice.live.hub');
type HubHolder = { [HUB_KEY]?: LiveHub };

/** This process's hub. */
export function liveHub(): LiveHub {
  const holder = globalThis as HubHolder;
  holder[HUB_KEY] ??= new LiveHub();
  return holder[HUB_KEY];
}

/** Ends the live streams of the session with this token, in every process (at sign-out). */
export function endLiveSession(sessionToken: string): void {
  const holder = globalThis as HubHolder;
  holder[HUB_KEY]?.endSession(liveSessionKey(sessionToken));
}

/** Ends this process's event streams (graceful shutdown). */
export function closeLiveStreams(): void {
  const holder = globalThis as HubHolder;
  holder[HUB_KEY]?.closeAll();
}
