/**
 * The mail channel's side of a customer notice (src/server/channels/delivery.ts): the desk's
 * confirmation, state change or reply becomes the customer's mail, threaded (threading.ts) and queued in
 * the mail outbox in the desk's own transaction, as it always was: the outbox is this channel's
 * delivery worker (retries, back-off, a crash or an SMTP outage lose nothing). Nothing is queued to a
 * free-text e-mail that is no address, to an address that reported our mail as spam (automatic mail
 * only: a staff reply, which a person writes, still goes), or past the day's caps (incidents/notices.ts).
 */
import { MAIL_ORIGIN } from '../../../domain/channels.ts';
import { looksLikeEmail } from '../../../domain/email.ts';
import { mailAttachmentsOfEntry } from '../../attachments/index.ts';
import { issueFollowUpToken } from '../../incidents/index.ts';
import { DEFAULT_CUSTOMER_MAIL_DAILY_CAP, reserveCustomerMail } from '../../incidents/index.ts';
import { issueRatingToken } from '../../incidents/index.ts';
import { enqueueMail } from '../../mail/index.ts';
import type { CustomerNotice, DeliveryContext, NoticeOutcome } from '../channel.ts';
import { hasComplained } from './complaints.ts';
import { incidentConfirmationMail, incidentReplyMail, incidentStateMail } from './customer-mails.ts';
import { threadIncidentMail } from './threading.ts';

export async function deliverMailNotice(
  notice: CustomerNotice,
  { trx, incident, brand, customerMailDailyCap, now }: DeliveryContext,
): Promise<{ outcome: NoticeOutcome }> {
  // The e-mail field is free text (spec §5): mail goes only to what looks like an address.
  if (!looksLikeEmail(incident.email)) return { outcome: 'no-address' };
  const dailyCap = customerMailDailyCap ?? DEFAULT_CUSTOMER_MAIL_DAILY_CAP;
  switch (notice.kind) {
    case 'confirmation': {
      const address = incident.email.trim();
      if (await hasComplained(trx, address)) return { outcome: 'complained' };
      const refusal = await reserveCustomerMail(trx, { kind: 'confirmation', address, dailyCap, now });
      if (refusal) return { outcome: refusal };
      const token = await issueFollowUpToken(trx, incident.id, now);
      const mail = {
        kind: 'incident.confirmation',
        ...incidentConfirmationMail(brand, incident, token, incident.origen === MAIL_ORIGIN),
      };
      await enqueueMail(
        trx,
        await threadIncidentMail(trx, incident.id, mail, brand, now, notice.inReplyTo),
        now,
      );
      return { outcome: 'queued' };
    }
    case 'state': {
      if (await hasComplained(trx, incident.email)) return { outcome: 'complained' };
      const refusal = await reserveCustomerMail(trx, {
        kind: 'state',
        address: incident.email,
        dailyCap,
        now,
      });
      if (refusal) return { outcome: refusal };
      const followUpToken = await issueFollowUpToken(trx, incident.id, now);
      // The 'Resuelto' notice asks '¿Cómo te atendimos?' with a token of this resolution (issue 22).
      const ratingToken =
        notice.estado === 'Resuelto'
          ? await issueRatingToken(trx, incident.id, now, notice.wasResolved)
          : undefined;
      const mail = {
        kind: 'incident.state',
        ...incidentStateMail(brand, incident, notice.fecha, followUpToken, ratingToken),
      };
      await enqueueMail(trx, await threadIncidentMail(trx, incident.id, mail, brand, now), now);
      return { outcome: 'queued' };
    }
    case 'reply': {
      const refusal = await reserveCustomerMail(trx, {
        kind: 'state',
        address: incident.email,
        dailyCap,
        now,
      });
      if (refusal) return { outcome: refusal };
      const token = await issueFollowUpToken(trx, incident.id, now);
      const to = { numeroIncidencia: incident.numeroIncidencia, email: incident.email.trim() };
      const attachments = await mailAttachmentsOfEntry(trx, notice.entryId);
      const mail = {
        kind: 'incident.reply',
        ...incidentReplyMail(
          brand,
          to,
          notice.body,
          token,
          notice.authorName,
          attachments.map((file) => file.filename),
        ),
        ...(attachments.length ? { attachments } : {}),
      };
      await enqueueMail(trx, await threadIncidentMail(trx, incident.id, mail, brand, now), now);
      return { outcome: 'queued' };
    }
    // Mail tells a sender nothing when staff read it (a read receipt is the reader's own mail program's).
    case 'receipt':
      return { outcome: 'no-address' };
  }
}
