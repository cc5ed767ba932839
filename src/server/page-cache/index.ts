/**
 * The face of src/server/page-cache: the staff pages' render cache (issue 40 §3), used by the middleware
 * (src/middleware.ts) and opted into by a page through `Astro.locals.pageCache`.
 */
export {
  clearPageCache,
  dataVersion,
  keepPage,
  KEPT_HEADER,
  MAX_ENTRIES,
  markPathKept,
  keptPage,
  pageCacheSize,
  pageKey,
  pathMayBeKept,
  type PageCacheHints,
} from './cache.ts';
