/**
 * The one writer of an incident's activity columns (migration 0013): every change to an incident's
 * timeline calls `touchIncident` in the transaction that stores it, so 'Última actividad', the sort by
 * last activity and the 'Respuesta del cliente' mark never drift from the timeline.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/** What happened: a visitor's answer marks the incident as waiting for staff, a staff reply clears it. */
export type ActivityKind = 'state' | 'assignment' | 'reply' | 'note' | 'answer';

export async function touchIncident(
  trx: Transaction<Database>,
  incidentId: number,
  kind: ActivityKind,
  at: Date,
): Promise<void> {
  await trx
    .updateTable('incidents')
    .set({
      lastActivityAt: at.toISOString(),
      ...(kind === 'answer' ? { customerWaiting: true } : kind === 'reply' ? { customerWaiting: false } : {}),
    })
    .where('id', '=', incidentId)
    .execute();
}
