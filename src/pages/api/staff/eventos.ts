/**
 * The staff area's live updates (issue 22, docs/decisions/0018): one Server-Sent Events stream per
 * staff page. `Last-Event-ID` (a reconnect) or `?desde=` (the page's newest event) says where to resume;
 * `?incidencia=` names the incident open in the page, for 'También está viendo'. Guarded like every
 * staff route (the middleware, and here).
 */
import type { APIRoute } from 'astro';
import { requireStaffApi } from '../../../server/auth/index.ts';
import { sessionStillValid } from '../../../server/auth/index.ts';
import { staffDisplayName } from '../../../server/auth/index.ts';
import { eventIdOf, liveStream } from '../../../server/live/index.ts';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const staff = await requireStaffApi(context);
  if (staff instanceof Response) return staff;
  const incident = context.url.searchParams.get('incidencia');
  return liveStream({
    viewer: { id: staff.id, name: staffDisplayName(staff) },
    sessionToken: staff.sessionToken,
    stillValid: () => sessionStillValid(staff.sessionToken),
    after:
      eventIdOf(context.request.headers.get('last-event-id')) ??
      eventIdOf(context.url.searchParams.get('desde')),
    incident: incident && /^[\w-]{1,40}$/.test(incident) ? incident : null,
    signal: context.request.signal,
  });
};
