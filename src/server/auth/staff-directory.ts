/**
 * Staff accounts as `npm run data` names them (issue 40): accounts are not moved, so a staff id leaves
 * as the account's e-mail and comes back as the target's account with that e-mail. The accounts are
 * Better Auth's `user` table, which this module owns; the areas read them through these two.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/index.ts';
import type { StaffEmails, StaffIds } from '../data-records.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** Each account's e-mail by its id, for an export. */
export async function staffEmails(db: Executor): Promise<StaffEmails> {
  const byId = new Map(
    (await db.withoutPlugins().selectFrom('user').select(['id', 'email']).execute()).map((user) => [
      user.id,
      user.email,
    ]),
  );
  return { byId, emailOf: (id, stored) => stored ?? (id ? (byId.get(id) ?? null) : null) };
}

/** The target's account for each e-mail (lower case, trimmed), for an import; null when none has it. */
export async function staffIds(db: Executor): Promise<StaffIds> {
  const accounts = await db.withoutPlugins().selectFrom('user').select(['id', 'email']).execute();
  const byEmail = new Map(accounts.map((account) => [account.email.trim().toLowerCase(), account.id]));
  return (email) => (email ? (byEmail.get(email.trim().toLowerCase()) ?? null) : null);
}
