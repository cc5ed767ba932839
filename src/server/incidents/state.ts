/**
 * The staff's state change of an incident: the new state and its history entry, the activity, the
 * audit event and, when asked, the notice to the visitor, in one transaction.
 */
import { sql } from 'kysely';
import type { IncidentRecord, IncidentState } from '../../domain/incidents.ts';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import type { MailBrand } from '../mail/index.ts';
import { touchIncident } from './activity.ts';
import { noticeCustomer } from './customer-notices.ts';
import { withHistory } from './history.ts';
import { IncidentNotFoundError } from './errors.ts';

export type NotifyResult =
  { queued: true } | { queued: false; reason: 'no-email' | 'not-requested' | 'daily-cap' | 'complained' };

/**
 * Sets the state and appends the history entry (state, server time, who) in one transaction.
 * Any state may follow any other, as the spec says; setting the same state again is recorded too.
 *
 * With `notify` (the mail brand; 'Notificar al cliente' checked) and an incident e-mail, the Spanish
 * notice is written to the mail outbox in that same transaction: the history entry and its notice
 * are stored together or not at all. A 'Resuelto' notice also carries the rating links of that
 * resolution (rating.ts). The mail is sent by the outbox worker, never inside the request.
 */
export async function setIncidentState(
  db: Db,
  input: {
    id: number;
    estado: IncidentState;
    actor: string;
    notify?: MailBrand | null;
    customerMailDailyCap?: number;
    /** Who changed it and from where: an audit event is recorded in the same transaction. */
    audit?: AuditActor;
  },
  now: Date = new Date(),
): Promise<{ incident: IncidentRecord; notified: NotifyResult }> {
  const fecha = now.toISOString();
  const { incident, notified } = await db.transaction().execute(async (trx) => {
    // Already resolved: a new 'Resuelto' notice rates the same resolution (rating.ts).
    const before = await trx
      .selectFrom('incidents')
      .select('estado')
      .where('id', '=', input.id)
      .executeTakeFirst();
    const updated = await trx
      .updateTable('incidents')
      .set({
        estado: input.estado,
        // The first resolution is kept for the staff home's charts (migration 0019).
        ...(input.estado === 'Resuelto' ? { resolvedAt: sql<string>`coalesce(resolved_at, ${fecha})` } : {}),
      })
      .where('id', '=', input.id)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw new IncidentNotFoundError(`No existe la incidencia ${input.id}`);
    await trx
      .insertInto('incidentEvents')
      .values({ incidentId: input.id, estado: input.estado, fecha, actor: input.actor })
      .execute();
    await touchIncident(
      trx,
      input.id,
      'state',
      now,
      input.audit?.actorId ? { id: input.audit.actorId, name: input.actor } : null,
    );
    if (input.audit)
      await recordEvent(
        trx,
        { ...input.audit, action: 'incident.state', subject: updated.numeroIncidencia, detail: input.estado },
        now,
      );
    let result: NotifyResult = { queued: false, reason: 'not-requested' };
    if (input.notify) {
      // Told by the incident's channel (src/server/channels/delivery.ts): a 'Resuelto' notice asks for
      // the rating of this resolution (issue 22); nothing to a free-text e-mail that is no address, to
      // an address that reported our mail as spam, or past the day's cap.
      const outcome = await noticeCustomer(
        trx,
        updated,
        { kind: 'state', estado: updated.estado, fecha, wasResolved: before?.estado === 'Resuelto' },
        { brand: input.notify, customerMailDailyCap: input.customerMailDailyCap, now },
      );
      result =
        outcome === 'queued'
          ? { queued: true }
          : {
              queued: false,
              reason:
                outcome === 'no-address' ? 'no-email' : outcome === 'complained' ? 'complained' : 'daily-cap',
            };
    }
    return { incident: updated, notified: result };
  });
  const [result] = await withHistory(db, [incident]);
  return { incident: result!, notified };
}
