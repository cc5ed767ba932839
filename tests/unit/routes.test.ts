/**
 * The route list in src/routes.ts against the page files: a new public page that is not listed (and
 * so missing from the sitemap and the page-view counts), or a listed page without a file, fails here.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fragmentPath } from '../../src/lib/site-fragments.ts';
import { describe, expect, it } from 'vitest';
import {
  articlePath,
  CLIENT_PREFILL_FIELDS,
  newClientPath,
  isPrivatePath,
  isPublicPage,
  isStaffEndpoint,
  isStaffPage,
  isStaffPath,
  PUBLIC_PAGES,
  ROUTES,
} from '../../src/routes.ts';
import { ROOT } from '../support/server.ts';

/** Page files that are not public pages: the staff area, its sign-in, the error pages (413: a form too large). */
const NOT_PUBLIC = (route: string) =>
  isStaffPath(route) ||
  route === '/404' ||
  route === '/500' ||
  route === ROUTES.tooLarge ||
  route.startsWith(`${ROUTES.fragments}/`);

/** `/src/pages/producto/admcloud.astro` → `/producto/admcloud`, for every `.astro` file. */
function pageRoutes(): string[] {
  const pages = join(ROOT, 'src/pages');
  return readdirSync(pages, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.astro'))
    .map((file) => `/${file}`.replace(/\.astro$/, '').replace(/\/?index$/, '') || '/');
}

describe('routes module', () => {
  it('lists every public page file, and only those', () => {
    // Page files with a fixed path (dynamic routes such as blog articles are not in the list).
    const publicFiles = pageRoutes().filter((route) => !route.includes('[') && !NOT_PUBLIC(route));
    expect([...publicFiles].sort()).toEqual([...PUBLIC_PAGES].sort());
    expect(new Set(PUBLIC_PAGES).size).toBe(PUBLIC_PAGES.length);
  });

  it('tells staff, private and public paths apart', () => {
    expect(isStaffPage(ROUTES.admin)).toBe(true);
    expect(isStaffPage(`${ROUTES.adminIncidents}/2026-0001`)).toBe(true);
    expect(isStaffPage('/administracion')).toBe(false);
    expect(isStaffPage(ROUTES.adminLogin)).toBe(false);
    expect(isStaffEndpoint(ROUTES.staffIncidentsCsv)).toBe(true);
    expect(isStaffPage(ROUTES.adminMessages)).toBe(true);
    expect(isStaffEndpoint(ROUTES.staffMessagesCsv)).toBe(true);
    // Signing out needs no session: a stale cookie must still be able to leave.
    expect(isStaffEndpoint(ROUTES.adminLogout)).toBe(false);
    expect(isStaffPath(ROUTES.adminLogin)).toBe(true);
    // The server's own fragments (issue 23): never cached, never counted.
    expect(isPrivatePath(`${ROUTES.fragments}/novedades`)).toBe(true);
    expect(fragmentPath('novedades')).toBe(`${ROUTES.fragments}/novedades`);
    for (const path of [
      ROUTES.admin,
      ROUTES.adminLogin,
      ROUTES.beacon,
      ROUTES.health,
      '/_actions/contact.send',
      ROUTES.staffIncidentsCsv,
    ]) {
      expect(isPrivatePath(path), path).toBe(true);
    }
    for (const path of PUBLIC_PAGES) {
      expect(isPrivatePath(path), path).toBe(false);
      expect(isPublicPage(path), path).toBe(true);
    }
    expect(isPublicPage(articlePath('mejor-erp-2025'))).toBe(true);
    expect(isPublicPage('/blog/Mayusculas')).toBe(false);
    // The rating page (issue 22): public, opened with a mail's token.
    expect(isPublicPage(ROUTES.supportRating)).toBe(true);
    expect(isPrivatePath(ROUTES.supportRating)).toBe(false);
    expect(isPublicPage(ROUTES.admin)).toBe(false);
  });

  it("builds the add-client form's pre-fill link of the contact inbox", () => {
    expect(CLIENT_PREFILL_FIELDS).toEqual(['nombreRepresentante', 'email']);
    expect(newClientPath({ nombreRepresentante: 'Ana & Pérez', email: 'ana+1@example.com' })).toBe(
      '/admin/clientes?nombreRepresentante=Ana+%26+P%C3%A9rez&email=ana%2B1%40example.com#nuevo-cliente',
    );
  });
});
