import { formatStaffDateTime } from '../../domain/dates';
import { adminClientPath } from '../../routes';

/** A line of the card (src/server/meetings: `upcomingMeetings`). */
export interface UpcomingMeetingItem {
  id: number;
  clientId: number;
  razonSocial: string;
  /** ISO 8601 UTC, shown in Santo Domingo time. */
  startsAt: string;
  place: string;
}

/**
 * 'Próximas reuniones' on the staff home: the meetings not cancelled and not over, soonest first, each
 * linked to its client. Self-contained (its own card) so the home page only places it.
 */
export default function UpcomingMeetings({ meetings }: { meetings: UpcomingMeetingItem[] }) {
  return (
    <section
      aria-labelledby="tarjeta-proximas-reuniones"
      className="rounded-card border border-line bg-white p-6 shadow-sm"
    >
      <h2
        id="tarjeta-proximas-reuniones"
        className="text-sm font-semibold tracking-wide text-muted uppercase"
      >
        Próximas reuniones
      </h2>
      <div className="mt-4">
        {meetings.length ? (
          <ul
            className="divide-y divide-line"
            aria-label="Próximas reuniones"
            data-testid="proximas-reuniones"
          >
            {meetings.map((meeting) => (
              <li
                key={meeting.id}
                className="flex flex-col gap-0.5 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-baseline sm:gap-4"
              >
                <time
                  dateTime={meeting.startsAt}
                  className="shrink-0 text-sm font-semibold text-ink tabular-nums"
                >
                  {formatStaffDateTime(meeting.startsAt)}
                </time>
                <a
                  href={adminClientPath(meeting.clientId)}
                  className="font-semibold wrap-anywhere text-brand-800 underline hover:no-underline"
                >
                  {meeting.razonSocial}
                </a>
                <span className="min-w-0 text-sm wrap-anywhere text-muted">{meeting.place}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted">No hay reuniones programadas.</p>
        )}
      </div>
    </section>
  );
}
