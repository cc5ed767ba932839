import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../engine.ts';
import { POSTGRES_TRIGGERS } from './0030_search.ts';

/**
 * PostgreSQL: the search documents of inserted rows are written once per statement, not once per row
 * (docs/decisions/0016, addendum). Migration 0030's row triggers called a refresh function for each new
 * row, and each call planned its insert again: 9,000 incidents inserted in one statement took 5.5 s,
 * against 2.0 s for the same insert with the documents written in one pass afterwards. An `after insert`
 * trigger `for each statement` sees the statement's new rows as a transition table (`new_rows`, as
 * migration 0020's counters) and refreshes them all at once; a single-row insert costs what it did.
 *
 * Updates and deletes keep their row triggers: PostgreSQL allows no transition table on a trigger that
 * names its columns (`update of …`) or has more than one event, and those come one row at a time.
 * SQLite is unchanged (its triggers are statements inside the row's write, with no planning to repeat).
 */

/** The tables whose rows are searched, and migration 0030's row trigger on each. */
const TABLES = [
  ['incidents', 'search_incidents_changed'],
  ['incident_entries', 'search_entries_changed'],
  ['contact_messages', 'search_messages_changed'],
  ['clients', 'search_clients_changed'],
  ['client_events', 'search_client_notes_changed'],
] as const;

const DROP_ROW_TRIGGERS = TABLES.map(([table, trigger]) => `drop trigger ${trigger} on ${table}`);

const POSTGRES_UP = [
  `create function search_rows_added() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'incidents' then
        perform search_refresh_incident(array(select id from new_rows));
      elsif tg_table_name = 'contact_messages' then
        perform search_refresh_message(array(select id from new_rows));
      elsif tg_table_name = 'clients' then
        perform search_refresh_client(array(select id from new_rows));
      elsif tg_table_name = 'incident_entries' then
        perform search_refresh_incident(array(select distinct incident_id from new_rows));
      elsif tg_table_name = 'client_events' then
        perform search_refresh_client(array(select distinct client_id from new_rows where kind = 'note'));
      end if;
      return null;
    end
  $$`,
  ...DROP_ROW_TRIGGERS,
  // 0030's triggers without their insert event.
  `create trigger search_incidents_changed after update of numero_incidencia, email, rnc, nombre, problema on incidents for each row execute function search_record_changed()`,
  `create trigger search_entries_changed after delete or update of body, incident_id on incident_entries for each row execute function search_record_changed()`,
  `create trigger search_messages_changed after update of email, name, message on contact_messages for each row execute function search_record_changed()`,
  `create trigger search_clients_changed after update of email, rnc, razon_social, nombre_representante on clients for each row execute function search_record_changed()`,
  `create trigger search_client_notes_changed after delete or update of detail, kind, client_id on client_events for each row execute function search_record_changed()`,
  ...TABLES.map(
    ([table]) =>
      `create trigger search_${table}_added after insert on ${table} referencing new table as new_rows for each statement execute function search_rows_added()`,
  ),
];

/** Back to migration 0030's triggers, as they were. */
const POSTGRES_DOWN = [
  ...TABLES.map(([table]) => `drop trigger search_${table}_added on ${table}`),
  'drop function search_rows_added()',
  ...DROP_ROW_TRIGGERS,
  ...POSTGRES_TRIGGERS,
];

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const statement of POSTGRES_UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const statement of POSTGRES_DOWN) await sql.raw(statement).execute(db);
}
