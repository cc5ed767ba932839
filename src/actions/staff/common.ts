/**
 * What every staff action does first: the session check (the middleware made it too), and the staff
 * member with the audit log's actor. `staffForm` defines a staff write posted as a form; an unexpected
 * failure is logged and answered with the area's Spanish message (500).
 */
import { ActionError, defineAction, type ActionAPIContext } from 'astro:actions';
import type { AuditActor } from '../../server/audit/index.ts';
import { requireStaff, type StaffMember } from '../../server/auth/index.ts';
import { staffActor } from '../../server/auth/index.ts';
import { STAFF_REFUSALS } from '../../server/http/index.ts';
import { actionFailed } from '../guards.ts';

export const INTERNAL_MESSAGE = 'Error interno del servidor.';

/** The session check every staff action makes itself: the guard's refusals. */
export async function staffOnly(context: ActionAPIContext): Promise<StaffMember> {
  const check = await requireStaff(context.request.headers);
  if (check.ok) return check.staff;
  const refusal = STAFF_REFUSALS[check.status];
  throw new ActionError({ code: refusal.actionCode, message: refusal.message });
}

/** Who acts in a staff write: the member, the audit actor and the action's context. */
export interface StaffCall {
  staff: StaffMember;
  actor: AuditActor;
  context: ActionAPIContext;
}

/**
 * A staff write posted as a form (`accept: 'form'`): the handler gets the form and who acts. A
 * refusal it expects is a `FormRefusal` (src/actions/form.ts); anything else is logged under `name`
 * and answered 500 with `failure`.
 */
export function staffForm<T>(
  name: string,
  failure: string,
  handler: (form: FormData, call: StaffCall) => Promise<T>,
) {
  return defineAction({
    accept: 'form',
    handler: async (form: FormData, context) => {
      const staff = await staffOnly(context);
      try {
        return await handler(form, { staff, actor: staffActor(context, staff), context });
      } catch (error) {
        actionFailed(error, name, failure);
      }
    },
  });
}
