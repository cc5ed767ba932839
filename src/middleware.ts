/**
 * The staff-area guard, at the one choke point every on-demand request passes: every `/admin` page
 * needs a staff session (none → redirect to /admin-login; an e-mail no longer on ADMIN_EMAILS → 403),
 * and so does every `/api/staff/` endpoint and staff action (401/403 as JSON); the actions check the
 * session again themselves (src/actions/staff.ts). Staff responses are never cached.
 */
import { defineMiddleware } from 'astro:middleware';
import { ROUTES } from './routes.ts';
import { STAFF_ACTION_NAMES } from './actions/staff.ts';
import { requireStaff } from './server/auth/index.ts';
import { actionErrorBody, STAFF_REFUSALS } from './server/http/refusals.ts';

export function isStaffPage(pathname: string): boolean {
  return pathname === ROUTES.admin || pathname.startsWith(`${ROUTES.admin}/`);
}

export function isStaffApi(pathname: string): boolean {
  if (pathname.startsWith('/_actions/')) return STAFF_ACTION_NAMES.includes(pathname.slice('/_actions/'.length).replace(/\/$/, ''));
  return pathname.startsWith(`${ROUTES.staffApi}/`) && pathname !== ROUTES.adminLogout;
}

const plainPage = (title: string, body: string) =>
  `<!doctype html><html lang="es-DO"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#0f172a"><h1>${title}</h1>${body}</body></html>`;

/** The page a refused staff page shows, by status (a page without a session is redirected instead). */
const REFUSAL_PAGES = {
  401: '',
  403: plainPage('Acceso denegado', `<p>${STAFF_REFUSALS[403].message}</p><form method="post" action="${ROUTES.adminLogout}"><button type="submit">Cerrar sesión</button></form>`),
  // The database does not answer: the session may be fine, so keep it and ask to retry.
  503: plainPage('Servicio no disponible', `<p>${STAFF_REFUSALS[503].message}</p><p><a href="${ROUTES.admin}">Reintentar</a></p>`),
} as const;

export const onRequest = defineMiddleware(async (context, next) => {
  const { pathname } = context.url;
  const page = isStaffPage(pathname);
  if (!page && !isStaffApi(pathname)) return next();

  const check = await requireStaff(context.request.headers);
  if (!check.ok) {
    const headers = { 'Cache-Control': 'no-store' };
    if (page && check.status === 401) return new Response(null, { status: 303, headers: { ...headers, Location: ROUTES.adminLogin } });
    const refusal = STAFF_REFUSALS[check.status];
    if (page) return new Response(REFUSAL_PAGES[check.status], { status: check.status, headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8' } });
    if (pathname.startsWith('/_actions/')) {
      return Response.json(actionErrorBody(refusal.actionCode, check.status, refusal.message), { status: check.status, headers });
    }
    return Response.json({ code: refusal.apiCode, message: refusal.message }, { status: check.status, headers });
  }
  context.locals.staff = check.staff;
  const response = await next();
  response.headers.set('Cache-Control', 'no-store');
  return response;
});
