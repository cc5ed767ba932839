/**
 * The writer of an incident that arrives whole, with its timeline (`npm run data -- import`): the
 * incident, its state history, conversation, assignments and follow-up tokens, in the caller's
 * transaction. What the site derives as it goes is derived here by the same rules: the first history
 * entry of a new incident, the activity columns (activity.ts), the first resolution, the search
 * columns (db/rows.ts). The conversation, assignments and tokens are stored as they were exported;
 * as the site goes, conversation.ts, assignment.ts and follow-up.ts write them.
 */
import type { Transaction } from 'kysely';
import { firstResolvedAt } from '../../domain/dashboard.ts';
import {
  INITIAL_STATE,
  type HistoryEntry,
  type IncidentFields,
  type IncidentState,
  type IncidentOrigin,
  type IncidentPriority,
} from '../../domain/incidents.ts';
import { incidentRow } from '../db/index.ts';
import type { Database, IncidentEntryKind } from '../db/index.ts';
import { timelineActivity } from './activity.ts';
import { storeImportedAttachment, type ImportedAttachment } from '../attachments/index.ts';
import type { ExportedClock } from '../../domain/incident-clock.ts';
import { clockValues } from './clock.ts';
import type { ChannelId } from '../../domain/channels.ts';

/** An incident to store as it stood elsewhere; staff accounts already mapped to this database's ids. */
export interface ImportedIncident extends IncidentFields {
  numeroIncidencia: string;
  estado: IncidentState;
  fecha: string;
  /** Its state history; empty: the creation entry is added, as when a visitor opens one. */
  historial: HistoryEntry[];
  /** Null: unassigned (also when the assignee has no account here). */
  assignedTo: string | null;
  /** As exported, when it was: the timeline's own times are never newer than it. */
  lastActivityAt: string | null;
  /** As exported, when it was; otherwise derived from the conversation. */
  customerWaiting: boolean | null;
  /** 'Formulario' unless given (issue 21). */
  origen?: IncidentOrigin;
  /** 'Normal' unless given (issue 22). */
  prioridad?: IncidentPriority;
  /** Mail, at its e-mail, unless given (issue 37). */
  channel?: ChannelId;
  channelAddress?: string | null;
  /** Its business-hours clock as exported (issue 22); absent or null: it starts with the next change. */
  reloj?: ExportedClock | null;
  /** Its priority changes (issue 22); absent in older files. `changedById` '' names no account. */
  priorityChanges?: Array<{
    desde: IncidentPriority;
    hasta: IncidentPriority;
    changedById: string;
    changedByEmail: string;
    createdAt: string;
  }>;
  entries: Array<{
    kind: IncidentEntryKind;
    authorId: string | null;
    authorEmail: string | null;
    body: string;
    createdAt: string;
    /** The channel an answer came by ('correo'); 'Remitente sin verificar' with `unverified`. */
    via?: ChannelId;
    unverified?: boolean;
    /** An unverified answer accepted as the customer's: when, and the staff e-mail. */
    acceptedAt?: string;
    acceptedBy?: string;
    /** The inbound message it came from ('Ver original'), already stored here. */
    inboundMessageId?: number;
  }>;
  /** `assignedById` '' names no account (the column cannot be null). */
  assignments: Array<{
    assigneeId: string | null;
    assigneeEmail: string | null;
    assignedById: string;
    assignedByEmail: string;
    createdAt: string;
  }>;
  /** Follow-up links, hashed as follow-up.ts stores them. */
  tokens: Array<{ tokenHash: string; createdAt: string }>;
  /** Rating links and ratings (issue 22), hashed as rating.ts stores them; absent in older files. */
  ratings?: Array<{
    tokenHash: string;
    resolvedAt: string;
    createdAt: string;
    valor: number | null;
    comentario: string | null;
    ratedAt: string | null;
  }>;
  /** Files (issue 21): of the problem (`entry` null) or of `entries[entry]`; bytes already checked against their SHA-256. */
  attachments?: Array<Omit<ImportedAttachment, 'incidentId' | 'entryId'> & { entry: number | null }>;
  /** The mails sent the customer (issue 21), by Message-ID; absent in older files. */
  mails?: Array<{
    messageId: string;
    kind: string;
    replyTokenHash: string | null;
    bouncedAt: string | null;
    /** What other reports said of it (issue 41); absent in older files. */
    delayedAt?: string | null;
    readAt?: string | null;
    complainedAt?: string | null;
    createdAt: string;
  }>;
}

/** Stores the incident with everything nested in it; false when its number is already taken (nothing is written). */
export async function insertImportedIncident(
  trx: Transaction<Database>,
  incident: ImportedIncident,
): Promise<boolean> {
  const {
    historial: given,
    entries,
    assignments,
    tokens,
    ratings = [],
    attachments = [],
    mails = [],
    lastActivityAt: exportedActivity,
    customerWaiting: exportedWaiting,
    origen,
    prioridad,
    channel,
    channelAddress,
    priorityChanges = [],
    reloj,
    ...fields
  } = incident;
  const exists = await trx
    .selectFrom('incidents')
    .select('id')
    .where('numeroIncidencia', '=', fields.numeroIncidencia)
    .executeTakeFirst();
  if (exists) return false;
  const historial = given.length ? given : [{ estado: INITIAL_STATE, fecha: fields.fecha, actor: null }];
  const activity = timelineActivity(fields.fecha, [
    ...historial.map((entry) => ({ kind: 'state' as const, at: entry.fecha })),
    ...entries.map((entry) => ({ kind: entry.kind, at: entry.createdAt })),
    ...assignments.map((change) => ({ kind: 'assignment' as const, at: change.createdAt })),
    ...priorityChanges.map((change) => ({ kind: 'priority' as const, at: change.createdAt })),
    ...(exportedActivity ? [{ kind: 'state' as const, at: exportedActivity }] : []),
  ]);
  const { id } = await trx
    .insertInto('incidents')
    .values({
      ...incidentRow({
        ...fields,
        lastActivityAt: activity.lastActivityAt,
        resolvedAt: firstResolvedAt(historial),
        customerWaiting: exportedWaiting ?? activity.customerWaiting,
      }),
      ...(origen ? { origen } : {}),
      ...(prioridad ? { prioridad } : {}),
      ...(channel
        ? { channel, channelAddress: channelAddress ?? null }
        : { channelAddress: fields.email.trim() || null }),
      ...(reloj ? clockValues(trx, reloj) : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (reloj?.alerts.length)
    await trx
      .insertInto('incidentClockAlerts')
      .values(reloj.alerts.map((alert) => ({ incidentId: id, ...alert })))
      .execute();
  await trx
    .insertInto('incidentEvents')
    .values(historial.map((entry) => ({ incidentId: id, ...entry })))
    .execute();
  // Every row names every column: SQLite fills a column some rows of a multi-row insert lack with null.
  const entryRows = entries.map((entry) => ({
    incidentId: id,
    ...entry,
    via: entry.via ?? null,
    unverified: entry.unverified ?? false,
    acceptedAt: entry.acceptedAt ?? null,
    acceptedBy: entry.acceptedBy ?? null,
    inboundMessageId: entry.inboundMessageId ?? null,
  }));
  const entryIds: number[] = [];
  // One by one when files name entries: each file needs its entry's id, in order.
  if (attachments.some((file) => file.entry !== null))
    for (const row of entryRows)
      entryIds.push(
        (await trx.insertInto('incidentEntries').values(row).returning('id').executeTakeFirstOrThrow()).id,
      );
  else if (entryRows.length) await trx.insertInto('incidentEntries').values(entryRows).execute();
  for (const file of attachments) {
    const entryId = file.entry === null ? null : (entryIds[file.entry] ?? null);
    if (file.entry !== null && entryId === null) continue;
    await storeImportedAttachment(trx, { ...file, incidentId: id, entryId });
  }
  if (assignments.length)
    await trx
      .insertInto('incidentAssignments')
      .values(assignments.map((change) => ({ incidentId: id, ...change })))
      .execute();
  if (priorityChanges.length)
    await trx
      .insertInto('incidentPriorityChanges')
      .values(priorityChanges.map((change) => ({ incidentId: id, ...change })))
      .execute();
  // A hash is unique: one already stored belongs to a link that already opens an incident here.
  if (tokens.length)
    await trx
      .insertInto('incidentTokens')
      .values(tokens.map((token) => ({ incidentId: id, ...token })))
      .onConflict((conflict) => conflict.column('tokenHash').doNothing())
      .execute();
  if (ratings.length)
    await trx
      .insertInto('incidentRatings')
      .values(ratings.map((rating) => ({ incidentId: id, ...rating })))
      .onConflict((conflict) => conflict.column('tokenHash').doNothing())
      .execute();
  // A Message-ID or reply token already here (the same mail imported under another incident) is kept as it is.
  for (const mail of mails)
    await trx
      .insertInto('incidentMails')
      .values({ incidentId: id, ...mail })
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  return true;
}
