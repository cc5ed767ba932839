/**
 * Staff sign-in (`/admin-login`): `login.password`, then, for an account with two-step verification,
 * `login.code` on a second step (`?paso=codigo`). Both are form actions posted to the sign-in page's
 * own path, which the middleware runs by the step (src/actions/form.ts); the limits per
 * account and per client network, the slow-down and the ADMIN_EMAILS check live in
 * src/server/auth/login.ts. Success answers 303 with the session's cookies; a refusal renders the page
 * with the message (the e-mail kept, never the password or the code).
 */
import { defineAction } from 'astro:actions';
import { ROUTES } from '../routes.ts';
import { TWO_STEP_LOCK } from '../server/auth/index.ts';
import { signInStaff, verifyStaffCode } from '../server/auth/index.ts';
import { STAFF_REFUSALS } from '../server/http/index.ts';
import { clientIpOf } from '../server/http/index.ts';
import { getLogger } from '../server/log.ts';
import { field, refuse, seeOtherTo, sendCookies } from './form.ts';

export const LOGIN_MESSAGES = {
  invalid: 'Credenciales incorrectas o error al iniciar sesión.',
  forbidden: STAFF_REFUSALS[403].message,
  'rate-limited': 'Demasiados intentos de inicio de sesión. Espera unos minutos e inténtalo de nuevo.',
  code: 'El código no es correcto. Escribe el que muestra ahora tu aplicación, o un código de recuperación que no hayas usado.',
  expired: 'La verificación caducó. Inicia sesión de nuevo.',
  used: 'Ese código ya se usó. Espera a que tu aplicación muestre el siguiente y escríbelo.',
  locked: `Demasiados códigos incorrectos seguidos: la verificación en dos pasos de esta cuenta queda bloqueada ${TWO_STEP_LOCK.durationSeconds / 60} minutos. Si no fuiste tú, alguien conoce tu contraseña: pide a quien administra el sitio que la restablezca, lo que también quita el bloqueo.`,
} as const;

/** The second step of a sign-in with two-step verification: the page with its code form. */
export const CODE_STEP = `${ROUTES.adminLogin}?paso=codigo`;
export const EXPIRED_PATH = `${ROUTES.adminLogin}?motivo=caducado`;
export const password = defineAction({
  accept: 'form',
  handler: async (form: FormData, context) => {
    let outcome;
    try {
      outcome = await signInStaff({
        email: field(form, 'email').slice(0, 254),
        password: field(form, 'password').slice(0, 256),
        ip: clientIpOf(context),
        userAgent: context.request.headers.get('user-agent'),
      });
    } catch (cause) {
      getLogger().error({ err: cause }, 'sign-in error');
      return refuse('UNAUTHORIZED', LOGIN_MESSAGES.invalid);
    }
    if (outcome.kind === 'ok' || outcome.kind === 'two-step') {
      // Signed in, or the same page's second form: Better Auth's cookies go with the redirect.
      sendCookies(context, outcome.setCookies);
      return seeOtherTo(outcome.kind === 'ok' ? ROUTES.admin : CODE_STEP);
    }
    if (outcome.kind === 'rate-limited') refuse('TOO_MANY_REQUESTS', LOGIN_MESSAGES['rate-limited']);
    return refuse(outcome.kind === 'forbidden' ? 'FORBIDDEN' : 'UNAUTHORIZED', LOGIN_MESSAGES[outcome.kind]);
  },
});

export const code = defineAction({
  accept: 'form',
  handler: async (form: FormData, context) => {
    let outcome;
    try {
      outcome = await verifyStaffCode({
        code: field(form, 'codigo'),
        headers: context.request.headers,
        ip: clientIpOf(context),
      });
    } catch (cause) {
      getLogger().error({ err: cause }, 'sign-in code error');
      return refuse('INTERNAL_SERVER_ERROR', LOGIN_MESSAGES.code);
    }
    if (outcome.kind === 'ok') {
      sendCookies(context, outcome.setCookies);
      return seeOtherTo(ROUTES.admin);
    }
    if (outcome.kind === 'expired') return seeOtherTo(EXPIRED_PATH);
    // Too many tries from here, or Better Auth's lock after too many wrong codes: 429, each with its message.
    if (outcome.kind === 'rate-limited' || outcome.kind === 'locked')
      refuse('TOO_MANY_REQUESTS', LOGIN_MESSAGES[outcome.kind]);
    return refuse(
      'BAD_REQUEST',
      outcome.kind === 'invalid' ? LOGIN_MESSAGES.code : LOGIN_MESSAGES[outcome.kind],
    );
  },
});

export const loginActions = { password, code };
