/**
 * The staff guard as pages, endpoints and the middleware use it. The middleware checks every staff
 * path first; each staff page and endpoint then asks for its staff member here as well, so a page
 * moved out of the middleware's paths (or a middleware that stops matching) still refuses strangers.
 * The session is read once per request: a successful check is kept on `locals.staff`, which only this
 * module writes.
 */
import { ACTIONS_PREFIX, ROUTES } from '../../routes.ts';
import { actionErrorBody, STAFF_REFUSALS } from '../http/index.ts';
import type { AuditActor } from '../audit/index.ts';
import { getConfig } from '../config.ts';
import { clientNetworkOf, type RequestClient } from '../http/index.ts';
import { requireStaff, type StaffMember } from './auth.ts';

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
 * What an account must do before anything else in the staff area (issue 24, finding 2): the first
 * account, whose password was generated, sets its own; then, under STAFF_REQUIRE_2FA, every account
 * turns on two-step verification. Until then every staff route refuses it (pages lead to the section
 * of Configuración, endpoints and actions answer 403), except Configuración itself and signing out
 * (an endpoint the guard never sees).
 */
export type PendingSetUp = 'password' | 'two-step';

/** Where a staff page sends an account with its set-up pending. */
export const SET_UP_PATHS: Record<PendingSetUp, string> = {
  password: `${ROUTES.adminSettings}?motivo=cambio#contrasena`,
  'two-step': `${ROUTES.adminSettings}#dos-pasos`,
};

/** Where STAFF_REQUIRE_2FA sends an account without two-step verification. */
export const TWO_STEP_REQUIRED_PATH = SET_UP_PATHS['two-step'];

/** What a staff endpoint or action answers (403, JSON) while the set-up is pending. */
export const SET_UP_MESSAGES: Record<PendingSetUp, string> = {
  password: 'Antes de continuar, cambia la contraseña generada en Configuración → Contraseña.',
  'two-step':
    'Antes de continuar, activa la verificación en dos pasos en Configuración → Verificación en dos pasos.',
};

/**
 * Staff actions an account may call while its set-up is pending (by `group.name`): the forms of
 * Configuración, which posts each to itself (`?_action=`). The password change and the two-step
 * actions must be here, or an account that has to use them could never finish its set-up; ending a
 * session stays open as signing out does.
 */
export const SET_UP_ACTIONS: readonly string[] = [
  'settings.changePassword',
  'settings.startTwoStep',
  'settings.confirmTwoStep',
  'settings.disableTwoStep',
  'settings.endSession',
  'settings.endOtherSessions',
];

/** What this account still has to do, or null. */
export function pendingSetUp(
  staff: StaffMember,
  requireTwoStep = getConfig().STAFF_REQUIRE_2FA,
): PendingSetUp | null {
  if (staff.mustChangePassword) return 'password';
  if (requireTwoStep && !staff.twoStep) return 'two-step';
  return null;
}

/**
 * The routes an account with its set-up pending may still use: Configuración, and the actions it
 * posts, whether by their RPC path or as a form posted to a page (`?_action=`, which the middleware
 * runs before the page: any other action named there is refused, whatever the page).
 */
function isSetUpRoute(url: URL): boolean {
  const path = url.pathname.replace(/\/$/, '');
  const isSetUpAction = (name: string) => SET_UP_ACTIONS.includes(name.replace(/\/$/, ''));
  if (path.startsWith(ACTIONS_PREFIX)) return isSetUpAction(path.slice(ACTIONS_PREFIX.length));
  const posted = url.searchParams.get('_action');
  if (posted !== null && !isSetUpAction(posted)) return false;
  return path === ROUTES.adminSettings;
}

/** The answer to a route refused for a pending set-up: a redirect for pages, a Spanish JSON 403 otherwise. */
export function setUpRefusal(pathname: string, pending: PendingSetUp, kind: 'page' | 'api'): Response {
  const headers = { 'Cache-Control': 'no-store' };
  if (kind === 'page')
    return new Response(null, { status: 303, headers: { ...headers, Location: SET_UP_PATHS[pending] } });
  const message = SET_UP_MESSAGES[pending];
  if (pathname.startsWith(ACTIONS_PREFIX))
    return Response.json(actionErrorBody(STAFF_REFUSALS[403].actionCode, 403, message), {
      status: 403,
      headers,
    });
  return Response.json(
    { code: pending === 'password' ? 'password-change-required' : 'two-step-required', message },
    { status: 403, headers },
  );
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
  const pending = pendingSetUp(staff);
  if (pending && !isSetUpRoute(context.url)) return setUpRefusal(context.url.pathname, pending, kind);
  return staff;
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
  return { actorId: staff.id, actorEmail: staff.email, network: clientNetworkOf(context) };
}

/**
 * For a public page that shows more to staff ('Vista previa' of an article not public yet): the staff
 * member signed in on this request, or null (no session cookie, a session that no longer holds, or an
 * account with its set-up pending). Never a refusal: the page answers as it does for anyone else. The
 * session is looked up only when the request carries a session cookie.
 */
export async function signedInStaff(context: GuardContext): Promise<StaffMember | null> {
  if (context.locals.staff) return pendingSetUp(context.locals.staff) ? null : context.locals.staff;
  if (!/(?:^|;\s*)(?:__Secure-)?vertice\.session_token=/.test(context.request.headers.get('cookie') ?? ''))
    return null;
  const check = await requireStaff(context.request.headers);
  if (!check.ok) return null;
  context.locals.staff = check.staff;
  return pendingSetUp(check.staff) ? null : check.staff;
}
