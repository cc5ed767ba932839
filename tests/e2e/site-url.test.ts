/**
 * SITE_URL and PORT (issue 39, set-up), on `npm start` with the production build: unset, SITE_URL is the
 * address HOST and PORT serve, so another PORT needs nothing else (the page's canonical address and
 * the sitemap name that port); set to this machine on another port, the start logs a warning naming
 * both. The defaults and the warning's cases: tests/unit/config.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let unset: RunningServer;
let mismatched: RunningServer;
// Both at once: each start takes its time on a loaded machine.
beforeAll(async () => {
  [unset, mismatched] = await Promise.all([
    startServer({ env: { SITE_URL: undefined } }),
    startServer({ env: { SITE_URL: 'http://127.0.0.1:4321' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([unset?.stop(), mismatched?.stop()]);
});

/** The JSON log lines a server printed so far. */
const logLines = (server: RunningServer) =>
  server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('SITE_URL follows HOST and PORT', () => {
  it('unset, the pages and the sitemap link to the port the server listens on, and nothing is warned', async () => {
    const server = unset;
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const page = (await send(`${server.url}/servicios`)).body;
    expect(page).toContain(`<link rel="canonical" href="${server.url}/servicios"`);
    expect((await send(`${server.url}/sitemap.xml`)).body).toContain(`<loc>${server.url}/`);
    expect(logLines(server).filter((entry) => entry.event === 'config.site-url-port')).toEqual([]);
  });

  it('set to this machine on another port, the start warns naming both', async () => {
    const server = mismatched;
    expect(server.port).not.toBe(4321);
    const [warning, ...more] = logLines(server).filter((entry) => entry.event === 'config.site-url-port');
    expect(more).toEqual([]);
    expect(warning).toMatchObject({ level: 40, setting: 'SITE_URL', port: server.port });
    expect(String(warning?.msg)).toContain(
      `SITE_URL (http://127.0.0.1:4321) names port 4321 of this machine but the server listens on PORT ${server.port}`,
    );
  });
});
