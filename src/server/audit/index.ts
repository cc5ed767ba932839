/**
 * The staff area's audit log: who did what, when, from which network. Events are inserted where they
 * happen (inside the change's own transaction when it has one) and never updated; the only delete is
 * the retention purge ({@link purgeOldEvents}, `AUDIT_RETENTION_DAYS`), run from the server's
 * background loop at most once an hour ({@link purgeOldEventsIfDue}).
 */
import { formatStaffDateTime, inSantoDomingoTime } from '../../domain/dates.ts';
import { nameByEmail, staffNames } from '../staff-names.ts';
import { auditActionLabel, type AuditAction } from '../../domain/audit.ts';
import { CLIENT_FIELDS, projectStateLabel } from '../../domain/forms/client.ts';
import { adminClientPath, incidentPath, ROUTES } from '../../routes.ts';
import { toCsv } from '../csv.ts';
import type { Db } from '../db/index.ts';
import type { AuditEvent } from '../db/index.ts';

export type { AuditEvent };

/** Who acted and from where: a staff member, or only the e-mail a failed sign-in named. */
export interface AuditActor {
  actorId?: string | null;
  actorEmail: string | null;
  network: string;
}

export interface NewAuditEvent extends AuditActor {
  action: AuditAction;
  subject?: string | number | null;
  detail?: string | null;
}

/** Longest `detail` kept: a short note, not a document. */
export const DETAIL_MAX = 500;
const EMAIL_MAX = 254;

/** Inserts one event (`db` may be a transaction, so the event commits or rolls back with its change). */
export async function recordEvent(db: Db, event: NewAuditEvent, now: Date = new Date()): Promise<void> {
  await db
    .insertInto('auditEvents')
    .values({
      at: now.toISOString(),
      actorId: event.actorId ?? null,
      actorEmail: event.actorEmail?.slice(0, EMAIL_MAX) ?? null,
      action: event.action,
      subject: event.subject === null || event.subject === undefined ? null : String(event.subject),
      detail: event.detail?.slice(0, DETAIL_MAX) ?? null,
      network: event.network,
    })
    .execute();
}

/** The newest events, newest first. */
export async function recentEvents(db: Db, limit = 100): Promise<AuditEvent[]> {
  return db
    .selectFrom('auditEvents')
    .selectAll()
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Deletes the events older than `retentionDays` before `now`; returns how many. */
export async function purgeOldEvents(db: Db, retentionDays: number, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 24 * 60 * 60 * 1000).toISOString();
  const result = await db.deleteFrom('auditEvents').where('at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export const PURGE_INTERVAL_MS = 60 * 60 * 1000;
let lastPurge = 0;

/** {@link purgeOldEvents}, at most once per {@link PURGE_INTERVAL_MS} in this process. */
export async function purgeOldEventsIfDue(
  db: Db,
  retentionDays: number,
  now: Date = new Date(),
): Promise<number | null> {
  if (now.getTime() - lastPurge < PURGE_INTERVAL_MS) return null;
  lastPurge = now.getTime();
  return purgeOldEvents(db, retentionDays, now);
}

/** The record an event is about, as people name it, and the staff page that shows it (when there is one). */
export interface EventSubject {
  text: string;
  href: string | null;
}

/** One line of 'Actividad' as shown (issue 25 §10): nothing of the stored codes, ids or UTC times. */
export interface ActivityRow {
  id: number;
  /** The stored code (`data-evento`). */
  action: string;
  /** ISO 8601 UTC, for `<time datetime>`. */
  at: string;
  /** Santo Domingo time, as the staff area shows dates. */
  when: string;
  label: string;
  actorEmail: string | null;
  /** The actor's name ('Nombre' in Configuración), or their e-mail when the account has none. */
  actorName: string | null;
  subject: EventSubject | null;
  detail: string | null;
  network: string;
}

const FIELD_LABELS = new Map<string, string>(CLIENT_FIELDS.map((field) => [field.name, field.label]));
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/;

/**
 * An event's detail in words: the client fields an edit changed by their labels, project states as
 * shown, a meeting's date in Santo Domingo time; anything else (a note, an address) as stored.
 */
export function eventDetailText(action: string, detail: string | null): string | null {
  if (detail === null || detail === '') return null;
  if (action === 'client.edited')
    return detail
      .split(',')
      .map((name) => FIELD_LABELS.get(name.trim()) ?? name.trim())
      .join(', ');
  if (action === 'client.state')
    return detail
      .split('→')
      .map((state) => projectStateLabel(state.trim()))
      .join(' → ');
  if (ISO_UTC.test(detail)) return formatStaffDateTime(detail);
  return detail;
}

/** The record an event names by its stored subject: a client by its name, an incident by its number. */
function subjectOf(
  action: string,
  subject: string | null,
  clientNames: Map<number, string>,
): EventSubject | null {
  if (subject === null || subject === '') return null;
  if (action.startsWith('client.')) {
    const id = Number(subject);
    const name = clientNames.get(id);
    return name === undefined
      ? { text: 'Cliente eliminado', href: null }
      : { text: name, href: adminClientPath(id) };
  }
  if (action.startsWith('incident.')) return { text: subject, href: incidentPath(subject) };
  if (action.startsWith('contact.')) return { text: `Mensaje n.º ${subject}`, href: ROUTES.adminMessages };
  if (action.startsWith('announcement.'))
    return {
      text: `Anuncio n.º ${subject}`,
      href: action === 'announcement.deleted' ? null : `${ROUTES.adminAnnouncements}/${subject}`,
    };
  if (action.startsWith('logo.'))
    return {
      text: `Logo n.º ${subject}`,
      href: action === 'logo.deleted' ? null : `${ROUTES.adminLogos}/${subject}`,
    };
  return { text: subject, href: null };
}

/** The events as 'Actividad' shows them: labels, names, Santo Domingo time (one query for the client names). */
export async function describeEvents(db: Db, events: readonly AuditEvent[]): Promise<ActivityRow[]> {
  const clientIds = [
    ...new Set(
      events
        .filter((event) => event.action.startsWith('client.') && event.subject !== null)
        .map((event) => Number(event.subject))
        .filter((id) => Number.isSafeInteger(id)),
    ),
  ];
  const clientNames = new Map<number, string>();
  const names = await staffNames(db);
  // Chunks keep the IN list within every engine's limit of bound parameters.
  for (let start = 0; start < clientIds.length; start += 500) {
    const rows = await db
      .selectFrom('clients')
      .select(['id', 'razonSocial'])
      .where('id', 'in', clientIds.slice(start, start + 500))
      .execute();
    for (const row of rows) clientNames.set(Number(row.id), row.razonSocial);
  }
  return events.map((event) => {
    const subject = subjectOf(event.action, event.subject, clientNames);
    // An assignment stores the assignee's e-mail: shown by the account's name (issue 39 §5).
    const detail =
      event.action === 'incident.assigned'
        ? nameByEmail(names, event.detail || null)
        : eventDetailText(event.action, event.detail);
    return {
      id: Number(event.id),
      action: event.action,
      at: event.at,
      when: formatStaffDateTime(event.at),
      label: auditActionLabel(event.action),
      actorEmail: event.actorEmail,
      actorName: nameByEmail(names, event.actorEmail),
      subject,
      // 'Cliente agregado' stores the name it was added with: said once while it is still the name.
      detail: detail === subject?.text ? null : detail,
      network: event.network,
    };
  });
}

export const CSV_MAX_EVENTS = 100_000;

/**
 * The log as CSV (see csv.ts), newest first, as 'Actividad' shows it: dates in Santo Domingo time,
 * actions, fields and states in Spanish, the record by its name or number.
 */
export async function exportEventsCsv(db: Db): Promise<string> {
  const rows = await describeEvents(db, await recentEvents(db, CSV_MAX_EVENTS));
  return toCsv(
    [inSantoDomingoTime('Fecha'), 'Acción', 'Usuario', 'Sobre', 'Detalle', 'Red'],
    rows.map((row) => [
      row.when,
      row.label,
      row.actorEmail,
      row.subject?.text ?? null,
      row.detail,
      row.network,
    ]),
  );
}
