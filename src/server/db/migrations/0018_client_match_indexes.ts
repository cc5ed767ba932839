import { sql, type Kysely } from 'kysely';

/**
 * Indexes for matching clients with incidents and for the CSV import's duplicate check (issue 12):
 * 'Incidencias del cliente' on the client page, the link from an incident to its client, and "this
 * RNC is already a client" on import all compare a normalised RNC or e-mail by equality. The existing
 * `rnc_norm` columns only had trigram indexes (PostgreSQL) or an FTS table (SQLite), which an
 * equality on a derived value cannot use, and e-mails had none. So, on both tables:
 *
 * - the RNC key: `rnc_norm` without dashes, spaces and dots (`131-12345-6` ~ `131123456`);
 * - the e-mail key: `lower(trim(email))`.
 *
 * Both are expression indexes: a query uses them only when it spells the very same expression, so the
 * queries (src/server/clients/match.ts) take these constants rather than writing their own.
 */
export const RNC_KEY_SQL = `replace(replace(replace(rnc_norm, '-', ''), ' ', ''), '.', '')`;
export const EMAIL_KEY_SQL = `lower(trim(email))`;

const INDEXES: ReadonlyArray<[name: string, table: string, expression: string]> = [
  ['incidents_rnc_key_idx', 'incidents', RNC_KEY_SQL],
  ['incidents_email_key_idx', 'incidents', EMAIL_KEY_SQL],
  ['clients_rnc_key_idx', 'clients', RNC_KEY_SQL],
  ['clients_email_key_idx', 'clients', EMAIL_KEY_SQL],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, table, expression] of INDEXES)
    await sql.raw(`create index ${name} on ${table} ((${expression}))`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await sql.raw(`drop index if exists ${name}`).execute(db);
}
