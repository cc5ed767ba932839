/**
 * The page-view beacon under a flood (issue 13, hole 6): at most 30 views per client network per
 * 10 minutes are counted, refused beacons still answer 204 and write nothing, views are written in
 * one write per path every few seconds, and none acknowledged is lost on SIGTERM.
 */
import { DatabaseSync } from 'node:sqlite';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { send } from '../support/http.ts';
import { startServer } from '../support/server.ts';

const beacon = (url: string, path: string, client: string) =>
  send(`${url}/api/pv`, {
    method: 'POST',
    headers: { origin: url, 'content-type': 'text/plain', 'x-forwarded-for': client },
    body: path,
  });

function views(dataDir: string): Record<string, number> {
  const db = new DatabaseSync(join(dataDir, 'site.db'), { readOnly: true });
  try {
    const rows = db.prepare('select path, sum(count) as n from page_views group by path').all() as Array<{
      path: string;
      n: number;
    }>;
    return Object.fromEntries(rows.map((row) => [row.path, Number(row.n)]));
  } finally {
    db.close();
  }
}

describe('page-view beacon', () => {
  it('counts 30 views per network, answers every beacon 204, and writes them all before exiting on SIGTERM', async () => {
    const server = await startServer({ env: { TRUST_PROXY: 'true' }, cleanup: false });
    try {
      const statuses: number[] = [];
      for (let index = 0; index < 45; index += 1)
        statuses.push(
          (await beacon(server.url, '/blog', '2001:db8:99:1::' + (index + 1).toString(16))).status,
        );
      for (let index = 0; index < 3; index += 1)
        statuses.push((await beacon(server.url, '/productos', '198.51.100.3')).status);
      expect(new Set(statuses)).toEqual(new Set([204]));
      // Nothing is written per beacon: the views wait in memory for the next flush (or the shutdown).
      expect(views(server.dataDir)).toEqual({});
      expect(await server.stop()).toBe(0);
      expect(views(server.dataDir)).toEqual({ '/blog': 30, '/productos': 3 });
      expect(server.output()).toMatch(/"event":"beacon.refused","network":"2001:db8:99:1::\/64"/);
      expect(server.output().match(/"event":"beacon.refused"/g)).toHaveLength(1);
    } finally {
      await server.kill();
      rmSync(server.dataDir, { recursive: true, force: true });
    }
  });
});
