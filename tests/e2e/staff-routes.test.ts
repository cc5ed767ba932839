/**
 * The staff area in the build: no staff route may exist as a prerendered file (it would be served to
 * anyone from memory, past every guard), and every staff page and endpoint asks the guard for its
 * staff member itself, before it reads anything, besides the middleware's check.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/routes.ts';
import { routesUnder } from '../support/routes.ts';
import { ROOT } from '../support/server.ts';

const CLIENT = join(ROOT, 'dist/client');
const staffRoutes = [...routesUnder('admin'), ...routesUnder('api/staff'), ROUTES.adminLogin];

describe('staff routes in the build', () => {
  it('finds the staff routes to check', () => {
    expect(staffRoutes).toEqual(
      expect.arrayContaining([
        ROUTES.admin,
        ROUTES.adminIncidents,
        ROUTES.adminClients,
        ROUTES.staffIncidentsCsv,
        ROUTES.adminLogin,
        ROUTES.adminMessages,
        ROUTES.staffMessagesCsv,
      ]),
    );
  });

  it('prerendered none of them into dist/client', () => {
    expect(existsSync(join(CLIENT, 'index.html')), 'the build ran').toBe(true);
    for (const route of staffRoutes) {
      for (const file of [
        join(CLIENT, route),
        join(CLIENT, route, 'index.html'),
        join(CLIENT, `${route}.html`),
      ]) {
        expect(existsSync(file), file).toBe(false);
      }
    }
  });

  it('has every staff page and endpoint check the session itself before its first await', () => {
    const files = ['admin', 'api/staff'].flatMap((folder) =>
      readdirSync(join(ROOT, 'src/pages', folder), { recursive: true, encoding: 'utf8' })
        .filter((name) => /\.(astro|ts)$/.test(name))
        .map((name) => join(ROOT, 'src/pages', folder, name)),
    );
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) {
      if (file.endsWith('logout.ts')) continue; // signing out needs no session: a stale cookie must still leave
      const source = readFileSync(file, 'utf8');
      const guard = source.match(
        /await requireStaff(Page|Api)\((Astro|context)\);\s*if \(staff instanceof Response\) return staff;/,
      );
      expect(guard, file).not.toBeNull();
      // Nothing is read before the guard has answered.
      expect(source.slice(0, guard!.index).includes('await '), file).toBe(false);
    }
  });

  it('prerendered no blog page (they come from the database, rendered into memory: docs/decisions/0019), and the social card of every imported article', () => {
    const articles = readdirSync(join(ROOT, 'src/content/blog'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => name.replace(/\.md$/, ''));
    expect(articles.length).toBeGreaterThan(0);
    expect(existsSync(join(CLIENT, 'blog'))).toBe(false);
    for (const file of ['rss.xml', 'sitemap.xml']) expect(existsSync(join(CLIENT, file)), file).toBe(false);
    for (const id of articles) expect(existsSync(join(CLIENT, 'og', 'blog', `${id}.png`)), id).toBe(true);
  });
});
