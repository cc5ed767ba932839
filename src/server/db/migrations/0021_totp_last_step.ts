import type { Kysely } from 'kysely';

/**
 * A TOTP code is accepted once (issue 24, finding 5; RFC 6238 §5.2): Better Auth's check takes any
 * code of the current 30-second time step or one either side and keeps no record of used ones, so the
 * same code could sign in twice within its window. Here, per account, the last time step whose code
 * was accepted (the step number, Unix time / 30 s); a code at or before it is refused
 * (src/server/auth/two-step.ts). The row goes with the account, and is removed when two-step
 * verification is turned off (its secret is gone).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('totp_last_steps')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
    // About 59 million today; an integer holds it for another two thousand years.
    .addColumn('step', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('totp_last_steps').ifExists().execute();
}
