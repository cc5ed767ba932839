/**
 * The public pages, found from the route files: a new page is listed (sitemap) and counted (page-view
 * beacon) without touching this file. The staff area, error pages, images and APIs are left out;
 * blog articles, whose route is dynamic, are added by the callers from the content collection.
 */
const EXCLUDED = /^\/(admin|404|500|og\/|healthz)/;

/** `/src/pages/producto/admcloud.astro` -> `/producto/admcloud`; `/src/pages/blog/index.astro` -> `/blog`. */
function routeOf(file: string): string {
  const path = file.replace(/^\/src\/pages/, '').replace(/\.astro$/, '').replace(/\/index$/, '');
  return path === '' ? '/' : path;
}

export const STATIC_PUBLIC_ROUTES: readonly string[] = Object.keys(import.meta.glob('/src/pages/**/*.astro'))
  .map(routeOf)
  .filter((route) => !route.includes('[') && !EXCLUDED.test(route))
  .sort();

/** The path of a blog article. */
export const articlePath = (id: string) => `/blog/${id}`;
