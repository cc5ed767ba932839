/**
 * Configuración: the staff member's own account. 'Nombre' (`settings.changeName`), 'Contraseña'
 * (`settings.changePassword`), 'Sesiones'
 * (`settings.endSession`, `settings.endOtherSessions`) and 'Verificación en dos pasos'
 * (`settings.startTwoStep` → the QR code, `settings.confirmTwoStep` → the recovery codes, shown once in
 * that answer; `settings.disableTwoStep`). Passwords and codes are never shown again.
 */
import type { ActionAPIContext } from 'astro:actions';
import { ROUTES } from '../../routes.ts';
import type { StaffMember } from '../../server/auth/index.ts';
import {
  changeStaffPassword,
  endOtherStaffSessions,
  endStaffSession,
  PASSWORD_MESSAGES,
  renameStaff,
} from '../../server/auth/index.ts';
import {
  confirmTwoStep,
  disableTwoStep,
  sessionTokenOf,
  startTwoStep,
  TWO_STEP_MESSAGES,
  type TwoStepErrors,
} from '../../server/auth/index.ts';
import { staffNameProblem } from '../../server/auth/index.ts';
import { getDb } from '../../server/db/index.ts';
import { clientIpOf } from '../../server/http/index.ts';
import { field, refuse, seeOtherTo, sendCookies } from '../form.ts';
import { staffForm } from './common.ts';

/** What the settings page says after each write (`?hecho=`). */
export const SETTINGS_DONE = {
  nombre: 'Tu nombre se guardó.',
  contrasena:
    'Tu contraseña cambió. Las demás sesiones de la cuenta se cerraron y te enviamos un correo de aviso.',
  cerrada: 'La sesión se cerró.',
  'no-encontrada': 'Esa sesión ya no estaba abierta.',
  demas: 'Las demás sesiones se cerraron.',
  'dos-pasos-desactivada':
    'La verificación en dos pasos está desactivada. Tus códigos de recuperación ya no sirven.',
} as const;

const back = (done: keyof typeof SETTINGS_DONE, anchor: string) =>
  seeOtherTo(`${ROUTES.adminSettings}?hecho=${done}#${anchor}`);

/** What the account's own checks need of the request: its session cookie, IP and network. */
const accountContext = (staff: StaffMember, network: string, context: ActionAPIContext) => ({
  staff,
  headers: context.request.headers,
  ip: clientIpOf(context),
  network,
});

export const changeName = staffForm(
  'settings.changeName',
  'No se pudo guardar el nombre. Inténtalo de nuevo.',
  async (form, { staff, actor }) => {
    const name = field(form, 'nombre');
    const problem = staffNameProblem(name);
    if (problem)
      refuse('BAD_REQUEST', `No se guardó el nombre: ${problem.charAt(0).toLowerCase()}${problem.slice(1)}`, {
        nombre: problem,
      });
    await renameStaff(getDb(), { staffId: staff.id, name, audit: actor });
    return back('nombre', 'nombre');
  },
);

export const changePassword = staffForm(
  'settings.changePassword',
  PASSWORD_MESSAGES.failed,
  async (form, { staff, actor, context }) => {
    const outcome = await changeStaffPassword(
      { actual: field(form, 'actual'), nueva: field(form, 'nueva'), repeticion: field(form, 'repeticion') },
      {
        ...accountContext(staff, actor.network, context),
        userAgent: context.request.headers.get('user-agent'),
      },
    );
    if (outcome.ok) return back('contrasena', 'contrasena');
    return refuse('BAD_REQUEST', 'No se cambió la contraseña: revisa los campos marcados.', outcome.errors);
  },
);

export const endSession = staffForm(
  'settings.endSession',
  'No se pudo cerrar la sesión. Inténtalo de nuevo.',
  async (form, { staff, actor }) =>
    back(
      (await endStaffSession(staff, field(form, 'sesion'), actor.network)) ? 'cerrada' : 'no-encontrada',
      'sesiones',
    ),
);

export const endOtherSessions = staffForm(
  'settings.endOtherSessions',
  'No se pudieron cerrar las sesiones. Inténtalo de nuevo.',
  async (_form, { staff, actor }) => {
    await endOtherStaffSessions(staff, actor.network);
    return back('demas', 'sesiones');
  },
);

/** A two-step refusal: the fields at fault, and the section's own message under `form`. */
function refuseTwoStep(errors: TwoStepErrors): never {
  return refuse('BAD_REQUEST', errors.form ?? Object.values(errors)[0] ?? TWO_STEP_MESSAGES.failed, errors);
}

/** Step 1: the current password; the answer shows the QR code and the secret. */
export const startTwoStep_ = staffForm(
  'settings.startTwoStep',
  TWO_STEP_MESSAGES.failed,
  async (form, { staff, actor, context }) => {
    const outcome = await startTwoStep(field(form, 'actual'), accountContext(staff, actor.network, context));
    if (!outcome.ok) refuseTwoStep(outcome.errors);
    return { enrolment: outcome.enrolment };
  },
);

/** Step 2: a current code; the answer shows the recovery codes once (never after a redirect). */
export const confirmTwoStep_ = staffForm(
  'settings.confirmTwoStep',
  TWO_STEP_MESSAGES.failed,
  async (form, { staff, actor, context }) => {
    const outcome = await confirmTwoStep(
      field(form, 'codigo'),
      accountContext(staff, actor.network, context),
    );
    if (!outcome.ok) refuseTwoStep(outcome.errors);
    // Better Auth replaced the session: its cookies go with this answer, and the page sees the new state.
    sendCookies(context, outcome.setCookies);
    const current = context.locals.staff;
    if (current) {
      current.sessionToken = sessionTokenOf(outcome.setCookies) ?? current.sessionToken;
      current.twoStep = true;
    }
    return { recoveryCodes: outcome.recoveryCodes };
  },
);

export const disableTwoStep_ = staffForm(
  'settings.disableTwoStep',
  TWO_STEP_MESSAGES.failed,
  async (form, { staff, actor, context }) => {
    const outcome = await disableTwoStep(
      { actual: field(form, 'actual'), codigo: field(form, 'codigo') },
      accountContext(staff, actor.network, context),
    );
    if (!outcome.ok) refuseTwoStep(outcome.errors);
    sendCookies(context, outcome.setCookies);
    return back('dos-pasos-desactivada', 'dos-pasos');
  },
);

export const settingsActions = {
  changeName,
  changePassword,
  endSession,
  endOtherSessions,
  startTwoStep: startTwoStep_,
  confirmTwoStep: confirmTwoStep_,
  disableTwoStep: disableTwoStep_,
};
