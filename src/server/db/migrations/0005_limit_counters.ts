import type { Kysely } from 'kysely';

/**
 * Our own limiter counters (sign-in per account and network, per account, per network), apart from
 * Better Auth's `rateLimit` table, whose pruning deletes every row older than its longest window
 * (600 s) and would cut a 15-minute window short. One row per key: the start of its current window
 * (epoch ms) and the hits counted in it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('limit_counters')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('limit_counters_window_idx')
    .on('limit_counters')
    .column('window_start')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('limit_counters').ifExists().execute();
}
