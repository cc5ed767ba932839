import { describe, expect, it } from 'vitest';
import { startServer } from '../support/server.ts';

describe('server lifecycle', () => {
  it('drains in-flight requests on SIGTERM and exits 0 within 10 s', async () => {
    const server = await startServer();
    const inFlight = Array.from({ length: 40 }, (_, i) =>
      fetch(`${server.url}/${i % 2 ? 'healthz' : ''}`).then(
        async (response) => ({ status: response.status, body: await response.text() }),
        (error: Error) => ({ status: 0, body: error.message }),
      ),
    );
    // Let the requests reach the server, then ask it to stop while they are being answered.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const started = Date.now();
    const exitCode = await server.stop();
    const elapsed = Date.now() - started;
    const results = await Promise.all(inFlight);

    expect(exitCode).toBe(0);
    expect(elapsed).toBeLessThan(10_000);
    // Every request either completed normally or was never accepted: none was cut off mid-answer.
    for (const result of results) {
      if (result.status === 0) expect(result.body).toMatch(/fetch failed|ECONNREFUSED|other side closed|socket/i);
      else expect(result.status).toBe(200);
    }
    expect(results.filter((result) => result.status === 200).length).toBeGreaterThan(0);
    expect(server.output()).toContain('"msg":"stopped"');
  });

  it('refuses to start with a bad setting and names it', async () => {
    await expect(startServer({ env: { PORT: 'no-es-un-puerto' } })).rejects.toThrow(/PORT/);
  });
});
