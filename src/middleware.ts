/**
 * The staff-area guard, at the one choke point every on-demand request passes: every `/admin` page
 * needs a staff session (none → redirect to /admin-login; an e-mail no longer on ADMIN_EMAILS → 403),
 * and so does every `/api/staff/` endpoint and staff action (401/403 as JSON); the actions check the
 * session again themselves (src/actions/staff.ts). Staff responses are never cached.
 */
import { defineMiddleware } from 'astro:middleware';
import { ROUTES } from './routes.ts';
import { STAFF_ACTION_NAMES } from './actions/staff.ts';
import { requireStaff, SERVICE_UNAVAILABLE_MESSAGE } from './server/auth/index.ts';

export function isStaffPage(pathname: string): boolean {
  return pathname === ROUTES.admin || pathname.startsWith(`${ROUTES.admin}/`);
}

export function isStaffApi(pathname: string): boolean {
  if (pathname.startsWith('/_actions/')) return STAFF_ACTION_NAMES.includes(pathname.slice('/_actions/'.length).replace(/\/$/, ''));
  return pathname.startsWith('/api/staff/') && pathname !== '/api/staff/logout';
}

const plainPage = (title: string, body: string) =>
  `<!doctype html><html lang="es-DO"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#0f172a"><h1>${title}</h1>${body}</body></html>`;

/** What a refused staff request gets, by status (a page without a session is redirected instead). */
const REFUSALS = {
  401: { message: 'Inicie sesión para continuar.', actionCode: 'UNAUTHORIZED', apiCode: 'unauthenticated', page: '' },
  403: {
    message: 'Este usuario no tiene permisos de administrador.',
    actionCode: 'FORBIDDEN',
    apiCode: 'permission-denied',
    page: plainPage('Acceso denegado', '<p>Este usuario no tiene permisos de administrador.</p><form method="post" action="/api/staff/logout"><button type="submit">Cerrar sesión</button></form>'),
  },
  // The database does not answer: the session may be fine, so keep it and ask to retry.
  503: {
    message: SERVICE_UNAVAILABLE_MESSAGE,
    actionCode: 'SERVICE_UNAVAILABLE',
    apiCode: 'unavailable',
    page: plainPage('Servicio no disponible', `<p>${SERVICE_UNAVAILABLE_MESSAGE}</p><p><a href="/admin">Reintentar</a></p>`),
  },
} as const;

export const onRequest = defineMiddleware(async (context, next) => {
  const { pathname } = context.url;
  const page = isStaffPage(pathname);
  if (!page && !isStaffApi(pathname)) return next();

  const check = await requireStaff(context.request.headers);
  if (!check.ok) {
    const headers = { 'Cache-Control': 'no-store' };
    if (page && check.status === 401) return new Response(null, { status: 303, headers: { ...headers, Location: ROUTES.adminLogin } });
    const refusal = REFUSALS[check.status];
    if (page) return new Response(refusal.page, { status: check.status, headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8' } });
    if (pathname.startsWith('/_actions/')) {
      // The shape Astro's action client reads back as an ActionError with this status.
      return Response.json({ type: 'AstroActionError', code: refusal.actionCode, status: check.status, message: refusal.message }, { status: check.status, headers });
    }
    return Response.json({ code: refusal.apiCode, message: refusal.message }, { status: check.status, headers });
  }
  context.locals.staff = check.staff;
  const response = await next();
  response.headers.set('Cache-Control', 'no-store');
  return response;
});
