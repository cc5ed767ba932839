import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../engine.ts';

/**
 * Better Auth's two-factor plugin (staff 'Verificación en dos pasos'): the `twoFactorEnabled` flag on
 * `user` and the `twoFactor` table (the encrypted TOTP secret and recovery codes, and the plugin's
 * own failed-attempt lock), exactly as its schema generator writes them for each engine
 * (`getMigrations(...).compileMigrations()` of better-auth 1.7 with `twoFactor()`).
 */
const SQLITE = [
  `alter table "user" add column "twoFactorEnabled" integer default 0`,
  `create table "twoFactor" ("id" text not null primary key, "secret" text not null, "backupCodes" text not null, "userId" text not null references "user" ("id") on delete cascade, "verified" integer, "failedVerificationCount" integer, "lockedUntil" date)`,
];

const POSTGRES = [
  `alter table "user" add column "twoFactorEnabled" boolean default false`,
  `create table "twoFactor" ("id" text not null primary key, "secret" text not null, "backupCodes" text not null, "userId" text not null references "user" ("id") on delete cascade, "verified" boolean, "failedVerificationCount" integer, "lockedUntil" timestamptz)`,
];

const COMMON = [
  `create index "twoFactor_secret_idx" on "twoFactor" ("secret")`,
  `create index "twoFactor_userId_idx" on "twoFactor" ("userId")`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of [...(isPostgres(db) ? POSTGRES : SQLITE), ...COMMON])
    await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`drop table if exists "twoFactor"`).execute(db);
  await sql.raw(`alter table "user" drop column "twoFactorEnabled"`).execute(db);
}
