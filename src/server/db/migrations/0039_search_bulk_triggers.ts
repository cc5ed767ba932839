import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../engine.ts';

/**
 * PostgreSQL: the search documents of inserted rows are written once per statement, not once per row
 * (docs/decisions/0016, addendum). Migration 0030's row triggers called a refresh function for each new
 * row, and each call planned its insert again: 9,000 incidents inserted in one statement took 5.5 s,
 * against 2.0 s for the same insert with the documents written in one pass afterwards. An `after insert`
 * trigger `for each statement` sees the statement's new rows as a transition table (`new_rows`, as migration 0020's counters) and
 * refreshes them all at once; a single-row insert costs what it did.
 *
 * Updates and deletes keep their row triggers: PostgreSQL allows no transition table on a trigger that
 * names its columns (`update of …`) or has more than one event, and those come one row at a time.
 * SQLite is unchanged (its triggers are statements inside the row's write, with no planning to repeat).
 */
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
  'drop trigger search_incidents_changed on incidents',
  'drop trigger search_entries_changed on incident_entries',
  'drop trigger search_messages_changed on contact_messages',
  'drop trigger search_clients_changed on clients',
  'drop trigger search_client_notes_changed on client_events',
  `create trigger search_incidents_changed after update of numero_incidencia, email, rnc, nombre, problema on incidents for each row execute function search_record_changed()`,
  `create trigger search_entries_changed after delete or update of body, incident_id on incident_entries for each row execute function search_record_changed()`,
  `create trigger search_messages_changed after update of email, name, message on contact_messages for each row execute function search_record_changed()`,
  `create trigger search_clients_changed after update of email, rnc, razon_social, nombre_representante on clients for each row execute function search_record_changed()`,
  `create trigger search_client_notes_changed after delete or update of detail, kind, client_id on client_events for each row execute function search_record_changed()`,
  ...['incidents', 'incident_entries', 'contact_messages', 'clients', 'client_events'].map(
    (table) =>
      `create trigger search_${table}_added after insert on ${table} referencing new table as new_rows for each statement execute function search_rows_added()`,
  ),
];

/** Migration 0030's triggers, as they were. */
const POSTGRES_DOWN = [
  ...['incidents', 'incident_entries', 'contact_messages', 'clients', 'client_events'].map(
    (table) => `drop trigger search_${table}_added on ${table}`,
  ),
  'drop function search_rows_added()',
  'drop trigger search_incidents_changed on incidents',
  'drop trigger search_entries_changed on incident_entries',
  'drop trigger search_messages_changed on contact_messages',
  'drop trigger search_clients_changed on clients',
  'drop trigger search_client_notes_changed on client_events',
  `create trigger search_incidents_changed after insert or update of numero_incidencia, email, rnc, nombre, problema on incidents for each row execute function search_record_changed()`,
  `create trigger search_entries_changed after insert or delete or update of body, incident_id on incident_entries for each row execute function search_record_changed()`,
  `create trigger search_messages_changed after insert or update of email, name, message on contact_messages for each row execute function search_record_changed()`,
  `create trigger search_clients_changed after insert or update of email, rnc, razon_social, nombre_representante on clients for each row execute function search_record_changed()`,
  `create trigger search_client_notes_changed after insert or delete or update of detail, kind, client_id on client_events for each row execute function search_record_changed()`,
];

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const statement of POSTGRES_UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const statement of POSTGRES_DOWN) await sql.raw(statement).execute(db);
}
