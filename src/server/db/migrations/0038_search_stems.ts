import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../engine.ts';
import {
  POSTGRES_BACKFILL,
  POSTGRES_FUNCTIONS,
  sqliteClient,
  sqliteIncident,
  sqliteMessage,
} from './0030_search.ts';

/**
 * The staff search's second form of a word (docs/decisions/0016, addendum): the stem of the word as
 * written, accents and all, beside the stem of the word without its accents. Snowball's Spanish suffixes
 * carry their accents, so the folded 'facturacion' kept its whole word and 'factura' never found
 * 'facturación' (nor 'configurar' 'configuración'); the second form ('factur', 'configur') does.
 *
 * - SQLite: the terms come from `search_terms()` (src/server/search-terms.ts, which now gives both): every
 *   record's document is written again.
 * - PostgreSQL: each text's vector is its `es_unaccent` one (as before) joined with its `spanish` one
 *   (the built-in configuration: Snowball on the word as written, a final '-cion' read as '-ción' by
 *   `search_written`, as `writtenForm` does), by `search_vector`; the identifiers
 *   (numbers, e-mails, RNC) keep the one form. Every record's document is written again.
 */
const POSTGRES_UP = [
  // writtenForm's rule for a whole text: a word's final '-cion'/'-sion' gets its accent back ('gi': case kept
  // in the letter before, the parser lower-cases the rest).
  `create function search_written(value text) returns text language sql immutable as $$
    select regexp_replace(value, '(?<=[[:alpha:]])([cs])ion(?![[:alpha:]])', '\\1ión', 'gi')
  $$`,
  `create function search_vector(value text) returns tsvector language sql immutable as $$
    select to_tsvector('es_unaccent', value) || to_tsvector('spanish', search_written(value))
  $$`,
  `create or replace function search_refresh_incident(targets integer[]) returns void language sql as $$
    insert into search_incidents (id, document)
    select i.id,
      setweight(to_tsvector('es_unaccent', search_ident(i.numero_incidencia || ' ' || i.email || ' ' || i.rnc)), 'A') ||
      setweight(search_vector(search_text(i.nombre)), 'B') ||
      setweight(search_vector(search_text(i.problema)), 'C') ||
      setweight(search_vector(search_text((select string_agg(e.body, ' ' order by e.id) from incident_entries e where e.incident_id = i.id))), 'D')
    from incidents i where i.id = any(targets)
    on conflict (id) do update set document = excluded.document
  $$`,
  `create or replace function search_refresh_message(targets integer[]) returns void language sql as $$
    insert into search_messages (id, document)
    select m.id,
      setweight(to_tsvector('es_unaccent', search_ident(m.email)), 'A') ||
      setweight(search_vector(search_text(m.name)), 'B') ||
      setweight(search_vector(search_text(m.message)), 'C')
    from contact_messages m where m.id = any(targets)
    on conflict (id) do update set document = excluded.document
  $$`,
  `create or replace function search_refresh_client(targets integer[]) returns void language sql as $$
    insert into search_clients (id, document)
    select c.id,
      setweight(to_tsvector('es_unaccent', search_ident(c.email || ' ' || c.rnc)), 'A') ||
      setweight(search_vector(search_text(c.razon_social || ' ' || c.nombre_representante)), 'B') ||
      setweight(search_vector(search_text((select string_agg(n.detail, ' ' order by n.id) from client_events n where n.client_id = c.id and n.kind = 'note'))), 'C')
    from clients c where c.id = any(targets)
    on conflict (id) do update set document = excluded.document
  $$`,
];

/** Migration 0030's three refresh functions, as they were (`create function` made `create or replace`). */
const POSTGRES_DOWN = POSTGRES_FUNCTIONS.filter((statement) =>
  statement.includes('function search_refresh_'),
).map((statement) => statement.replace('create function', 'create or replace function'));

/**
 * PostgreSQL's documents are written anew into emptied tables, then their GIN indexes built again in one
 * pass: rewriting them in place left the old versions' entries in the indexes (at 30,000 incidents an
 * incident number's search took 4.6 ms after such a rewrite, 2.6 ms before it, 1.8 ms after a REINDEX),
 * and a VACUUM cannot run inside the migration's transaction. TRUNCATE is transactional: a failed
 * migration leaves the old documents. FTS5 merges its segments and deletions into one b-tree ('optimize').
 */
const TABLES = ['search_incidents', 'search_messages', 'search_clients'];
const POSTGRES_REWRITE = [
  `truncate ${TABLES.join(', ')}`,
  ...POSTGRES_BACKFILL,
  ...TABLES.map((table) => `reindex index ${table}_document_idx`),
];
const SQLITE_REWRITE = [
  sqliteIncident(''),
  sqliteMessage(''),
  sqliteClient(''),
  ...TABLES.map((table) => `insert into ${table}(${table}) values ('optimize')`),
];

export async function up(db: Kysely<any>): Promise<void> {
  const statements = isPostgres(db) ? [...POSTGRES_UP, ...POSTGRES_REWRITE] : SQLITE_REWRITE;
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // SQLite: the extra terms are harmless to the one-form search (it looks for the first of them only).
  if (!isPostgres(db)) return;
  for (const statement of [
    ...POSTGRES_DOWN,
    ...POSTGRES_REWRITE,
    'drop function if exists search_vector(text)',
    'drop function if exists search_written(text)',
  ])
    await sql.raw(statement).execute(db);
}
