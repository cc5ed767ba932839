/**
 * The staff event stream (`/api/staff/eventos`) read over plain HTTP, as an EventSource would: for the
 * live tests' reconnects and for `npm run bench:admin`'s 200 staff browsers.
 */
export interface StreamEvent {
  id: number;
  event: string;
  data: Record<string, unknown> & { kind?: string; numero?: string };
}

/** Signs in by the sign-in form's post; the session cookie to send. */
export async function sessionCookie(
  baseUrl: string,
  email: string,
  password: string,
  network: string,
): Promise<string> {
  const response = await fetch(`${baseUrl}/admin-login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: baseUrl,
      'x-forwarded-for': network,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ email, password }),
  });
  if (response.status !== 303) throw new Error(`No se pudo iniciar sesión como ${email}: ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}

/** Parses Server-Sent Events from a stream of text chunks. */
export function eventParser(onEvent: (event: StreamEvent) => void): (chunk: string) => void {
  let buffer = '';
  return (chunk) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let id = 0;
      let event = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('id: ')) id = Number(line.slice(4));
        else if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (data) onEvent({ id, event, data: JSON.parse(data) as StreamEvent['data'] });
    }
  };
}

/** One connection: opens the stream, optionally does something once it is open, reads `count` events, closes. */
export async function readEvents(
  baseUrl: string,
  cookie: string,
  options: { count: number; lastEventId?: number; after?: () => Promise<unknown>; timeoutMs?: number },
): Promise<{ events: StreamEvent[]; contentType: string | null; contentEncoding: string | null }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 10_000);
  const response = await fetch(`${baseUrl}/api/staff/eventos`, {
    headers: {
      cookie,
      accept: 'text/event-stream',
      'accept-encoding': 'gzip, br',
      ...(options.lastEventId !== undefined ? { 'last-event-id': String(options.lastEventId) } : {}),
    },
    signal: controller.signal,
  });
  if (!response.ok || !response.body) throw new Error(`Sin flujo de eventos: ${response.status}`);
  const events: StreamEvent[] = [];
  const parse = eventParser((event) => {
    if (event.event === 'message') events.push(event);
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let first = true;
  try {
    while (events.length < options.count) {
      const { value, done } = await reader.read();
      if (done) break;
      parse(value);
      if (first && options.after) {
        first = false;
        await options.after();
      }
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return {
    events,
    contentType: response.headers.get('content-type'),
    contentEncoding: response.headers.get('content-encoding'),
  };
}
