import type { Kysely } from 'kysely';
import { timestampType } from './helpers.ts';

/**
 * What became of a notice once its channel sent it (issue 37, WhatsApp outbound): Meta's status
 * webhooks say a message was `sent`, `delivered`, `read` or `failed` (with its error) some time after the
 * delivery worker marked the notice `sent`. They are kept on the notice itself, found by its
 * `external_id` (the wamid), so that a staff reply shows 'Enviado', 'Entregado', 'Leído' or
 * 'No se pudo entregar: …' from one row: `delivery_status` (the latest status), `delivery_error` (the
 * staff's words for a failure), `status_at` (when Meta stamped it; an older status never overwrites a
 * newer one). The worker's own `status` (pending → sent | failed) is unchanged.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('customer_notices').addColumn('delivery_status', 'text').execute();
  await db.schema.alterTable('customer_notices').addColumn('delivery_error', 'text').execute();
  await db.schema.alterTable('customer_notices').addColumn('status_at', timestampType(db)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('customer_notices').dropColumn('status_at').execute();
  await db.schema.alterTable('customer_notices').dropColumn('delivery_error').execute();
  await db.schema.alterTable('customer_notices').dropColumn('delivery_status').execute();
}
