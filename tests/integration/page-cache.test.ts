/**
 * The render cache's parts on both engines (src/server/page-cache/): the data version changes on every
 * commit, from the site's own connection or another one, and only then; a kept page is found only
 * under its own staff member, URL and version, holds until its time, carries the request's time, and
 * the cache keeps to its bounds. The pages themselves: tests/e2e/staff-page-cache.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/index.ts';
import type { StaffMember } from '../../src/server/auth/index.ts';
import {
  clearPageCache,
  dataVersion,
  keepPage,
  keptPage,
  MAX_ENTRIES,
  pageCacheSize,
  pageKey,
} from '../../src/server/page-cache/index.ts';
import { describeEachEngine } from '../support/db.ts';
import { buildIncident, insertIncident } from '../support/factories.ts';

const ANA: StaffMember = {
  id: 'u-ana',
  email: 'ana@vertice.example',
  name: 'Ana',
  sessionToken: 't-ana',
  mustChangePassword: false,
  twoStep: false,
};
const LUIS: StaffMember = {
  ...ANA,
  id: 'u-luis',
  email: 'luis@vertice.example',
  name: 'Luis',
  sessionToken: 't-luis',
};
const LIST = new URL('http://127.0.0.1/admin/incidencias?estado=Registrado');
const pattern = (iso: string) => `&quot;now&quot;:[0,&quot;${iso}&quot;]`;
const page = (iso: string, text = 'lista') => `<p>${text}</p><astro-island props="{${pattern(iso)}}">`;

afterEach(() => clearPageCache());

describeEachEngine('the data version', (database) => {
  it('stays while nothing is written and changes with every commit, from this connection or another', async () => {
    const { db, url, engine } = database();
    // A read changes nothing. On PostgreSQL the version is the server's snapshot, which other test files'
    // commits on the same server move too: a quiet moment (the same version either side of a read) is
    // looked for, and one of 50 tries must find it. SQLite's file has no other writer here.
    const quietRead = async () => {
      const first = await dataVersion(db);
      expect(first).toBeDefined();
      expect(await dataVersion(db)).toBe(first);
      await db.selectFrom('incidents').selectAll().execute();
      expect(await dataVersion(db)).toBe(first);
    };
    for (let attempt = 1; ; attempt += 1) {
      try {
        await quietRead();
        break;
      } catch (error) {
        if (engine !== 'postgres' || attempt === 50) throw error;
      }
    }
    const before = await dataVersion(db);

    await insertIncident(db);
    const mine = await dataVersion(db);
    expect(mine).not.toBe(before);

    // Another connection (another server process, the worker, a script).
    const other = openDatabase(url).db;
    try {
      await other.insertInto('incidents').values(buildIncident()).execute();
    } finally {
      await other.destroy();
    }
    expect(await dataVersion(db)).not.toBe(mine);
  });
});

describe('kept pages', () => {
  const rendered = (body: string) =>
    new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8' } });

  it("are found only under the same staff member, URL and version, with the request's time written in", async () => {
    const at = Date.parse('2026-12-07T15:00:00.000Z');
    const iso = new Date(at).toISOString();
    const key = pageKey(ANA, LIST, 'v1');
    keepPage(key, rendered(page(iso)), page(iso), { until: at + 60_000, now: { iso, pattern } });

    const later = at + 30_000;
    const hit = keptPage(key, later);
    expect(hit?.headers.get('x-render-cache')).toBe('hit');
    expect(hit?.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await hit!.text()).toBe(page(new Date(later).toISOString()));

    expect(keptPage(pageKey(LUIS, LIST, 'v1'), later)).toBeUndefined();
    expect(keptPage(pageKey({ ...ANA, name: 'Ana María' }, LIST, 'v1'), later)).toBeUndefined();
    expect(
      keptPage(pageKey(ANA, new URL('http://127.0.0.1/admin/incidencias'), 'v1'), later),
    ).toBeUndefined();
    expect(keptPage(pageKey(ANA, LIST, 'v2'), later)).toBeUndefined();
    // From its time on, gone.
    expect(keptPage(key, at + 60_000)).toBeUndefined();
    expect(pageCacheSize().entries).toBe(0);
  });

  it('are not kept without a time to hold until, or when the render time is not where the page said', () => {
    const iso = '2026-12-07T15:00:00.000Z';
    keepPage(pageKey(ANA, LIST, 'a'), rendered(page(iso)), page(iso), {});
    keepPage(pageKey(ANA, LIST, 'b'), rendered('<p>x</p>'), '<p>x</p>', { until: Infinity });
    keepPage(pageKey(ANA, LIST, 'c'), rendered('<p>x</p>'), '<p>x</p>', {
      until: Date.now() + 1000,
      now: { iso, pattern },
    });
    const twice = page(iso) + page(iso);
    keepPage(pageKey(ANA, LIST, 'd'), rendered(twice), twice, {
      until: Date.now() + 1000,
      now: { iso, pattern },
    });
    expect(pageCacheSize().entries).toBe(0);
  });

  it(`keep at most ${MAX_ENTRIES} pages, the least recently used going first`, () => {
    const until = Date.now() + 60_000;
    for (let n = 0; n <= MAX_ENTRIES; n += 1)
      keepPage(pageKey(ANA, LIST, `v${n}`), rendered(`<p>${n}</p>`), `<p>${n}</p>`, { until });
    expect(pageCacheSize().entries).toBe(MAX_ENTRIES);
    expect(keptPage(pageKey(ANA, LIST, 'v0'))).toBeUndefined();
    expect(keptPage(pageKey(ANA, LIST, `v${MAX_ENTRIES}`))).toBeDefined();
  });
});
