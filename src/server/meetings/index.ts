/**
 * 'Reunión' (issue 12): the one writer of `client_meetings` and its readers.
 *
 * Sending stores the meeting and queues, in the same transaction, the invitation to the client's
 * representative (METHOD:REQUEST, SEQUENCE 0) and its copy to the staff organiser. Cancelling marks the
 * meeting, raises its SEQUENCE by one and queues METHOD:CANCEL with the same UID to the same people,
 * also in one transaction. The client's timeline and 'Próximas reuniones' read the table.
 */
import { randomUUID } from 'node:crypto';
import type { MeetingInput } from '../../domain/forms/meeting.ts';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import type { Client, ClientMeeting } from '../db/index.ts';
import { enqueueMail } from '../mail/index.ts';
import { meetingMail, type MeetingMailData } from '../mail/index.ts';
import type { MailBrand } from '../mail/index.ts';
import { meetingAttachment, type MeetingCalendarData } from './ical.ts';

/** The staff member who sends or cancels: Better Auth's user id, e-mail and name. */
export interface MeetingStaff {
  id: string;
  email: string;
  name: string;
}

/** A meeting as the staff area shows it. */
export interface MeetingView {
  id: number;
  clientId: number;
  organizerEmail: string;
  organizerName: string;
  /** ISO 8601 UTC. */
  startsAt: string;
  endsAt: string;
  durationMinutes: number;
  place: string;
  note: string;
  uid: string;
  sequence: number;
  createdAt: string;
  cancelledAt: string | null;
  cancelledBy: string | null;
}

/** A stored meeting as the pages and the data export read it (numbers as numbers, absent as null). */
export function toView(row: ClientMeeting): MeetingView {
  return {
    id: row.id,
    clientId: row.clientId,
    organizerEmail: row.organizerEmail,
    organizerName: row.organizerName,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    durationMinutes: Number(row.durationMinutes),
    place: row.place,
    note: row.note,
    uid: row.uid,
    sequence: Number(row.sequence),
    createdAt: row.createdAt,
    cancelledAt: row.cancelledAt ?? null,
    cancelledBy: row.cancelledBy ?? null,
  };
}

/** Still to come (or under way): not cancelled and not ended. */
export function isUpcoming(
  meeting: Pick<MeetingView, 'cancelledAt' | 'endsAt'>,
  now: Date = new Date(),
): boolean {
  return meeting.cancelledAt === null && Date.parse(meeting.endsAt) > now.getTime();
}

/** When a meeting of `durationMinutes` starting at `startsAt` ends (ISO 8601 UTC). */
export function meetingEnd(startsAt: string, durationMinutes: number): string {
  return new Date(Date.parse(startsAt) + durationMinutes * 60_000).toISOString();
}

/** A meeting to store as it was sent elsewhere (`npm run data -- import`); `organizerId` '' names no account. */
export type ImportedMeeting = Omit<ClientMeeting, 'id' | 'clientId' | 'endsAt'> & { endsAt: string | null };

/**
 * Stores a client's meetings, in the caller's transaction; a meeting without its end ends after its
 * duration. A UID is unique: one already stored is the same meeting (its invitations share it) and is
 * left as it is.
 */
export async function insertImportedMeetings(
  trx: Db,
  clientId: number,
  meetings: ImportedMeeting[],
): Promise<void> {
  if (!meetings.length) return;
  await trx
    .insertInto('clientMeetings')
    .values(
      meetings.map((meeting) => ({
        ...meeting,
        clientId,
        endsAt: meeting.endsAt ?? meetingEnd(meeting.startsAt, meeting.durationMinutes),
      })),
    )
    .onConflict((conflict) => conflict.column('uid').doNothing())
    .execute();
}

function mailData(client: Client, meeting: MeetingView): MeetingMailData {
  return {
    razonSocial: client.razonSocial,
    nombreRepresentante: client.nombreRepresentante,
    email: client.email,
    organizerName: meeting.organizerName,
    organizerEmail: meeting.organizerEmail,
    startsAt: meeting.startsAt,
    durationMinutes: meeting.durationMinutes,
    place: meeting.place,
    note: meeting.note,
  };
}

function calendarData(
  brand: MailBrand,
  client: Client,
  meeting: MeetingView,
  stamp: Date,
): MeetingCalendarData {
  return {
    uid: meeting.uid,
    sequence: meeting.sequence,
    startsAt: meeting.startsAt,
    durationMinutes: meeting.durationMinutes,
    place: meeting.place,
    note: meeting.note,
    summary: `Reunión ${brand.companyName} – ${client.razonSocial}`,
    organizer: { name: meeting.organizerName, email: meeting.organizerEmail },
    attendee: { name: client.nombreRepresentante, email: client.email },
    stamp,
    companyName: brand.companyName,
  };
}

/** Queues the mail to the representative and the copies to `copies` (deduplicated), inside `trx`. */
async function queueMeetingMails(
  trx: Db,
  brand: MailBrand,
  client: Client,
  meeting: MeetingView,
  method: 'REQUEST' | 'CANCEL',
  copies: string[],
  now: Date,
): Promise<void> {
  const attachment = meetingAttachment(calendarData(brand, client, meeting, now), method);
  const kind = method === 'REQUEST' ? 'request' : 'cancel';
  const data = mailData(client, meeting);
  const mailKind = method === 'REQUEST' ? 'client.meeting' : 'client.meeting-cancelled';
  await enqueueMail(
    trx,
    { kind: mailKind, ...meetingMail(brand, data, kind), attachments: [attachment] },
    now,
  );
  const seen = new Set([client.email.toLowerCase()]);
  for (const copy of copies) {
    if (seen.has(copy.toLowerCase())) continue;
    seen.add(copy.toLowerCase());
    await enqueueMail(
      trx,
      { kind: `${mailKind}.copy`, ...meetingMail(brand, data, kind, copy), attachments: [attachment] },
      now,
    );
  }
}

export type ScheduleOutcome =
  /** `repeated`: the form had been sent already (same request id): nothing was stored or sent again. */
  { kind: 'sent'; meeting: MeetingView; repeated?: boolean } | { kind: 'not-found' } | { kind: 'archived' };

/** The form's request id: a UUID the page renders into the form (see {@link scheduleMeeting}). */
export const MEETING_REQUEST_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Stores a checked meeting (src/domain/forms/meeting.ts) and queues its invitation and the copy.
 *
 * `requestId`, the UUID the 'Reunión' form carries, becomes the meeting's iCalendar UID: a form sent
 * twice (a double click, a resubmission after going back) finds its meeting already stored under that
 * unique UID and sends nothing again, whichever process or connection receives the second one.
 */
export async function scheduleMeeting(
  db: Db,
  input: {
    clientId: number;
    organizer: MeetingStaff;
    meeting: MeetingInput;
    brand: MailBrand;
    audit?: AuditActor;
    requestId?: string | undefined;
  },
  now: Date = new Date(),
): Promise<ScheduleOutcome> {
  const outcome = await db.transaction().execute(async (trx): Promise<ScheduleOutcome> => {
    const client = await trx
      .selectFrom('clients')
      .selectAll()
      .where('id', '=', input.clientId)
      .executeTakeFirst();
    if (!client) return { kind: 'not-found' };
    if (client.archivedAt) return { kind: 'archived' };
    const { startsAt, durationMinutes, place, note } = input.meeting;
    const requestId =
      input.requestId && MEETING_REQUEST_PATTERN.test(input.requestId) ? input.requestId : randomUUID();
    const uid = `${requestId}@${new URL(input.brand.siteUrl).hostname}`;
    const row = await trx
      .insertInto('clientMeetings')
      .values({
        clientId: client.id,
        organizerId: input.organizer.id,
        organizerEmail: input.organizer.email,
        organizerName: input.organizer.name,
        startsAt,
        endsAt: meetingEnd(startsAt, durationMinutes),
        durationMinutes,
        place,
        note,
        uid,
        sequence: 0,
        createdAt: now.toISOString(),
      })
      .onConflict((conflict) => conflict.column('uid').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) {
      const sent = await trx
        .selectFrom('clientMeetings')
        .selectAll()
        .where('uid', '=', uid)
        .executeTakeFirst();
      return sent?.clientId === client.id
        ? { kind: 'sent', meeting: toView(sent), repeated: true }
        : { kind: 'not-found' };
    }
    const meeting = toView(row);
    await queueMeetingMails(trx, input.brand, client, meeting, 'REQUEST', [input.organizer.email], now);
    if (input.audit)
      await recordEvent(
        trx,
        { ...input.audit, action: 'client.meeting', subject: client.id, detail: startsAt },
        now,
      );
    return { kind: 'sent', meeting };
  });
  return outcome;
}

export type CancelOutcome =
  | { kind: 'cancelled'; meeting: MeetingView }
  | { kind: 'not-found' }
  /** Already cancelled, or already over: nothing is sent. */
  | { kind: 'not-upcoming' };

/**
 * 'Cancelar reunión': marks the meeting, SEQUENCE + 1, and queues METHOD:CANCEL (same UID) to the
 * representative, with copies to the organiser and to whoever cancels.
 */
export async function cancelMeeting(
  db: Db,
  input: { clientId: number; meetingId: number; staff: MeetingStaff; brand: MailBrand; audit?: AuditActor },
  now: Date = new Date(),
): Promise<CancelOutcome> {
  const outcome = await db.transaction().execute(async (trx): Promise<CancelOutcome> => {
    const client = await trx
      .selectFrom('clients')
      .selectAll()
      .where('id', '=', input.clientId)
      .executeTakeFirst();
    if (!client) return { kind: 'not-found' };
    const current = await trx
      .selectFrom('clientMeetings')
      .selectAll()
      .where('id', '=', input.meetingId)
      .where('clientId', '=', client.id)
      .executeTakeFirst();
    if (!current) return { kind: 'not-found' };
    if (!isUpcoming(toView(current), now)) return { kind: 'not-upcoming' };
    // Guarded by cancelled_at: of two cancellations at once, one updates the row and sends.
    const row = await trx
      .updateTable('clientMeetings')
      .set({
        cancelledAt: now.toISOString(),
        cancelledBy: input.staff.email,
        sequence: Number(current.sequence) + 1,
      })
      .where('id', '=', current.id)
      .where('cancelledAt', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!row) return { kind: 'not-upcoming' };
    const meeting = toView(row);
    await queueMeetingMails(
      trx,
      input.brand,
      client,
      meeting,
      'CANCEL',
      [meeting.organizerEmail, input.staff.email],
      now,
    );
    if (input.audit)
      await recordEvent(
        trx,
        { ...input.audit, action: 'client.meeting-cancelled', subject: client.id, detail: meeting.startsAt },
        now,
      );
    return { kind: 'cancelled', meeting };
  });
  return outcome;
}

/** One client's meetings, latest start first. */
export async function clientMeetings(db: Db, clientId: number): Promise<MeetingView[]> {
  const rows = await db
    .selectFrom('clientMeetings')
    .selectAll()
    .where('clientId', '=', clientId)
    .orderBy('startsAt', 'desc')
    .orderBy('id', 'desc')
    .limit(500)
    .execute();
  return rows.map(toView);
}

/** A line of 'Próximas reuniones'. */
export interface UpcomingMeeting {
  id: number;
  clientId: number;
  razonSocial: string;
  startsAt: string;
  durationMinutes: number;
  place: string;
}

export const UPCOMING_LIMIT = 10;

/** The meetings not cancelled and not over, soonest first (the staff home's 'Próximas reuniones'). */
export async function upcomingMeetings(
  db: Db,
  now: Date = new Date(),
  limit = UPCOMING_LIMIT,
): Promise<UpcomingMeeting[]> {
  const rows = await db
    .selectFrom('clientMeetings as m')
    .innerJoin('clients as c', 'c.id', 'm.clientId')
    .select(['m.id', 'm.clientId', 'c.razonSocial', 'm.startsAt', 'm.durationMinutes', 'm.place'])
    .where('m.cancelledAt', 'is', null)
    .where('m.endsAt', '>', now.toISOString())
    .orderBy('m.startsAt')
    .orderBy('m.id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, durationMinutes: Number(row.durationMinutes) }));
}
