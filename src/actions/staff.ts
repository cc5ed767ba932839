/**
 * Staff actions (`/_actions/incidents.setState`, `/_actions/clients.create`,
 * `/_actions/clients.sendWelcome`). Each checks the session first: 401 without one, 403 when the
 * e-mail left ADMIN_EMAILS.
 */
import { ActionError, defineAction, type ActionAPIContext } from 'astro:actions';
import { z } from 'astro/zod';
import { requireStaff, SERVICE_UNAVAILABLE_MESSAGE, type StaffMember } from '../server/auth/index.ts';
import { clientInputSchema } from '../domain/forms/client.ts';
import { INCIDENT_STATES } from '../domain/incidents.ts';
import { createClient } from '../server/clients/index.ts';
import { ClientNotFoundError, sendWelcome as sendWelcomeMail } from '../server/clients/welcome.ts';
import { getDb } from '../server/db/index.ts';
import { getConfig } from '../server/config.ts';
import { getLogger } from '../server/log.ts';
import { mailBrand } from '../server/mail/index.ts';
import { IncidentNotFoundError, setIncidentState } from '../server/incidents/staff.ts';

async function staffOnly(context: ActionAPIContext): Promise<StaffMember> {
  const check = await requireStaff(context.request.headers);
  if (check.ok) return check.staff;
  if (check.status === 503) throw new ActionError({ code: 'SERVICE_UNAVAILABLE', message: SERVICE_UNAVAILABLE_MESSAGE });
  throw check.status === 401
    ? new ActionError({ code: 'UNAUTHORIZED', message: 'Inicie sesión para continuar.' })
    : new ActionError({ code: 'FORBIDDEN', message: 'Este usuario no tiene permisos de administrador.' });
}

function internal(error: unknown, what: string): never {
  getLogger().error({ err: error }, what);
  throw new ActionError({ code: 'INTERNAL_SERVER_ERROR', message: 'Error interno del servidor.' });
}

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
      });
      getLogger().info({ event: 'incident.state', incidentId: incident.id, estado: incident.estado, actor: staff.email, notified: notified.queued }, 'incident state changed');
      return { incident, notified };
    } catch (error) {
      if (error instanceof IncidentNotFoundError) throw new ActionError({ code: 'NOT_FOUND', message: 'La incidencia no existe.' });
      internal(error, 'incident state change failed');
    }
  },
});

export const createClientAction = defineAction({
  // A form action too: without JavaScript the form posts to /admin/clientes?_action=clients.create.
  accept: 'form',
  input: clientInputSchema,
  handler: async (input, context) => {
    await staffOnly(context);
    try {
      return await createClient(getDb(), input);
    } catch (error) {
      internal(error, 'client not saved');
    }
  },
});

export const sendWelcome = defineAction({
  input: z.object({ id: z.coerce.number().int().positive() }),
  handler: async (input, context) => {
    await staffOnly(context);
    try {
      const client = await sendWelcomeMail(getDb(), input.id);
      return { id: client.id, correoBienvenidaEnviado: client.correoBienvenidaEnviado };
    } catch (error) {
      if (error instanceof ClientNotFoundError) throw new ActionError({ code: 'NOT_FOUND', message: 'El cliente no existe.' });
      internal(error, 'welcome mail failed');
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
