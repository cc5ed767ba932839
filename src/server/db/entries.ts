/**
 * Which timeline entries the customer sees (issue 38, F3): every one but an unverified answer that no
 * staff member accepted yet. A query fragment over `incident_entries`, kept here, below both the desk
 * (the follow-up page) and the attachments (a customer's file route), which each apply it.
 */
import type { ExpressionBuilder, ExpressionWrapper, SqlBool } from 'kysely';
import type { Database } from './schema.ts';

export function shownToCustomer(
  eb: ExpressionBuilder<Database, 'incidentEntries'>,
): ExpressionWrapper<Database, 'incidentEntries', SqlBool> {
  return eb.or([
    eb('incidentEntries.unverified', '=', false),
    eb('incidentEntries.acceptedAt', 'is not', null),
  ]);
}
