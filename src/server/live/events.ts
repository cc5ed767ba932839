/**
 * The staff area's live events (issue 22, docs/decisions/0018): written in the transaction of the change
 * they announce, so nothing is announced that did not commit and nothing committed goes unannounced.
 * The event stream (`/api/staff/eventos`, hub.ts) sends them to every connected staff browser.
 *
 * An event's number for the browsers is `seq`, in commit order, so that "every event after N" (a hub's
 * cursor, a browser's `Last-Event-ID`) never skips one that committed late (migration 0032):
 * - SQLite: one writer, so `seq` is the id; the process's hub is woken after the commit
 *   (src/server/db/notify.ts).
 * - PostgreSQL: a deferred trigger numbers the row at commit, under an advisory lock, and sends the
 *   NOTIFY that wakes the hub of every other process (LISTEN); this process's is woken after the commit.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { isPostgres, notifyAfterCommit } from '../db/index.ts';
import type { Database } from '../db/index.ts';

/** What the browsers are told; never a text a customer typed. */
export type LiveEventData =
  | { kind: 'incident.created'; incidentId: number; numero: string }
  | {
      kind: 'incident.changed';
      incidentId: number;
      numero: string;
      /** What changed (src/server/incidents/activity.ts's kinds). */
      change: string;
      /** The staff member who made it (null: the customer, the mail server, the system). */
      byId: string | null;
      byName: string | null;
      /** Who the incident is assigned to after the change. */
      assignedTo: string | null;
    }
  | { kind: 'message.created'; messageId: number }
  | { kind: 'message.changed'; messageId: number };

export interface LiveEvent {
  id: number;
  data: LiveEventData;
  createdAt: string;
}

/**
 * The channel of new events (src/server/db/notify.ts; on PostgreSQL `vertice_live_<schema>`, the name
 * migration 0032's trigger notifies at commit).
 */
export const LIVE_CHANNEL = 'vertice_live';
/** Events kept for reconnecting browsers: older ones are pruned as new ones come. */
export const LIVE_WINDOW = 5000;

/** Records one event in the caller's transaction. */
export async function recordLiveEvent(
  trx: Transaction<Database>,
  data: LiveEventData,
  now: Date = new Date(),
): Promise<number> {
  const postgres = isPostgres(trx);
  const row = await trx
    .insertInto('liveEvents')
    .values({ kind: data.kind, data: JSON.stringify(data), createdAt: now.toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  // Now and then, the window's oldest rows go (by id: an index walk on the primary key).
  if (id % 100 === 0)
    await trx
      .deleteFrom('liveEvents')
      .where('id', '<=', id - LIVE_WINDOW)
      .execute();
  // PostgreSQL numbers it at commit (the trigger); SQLite here.
  if (!postgres)
    await trx
      .updateTable('liveEvents')
      .set({ seq: sql`id` })
      .where('id', '=', id)
      .execute();
  // This process's hub after the commit. On PostgreSQL the trigger's NOTIFY is the same notice (one
  // channel, one payload): PostgreSQL sends it once, and every other process's hub hears it.
  await notifyAfterCommit(trx, LIVE_CHANNEL);
  return id;
}

function parse(row: { seq: number | string | null; data: string; createdAt: string | Date }): LiveEvent {
  return {
    id: Number(row.seq),
    data: JSON.parse(row.data) as LiveEventData,
    createdAt: row.createdAt instanceof Date ? row.createdAt.toISOString() : row.createdAt,
  };
}

/** The events after `afterId`, oldest first (at most `limit`). */
export async function liveEventsAfter(
  db: Kysely<Database>,
  afterId: number,
  limit = 500,
): Promise<LiveEvent[]> {
  const rows = await db
    .selectFrom('liveEvents')
    .select(['seq', 'data', 'createdAt'])
    .where('seq', '>', afterId)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map(parse);
}

/** The newest event's id (0: none yet). */
export async function latestLiveEventId(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('liveEvents')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

/** The oldest event still kept (0: none), to tell a browser that reconnects too late. */
export async function oldestLiveEventId(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('liveEvents')
    .select((eb) => eb.fn.min('seq').as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}
