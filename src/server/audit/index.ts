/**
 * The staff area's audit log: who did what, when, from which network. Events are inserted where they
 * happen (inside the change's own transaction when it has one) and never updated; the only delete is
 * the retention purge ({@link purgeOldEvents}, `AUDIT_RETENTION_DAYS`), run from the server's
 * background loop at most once an hour ({@link purgeOldEventsIfDue}).
 */
import { formatStaffDateTime } from '../../domain/dates.ts';
import { auditActionLabel, type AuditAction } from '../../domain/audit.ts';
import { toCsv } from '../csv.ts';
import type { Db } from '../db/index.ts';
import type { AuditEvent } from '../db/schema.ts';

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

export const CSV_MAX_EVENTS = 100_000;

/** The log as CSV (see csv.ts), newest first, dates in Santo Domingo time and actions in Spanish. */
export async function exportEventsCsv(db: Db): Promise<string> {
  const rows = await recentEvents(db, CSV_MAX_EVENTS);
  return toCsv(
    ['Fecha', 'Acción', 'Usuario', 'Sobre', 'Detalle', 'Red'],
    rows.map((row) => [
      formatStaffDateTime(row.at),
      auditActionLabel(row.action),
      row.actorEmail,
      row.subject,
      row.detail,
      row.network,
    ]),
  );
}
