/**
 * Staff actions (`/_actions/incidents.setState`, `/_actions/clients.create`,
 * `/_actions/clients.sendWelcome`). Each checks the session first: 401 without one, 403 when the
 * e-mail left ADMIN_EMAILS.
 */
import { ActionError, defineAction, type ActionAPIContext } from 'astro:actions';
import { z } from 'astro/zod';
import { requireStaff, type StaffMember } from '../server/auth/index.ts';
import { STAFF_REFUSALS } from '../server/http/refusals.ts';
import { actionFailed, networkOf } from './guards.ts';
import { clientInputSchema } from '../domain/forms/client.ts';
import { INCIDENT_STATES } from '../domain/incidents.ts';
import type { AuditActor } from '../server/audit/index.ts';
import { createClient } from '../server/clients/index.ts';
import { ClientNotFoundError, deliverWelcomeMail, sendWelcome as sendWelcomeMail } from '../server/clients/welcome.ts';
import { getDb } from '../server/db/index.ts';
import { getConfig } from '../server/config.ts';
import { getLogger } from '../server/log.ts';
import { mailBrand } from '../server/mail/index.ts';
import { IncidentNotFoundError } from '../server/incidents/index.ts';
import { setIncidentState } from '../server/incidents/state.ts';

/** The session check every staff action makes itself (the middleware made it too): the guard's refusals. */
async function staffOnly(context: ActionAPIContext): Promise<StaffMember> {
  const check = await requireStaff(context.request.headers);
  if (check.ok) return check.staff;
  const refusal = STAFF_REFUSALS[check.status];
  throw new ActionError({ code: refusal.actionCode, message: refusal.message });
}

/** The audit log's actor of a staff action: the staff member and the client network. */
function auditActor(staff: StaffMember, context: ActionAPIContext): AuditActor {
  return { actorId: staff.id, actorEmail: staff.email, network: networkOf(context) };
}

const INTERNAL_MESSAGE = 'Error interno del servidor.';

export const setState = defineAction({
  input: z.object({
    id: z.coerce.number().int().positive(),
    estado: z.enum(INCIDENT_STATES),
    notificar: z.coerce.boolean().default(true),
  }),
  handler: async (input, context) => {
    const staff = await staffOnly(context);
    try {
      const { incident, notified } = await setIncidentState(getDb(), {
        id: input.id,
        estado: input.estado as (typeof INCIDENT_STATES)[number],
        actor: staff.email,
        notify: input.notificar ? mailBrand() : null,
        visitorMailDailyCap: getConfig().VISITOR_MAIL_DAILY_CAP,
        audit: auditActor(staff, context),
      });
      getLogger().info({ event: 'incident.state', incidentId: incident.id, estado: incident.estado, actor: staff.email, notified: notified.queued }, 'incident state changed');
      return { incident, notified };
    } catch (error) {
      if (error instanceof IncidentNotFoundError) throw new ActionError({ code: 'NOT_FOUND', message: 'La incidencia no existe.' });
      actionFailed(error, 'incidents.setState', INTERNAL_MESSAGE);
    }
  },
});

export const createClientAction = defineAction({
  // A form action too: without JavaScript the form posts to /admin/clientes?_action=clients.create.
  accept: 'form',
  input: clientInputSchema,
  handler: async (input, context) => {
    const staff = await staffOnly(context);
    try {
      return await createClient(getDb(), input, new Date(), auditActor(staff, context));
    } catch (error) {
      actionFailed(error, 'clients.create', INTERNAL_MESSAGE);
    }
  },
});

export const sendWelcome = defineAction({
  input: z.object({ id: z.coerce.number().int().positive() }),
  handler: async (input, context) => {
    const staff = await staffOnly(context);
    try {
      const client = await sendWelcomeMail(getDb(), input.id, deliverWelcomeMail, auditActor(staff, context));
      return { id: client.id, correoBienvenidaEnviado: client.correoBienvenidaEnviado };
    } catch (error) {
      if (error instanceof ClientNotFoundError) throw new ActionError({ code: 'NOT_FOUND', message: 'El cliente no existe.' });
      actionFailed(error, 'clients.sendWelcome', INTERNAL_MESSAGE);
    }
  },
});

export const staffActions = {
  incidents: { setState },
  clients: { create: createClientAction, sendWelcome },
};

/**
 * `group.name` of every staff action, from the definition above: the middleware refuses them without
 * a session before Astro validates their input (401, never 400), and a new staff action is covered by
 * being defined here.
 */
export const STAFF_ACTION_NAMES: readonly string[] = Object.entries(staffActions).flatMap(([group, members]) =>
  Object.keys(members).map((name) => `${group}.${name}`),
);
