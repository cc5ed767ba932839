import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../engine.ts';

/**
 * Better Auth's tables (user, session, account, verification, rateLimit), exactly as its own schema
 * generator writes them for each engine (`getMigrations(...).compileMigrations()` of better-auth
 * 1.7), so its runtime schema check passes. Its column names are camelCase and quoted: Better Auth
 * reaches them through the connection without our CamelCasePlugin. The rate-limit table is here
 * because the limiter is stored in the database (shared by every server process).
 */
const SQLITE = [
  `create table "user" ("id" text not null primary key, "name" text not null, "email" text not null unique, "emailVerified" integer not null, "image" text, "createdAt" date not null, "updatedAt" date not null)`,
  `create table "session" ("id" text not null primary key, "expiresAt" date not null, "token" text not null unique, "createdAt" date not null, "updatedAt" date not null, "ipAddress" text, "userAgent" text, "userId" text not null references "user" ("id") on delete cascade)`,
  `create table "account" ("id" text not null primary key, "accountId" text not null, "providerId" text not null, "userId" text not null references "user" ("id") on delete cascade, "accessToken" text, "refreshToken" text, "idToken" text, "accessTokenExpiresAt" date, "refreshTokenExpiresAt" date, "scope" text, "password" text, "createdAt" date not null, "updatedAt" date not null)`,
  `create table "verification" ("id" text not null primary key, "identifier" text not null, "value" text not null, "expiresAt" date not null, "createdAt" date not null, "updatedAt" date not null)`,
  `create table "rateLimit" ("id" text not null primary key, "key" text not null unique, "count" integer not null, "lastRequest" bigint not null)`,
];

const POSTGRES = [
  `create table "user" ("id" text not null primary key, "name" text not null, "email" text not null unique, "emailVerified" boolean not null, "image" text, "createdAt" timestamptz default CURRENT_TIMESTAMP not null, "updatedAt" timestamptz default CURRENT_TIMESTAMP not null)`,
  `create table "session" ("id" text not null primary key, "expiresAt" timestamptz not null, "token" text not null unique, "createdAt" timestamptz default CURRENT_TIMESTAMP not null, "updatedAt" timestamptz not null, "ipAddress" text, "userAgent" text, "userId" text not null references "user" ("id") on delete cascade)`,
  `create table "account" ("id" text not null primary key, "accountId" text not null, "providerId" text not null, "userId" text not null references "user" ("id") on delete cascade, "accessToken" text, "refreshToken" text, "idToken" text, "accessTokenExpiresAt" timestamptz, "refreshTokenExpiresAt" timestamptz, "scope" text, "password" text, "createdAt" timestamptz default CURRENT_TIMESTAMP not null, "updatedAt" timestamptz not null)`,
  `create table "verification" ("id" text not null primary key, "identifier" text not null, "value" text not null, "expiresAt" timestamptz not null, "createdAt" timestamptz default CURRENT_TIMESTAMP not null, "updatedAt" timestamptz default CURRENT_TIMESTAMP not null)`,
  `create table "rateLimit" ("id" text not null primary key, "key" text not null unique, "count" integer not null, "lastRequest" bigint not null)`,
];

const COMMON = [
  `create index "session_userId_idx" on "session" ("userId")`,
  `create index "account_userId_idx" on "account" ("userId")`,
  `create index "verification_identifier_idx" on "verification" ("identifier")`,
];

/**
 * Substring search of the staff incident filters (number, name, RNC) that stays fast at 100,000
 * incidents: a trigram index. SQLite: an FTS5 trigram table kept in step with `incidents` by
 * triggers (whoever writes the rows). PostgreSQL: pg_trgm GIN indexes, which `like '%…%'` uses by
 * itself; when the extension cannot be created the filters still work, by scanning.
 */
export const SQLITE_SEARCH = [
  `create virtual table incidents_search using fts5(numero_incidencia, nombre_norm, rnc_norm, content='incidents', content_rowid='id', tokenize='trigram')`,
  `create trigger incidents_search_ai after insert on incidents begin
     insert into incidents_search(rowid, numero_incidencia, nombre_norm, rnc_norm) values (new.id, new.numero_incidencia, new.nombre_norm, new.rnc_norm);
   end`,
  `create trigger incidents_search_ad after delete on incidents begin
     insert into incidents_search(incidents_search, rowid, numero_incidencia, nombre_norm, rnc_norm) values ('delete', old.id, old.numero_incidencia, old.nombre_norm, old.rnc_norm);
   end`,
  `create trigger incidents_search_au after update of numero_incidencia, nombre_norm, rnc_norm on incidents begin
     insert into incidents_search(incidents_search, rowid, numero_incidencia, nombre_norm, rnc_norm) values ('delete', old.id, old.numero_incidencia, old.nombre_norm, old.rnc_norm);
     insert into incidents_search(rowid, numero_incidencia, nombre_norm, rnc_norm) values (new.id, new.numero_incidencia, new.nombre_norm, new.rnc_norm);
   end`,
  `insert into incidents_search(incidents_search) values ('rebuild')`,
];

async function postgresTrigramIndexes(db: Kysely<any>): Promise<void> {
  // A savepoint, so that a missing extension or privilege leaves the migration's transaction usable.
  await sql`savepoint trgm`.execute(db);
  try {
    // In `public`, once per database: extensions are database-wide, schemas (e.g. a test run's) come and go.
    await sql`create extension if not exists pg_trgm schema public`.execute(db);
    const found = await sql<{
      schema: string;
    }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(
      db,
    );
    const ops = `"${found.rows[0]!.schema}".gin_trgm_ops`;
    await sql
      .raw(`create index incidents_numero_trgm on incidents using gin (lower(numero_incidencia) ${ops})`)
      .execute(db);
    await sql
      .raw(`create index incidents_nombre_trgm on incidents using gin (nombre_norm ${ops})`)
      .execute(db);
    await sql.raw(`create index incidents_rnc_trgm on incidents using gin (rnc_norm ${ops})`).execute(db);
    await sql`release savepoint trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint trgm`.execute(db);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of [...(isPostgres(db) ? POSTGRES : SQLITE), ...COMMON]) {
    await sql.raw(statement).execute(db);
  }
  if (isPostgres(db)) await postgresTrigramIndexes(db);
  else for (const statement of SQLITE_SEARCH) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const index of ['incidents_numero_trgm', 'incidents_nombre_trgm', 'incidents_rnc_trgm'])
      await sql.raw(`drop index if exists ${index}`).execute(db);
  } else {
    for (const trigger of ['incidents_search_ai', 'incidents_search_ad', 'incidents_search_au'])
      await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
    await sql.raw('drop table if exists incidents_search').execute(db);
  }
  for (const table of ['rateLimit', 'verification', 'account', 'session', 'user']) {
    await sql.raw(`drop table if exists "${table}"`).execute(db);
  }
}
