import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../engine.ts';
import { idColumn, timestampType } from './helpers.ts';

/**
 * Live updates of the staff area (issue 22, docs/decisions/0018): `live_events` is the window of recent
 * events the event stream (`/api/staff/eventos`) sends, one row per change, written in the transaction
 * of the change (src/server/live/). A browser that reconnects with `Last-Event-ID` is sent every event
 * after it; the oldest rows are pruned as new ones come (the window is a few thousand events).
 *
 * `seq` is the event's number as the browsers know it, in commit order: "every event after N" must
 * never skip one that committed after a later-numbered one. SQLite has one writer, so `seq` is the id.
 * On PostgreSQL, where transactions commit in any order, a deferred constraint trigger numbers the row at
 * commit time under a transaction-scoped advisory lock (so numbers and commits go in the same order), and
 * sends the NOTIFY that wakes every process's hub. Taken at commit, after every other statement of the
 * transaction, that lock never waits on a row lock while held, so it cannot close a deadlock.
 *
 * `kind`: 'incident.created', 'incident.changed', 'message.created', 'message.changed'. `data`: JSON
 * with what the browsers need to decide what to refresh and whom to notify (numbers, ids, the kind of
 * change, who made it), never a text typed by a customer.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db, db.schema.createTable('live_events'))
    .addColumn('seq', 'bigint')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('live_events_seq_idx').on('live_events').column('seq').unique().execute();
  if (!isPostgres(db)) return;
  await sql`create sequence live_events_seq`.execute(db);
  await sql`
    create function live_events_number() returns trigger language plpgsql as $$
    begin
      perform pg_advisory_xact_lock(2200032);
      update live_events set seq = nextval('live_events_seq') where id = new.id;
      perform pg_notify('vertice_live_' || current_schema(), '');
      return null;
    end
    $$`.execute(db);
  await sql`
    create constraint trigger live_events_number after insert on live_events
    deferrable initially deferred for each row execute function live_events_number()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('live_events').ifExists().execute();
  if (!isPostgres(db)) return;
  await sql`drop function if exists live_events_number()`.execute(db);
  await sql`drop sequence if exists live_events_seq`.execute(db);
}
