/**
 * What a refused request is told, written once: the staff guard's refusals (the middleware for pages
 * and APIs, the staff actions themselves), and the body Astro's action client reads back as an
 * `ActionError` (the middleware, and the choke point in security.ts, which runs on plain Node).
 */

/** What staff are told while the database does not answer (pages, actions and APIs alike). */
export const SERVICE_UNAVAILABLE_MESSAGE =
  'El servicio no está disponible en este momento. Inténtelo de nuevo en unos minutos.';

/** The staff guard's refusals by status: the Spanish message, the action error code and the API code. */
export const STAFF_REFUSALS = {
  401: { message: 'Inicia sesión para continuar.', actionCode: 'UNAUTHORIZED', apiCode: 'unauthenticated' },
  403: {
    message: 'Este usuario no tiene permisos de administrador.',
    actionCode: 'FORBIDDEN',
    apiCode: 'permission-denied',
  },
  503: { message: SERVICE_UNAVAILABLE_MESSAGE, actionCode: 'SERVICE_UNAVAILABLE', apiCode: 'unavailable' },
} as const;

/** The JSON body Astro's action client turns back into an `ActionError` with this code and status. */
export function actionErrorBody(
  code: string,
  status: number,
  message: string,
): { type: 'AstroActionError'; code: string; status: number; message: string } {
  return { type: 'AstroActionError', code, status, message };
}
