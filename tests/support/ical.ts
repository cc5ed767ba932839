/**
 * Reads an invitation's iCalendar text the way a calendar client does, with ical.js (Mozilla's
 * parser): the method, the event's identity, its start in its own time zone (resolved through the
 * VTIMEZONE the file carries) and as a UTC instant, its duration, organiser and attendees.
 */
import ICAL from 'ical.js';

export interface ParsedInvitation {
  method: string;
  version: string;
  uid: string;
  sequence: number;
  status: string;
  summary: string;
  location: string;
  description: string;
  /** DTSTART's TZID parameter and its wall-clock value (`2026-12-01T10:30:00`). */
  startTzid: string;
  startLocal: string;
  /** The start as an instant, through the file's VTIMEZONE. */
  startUtc: string;
  durationMinutes: number;
  organizer: { value: string; cn: string };
  attendees: Array<{ value: string; cn: string; rsvp: string; role: string; partstat: string }>;
  /** TZIDs of the VTIMEZONE components. */
  timezones: string[];
}

export function parseInvitation(text: string): ParsedInvitation {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const timezones = calendar.getAllSubcomponents('vtimezone');
  for (const zone of timezones) ICAL.TimezoneService.register(zone);
  const vevent = calendar.getFirstSubcomponent('vevent');
  if (!vevent) throw new Error('El calendario no tiene VEVENT');
  const event = new ICAL.Event(vevent);
  const dtstart = vevent.getFirstProperty('dtstart');
  const organizer = vevent.getFirstProperty('organizer');
  const param = (property: ICAL.Property | null, name: string) => String(property?.getParameter(name) ?? '');
  const end = event.endDate.toJSDate().getTime();
  const start = event.startDate.toJSDate().getTime();
  return {
    method: String(calendar.getFirstPropertyValue('method') ?? ''),
    version: String(calendar.getFirstPropertyValue('version') ?? ''),
    uid: event.uid,
    sequence: event.sequence,
    status: String(vevent.getFirstPropertyValue('status') ?? ''),
    summary: event.summary,
    location: event.location,
    description: event.description,
    startTzid: param(dtstart, 'tzid'),
    startLocal: event.startDate.toString(),
    startUtc: new Date(start).toISOString(),
    durationMinutes: (end - start) / 60_000,
    organizer: { value: String(organizer?.getFirstValue() ?? ''), cn: param(organizer, 'cn') },
    attendees: vevent.getAllProperties('attendee').map((attendee) => ({
      value: String(attendee.getFirstValue()),
      cn: param(attendee, 'cn'),
      rsvp: param(attendee, 'rsvp'),
      role: param(attendee, 'role'),
      partstat: param(attendee, 'partstat'),
    })),
    timezones: timezones.map((zone) => String(zone.getFirstPropertyValue('tzid'))),
  };
}
