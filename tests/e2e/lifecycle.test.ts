import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/index.ts';
import { expectIncidentsWhole, submitIncident } from '../support/actions.ts';
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
      if (result.status === 0)
        expect(result.body).toMatch(/fetch failed|ECONNREFUSED|other side closed|socket/i);
      else expect(result.status).toBe(200);
    }
    expect(results.filter((result) => result.status === 200).length).toBeGreaterThan(0);
    expect(server.output()).toContain('"msg":"stopped"');
  });

  it('finishes in-flight submissions on SIGTERM: each one answered is stored whole', async () => {
    const server = await startServer({ env: { FORM_RATE_LIMIT: '0', LOG_LEVEL: 'warn' }, cleanup: false });
    try {
      const inFlight = Array.from({ length: 50 }, (_, index) =>
        submitIncident(server.url, `drain-${index}`).then((answer) => ({ ...answer, tag: `drain-${index}` })),
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
      const started = Date.now();
      expect(await server.stop()).toBe(0);
      expect(Date.now() - started).toBeLessThan(10_000);
      const answers = await Promise.all(inFlight);
      // Answered in full, or never accepted (connection refused): none cut off, none failed.
      for (const answer of answers) expect([0, 200], JSON.stringify(answer)).toContain(answer.status);
      const acknowledged = answers
        .filter((answer) => answer.status === 200)
        .map((answer) => ({ numero: answer.numero!, tag: answer.tag }));
      expect(acknowledged.length).toBeGreaterThan(0);
      const { db } = openDatabase(server.env.DATABASE_URL!);
      try {
        await expectIncidentsWhole(db, acknowledged);
      } finally {
        await db.destroy();
      }
    } finally {
      rmSync(server.dataDir, { recursive: true, force: true });
    }
  });

  it('refuses to start with a bad setting and names it', async () => {
    await expect(startServer({ env: { PORT: 'no-es-un-puerto' } })).rejects.toThrow(/PORT/);
  });
});
