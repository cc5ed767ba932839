/**
 * The one writer of an incident's activity columns (migration 0013): every change to an incident's
 * timeline calls `touchIncident` in the transaction that stores it (which also announces the change to
 * the staff browsers: src/server/live/), so 'Última actividad', the sort by
 * last activity and the 'Respuesta del cliente' mark never drift from the timeline. A timeline written
 * at once (an imported incident) gets the same columns from {@link timelineActivity}.
 */
import type { Transaction } from 'kysely';
import type { AuditAction } from '../../domain/audit.ts';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import { staffDisplayName } from '../auth/index.ts';
import type { Database } from '../db/index.ts';
import { recordLiveEvent } from '../live/index.ts';
import { syncClock } from './clock.ts';

/** What happened: a visitor's answer marks the incident as waiting for staff, a staff reply clears it. */
export type ActivityKind = 'state' | 'assignment' | 'priority' | 'reply' | 'note' | 'answer' | 'rating';

/** 'Respuesta del cliente' after a change of this kind: set, cleared, or left as it was (undefined). */
function waitingAfter(kind: ActivityKind): boolean | undefined {
  return kind === 'answer' ? true : kind === 'reply' ? false : undefined;
}

export async function touchIncident(
  trx: Transaction<Database>,
  incidentId: number,
  kind: ActivityKind,
  at: Date,
  /** The staff member who made the change, when one did (the live event names them). */
  by?: { id: string; name: string } | null,
): Promise<void> {
  const customerWaiting = waitingAfter(kind);
  const incident = await trx
    .updateTable('incidents')
    .set({ lastActivityAt: at.toISOString(), ...(customerWaiting === undefined ? {} : { customerWaiting }) })
    .where('id', '=', incidentId)
    .returning(['numeroIncidencia', 'assignedTo'])
    .executeTakeFirst();
  // The business-hours clock (issue 22) moves with the state, the priority and the first staff reply.
  if (kind === 'state' || kind === 'priority' || kind === 'reply')
    await syncClock(trx, incidentId, { reply: kind === 'reply' }, at);
  if (incident)
    await recordLiveEvent(
      trx,
      {
        kind: 'incident.changed',
        incidentId,
        numero: incident.numeroIncidencia,
        change: kind,
        byId: by?.id ?? null,
        byName: by?.name ?? null,
        assignedTo: incident.assignedTo ?? null,
      },
      at,
    );
}

/**
 * The activity columns a whole timeline leaves, as `touchIncident` would have left them had each change
 * been made in turn: the newest time (never older than the creation), and whether the visitor's answer
 * is the last exchange.
 */
export function timelineActivity(
  createdAt: string,
  changes: ReadonlyArray<{ kind: ActivityKind; at: string }>,
): { lastActivityAt: string; customerWaiting: boolean } {
  let lastActivityAt = createdAt;
  let customerWaiting = false;
  for (const change of [...changes].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))) {
    if (change.at > lastActivityAt) lastActivityAt = change.at;
    customerWaiting = waitingAfter(change.kind) ?? customerWaiting;
  }
  return { lastActivityAt, customerWaiting };
}

/**
 * A staff member's change of one of an incident's fields ('Asignar a', 'Prioridad'), after its timeline
 * row: the activity touched with their name (the live event says who) and, for a request, the audit
 * event naming the incident, in the same transaction.
 */
export async function recordStaffChange(
  trx: Transaction<Database>,
  incident: { id: number; numeroIncidencia: string },
  change: { kind: ActivityKind; action: AuditAction; detail: string },
  actor: { id: string; email: string; name?: string | null },
  audit: AuditActor | undefined,
  at: Date,
): Promise<void> {
  await touchIncident(trx, incident.id, change.kind, at, { id: actor.id, name: staffDisplayName(actor) });
  if (audit)
    await recordEvent(
      trx,
      { ...audit, action: change.action, subject: incident.numeroIncidencia, detail: change.detail },
      at,
    );
}
