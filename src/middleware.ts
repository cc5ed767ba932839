/**
 * The staff-area guard, at the one choke point every on-demand request passes: every `/admin` page
 * needs a staff session (none → redirect to /admin-login; an e-mail no longer on ADMIN_EMAILS → 403),
 * and so does every `/api/staff/` endpoint and staff action (401/403 as JSON); the actions check the
 * session again themselves (src/actions/staff.ts), and every staff page and endpoint asks
 * src/server/auth/guard.ts for its staff member too. An account with its set-up pending (the first
 * account's generated password, or STAFF_REQUIRE_2FA without two-step verification) is refused on
 * every one of them but Configuración (guard.ts, `pendingSetUp`). Staff responses are never cached.
 */
import { defineMiddleware } from 'astro:middleware';
import { ACTIONS_PREFIX, isStaffEndpoint, isStaffPage } from './routes.ts';
import { STAFF_ACTION_NAMES } from './actions/staff.ts';
import { staffOrRefusal } from './server/auth/guard.ts';

/** A staff endpoint: a staff action (told by its definition) or a path under the staff API. */
function isStaffApi(pathname: string): boolean {
  if (pathname.startsWith(ACTIONS_PREFIX)) return STAFF_ACTION_NAMES.includes(pathname.slice(ACTIONS_PREFIX.length).replace(/\/$/, ''));
  return isStaffEndpoint(pathname);
}

export const onRequest = defineMiddleware(async (context, next) => {
  const { pathname } = context.url;
  const page = isStaffPage(pathname);
  if (!page && !isStaffApi(pathname)) return next();

  const staff = await staffOrRefusal(context, page ? 'page' : 'api');
  if (staff instanceof Response) return staff;
  const response = await next();
  response.headers.set('Cache-Control', 'no-store');
  return response;
});
