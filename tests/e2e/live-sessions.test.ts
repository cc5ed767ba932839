/**
 * Issue 38 ("Also"), against the production build over plain HTTP, as EventSource connects: a staff
 * session holds at most 10 live streams (`/api/staff/eventos`; the eleventh is answered 429, another
 * session is not counted with it), and signing out ends that session's open streams at once rather than
 * at the stream's next minute check; another session's streams stay open.
 */
import { expect, it } from 'vitest';
import { MAX_LIVE_STREAMS_PER_SESSION } from '../../src/server/live/hub.ts';
import { sessionCookie } from '../support/live.ts';
import { useSite } from '../support/site.ts';

const { server, staff } = useSite({ browser: false, env: { LOG_LEVEL: 'warn', TRUST_PROXY: 'true' } });

interface OpenStream {
  status: number;
  /** Resolves when the server ends the stream (the reader sees its end). */
  ended: Promise<'ended'>;
  close(): void;
}

async function openStream(cookie: string): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(`${server.url}/api/staff/eventos`, {
    headers: { cookie, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const reader = response.body?.getReader();
  const ended = (async () => {
    try {
      while (reader && !(await reader.read()).done);
    } catch {
      // Aborted by the test.
    }
    return 'ended' as const;
  })();
  return { status: response.status, ended, close: () => controller.abort() };
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise,
    new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), ms)),
  ]);

it('caps the streams of one session at 10 (the eleventh 429) and ends them when the session signs out', async () => {
  expect(MAX_LIVE_STREAMS_PER_SESSION).toBe(10);
  const cookie = await sessionCookie(server.url, staff.email, staff.password, '198.51.100.81');
  const other = await sessionCookie(server.url, staff.email, staff.password, '198.51.100.82');
  const streams: OpenStream[] = [];
  try {
    for (let n = 0; n < MAX_LIVE_STREAMS_PER_SESSION; n += 1) streams.push(await openStream(cookie));
    expect(streams.map((stream) => stream.status)).toEqual(Array(10).fill(200));
    const eleventh = await openStream(cookie);
    streams.push(eleventh);
    expect(eleventh.status).toBe(429);
    // Another session of the same account has its own ten.
    const elsewhere = await openStream(other);
    streams.push(elsewhere);
    expect(elsewhere.status).toBe(200);
    // A stream closed by its browser frees its place.
    streams[0]!.close();
    await streams[0]!.ended;
    await expect
      .poll(async () => {
        const again = await openStream(cookie);
        streams.push(again);
        return again.status;
      })
      .toBe(200);

    const signedOut = await fetch(`${server.url}/api/staff/logout`, {
      method: 'POST',
      headers: { cookie, origin: server.url },
      redirect: 'manual',
    });
    expect(signedOut.status).toBe(303);
    const mine = streams.filter(
      (stream) => stream.status === 200 && stream !== elsewhere && stream !== streams[0],
    );
    expect(mine).toHaveLength(10);
    // Ended by the sign-out itself, well before the minute's session check.
    expect(await within(Promise.all(mine.map((stream) => stream.ended)), 3000)).not.toBe('still open');
    expect(await within(elsewhere.ended, 500)).toBe('still open');
    // And the signed-out session cannot open another.
    expect((await openStream(cookie)).status).toBe(401);
  } finally {
    for (const stream of streams) stream.close();
  }
});
