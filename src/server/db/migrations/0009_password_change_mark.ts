import { sql, type Kysely } from 'kysely';

/**
 * The mark on a staff account whose password was generated (the first account, made on start): until
 * its owner chooses a new one, every staff page leads to 'Contraseña'. A column of Better Auth's
 * `user` table, declared to it as an additional field (src/server/auth/index.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table "user" add column "mustChangePassword" boolean not null default false`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table "user" drop column "mustChangePassword"`.execute(db);
}
