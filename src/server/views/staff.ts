/**
 * What each staff page shows, read in one call per page: the pages render, and never hold the
 * database themselves (tests/unit/pages-render-only.test.ts). Each function only reads.
 */
import { attachmentForStaff } from '../attachments/index.ts';
import { attachmentResponse } from './support.ts';
import { mostViewedPages, visitsOnDay } from '../analytics/index.ts';
import { describeEvents, recentEvents } from '../audit/index.ts';
import type { StaffMember } from '../auth/index.ts';
import { nameByEmail, namedHistory, staffNames } from '../auth/index.ts';
import { listStaffSessions } from '../auth/index.ts';
import { pendingEnrolment } from '../auth/index.ts';
import { CLIENT_LIST_LIMIT, clientFromParam, clientTimeline, listClients } from '../clients/index.ts';
import { clientIncidents, incidentClients } from '../clients/index.ts';
import { countPendingMessages, listMessages } from '../contact/index.ts';
import { loadDashboardCharts, ratingSummary } from '../dashboard/index.ts';
import { getConfig } from '../config.ts';
import { getDb } from '../db/index.ts';
import { getLogger } from '../log.ts';
import { imapTarget } from '../channels/index.ts';
import { blockedSenders, markIncidentSeen, refusedMessages, senderBlock } from '../channels/index.ts';
import { mailboxPollStatus, receivedToday } from '../channels/index.ts';
import { whatsappPanelStatus, whatsappSettings } from '../channels/index.ts';
import { whatsappReplyWindow } from '../channels/index.ts';
import { ROUTES } from '../../routes.ts';
import { assigneeOf, listAssignableStaff, type Assignee } from '../incidents/index.ts';
import { incidentClocks, loadResponseTimes, onTimeSummary } from '../incidents/index.ts';
import { incidentByNumber, staffTimeline } from '../incidents/index.ts';
import type { IncidentFilters } from '../incidents/index.ts';
import { countIncidentsByState, listIncidents } from '../incidents/index.ts';
import { clientMeetings, upcomingMeetings } from '../meetings/index.ts';
import { searchEverything } from '../search/index.ts';
import { mailBrand } from '../mail/index.ts';
import { fillSavedReplyFor, listSavedReplies, type FillContext } from '../replies/index.ts';
import type { TimelineEntry } from '../../domain/incidents.ts';
import type { MessageView } from '../../domain/messages.ts';
import type { ProjectState } from '../../domain/forms/client.ts';

/** The staff home: the cards, the charts, the meetings ahead, the pending messages and the customers' ratings. */
export async function staffHomeView() {
  const db = getDb();
  const [visitsToday, topPages, incidentCounts, charts, meetings, pendingMessages, ratings, onTime] =
    await Promise.all([
      visitsOnDay(db),
      mostViewedPages(db),
      countIncidentsByState(db),
      loadDashboardCharts(db),
      upcomingMeetings(db),
      countPendingMessages(db),
      ratingSummary(db),
      onTimeSummary(db),
    ]);
  return { visitsToday, topPages, incidentCounts, charts, meetings, pendingMessages, ratings, onTime };
}

/** One page of the staff incident list; each state change is signed with its author's name. */
export async function incidentListView(filters: IncidentFilters, page: number, staffId: string) {
  const db = getDb();
  const [list, names] = await Promise.all([
    listIncidents(db, filters, page, undefined, { staffId }),
    staffNames(db),
  ]);
  for (const item of list.items) item.historial = namedHistory(names, item.historial);
  return list;
}

/**
 * One incident's page: the incident (null when there is none), its timeline, the staff to assign
 * (current staff, ADMIN_EMAILS, only), whom it is assigned to (maybe an account that left the staff
 * since) and its clients.
 */
export async function incidentPageView(numero: string) {
  const db = getDb();
  const incident = await incidentByNumber(db, numero);
  const none: Assignee = { kind: 'none' };
  if (!incident)
    return {
      incident: null,
      timeline: [],
      staffAccounts: [],
      assignee: none,
      matchedClients: [],
      clocks: null,
      whatsapp: null,
      blocked: null,
    };
  // Opened by a staff member: the channel tells the customer their messages were seen (a WhatsApp
  // message marked read, issue 37). Not awaited: the page is not slowed by it, and a failure to record
  // it only costs the ticks (the next opening records it again).
  void markIncidentSeen(db, incident).catch((error: unknown) =>
    getLogger().warn({ err: error, incidentId: incident.id }, 'read receipt not recorded'),
  );
  const address = incident.channelAddress?.trim();
  const [entries, staffAccounts, assignee, matchedClients, names, clocks, whatsapp, blocked] =
    await Promise.all([
      staffTimeline(db, incident),
      listAssignableStaff(db),
      assigneeOf(db, incident.assignedTo ?? null),
      incidentClients(db, incident),
      staffNames(db),
      incidentClocks(db, incident.id),
      // A WhatsApp incident's reply box says how long free text may still go (issue 37).
      whatsappReplyWindow(db, incident.id, new Date()),
      // Whether staff blocked the customer's address on the incident's channel ('Desbloquear', issue 37).
      address ? senderBlock(db, incident.channel, address) : null,
    ]);
  // Staff are named by their names (the problem's author is the visitor, by the name they gave).
  const timeline = entries.map((entry): TimelineEntry => {
    if (
      entry.kind === 'problem' ||
      entry.kind === 'bounce' ||
      entry.kind === 'delay' ||
      entry.kind === 'read' ||
      entry.kind === 'complaint' ||
      entry.kind === 'rating'
    )
      return entry;
    if (entry.kind === 'priority') return { ...entry, autor: nameByEmail(names, entry.autor) };
    if (entry.kind === 'assignment')
      return {
        ...entry,
        autor: nameByEmail(names, entry.autor),
        asignado: nameByEmail(names, entry.asignado),
      };
    if (entry.kind === 'accepted') return { ...entry, autor: nameByEmail(names, entry.autor) };
    const aceptada =
      'aceptada' in entry && entry.aceptada
        ? {
            aceptada: {
              ...entry.aceptada,
              autor: nameByEmail(names, entry.aceptada.autor),
            },
          }
        : {};
    return { ...entry, autor: nameByEmail(names, entry.autor), ...aceptada };
  });
  return { incident, timeline, staffAccounts, assignee, matchedClients, clocks, whatsapp, blocked };
}

/** The client list: one page (plus one row, to know whether a next page exists), and the client just added. */
export async function clientListView(filter: {
  search?: string | undefined;
  estado?: ProjectState | undefined;
  archived: boolean;
  page: number;
  created?: string | undefined;
}) {
  const db = getDb();
  const [found, created] = await Promise.all([
    listClients(db, {
      search: filter.search,
      estado: filter.estado,
      archived: filter.archived,
      limit: CLIENT_LIST_LIMIT + 1,
      offset: (filter.page - 1) * CLIENT_LIST_LIMIT,
    }),
    filter.created === undefined ? null : clientFromParam(db, filter.created),
  ]);
  return { clients: found.slice(0, CLIENT_LIST_LIMIT), hasNext: found.length > CLIENT_LIST_LIMIT, created };
}

/** One client's page: the client (null when there is none), its timeline, meetings and incidents. */
export async function clientPageView(idParam: string | undefined) {
  const db = getDb();
  const client = await clientFromParam(db, idParam);
  if (!client) return { client: null, timeline: [], meetings: [], incidents: [] };
  const [entries, meetings, incidents, names] = await Promise.all([
    clientTimeline(db, client.id),
    clientMeetings(db, client.id),
    clientIncidents(db, client),
    staffNames(db),
  ]);
  const timeline = entries.map((entry) => ({ ...entry, actorName: nameByEmail(names, entry.actorEmail) }));
  // The organiser by the account's name now (issue 39 §5), else the name the invitation went out with.
  const named = meetings.map((meeting) => {
    const current = nameByEmail(names, meeting.organizerEmail);
    return {
      ...meeting,
      organizerName: current !== meeting.organizerEmail ? current : meeting.organizerName.trim() || current,
    };
  });
  return { client, timeline, meetings: named, incidents };
}

/** The client of the 'Reunión' page, or null. */
export const clientView = (idParam: string | undefined) => clientFromParam(getDb(), idParam);

/**
 * The meeting 'Cancelar reunión' asks about (issue 25 §9): one of the client's meetings, still to come
 * and not cancelled, by the id in `?cancelar=`; null when there is none such.
 */
export async function meetingToCancelView(clientId: number, meetingParam: string | null, now = new Date()) {
  const meetingId = Number(meetingParam);
  if (!meetingParam || !Number.isInteger(meetingId) || meetingId <= 0) return null;
  const meetings = await clientMeetings(getDb(), clientId);
  return (
    meetings.find(
      (meeting) =>
        meeting.id === meetingId &&
        meeting.cancelledAt === null &&
        Date.parse(meeting.endsAt) > now.getTime(),
    ) ?? null
  );
}

/** One page of the contact inbox. */
export const messageListView = (view: MessageView) => listMessages(getDb(), view);

/** `/admin/buscar` (issue 22): every kind's best matches for the query. */
export const searchView = (query: string) => searchEverything(getDb(), query);

/** Configuración: the account's sessions and the activity log's latest events. */
export async function settingsView(staff: StaffMember) {
  const db = getDb();
  const [sessions, events] = await Promise.all([
    listStaffSessions(staff),
    recentEvents(db, 100).then((rows) => describeEvents(db, rows)),
  ]);
  return { sessions, events };
}

/** The enrolment an unconfirmed two-step set-up is waiting on (its QR code again), or null. */
export const pendingEnrolmentView = (staff: StaffMember) => pendingEnrolment(staff);

/** A file of any incident, for staff (`/admin/adjuntos/{id}/{nombre}`): the response, or a Spanish 404. */
export async function staffAttachmentResponse(
  idParam: string | undefined,
  thumb: boolean,
): Promise<Response> {
  const id = Number.parseInt(idParam ?? '', 10);
  return attachmentResponse(
    Number.isSafeInteger(id) && id > 0 ? await attachmentForStaff(getDb(), id, thumb) : null,
  );
}

/**
 * 'Correo entrante' in Configuración (issue 21): which channels are on (from the settings; never the
 * mailbox's password), the mailbox reader's last round, what came in today and the refused messages;
 * the WhatsApp channel's webhook, its last message received and its last error (issue 37).
 */
export async function inboundPanelView(now: Date = new Date()) {
  const config = getConfig();
  const db = getDb();
  const [poll, today, refused, whatsappStatus, blocked] = await Promise.all([
    mailboxPollStatus(db),
    receivedToday(db, now),
    refusedMessages(db),
    whatsappPanelStatus(db),
    blockedSenders(db),
  ]);
  const imap = config.INBOUND_IMAP_URL ? imapTarget(config.INBOUND_IMAP_URL) : null;
  return {
    address: config.INBOUND_ADDRESS ?? null,
    imap: imap
      ? {
          host: imap.host,
          user: imap.auth.user,
          mailbox: imap.mailbox,
          everySeconds: config.INBOUND_POLL_SECONDS,
        }
      : null,
    webhook: config.INBOUND_WEBHOOK_SECRET ? new URL(ROUTES.inboundMail, config.SITE_URL).href : null,
    maxBytes: config.INBOUND_MAX_BYTES,
    poll,
    today,
    refused,
    // Senders staff blocked (issue 37), each with 'Desbloquear'.
    blocked,
    // The WhatsApp channel (issue 37): on when WHATSAPP_APP_SECRET is set; its webhook's last message and error.
    whatsapp: whatsappSettings(config)
      ? { webhook: new URL(ROUTES.whatsapp, config.SITE_URL).href, status: whatsappStatus }
      : null,
  };
}

/** 'Respuestas guardadas' in Configuración: every saved reply, by title. */
export async function savedRepliesView() {
  return listSavedReplies(getDb());
}

/**
 * 'Insertar respuesta guardada' on an incident's page: the saved replies to choose from and, when the
 * page was asked for one (`?respuesta=`, the form without JavaScript), its text filled for this
 * incident ('gone' when it no longer exists). Filling `{enlace_seguimiento}` issues a follow-up token
 * (src/server/replies): the one write of a view, as the reply mail's own link is made.
 */
export async function savedRepliesForIncidentView(
  incident: FillContext['incident'] | null,
  staff: FillContext['staff'],
  requested: string | null,
) {
  const db = getDb();
  const replies = (await listSavedReplies(db)).map((reply) => ({ id: Number(reply.id), title: reply.title }));
  if (!incident || requested === null || !/^[1-9]\d{0,9}$/.test(requested))
    return { replies, inserted: null };
  const filled = await fillSavedReplyFor(db, Number(requested), { incident, staff, brand: mailBrand() });
  return { replies, inserted: filled ?? ('gone' as const) };
}

/** 'Tiempos de respuesta' in Configuración (issue 22): the targets and the business hours. */
export const responseTimesView = () => loadResponseTimes(getDb());
