/**
 * One browser's event stream (`GET /api/staff/eventos`, Server-Sent Events): first every event after
 * the one it names (`Last-Event-ID` on a reconnect, `?desde=` on the first connection: the newest event
 * when its page was rendered), then each new one as the hub hands it out, in order and never twice.
 * `event: presence` says who else has the incident open (`?incidencia=`); a comment every 20 s keeps
 * proxies from closing an idle stream. A browser that comes back after its events were pruned gets
 * `event: reset` (reload what you show).
 */
import { getDb } from '../db/index.ts';
import { liveEventsAfter, oldestLiveEventId, type LiveEvent } from './events.ts';
import {
  liveHub,
  liveSessionKey,
  MAX_LIVE_STREAMS_PER_SESSION,
  type LiveSubscriber,
  type Viewer,
} from './hub.ts';

const KEEP_ALIVE_MS = 20_000;
/** A browser this far behind (bytes queued) is cut off: it reconnects with Last-Event-ID. */
const MAX_QUEUED_BYTES = 1024 * 1024;
const SESSION_CHECK_MS = 60_000;
/** How soon a browser retries after the stream ends (EventSource's `retry:`). */
const RETRY_MS = 1000;

export interface StreamOptions {
  viewer: Viewer;
  /** The staff session's token: at most {@link MAX_LIVE_STREAMS_PER_SESSION} streams each; ended at sign-out. */
  sessionToken?: string;
  /** Whether the staff member's session still stands (checked every minute; the stream ends when not). */
  stillValid?: () => Promise<boolean>;
  /** The last event the browser has (Last-Event-ID or `?desde=`); null: from now on. */
  after: number | null;
  incident: string | null;
  signal?: AbortSignal;
}

/** A non-negative integer from a header or a query parameter, else null. */
export function eventIdOf(value: string | null | undefined): number | null {
  return value && /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : null;
}

const frame = (event: LiveEvent) => `id: ${event.id}\ndata: ${JSON.stringify(event.data)}\n\n`;

export async function liveStream(options: StreamOptions): Promise<Response> {
  const hub = liveHub();
  await hub.start();
  // The browser left while the session was checked (its page closed or left just after loading): an
  // aborted signal never fires 'abort' again, and nobody will read or cancel this stream, so it must
  // not be opened at all, or it would stay among the incident's viewers for good.
  if (options.signal?.aborted) return new Response(null, { status: 204 });
  const session = options.sessionToken ? liveSessionKey(options.sessionToken) : undefined;
  // Counted and added with no wait between: two requests at once cannot both take the last place.
  if (session && hub.streamsOf(session) >= MAX_LIVE_STREAMS_PER_SESSION)
    return new Response(
      JSON.stringify({
        error: `Tienes ${MAX_LIVE_STREAMS_PER_SESSION} páginas del área de personal recibiendo cambios al momento: cierra alguna y recarga esta.`,
      }),
      {
        status: 429,
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Retry-After': '60',
          'Cache-Control': 'no-store',
        },
      },
    );
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  let closed = false;
  /** The newest id sent: nothing at or before it is sent again. */
  let sent = options.after ?? hub.cursor;
  /** Events handed out by the hub while the stored ones are still being sent. */
  let pending: LiveEvent[] | null = [];
  let keepAlive: NodeJS.Timeout | undefined;
  let sessionCheck: NodeJS.Timeout | undefined;

  const write = (text: string) => {
    if (closed || !controller) return;
    try {
      controller.enqueue(encoder.encode(text));
      if ((controller.desiredSize ?? 0) < -MAX_QUEUED_BYTES) subscriber.close();
    } catch {
      finish();
    }
  };
  const send = (event: LiveEvent) => {
    if (event.id <= sent) return;
    sent = event.id;
    write(frame(event));
  };
  const subscriber: LiveSubscriber = {
    incident: options.incident,
    viewer: options.viewer,
    ...(session ? { session } : {}),
    event: (event) => (pending ? pending.push(event) : send(event)),
    presence: (numero, viewers) => write(`event: presence\ndata: ${JSON.stringify({ numero, viewers })}\n\n`),
    close: () => {
      const open = controller;
      finish();
      try {
        open?.close();
      } catch {
        // Already closed by the browser.
      }
    },
  };
  function finish() {
    if (closed) return;
    closed = true;
    clearInterval(keepAlive);
    clearInterval(sessionCheck);
    hub.remove(subscriber);
  }

  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      cancel() {
        finish();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
  options.signal?.addEventListener('abort', () => subscriber.close(), { once: true });

  write(`retry: ${RETRY_MS}\n: conectado\n\n`);
  hub.add(subscriber);
  void (async () => {
    try {
      if (options.after !== null) {
        const oldest = await oldestLiveEventId(getDb());
        if (oldest > options.after + 1) write('event: reset\ndata: {}\n\n');
        for (;;) {
          const stored = await liveEventsAfter(getDb(), sent, 500);
          for (const event of stored) send(event);
          if (stored.length < 500) break;
        }
      }
    } catch {
      // The hub's events still come; a reload shows the rest.
      write('event: reset\ndata: {}\n\n');
    }
    const queued = pending ?? [];
    pending = null;
    for (const event of queued) send(event);
    keepAlive = setInterval(() => write(': ping\n\n'), KEEP_ALIVE_MS);
    keepAlive.unref();
    // Signed out, expired or idle: the stream ends, and the browser's reconnection is refused (401).
    const stillValid = options.stillValid;
    if (stillValid && !closed) {
      sessionCheck = setInterval(() => {
        void stillValid().then(
          (valid) => valid || subscriber.close(),
          () => {},
        );
      }, SESSION_CHECK_MS);
      sessionCheck.unref();
    }
  })();

  return new Response(stream, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store, no-transform',
      'X-Accel-Buffering': 'no',
    },
  });
}
