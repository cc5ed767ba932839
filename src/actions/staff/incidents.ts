/**
 * Staff writes on incidents: the state (`incidents.setState`, JSON, the fixed interface the islands and
 * scripts call; `incidents.setStateForm`, its form twin for the control without JavaScript), the
 * priority (`incidents.setPriorityForm`, and `incidents.setPriority` for the list's island), 'Asignar a'
 * (`incidents.assign`), the conversation's reply or internal note (`incidents.addEntry`) and 'Aceptar
 * como del cliente' on an answer whose sender is not verified (`incidents.acceptAnswer`, issue 38).
 */
import { filesOfSubmission } from '../uploads.ts';
import { ActionError, defineAction, type ActionAPIContext } from 'astro:actions';
import { z } from 'astro/zod';
import {
  entryTextProblem,
  INCIDENT_PRIORITIES,
  INCIDENT_STATES,
  incidentPrioritySchema,
  PRIORITY_MESSAGE,
  type IncidentPriority,
  type IncidentState,
} from '../../domain/incidents.ts';
import { incidentPath, ROUTES } from '../../routes.ts';
import { staffActor } from '../../server/auth/index.ts';
import type { StaffMember } from '../../server/auth/index.ts';
import { getConfig } from '../../server/config.ts';
import { namedHistory, staffNames } from '../../server/auth/index.ts';
import { getDb } from '../../server/db/index.ts';
import {
  AssigneeNotFoundError,
  assignIncident,
  type AssignmentOutcome,
} from '../../server/incidents/index.ts';
import {
  acceptUnverifiedAnswer,
  addNote,
  AnswerNotFoundError,
  incidentByNumber,
  replyToCustomer,
  type ReplyMailOutcome,
} from '../../server/incidents/index.ts';
import { IncidentNotFoundError } from '../../server/incidents/index.ts';
import { setIncidentPriority } from '../../server/incidents/index.ts';
import { setIncidentState } from '../../server/incidents/index.ts';
import { getLogger } from '../../server/log.ts';
import { mailBrand } from '../../server/mail/index.ts';
import { field, refuse, seeOtherTo } from '../form.ts';
import { actionFailed } from '../guards.ts';
import { INTERNAL_MESSAGE, staffForm, staffOnly } from './common.ts';

/** What the incident page says after each write (`?hecho=`). */
export const INCIDENT_DONE = {
  nota: 'La nota interna se guardó. El cliente no la ve.',
  respuesta: 'La respuesta se guardó y se enviará al cliente por correo.',
  'respuesta-sin-correo':
    'La respuesta se guardó, pero la incidencia no tiene un correo válido: no se envió ningún correo. El cliente la verá en su página de seguimiento.',
  'respuesta-limite':
    'La respuesta se guardó, pero hoy se alcanzó el límite de correos a clientes: no se envió el correo. El cliente la verá en su página de seguimiento.',
  asignada: 'La incidencia quedó asignada. Se avisó por correo a la persona asignada.',
  'asignada-a-ti': 'La incidencia quedó asignada a ti.',
  'sin-asignar': 'La incidencia quedó sin asignar.',
  'sin-cambio': 'La incidencia ya estaba asignada así: no cambió nada.',
  estado: 'Estado actualizado correctamente.',
  prioridad: 'Prioridad actualizada.',
  'prioridad-sin-cambio': 'La incidencia ya tenía esa prioridad: no cambió nada.',
  'estado-notificado': 'Estado actualizado correctamente. Se avisará al cliente por correo.',
  aceptada:
    'Aceptaste la respuesta como del cliente: ahora la ve, con sus archivos, en su página de seguimiento.',
  'ya-aceptada': 'Esa respuesta ya estaba aceptada como del cliente: no cambió nada.',
} as const;
export type IncidentDone = keyof typeof INCIDENT_DONE;

const ASSIGN_DONE: Record<AssignmentOutcome, IncidentDone> = {
  mailed: 'asignada',
  self: 'asignada-a-ti',
  unassigned: 'sin-asignar',
  unchanged: 'sin-cambio',
};
const REPLY_DONE: Record<ReplyMailOutcome, IncidentDone> = {
  queued: 'respuesta',
  'no-email': 'respuesta-sin-correo',
  'daily-cap': 'respuesta-limite',
};

/** The message of a conversation entry or an assignment that could not be stored. */
export const INCIDENT_WRITE_FAILED = 'No se pudo guardar. Inténtalo de nuevo.';
const NOT_FOUND_MESSAGE = 'La incidencia no existe.';

/** Changes the state, mailing the visitor when asked: the one path of both state actions. */
async function changeState(
  context: ActionAPIContext,
  staff: StaffMember,
  input: { id: number; estado: IncidentState; notificar: boolean },
) {
  try {
    const { incident, notified } = await setIncidentState(getDb(), {
      id: input.id,
      estado: input.estado,
      actor: staff.email,
      notify: input.notificar ? mailBrand() : null,
      customerMailDailyCap: getConfig().VISITOR_MAIL_DAILY_CAP,
      audit: staffActor(context, staff),
    });
    getLogger().info(
      {
        event: 'incident.state',
        incidentId: incident.id,
        estado: incident.estado,
        actor: staff.email,
        notified: notified.queued,
      },
      'incident state changed',
    );
    // Signed by names, as the list shows it after a reload.
    const names = await staffNames(getDb()).catch(() => new Map<string, string>());
    const historial = namedHistory(names, incident.historial);
    return { incident: { ...incident, historial }, notified };
  } catch (error) {
    if (error instanceof IncidentNotFoundError)
      throw new ActionError({ code: 'NOT_FOUND', message: NOT_FOUND_MESSAGE });
    actionFailed(error, 'incidents.setState', INTERNAL_MESSAGE);
  }
}

const stateInput = {
  id: z.coerce.number().int().positive(),
  estado: z.enum(INCIDENT_STATES),
};

export const setState = defineAction({
  input: z.object({ ...stateInput, notificar: z.coerce.boolean().default(true) }),
  handler: async (input, context) => changeState(context, await staffOnly(context), input),
});

/** Where the state form sends the browser back: the incident list (with its filters) or an incident page. */
function backTo(path: string): string {
  return path.startsWith(`${ROUTES.adminIncidents}`) && !path.startsWith('//') && !/[\\\s]/.test(path)
    ? path
    : ROUTES.adminIncidents;
}

export const setStateForm = defineAction({
  accept: 'form',
  // A checkbox: absent when not ticked (no default: an unticked box must not notify).
  input: z.object({
    ...stateInput,
    notificar: z.boolean(),
    volver: z.string().max(2000).default(ROUTES.adminIncidents),
  }),
  handler: async (input, context) => {
    const { incident, notified } = await changeState(context, await staffOnly(context), input);
    const back = backTo(input.volver).replace(/[?&]hecho=[^&#]*/g, '');
    const done: IncidentDone = notified.queued ? 'estado-notificado' : 'estado';
    return { ...seeOtherTo(`${back}${back.includes('?') ? '&' : '?'}hecho=${done}`), incident };
  },
});

/** Sets the priority: the one path of both priority actions. */
async function changePriority(
  context: ActionAPIContext,
  staff: StaffMember,
  input: { id: number; prioridad: IncidentPriority },
) {
  const { changed, numeroIncidencia, prioridad } = await setIncidentPriority(getDb(), {
    incidentId: input.id,
    prioridad: input.prioridad,
    actor: { id: staff.id, email: staff.email, name: staff.name },
    audit: staffActor(context, staff),
  });
  getLogger().info(
    { event: 'incident.priority', incidentId: input.id, prioridad, actor: staff.email, changed },
    'incident priority',
  );
  return { changed, numeroIncidencia, prioridad };
}

/** JSON, for the list's island (in place): `{ id, prioridad }`. */
export const setPriority = defineAction({
  input: z.object({
    id: z.coerce.number().int().positive(),
    prioridad: z.enum(INCIDENT_PRIORITIES, { error: PRIORITY_MESSAGE }),
  }),
  handler: async (input, context) => {
    const staff = await staffOnly(context);
    try {
      return await changePriority(context, staff, input);
    } catch (error) {
      if (error instanceof IncidentNotFoundError)
        throw new ActionError({ code: 'NOT_FOUND', message: NOT_FOUND_MESSAGE });
      actionFailed(error, 'incidents.setPriority', INCIDENT_WRITE_FAILED);
    }
  },
});

/** The priority form of the incident page and of the list without JavaScript: `id`, `prioridad`, `volver`. */
export const setPriorityForm = staffForm(
  'incidents.setPriorityForm',
  INCIDENT_WRITE_FAILED,
  async (form, { staff, context }) => {
    const id = Number(field(form, 'id'));
    const parsed = incidentPrioritySchema.safeParse(field(form, 'prioridad'));
    if (!parsed.success) refuse('BAD_REQUEST', PRIORITY_MESSAGE, { prioridad: PRIORITY_MESSAGE });
    if (!Number.isInteger(id) || id <= 0) refuse('NOT_FOUND', NOT_FOUND_MESSAGE);
    try {
      const { changed } = await changePriority(context, staff, { id, prioridad: parsed.data });
      const back = backTo(field(form, 'volver')).replace(/[?&]hecho=[^&#]*/g, '');
      const done: IncidentDone = changed ? 'prioridad' : 'prioridad-sin-cambio';
      return seeOtherTo(`${back}${back.includes('?') ? '&' : '?'}hecho=${done}`);
    } catch (error) {
      if (error instanceof IncidentNotFoundError) refuse('NOT_FOUND', NOT_FOUND_MESSAGE);
      throw error;
    }
  },
);

/** The incident a form names by its number (hidden `numero`, else the page's), or a 404 refusal. */
async function incidentOf(form: FormData, context: ActionAPIContext) {
  const incident = await incidentByNumber(getDb(), field(form, 'numero') || (context.params.numero ?? ''));
  return incident ?? refuse('NOT_FOUND', NOT_FOUND_MESSAGE);
}

export const assign = staffForm(
  'incidents.assign',
  INCIDENT_WRITE_FAILED,
  async (form, { staff, actor, context }) => {
    const incident = await incidentOf(form, context);
    // 'Asignar a': an account id, or '' for 'Sin asignar'.
    const asignado = field(form, 'asignado');
    try {
      const { outcome } = await assignIncident(getDb(), {
        incidentId: incident.id,
        assigneeId: asignado === '' ? null : asignado,
        actor: { id: staff.id, email: staff.email, name: staff.name },
        brand: mailBrand(),
        audit: actor,
      });
      getLogger().info(
        { event: 'incident.assigned', incidentId: incident.id, actor: staff.email, outcome },
        'incident assignment',
      );
      return seeOtherTo(`${incidentPath(incident.numeroIncidencia)}?hecho=${ASSIGN_DONE[outcome]}`);
    } catch (error) {
      if (error instanceof AssigneeNotFoundError)
        refuse('BAD_REQUEST', 'Esa cuenta ya no existe. Elige otra de la lista.', {
          asignado: 'Esa cuenta ya no existe. Elige otra de la lista.',
        });
      throw error;
    }
  },
);

export const addEntry = staffForm(
  'incidents.addEntry',
  INCIDENT_WRITE_FAILED,
  async (form, { staff, actor, context }) => {
    const incident = await incidentOf(form, context);
    // Browsers send CRLF line ends from a textarea: stored as typed lines, counted as the visitor sees them.
    const texto = field(form, 'texto').replace(/\r\n?/g, '\n');
    const accion = field(form, 'accion');
    let problem = entryTextProblem(texto);
    if (accion !== 'responder' && accion !== 'nota')
      problem = 'Elige «Responder al cliente» o «Agregar nota interna».';
    if (problem) refuse('BAD_REQUEST', problem, { texto: problem });
    // 'Adjuntar archivos': read as they streamed in (src/actions/uploads.ts), sniffed and cleaned here.
    const files = await filesOfSubmission(context, 'incidents.addEntry');
    const author = { id: staff.id, email: staff.email, name: staff.name };
    let outcome: IncidentDone = 'nota';
    if (accion === 'nota') {
      await addNote(getDb(), { incidentId: incident.id, author, body: texto, audit: actor, files });
    } else {
      const { mail } = await replyToCustomer(getDb(), {
        incidentId: incident.id,
        author,
        body: texto,
        brand: mailBrand(),
        customerMailDailyCap: getConfig().VISITOR_MAIL_DAILY_CAP,
        audit: actor,
        files,
      });
      outcome = REPLY_DONE[mail];
    }
    getLogger().info(
      { event: `incident.${accion}`, incidentId: incident.id, actor: staff.email, files: files.length },
      'incident conversation entry stored',
    );
    return seeOtherTo(`${incidentPath(incident.numeroIncidencia)}?hecho=${outcome}`);
  },
);

/**
 * 'Aceptar como del cliente': an answer stored 'Remitente sin verificar' is taken as the customer's own
 * (shown on the follow-up page from now on, with its files): `numero`, `entrada` (the entry's id).
 */
export const acceptAnswer = staffForm(
  'incidents.acceptAnswer',
  INCIDENT_WRITE_FAILED,
  async (form, { staff, actor, context }) => {
    const incident = await incidentOf(form, context);
    const entryId = Number(field(form, 'entrada'));
    if (!Number.isInteger(entryId) || entryId <= 0) refuse('NOT_FOUND', 'Esa respuesta no existe.');
    try {
      const outcome = await acceptUnverifiedAnswer(getDb(), {
        incidentId: incident.id,
        entryId,
        actor: { id: staff.id, email: staff.email, name: staff.name },
        audit: actor,
      });
      getLogger().info(
        { event: 'incident.answer-accepted', incidentId: incident.id, entryId, actor: staff.email, outcome },
        'unverified answer accepted',
      );
      const done: IncidentDone = outcome === 'accepted' ? 'aceptada' : 'ya-aceptada';
      return seeOtherTo(`${incidentPath(incident.numeroIncidencia)}?hecho=${done}#conversacion`);
    } catch (error) {
      if (error instanceof AnswerNotFoundError) refuse('NOT_FOUND', 'Esa respuesta no existe.');
      throw error;
    }
  },
);

export const incidentActions = {
  setState,
  setStateForm,
  setPriority,
  setPriorityForm,
  assign,
  addEntry,
  acceptAnswer,
};
