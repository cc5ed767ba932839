/**
 * 'Prioridad' (issue 22): the staff set it on the incident page or in the list. Each change sets
 * `incidents.prioridad`, adds a row to the timeline (`incident_priority_changes`: from, to, who, when),
 * touches the incident's activity and records an audit event, all in one transaction. Setting the
 * priority it already has changes and records nothing.
 */
import type { IncidentPriority } from '../../domain/incidents.ts';
import type { AuditActor } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import type { IncidentPriorityChange } from '../db/index.ts';
import { recordStaffChange } from './activity.ts';
import type { EntryAuthor } from './conversation.ts';
import { IncidentNotFoundError } from './errors.ts';

export async function setIncidentPriority(
  db: Db,
  input: { incidentId: number; prioridad: IncidentPriority; actor: EntryAuthor; audit?: AuditActor },
  now: Date = new Date(),
): Promise<{ changed: boolean; numeroIncidencia: string; prioridad: IncidentPriority }> {
  return db.transaction().execute(async (trx) => {
    const incident = await trx
      .selectFrom('incidents')
      .select(['id', 'numeroIncidencia', 'prioridad'])
      .where('id', '=', input.incidentId)
      .executeTakeFirst();
    if (!incident) throw new IncidentNotFoundError(`No existe la incidencia ${input.incidentId}`);
    const result = { numeroIncidencia: incident.numeroIncidencia, prioridad: input.prioridad };
    if (incident.prioridad === input.prioridad) return { changed: false, ...result };
    await trx
      .updateTable('incidents')
      .set({ prioridad: input.prioridad })
      .where('id', '=', incident.id)
      .execute();
    await trx
      .insertInto('incidentPriorityChanges')
      .values({
        incidentId: incident.id,
        desde: incident.prioridad,
        hasta: input.prioridad,
        changedById: input.actor.id,
        changedByEmail: input.actor.email,
        createdAt: now.toISOString(),
      })
      .execute();
    await recordStaffChange(
      trx,
      incident,
      { kind: 'priority', action: 'incident.priority', detail: `${incident.prioridad} → ${input.prioridad}` },
      input.actor,
      input.audit,
      now,
    );
    return { changed: true, ...result };
  });
}

/** The incident's priority changes, oldest first. */
export async function loadPriorityChanges(db: Db, incidentId: number): Promise<IncidentPriorityChange[]> {
  return db
    .selectFrom('incidentPriorityChanges')
    .selectAll()
    .where('incidentId', '=', incidentId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
}
