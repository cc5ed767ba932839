/**
 * The staff's state change of an incident: the new state and its history entry, the activity, the
 * audit event and, when asked, the notice to the visitor, in one transaction.
 */
import { hasComplained } from '../channels/mail/complaints.ts';
import { sql } from 'kysely';
import { looksLikeEmail } from '../../domain/email.ts';
import type { IncidentRecord, IncidentState } from '../../domain/incidents.ts';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import { incidentStateMail } from '../mail/incident-mails.ts';
import { enqueueMail, wakeMailWorkers } from '../mail/outbox.ts';
import type { MailBrand } from '../mail/templates.ts';
import { touchIncident } from './activity.ts';
import { issueFollowUpToken } from './follow-up.ts';
import { issueRatingToken } from './rating.ts';
import { threadIncidentMail } from '../channels/mail/threading.ts';
import { withHistory } from './history.ts';
import { IncidentNotFoundError } from './index.ts';
import { DEFAULT_VISITOR_MAIL_DAILY_CAP, reserveVisitorMail } from './notices.ts';

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
    visitorMailDailyCap?: number;
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
      // A free-text e-mail that is no address would only fail at the mail server, for good.
      if (!looksLikeEmail(updated.email)) {
        result = { queued: false, reason: 'no-email' };
      } else if (await hasComplained(trx, updated.email)) {
        // The address reported our mail as spam: no automatic mail to it (complaints.ts).
        result = { queued: false, reason: 'complained' };
      } else if (
        await reserveVisitorMail(trx, {
          kind: 'state',
          address: updated.email,
          dailyCap: input.visitorMailDailyCap ?? DEFAULT_VISITOR_MAIL_DAILY_CAP,
          now,
        })
      ) {
        result = { queued: false, reason: 'daily-cap' };
      } else {
        const followUpToken = await issueFollowUpToken(trx, updated.id, now);
        // The 'Resuelto' notice asks '¿Cómo te atendimos?' with a token of this resolution (issue 22).
        const ratingToken =
          updated.estado === 'Resuelto'
            ? await issueRatingToken(trx, updated.id, now, before?.estado === 'Resuelto')
            : undefined;
        const notice = {
          kind: 'incident.state',
          ...incidentStateMail(input.notify, updated, fecha, followUpToken, ratingToken),
        };
        await enqueueMail(trx, await threadIncidentMail(trx, updated.id, notice, input.notify, now), now);
        result = { queued: true };
      }
    }
    return { incident: updated, notified: result };
  });
  if (notified.queued) wakeMailWorkers();
  const [result] = await withHistory(db, [incident]);
  return { incident: result!, notified };
}
