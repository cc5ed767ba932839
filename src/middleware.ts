/**
 * The one middleware of on-demand requests:
 * - the staff-area guard: every `/admin` page needs a staff session (none → redirect to /admin-login;
 *   an e-mail no longer on ADMIN_EMAILS → 403), and so does every `/api/staff/` endpoint and staff
 *   action (401/403 as JSON); the actions check the session again themselves (src/actions/staff/),
 *   and every staff page and endpoint asks src/server/auth/guard.ts for its staff member too. An
 *   account with its set-up pending (the first account's generated password, or STAFF_REQUIRE_2FA
 *   without two-step verification) is refused on every one of them but Configuración and the actions
 *   its forms post (guard.ts, `pendingSetUp`, `SET_UP_ACTIONS`). Staff responses are never cached.
 * - forms: an action posted from a page's form runs here (src/actions/form.ts): a success answers 303
 *   (post/redirect/get), a refusal renders the page with each field's message and the values typed.
 * - the staff pages' render cache (src/server/page-cache/): a GET of a staff page, once the guard has
 *   let it through, is answered from a kept render when the page opted in and nothing it depends on
 *   has changed since (docs/decisions/0023-staff-pages-speed.md).
 */
import { defineMiddleware } from 'astro:middleware';
import { ACTIONS_PREFIX, isStaffEndpoint, isStaffPage } from './routes.ts';
import { STAFF_ACTION_NAMES } from './actions/staff/index.ts';
import { runFormAction } from './actions/form.ts';
import { staffOrRefusal, type StaffMember } from './server/auth/index.ts';
import { getDb } from './server/db/index.ts';
import {
  dataVersion,
  keepPage,
  keptPage,
  markPathKept,
  pageKey,
  pathMayBeKept,
  type PageCacheHints,
} from './server/page-cache/index.ts';

/** A staff action's name (told by its definition), from its RPC path or a page's `?_action=`. */
function isStaffAction(name: string | null): boolean {
  return name !== null && STAFF_ACTION_NAMES.includes(name.replace(/\/$/, ''));
}

/** A staff endpoint: a staff action or a path under the staff API. */
function isStaffApi(url: URL): boolean {
  if (url.pathname.startsWith(ACTIONS_PREFIX))
    return isStaffAction(url.pathname.slice(ACTIONS_PREFIX.length));
  return isStaffEndpoint(url.pathname) || isStaffAction(url.searchParams.get('_action'));
}

export const onRequest = defineMiddleware(async (context, next) => {
  const page = isStaffPage(context.url.pathname);
  if (!page && !isStaffApi(context.url)) return runFormAction(context, next);

  const staff = await staffOrRefusal(context, page ? 'page' : 'api');
  if (staff instanceof Response) return staff;
  const response =
    page && context.request.method === 'GET' && !context.url.searchParams.has('_action')
      ? await keptOrRendered(context, staff, () => runFormAction(context, next))
      : await runFormAction(context, next);
  response.headers.set('Cache-Control', 'no-store');
  return response;
});

/**
 * A staff page from the render cache, or rendered (and kept when the page says it may be, and no write
 * committed while it rendered). A failure to read the data version only costs the cache.
 */
async function keptOrRendered(
  context: Parameters<Parameters<typeof defineMiddleware>[0]>[0],
  staff: StaffMember,
  render: () => Promise<Response>,
): Promise<Response> {
  const db = getDb();
  const { pathname } = context.url;
  // The data version is read only for a path whose page has opted in once (its first render is not kept).
  const version = pathMayBeKept(pathname) ? await dataVersion(db).catch(() => undefined) : undefined;
  const key = version === undefined ? undefined : pageKey(staff, context.url, version);
  const kept = key === undefined ? undefined : keptPage(key);
  if (kept) return kept;
  const hints: PageCacheHints = (context.locals.pageCache = {});
  const response = await render();
  if (hints.until !== undefined) markPathKept(pathname);
  // A page that sets a cookie is an answer for this request only.
  const setsCookies = response.headers.has('set-cookie') || [...context.cookies.headers()].length > 0;
  if (key === undefined || hints.until === undefined || response.status !== 200 || setsCookies)
    return response;
  const body = await response.text();
  if ((await dataVersion(db).catch(() => undefined)) === version) keepPage(key, response, body, hints);
  return new Response(body, { status: response.status, headers: response.headers });
}
