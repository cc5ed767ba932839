/**
 * The iCalendar file of a meeting invitation and of its cancellation, built with `ical-generator`
 * (RFC 5545: folding, escaping, UTF-8) and the VTIMEZONE of America/Santo_Domingo from
 * `@touch4it/ical-timezones` (the generator ical-generator documents), so that DTSTART and DTEND carry
 * `TZID=America/Santo_Domingo` with the zone's definition in the same file, as Outlook expects.
 *
 * The wall-clock times are given as `TZDate`s (`@date-fns/tz`): ical-generator formats a plain `Date`
 * in the server process's own zone, a TZDate in the zone it carries.
 */
import { TZDate } from '@date-fns/tz';
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import ical, {
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendarMethod,
  ICalEventStatus,
} from 'ical-generator';
import { TIME_ZONE } from '../../domain/dates.ts';
import { meetingLink } from '../../domain/forms/meeting.ts';
import type { MailAttachment } from '../mail/index.ts';

export interface MeetingCalendarData {
  uid: string;
  sequence: number;
  /** ISO 8601 UTC. */
  startsAt: string;
  durationMinutes: number;
  place: string;
  note: string;
  summary: string;
  organizer: { name: string; email: string };
  attendee: { name: string; email: string };
  /** DTSTAMP: when this version of the meeting was written. */
  stamp: Date;
  companyName: string;
}

/** The `.ics` text: METHOD:REQUEST (the invitation) or METHOD:CANCEL (same UID, the caller's higher SEQUENCE). */
export function meetingCalendar(data: MeetingCalendarData, method: 'REQUEST' | 'CANCEL'): string {
  const calendar = ical({
    prodId: { company: data.companyName, product: 'Reuniones', language: 'ES' },
    method: method === 'REQUEST' ? ICalCalendarMethod.REQUEST : ICalCalendarMethod.CANCEL,
  });
  // No calendar-wide zone name (it would also write DTSTAMP as local time, which must be UTC): the
  // generator alone adds the VTIMEZONE of each event's zone.
  calendar.timezone({ name: null, generator: getVtimezoneComponent });
  const start = new TZDate(Date.parse(data.startsAt), TIME_ZONE);
  const link = meetingLink(data.place);
  const description = [data.note, link ? `Enlace: ${link}` : `Lugar: ${data.place}`]
    .filter(Boolean)
    .join('\n\n');
  calendar.createEvent({
    id: data.uid,
    sequence: data.sequence,
    stamp: data.stamp,
    start,
    end: new TZDate(start.getTime() + data.durationMinutes * 60_000, TIME_ZONE),
    timezone: TIME_ZONE,
    summary: data.summary,
    description,
    location: data.place,
    ...(link ? { url: link } : {}),
    organizer: { name: data.organizer.name || data.organizer.email, email: data.organizer.email },
    attendees: [
      {
        name: data.attendee.name,
        email: data.attendee.email,
        rsvp: true,
        role: ICalAttendeeRole.REQ,
        status: ICalAttendeeStatus.NEEDSACTION,
      },
    ],
    status: method === 'REQUEST' ? ICalEventStatus.CONFIRMED : ICalEventStatus.CANCELLED,
  });
  return calendar.toString();
}

/** The calendar as a mail file: sent as the invitation itself (see MailAttachment). */
export function meetingAttachment(data: MeetingCalendarData, method: 'REQUEST' | 'CANCEL'): MailAttachment {
  return {
    filename: method === 'REQUEST' ? 'invitacion.ics' : 'cancelacion.ics',
    contentType: `text/calendar; charset=utf-8; method=${method}`,
    content: meetingCalendar(data, method),
    method,
  };
}
