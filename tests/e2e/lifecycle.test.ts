import { rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/index.ts';
import { expectIncidentsWhole, submitIncident } from '../support/actions.ts';
import { freePort, startServer } from '../support/server.ts';

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

  it('starts the test server on another port when the one it found free is taken before it binds', async () => {
    // A port held by another listener, as another file's server or an outgoing connection can take it
    // between freePort's probe and the server's bind.
    const holder = createServer((socket) => socket.destroy());
    await new Promise<void>((resolveListen) => holder.listen(0, '127.0.0.1', resolveListen));
    const taken = (holder.address() as AddressInfo).port;
    const offered: number[] = [];
    try {
      const server = await startServer({
        findPort: async () => {
          const port = offered.length === 0 ? taken : await freePort();
          offered.push(port);
          return port;
        },
      });
      try {
        expect(offered.length).toBe(2);
        expect(server.port).toBe(offered[1]);
        expect(server.env.SITE_URL).toBe(`http://127.0.0.1:${offered[1]}`);
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
        // The first try's output is kept, its refusal included.
        expect(server.output()).toContain('EADDRINUSE');
      } finally {
        await server.stop();
      }
    } finally {
      await new Promise((resolveClose) => holder.close(resolveClose));
    }
  });

  it('refuses to start with a bad setting and names it', async () => {
    await expect(startServer({ env: { PORT: 'no-es-un-puerto' } })).rejects.toThrow(/PORT/);
  });
});
