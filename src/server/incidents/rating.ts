/**
 * The customer's rating of a resolution (issue 22): the 'Resuelto' notice carries a random token (144
 * bits, stored only as its SHA-256, like the follow-up link's: follow-up.ts) in five links, one per
 * rating, to `/soporte/valoracion`. A token rates its resolution once, within {@link RATING_DAYS} days
 * of its mail, 1 to 5 with an optional comment; a reopened incident resolved again gets a new token.
 */
import type { Kysely, Transaction } from 'kysely';
import { hashLinkToken, isLinkToken, newLinkToken } from './link-token.ts';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/index.ts';
import { touchIncident } from './activity.ts';

/** How long a rating link works after its mail. */
export const RATING_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A new rating token for the resolution the incident just reached, stored hashed in the caller's
 * transaction (the notice's own). `wasResolved`: the incident was already 'Resuelto' before this
 * change (the same resolution, notified again): the new token rates that same resolution.
 */
export async function issueRatingToken(
  trx: Kysely<Database>,
  incidentId: number,
  now: Date,
  wasResolved = false,
): Promise<string> {
  const token = newLinkToken();
  const previous = wasResolved
    ? await trx
        .selectFrom('incidentRatings')
        .select('resolvedAt')
        .where('incidentId', '=', incidentId)
        .orderBy('createdAt', 'desc')
        .limit(1)
        .executeTakeFirst()
    : undefined;
  const createdAt = now.toISOString();
  await trx
    .insertInto('incidentRatings')
    .values({
      tokenHash: hashLinkToken(token),
      incidentId,
      resolvedAt: previous?.resolvedAt ?? createdAt,
      createdAt,
    })
    .execute();
  return token;
}

/** What a rating link opens: the incident's number, or why it cannot rate. */
export type RatingLink =
  | { status: 'open'; numeroIncidencia: string }
  | { status: 'used' | 'expired'; numeroIncidencia: string }
  | { status: 'not-found' };

/** The state of a rating link at `now` (a malformed token is not even looked up). */
export async function ratingLink(db: Db, token: string, now: Date = new Date()): Promise<RatingLink> {
  if (!isLinkToken(token)) return { status: 'not-found' };
  const row = await db
    .selectFrom('incidentRatings')
    .innerJoin('incidents', 'incidents.id', 'incidentRatings.incidentId')
    .select([
      'incidents.numeroIncidencia',
      'incidentRatings.incidentId',
      'incidentRatings.resolvedAt',
      'incidentRatings.createdAt',
      'incidentRatings.ratedAt',
    ])
    .where('incidentRatings.tokenHash', '=', hashLinkToken(token))
    .executeTakeFirst();
  if (!row) return { status: 'not-found' };
  const rated =
    row.ratedAt !== null ||
    (await db
      .selectFrom('incidentRatings')
      .select('tokenHash')
      .where('incidentId', '=', row.incidentId)
      .where('resolvedAt', '=', row.resolvedAt)
      .where('ratedAt', 'is not', null)
      .executeTakeFirst()) !== undefined;
  if (rated) return { status: 'used', numeroIncidencia: row.numeroIncidencia };
  if (now.getTime() - Date.parse(row.createdAt) >= RATING_DAYS * DAY_MS)
    return { status: 'expired', numeroIncidencia: row.numeroIncidencia };
  return { status: 'open', numeroIncidencia: row.numeroIncidencia };
}

/**
 * Stores the rating of the token's resolution, once: one statement sets it only while neither this
 * token nor another of the same resolution has rated, so two submissions at once store one. Returns
 * the link's state before (`open` when this call stored it).
 */
export async function rateResolution(
  db: Db,
  input: { token: string; valor: number; comentario: string },
  now: Date = new Date(),
): Promise<RatingLink> {
  if (!Number.isInteger(input.valor) || input.valor < 1 || input.valor > 5) throw new RangeError('valor 1–5');
  return db.transaction().execute((trx) => rateResolutionIn(trx, input, now));
}

/**
 * {@link rateResolution} in the caller's transaction: a WhatsApp rating reply records the rating in
 * the transaction that stores the message (src/server/channels/whatsapp/channel.ts).
 */
export async function rateResolutionIn(
  trx: Transaction<Database>,
  input: { token: string; valor: number; comentario: string },
  now: Date,
): Promise<RatingLink> {
  if (!Number.isInteger(input.valor) || input.valor < 1 || input.valor > 5) throw new RangeError('valor 1–5');
  const link = await ratingLink(trx, input.token, now);
  if (link.status !== 'open') return link;
  const ratedAt = now.toISOString();
  const updated = await trx
    .updateTable('incidentRatings')
    .set({ valor: input.valor, comentario: input.comentario.trim() || null, ratedAt })
    .where('tokenHash', '=', hashLinkToken(input.token))
    .where('ratedAt', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('incidentRatings as other')
            .select('other.tokenHash')
            .whereRef('other.incidentId', '=', 'incidentRatings.incidentId')
            .whereRef('other.resolvedAt', '=', 'incidentRatings.resolvedAt')
            .where('other.ratedAt', 'is not', null),
        ),
      ),
    )
    .returning('incidentId')
    .executeTakeFirst();
  if (!updated) return { status: 'used', numeroIncidencia: link.numeroIncidencia };
  await touchIncident(trx, updated.incidentId, 'rating', now);
  return link;
}

/** An incident's ratings, oldest first, for its timeline. */
export async function incidentRatings(
  db: Db,
  incidentId: number,
): Promise<Array<{ valor: number; comentario: string; ratedAt: string }>> {
  const rows = await db
    .selectFrom('incidentRatings')
    .select(['valor', 'comentario', 'ratedAt'])
    .where('incidentId', '=', incidentId)
    .where('ratedAt', 'is not', null)
    .orderBy('ratedAt')
    .execute();
  return rows.map((row) => ({
    valor: Number(row.valor),
    comentario: row.comentario ?? '',
    ratedAt: row.ratedAt!,
  }));
}
