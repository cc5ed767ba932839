/**
 * The staff guard as pages, endpoints and the middleware use it. The middleware checks every staff
 * path first; each staff page and endpoint then asks for its staff member here as well, so a page
 * moved out of the middleware's paths (or a middleware that stops matching) still refuses strangers.
 * The session is read once per request: a successful check is kept on `locals.staff`, which only this
 * module writes.
 */
import { ACTIONS_PREFIX, ROUTES } from '../../routes.ts';
import { actionErrorBody, STAFF_REFUSALS } from '../http/refusals.ts';
import type { AuditActor } from '../audit/index.ts';
import { getConfig } from '../config.ts';
import { clientNetworkOfRequest, type RequestClient } from '../http/request-client.ts';
import { requireStaff, type StaffMember } from './index.ts';

/** What a guarded route needs of Astro's context (pages: `Astro`; endpoints and middleware: the API context). */
export interface GuardContext {
  request: Request;
  url: URL;
  locals: App.Locals;
}

type RefusalStatus = keyof typeof STAFF_REFUSALS;

const plainPage = (title: string, body: string) =>
  `<!doctype html><html lang="es-DO"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#0f172a"><h1>${title}</h1>${body}</body></html>`;

/** The page a refused staff page shows, by status (a page without a session is redirected instead). */
const REFUSAL_PAGES: Record<Exclude<RefusalStatus, 401>, string> = {
  403: plainPage(
    'Acceso denegado',
    `<p>${STAFF_REFUSALS[403].message}</p><form method="post" action="${ROUTES.adminLogout}"><button type="submit">Cerrar sesión</button></form>`,
  ),
  // The database does not answer: the session may be fine, so keep it and ask to retry.
  503: plainPage(
    'Servicio no disponible',
    `<p>${STAFF_REFUSALS[503].message}</p><p><a href="${ROUTES.admin}">Reintentar</a></p>`,
  ),
};

/** The sign-in page after a session ended for inactivity: it says why. */
export const IDLE_LOGIN_PATH = `${ROUTES.adminLogin}?motivo=inactividad`;
export const IDLE_MESSAGE = 'Tu sesión se cerró por inactividad. Inicia sesión de nuevo.';

/** The answer to a refused staff request: a redirect or a page for pages, JSON for actions and APIs. */
export function staffRefusal(
  pathname: string,
  status: RefusalStatus,
  kind: 'page' | 'api',
  reason?: 'idle',
): Response {
  const headers = { 'Cache-Control': 'no-store' };
  if (kind === 'page') {
    if (status === 401)
      return new Response(null, {
        status: 303,
        headers: { ...headers, Location: reason === 'idle' ? IDLE_LOGIN_PATH : ROUTES.adminLogin },
      });
    return new Response(REFUSAL_PAGES[status], {
      status,
      headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8' },
    });
  }
  const refusal = STAFF_REFUSALS[status];
  if (pathname.startsWith(ACTIONS_PREFIX))
    return Response.json(actionErrorBody(refusal.actionCode, status, refusal.message), { status, headers });
  return Response.json({ code: refusal.apiCode, message: refusal.message }, { status, headers });
}

/**
 * Where a staff page must send its staff member first, or null: an account with a generated password
 * goes to 'Contraseña' until it has one of its own (the settings page itself stays open).
 */
function pendingStep(staff: StaffMember, pathname: string): string | null {
  if (staff.mustChangePassword && pathname !== ROUTES.adminSettings)
    return `${ROUTES.adminSettings}?motivo=cambio#contrasena`;
  return null;
}

/** Where STAFF_REQUIRE_2FA sends an account without two-step verification. */
export const TWO_STEP_REQUIRED_PATH = `${ROUTES.adminSettings}#dos-pasos`;

/**
 * Under STAFF_REQUIRE_2FA, the redirect of a staff page for an account without two-step verification
 * (every page but Configuración itself, where it is turned on; signing out is an endpoint, never sent).
 */
export function twoStepRedirect(
  staff: StaffMember,
  pathname: string,
  kind: 'page' | 'api',
  require = getConfig().STAFF_REQUIRE_2FA,
): Response | null {
  if (!require || staff.twoStep || kind !== 'page' || pathname.replace(/\/$/, '') === ROUTES.adminSettings)
    return null;
  return new Response(null, {
    status: 303,
    headers: { Location: TWO_STEP_REQUIRED_PATH, 'Cache-Control': 'no-store' },
  });
}

/** The staff member of this request, or the refusal to answer with. */
export async function staffOrRefusal(
  context: GuardContext,
  kind: 'page' | 'api',
): Promise<StaffMember | Response> {
  let staff = context.locals.staff;
  if (!staff) {
    const check = await requireStaff(context.request.headers);
    if (!check.ok) return staffRefusal(context.url.pathname, check.status, kind, check.reason);
    staff = context.locals.staff = check.staff;
  }
  const step = kind === 'page' ? pendingStep(staff, context.url.pathname) : null;
  if (step)
    return new Response(null, { status: 303, headers: { Location: step, 'Cache-Control': 'no-store' } });
  return twoStepRedirect(staff, context.url.pathname, kind) ?? staff;
}

/** For a staff page's frontmatter: `const staff = await requireStaffPage(Astro); if (staff instanceof Response) return staff;` */
export const requireStaffPage = (context: GuardContext) => staffOrRefusal(context, 'page');

/** For a staff endpoint: the same, answering refusals as JSON. */
export const requireStaffApi = (context: GuardContext) => staffOrRefusal(context, 'api');

/**
 * The staff member acting, and from which client network: the audit log's actor. The one way every
 * staff write (src/actions/staff/) names who did it.
 */
export function staffActor(context: RequestClient, staff: StaffMember): AuditActor {
  return { actorId: staff.id, actorEmail: staff.email, network: clientNetworkOfRequest(context) };
}
