/**
 * The staff actions, one file per area (docs/decisions/0012-staff-forms-as-actions.md). Each checks the
 * session first (src/actions/staff/common.ts): 401 without one, 403 when the e-mail left ADMIN_EMAILS.
 * The fixed interface (`/_actions/incidents.setState`, `/_actions/clients.create`,
 * `/_actions/clients.sendWelcome`) is among them; the rest are the staff pages' forms.
 */
import { clientActions } from './clients.ts';
import { contentActions } from './content.ts';
import { inboundActions } from './inbound.ts';
import { incidentActions } from './incidents.ts';
import { meetingActions } from './meetings.ts';
import { messageActions } from './messages.ts';
import { replyActions } from './replies.ts';
import { responseTimeActions } from './response-times.ts';
import { settingsActions } from './settings.ts';
import { announcementActions, logoActions } from './site-content.ts';

export const staffActions = {
  incidents: incidentActions,
  clients: clientActions,
  meetings: meetingActions,
  messages: messageActions,
  settings: settingsActions,
  inbound: inboundActions,
  replies: replyActions,
  responseTimes: responseTimeActions,
  content: contentActions,
  announcements: announcementActions,
  logos: logoActions,
};

/**
 * `group.name` of every staff action, from the definition above: the middleware refuses them without
 * a session before Astro validates their input (401, never 400), and a new staff action is covered by
 * being defined here.
 */
export const STAFF_ACTION_NAMES: readonly string[] = Object.entries(staffActions).flatMap(
  ([group, members]) => Object.keys(members).map((name) => `${group}.${name}`),
);
