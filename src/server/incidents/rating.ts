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
import { loadHistories } from './history.ts';

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

/**
 * Where the current resolution stands for the holder of the incident's follow-up link (issue 39 §11):
 * the follow-up page offers '¿Cómo te atendimos?' while the incident is 'Resuelto', its link still takes
 * answers ({@link RATING_DAYS} days from the resolution, as `takesAnswers` in follow-up.ts) and nobody
 * has rated this resolution, by a mail's rating link or from that page.
 */
export type FollowUpRating = 'open' | 'used' | 'expired' | 'not-resolved';

/**
 * The start of the incident's current resolution (ISO) from its history in order: the first
 * 'Resuelto' after its last other state, or null when it is not 'Resuelto'. A 'Resuelto' notified again
 * is the same resolution (as {@link issueRatingToken}'s `wasResolved`).
 */
export function currentResolutionStart(
  historial: ReadonlyArray<{ estado: string; fecha: string | Date }>,
): string | null {
  let start: string | null = null;
  for (const entry of historial) {
    if (entry.estado !== 'Resuelto') start = null;
    else start ??= entry.fecha instanceof Date ? entry.fecha.toISOString() : String(entry.fecha);
  }
  return start;
}

/** The rating rows of the resolution that started at `start` (issued at or after it), newest first. */
async function resolutionRows(trx: Kysely<Database>, incidentId: number, start: string) {
  const rows = await trx
    .selectFrom('incidentRatings')
    .select(['tokenHash', 'resolvedAt', 'createdAt', 'ratedAt'])
    .where('incidentId', '=', incidentId)
    .orderBy('createdAt', 'desc')
    .execute();
  const from = Date.parse(start);
  const latest = rows.find((row) => Date.parse(row.createdAt) >= from);
  // Every token of that resolution shares its resolvedAt (issueRatingToken).
  return latest ? rows.filter((row) => row.resolvedAt === latest.resolvedAt) : [];
}

/**
 * Where the current resolution stands for the follow-up page (see {@link FollowUpRating}), from the
 * incident's state and its history in order.
 */
export async function followUpRating(
  db: Kysely<Database>,
  incident: {
    id: number;
    estado: string;
    historial: ReadonlyArray<{ estado: string; fecha: string | Date }>;
  },
  now: Date = new Date(),
): Promise<FollowUpRating> {
  const start = currentResolutionStart(incident.historial);
  if (incident.estado !== 'Resuelto' || start === null) return 'not-resolved';
  const last = incident.historial.findLast((entry) => entry.estado === 'Resuelto')!.fecha;
  const lastMs = last instanceof Date ? last.getTime() : Date.parse(String(last));
  if (now.getTime() - lastMs >= RATING_DAYS * DAY_MS) return 'expired';
  const rows = await resolutionRows(db, incident.id, start);
  return rows.some((row) => row.ratedAt !== null) ? 'used' : 'open';
}

/**
 * Stores the rating of the current resolution by the holder of the incident's follow-up link (its
 * token opens the follow-up page; it is no rating token): the same row a mail's rating link of that
 * resolution would fill, or, when no 'Resuelto' notice was mailed, a row of its own (its token hash
 * from a token never given out). Once per resolution, whichever link rates it first. Returns the state
 * before (`open` when this call stored it), or `not-found` for a token that opens no incident.
 */
export async function rateFromFollowUp(
  db: Db,
  input: { followUpToken: string; valor: number; comentario: string },
  now: Date = new Date(),
): Promise<{ status: FollowUpRating | 'not-found'; numeroIncidencia?: string }> {
  if (!Number.isInteger(input.valor) || input.valor < 1 || input.valor > 5) throw new RangeError('valor 1–5');
  if (!isLinkToken(input.followUpToken)) return { status: 'not-found' };
  return db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom('incidentTokens')
      .innerJoin('incidents', 'incidents.id', 'incidentTokens.incidentId')
      .select(['incidents.id', 'incidents.numeroIncidencia', 'incidents.estado'])
      .where('incidentTokens.tokenHash', '=', hashLinkToken(input.followUpToken))
      .executeTakeFirst();
    const incident = found && {
      ...found,
      historial: (await loadHistories(trx, [found.id])).get(found.id) ?? [],
    };
    if (!incident) return { status: 'not-found' as const };
    // Locks the incident's row first (PostgreSQL), so two submissions at once rate it once: the second
    // waits here and then finds the first's rating.
    await trx.updateTable('incidents').set({ id: incident.id }).where('id', '=', incident.id).execute();
    const status = await followUpRating(trx, incident, now);
    const numeroIncidencia = incident.numeroIncidencia;
    if (status !== 'open') return { status, numeroIncidencia };
    const ratedAt = now.toISOString();
    const rating = { valor: input.valor, comentario: input.comentario.trim() || null, ratedAt };
    const [row] = await resolutionRows(trx, incident.id, currentResolutionStart(incident.historial)!);
    if (row)
      await trx.updateTable('incidentRatings').set(rating).where('tokenHash', '=', row.tokenHash).execute();
    else
      await trx
        .insertInto('incidentRatings')
        .values({
          tokenHash: hashLinkToken(newLinkToken()),
          incidentId: incident.id,
          resolvedAt: currentResolutionStart(incident.historial)!,
          createdAt: ratedAt,
          ...rating,
        })
        .execute();
    await touchIncident(trx, incident.id, 'rating', now);
    return { status: 'open' as const, numeroIncidencia };
  });
}
