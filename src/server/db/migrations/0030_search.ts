import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../engine.ts';

/**
 * One search for the staff area (issue 22, docs/decisions/0016): a full-text index of incidents (number,
 * e-mail and RNC; name; problem; the whole conversation), contact messages (e-mail; name; text) and
 * clients (e-mail and RNC; company and representative; notes), one document per record, kept in step
 * by triggers in the transaction that writes the text, whoever writes it (the forms, inbound mail,
 * `npm run data -- import`, the tests' factories). Existing rows are indexed here.
 *
 * - SQLite: three contentless FTS5 tables (`search_incidents`, `search_messages`, `search_clients`,
 *   rowid = the record's id) with `unicode61 remove_diacritics 2`, holding the words' Spanish stems as
 *   `search_terms()` gives them: a function every connection of ours registers (src/server/db/sqlite.ts).
 * - PostgreSQL: the same three tables with a `tsvector` (weights A–D by column) under a GIN index, made
 *   with the `es_unaccent` configuration: Spanish's Snowball stemmer over the `unaccent` dictionary.
 */

const SQLITE_TABLES = {
  search_incidents: 'ident, nombre, texto, conversacion',
  search_messages: 'ident, nombre, texto',
  search_clients: 'ident, nombre, texto',
} as const;

/** SQLite: the statement that (re)writes the search document of the records the condition selects. */
export const sqliteIncident = (
  where: string,
) => `insert or replace into search_incidents(rowid, ident, nombre, texto, conversacion)
  select i.id, search_terms(i.numero_incidencia || ' ' || i.email || ' ' || i.rnc), search_terms(i.nombre), search_terms(i.problema),
    (select search_terms(group_concat(e.body, ' ')) from incident_entries e where e.incident_id = i.id)
  from incidents i ${where}`;
export const sqliteMessage = (
  where: string,
) => `insert or replace into search_messages(rowid, ident, nombre, texto)
  select m.id, search_terms(m.email), search_terms(m.name), search_terms(m.message) from contact_messages m ${where}`;
export const sqliteClient = (
  where: string,
) => `insert or replace into search_clients(rowid, ident, nombre, texto)
  select c.id, search_terms(c.email || ' ' || c.rnc), search_terms(c.razon_social || ' ' || c.nombre_representante),
    (select search_terms(group_concat(n.detail, ' ')) from client_events n where n.client_id = c.id and n.kind = 'note')
  from clients c ${where}`;

const SQLITE_TRIGGERS = [
  `create trigger search_incidents_ai after insert on incidents begin ${sqliteIncident('where i.id = new.id')}; end`,
  `create trigger search_incidents_au after update of numero_incidencia, email, rnc, nombre, problema on incidents begin ${sqliteIncident('where i.id = new.id')}; end`,
  `create trigger search_incidents_ad after delete on incidents begin delete from search_incidents where rowid = old.id; end`,
  `create trigger search_entries_ai after insert on incident_entries begin ${sqliteIncident('where i.id = new.incident_id')}; end`,
  `create trigger search_entries_au after update of body, incident_id on incident_entries begin ${sqliteIncident('where i.id in (old.incident_id, new.incident_id)')}; end`,
  `create trigger search_entries_ad after delete on incident_entries begin ${sqliteIncident('where i.id = old.incident_id')}; end`,
  `create trigger search_messages_ai after insert on contact_messages begin ${sqliteMessage('where m.id = new.id')}; end`,
  `create trigger search_messages_au after update of email, name, message on contact_messages begin ${sqliteMessage('where m.id = new.id')}; end`,
  `create trigger search_messages_ad after delete on contact_messages begin delete from search_messages where rowid = old.id; end`,
  `create trigger search_clients_ai after insert on clients begin ${sqliteClient('where c.id = new.id')}; end`,
  `create trigger search_clients_au after update of email, rnc, razon_social, nombre_representante on clients begin ${sqliteClient('where c.id = new.id')}; end`,
  `create trigger search_clients_ad after delete on clients begin delete from search_clients where rowid = old.id; end`,
  `create trigger search_client_notes_ai after insert on client_events when new.kind = 'note' begin ${sqliteClient('where c.id = new.client_id')}; end`,
  `create trigger search_client_notes_au after update of detail, kind, client_id on client_events begin ${sqliteClient('where c.id in (old.client_id, new.client_id)')}; end`,
  `create trigger search_client_notes_ad after delete on client_events when old.kind = 'note' begin ${sqliteClient('where c.id = old.client_id')}; end`,
];

/**
 * PostgreSQL: `search_text` turns a dash before a digit into a space (the parser reads '-1234' as a
 * signed number) and appends each run of digits joined by `-`, `.` or `/` as one word of its digits, as
 * `indexTerms` does for SQLite; `search_ident` also splits e-mail addresses into their words.
 */
export const POSTGRES_FUNCTIONS = [
  `create function search_text(value text) returns text language sql immutable as $$
    select regexp_replace(coalesce(value, ''), '-(?=\\d)', ' ', 'g') || coalesce(' ' || (
      select string_agg(regexp_replace(m[1], '\\D', '', 'g'), ' ')
      from regexp_matches(coalesce(value, ''), '(\\d+(?:[-./]\\d+)+)', 'g') as m), '')
  $$`,
  `create function search_ident(value text) returns text language sql immutable as $$
    select regexp_replace(search_text(value), '[-.@_+/]+', ' ', 'g')
  $$`,
  `create function search_refresh_incident(targets integer[]) returns void language sql as $$
    insert into search_incidents (id, document)
    select i.id,
      setweight(to_tsvector('es_unaccent', search_ident(i.numero_incidencia || ' ' || i.email || ' ' || i.rnc)), 'A') ||
      setweight(to_tsvector('es_unaccent', search_text(i.nombre)), 'B') ||
      setweight(to_tsvector('es_unaccent', search_text(i.problema)), 'C') ||
      setweight(to_tsvector('es_unaccent', search_text((select string_agg(e.body, ' ' order by e.id) from incident_entries e where e.incident_id = i.id))), 'D')
    from incidents i where i.id = any(targets)
    on conflict (id) do update set document = excluded.document
  $$`,
  `create function search_refresh_message(targets integer[]) returns void language sql as $$
    insert into search_messages (id, document)
    select m.id,
      setweight(to_tsvector('es_unaccent', search_ident(m.email)), 'A') ||
      setweight(to_tsvector('es_unaccent', search_text(m.name)), 'B') ||
      setweight(to_tsvector('es_unaccent', search_text(m.message)), 'C')
    from contact_messages m where m.id = any(targets)
    on conflict (id) do update set document = excluded.document
  $$`,
  `create function search_refresh_client(targets integer[]) returns void language sql as $$
    insert into search_clients (id, document)
    select c.id,
      setweight(to_tsvector('es_unaccent', search_ident(c.email || ' ' || c.rnc)), 'A') ||
      setweight(to_tsvector('es_unaccent', search_text(c.razon_social || ' ' || c.nombre_representante)), 'B') ||
      setweight(to_tsvector('es_unaccent', search_text((select string_agg(n.detail, ' ' order by n.id) from client_events n where n.client_id = c.id and n.kind = 'note'))), 'C')
    from clients c where c.id = any(targets)
    on conflict (id) do update set document = excluded.document
  $$`,
  `create function search_record_changed() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'incidents' then perform search_refresh_incident(array[new.id]);
      elsif tg_table_name = 'contact_messages' then perform search_refresh_message(array[new.id]);
      elsif tg_table_name = 'clients' then perform search_refresh_client(array[new.id]);
      elsif tg_table_name = 'incident_entries' then
        if tg_op <> 'INSERT' then perform search_refresh_incident(array[old.incident_id]); end if;
        if tg_op <> 'DELETE' then perform search_refresh_incident(array[new.incident_id]); end if;
      elsif tg_table_name = 'client_events' then
        if tg_op <> 'INSERT' and old.kind = 'note' then perform search_refresh_client(array[old.client_id]); end if;
        if tg_op <> 'DELETE' and new.kind = 'note' then perform search_refresh_client(array[new.client_id]); end if;
      end if;
      return null;
    end
  $$`,
];

export const POSTGRES_TRIGGERS = [
  `create trigger search_incidents_changed after insert or update of numero_incidencia, email, rnc, nombre, problema on incidents for each row execute function search_record_changed()`,
  `create trigger search_entries_changed after insert or delete or update of body, incident_id on incident_entries for each row execute function search_record_changed()`,
  `create trigger search_messages_changed after insert or update of email, name, message on contact_messages for each row execute function search_record_changed()`,
  `create trigger search_clients_changed after insert or update of email, rnc, razon_social, nombre_representante on clients for each row execute function search_record_changed()`,
  `create trigger search_client_notes_changed after insert or delete or update of detail, kind, client_id on client_events for each row execute function search_record_changed()`,
];

/** Every existing record at once (the functions take a list of ids). */
export const POSTGRES_BACKFILL = [
  'select search_refresh_incident(array(select id from incidents))',
  'select search_refresh_message(array(select id from contact_messages))',
  'select search_refresh_client(array(select id from clients))',
];

async function postgresUp(db: Kysely<any>): Promise<void> {
  // In `public`, once per database, as pg_trgm (migration 0003): extensions are database-wide. It is a
  // trusted extension: a database owner may create it without being a superuser.
  await sql`create extension if not exists unaccent schema public`.execute(db);
  const found = await sql<{
    schema: string;
  }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'unaccent'`.execute(
    db,
  );
  const dictionary = `"${found.rows[0]!.schema}".unaccent`;
  await sql.raw('create text search configuration es_unaccent (copy = pg_catalog.spanish)').execute(db);
  await sql
    .raw(
      `alter text search configuration es_unaccent alter mapping for hword, hword_part, word with ${dictionary}, spanish_stem`,
    )
    .execute(db);
  for (const [table, references] of [
    ['search_incidents', 'incidents'],
    ['search_messages', 'contact_messages'],
    ['search_clients', 'clients'],
  ] as const) {
    await sql
      .raw(
        `create table ${table} (id integer primary key references ${references}(id) on delete cascade, document tsvector not null)`,
      )
      .execute(db);
    // Without fastupdate, as the trigram indexes (migration 0004): a pending list is read by every search.
    await sql
      .raw(`create index ${table}_document_idx on ${table} using gin (document) with (fastupdate = off)`)
      .execute(db);
  }
  for (const statement of [...POSTGRES_FUNCTIONS, ...POSTGRES_TRIGGERS, ...POSTGRES_BACKFILL])
    await sql.raw(statement).execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return postgresUp(db);
  for (const [table, columns] of Object.entries(SQLITE_TABLES))
    await sql
      .raw(
        `create virtual table ${table} using fts5(${columns}, content='', contentless_delete=1, tokenize = "unicode61 remove_diacritics 2")`,
      )
      .execute(db);
  for (const statement of [...SQLITE_TRIGGERS, sqliteIncident(''), sqliteMessage(''), sqliteClient('')])
    await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const table of ['search_incidents', 'search_messages', 'search_clients'])
      await sql.raw(`drop table if exists ${table}`).execute(db);
    for (const statement of [
      'drop trigger if exists search_incidents_changed on incidents',
      'drop trigger if exists search_entries_changed on incident_entries',
      'drop trigger if exists search_messages_changed on contact_messages',
      'drop trigger if exists search_clients_changed on clients',
      'drop trigger if exists search_client_notes_changed on client_events',
      'drop function if exists search_record_changed()',
      'drop function if exists search_refresh_incident(integer[])',
      'drop function if exists search_refresh_message(integer[])',
      'drop function if exists search_refresh_client(integer[])',
      'drop function if exists search_ident(text)',
      'drop function if exists search_text(text)',
      'drop text search configuration if exists es_unaccent',
    ])
      await sql.raw(statement).execute(db);
    return;
  }
  for (const statement of SQLITE_TRIGGERS) {
    const name = /create trigger (\w+)/.exec(statement)![1]!;
    await sql.raw(`drop trigger if exists ${name}`).execute(db);
  }
  for (const table of Object.keys(SQLITE_TABLES)) await sql.raw(`drop table if exists ${table}`).execute(db);
}
