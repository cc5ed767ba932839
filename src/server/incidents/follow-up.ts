/**
 * The visitor's way back to an incident without an account: a random token of 144 bits per mail,
 * carried in the mail's follow-up link (`/soporte/seguimiento?token=…`) and stored only as its SHA-256.
 * A token opens the whole follow-up (the problem text included); a look-up by number and e-mail shows
 * the state and history only (index.ts).
 *
 * A link takes the visitor's answers until {@link FOLLOW_UP_ANSWER_DAYS} days after the incident was
 * resolved (its last move to 'Resuelto'); then it still shows everything, but an answer is refused and
 * the page says to open a new incident (issue 24, finding 3). Reopened by staff, it takes them again.
 */
import type { Kysely } from 'kysely';
import { hashLinkToken, isLinkToken, newLinkToken } from './link-token.ts';
import type { HistoryEntry, IncidentRecord } from '../../domain/incidents.ts';
import { shownToCustomer, type Db } from '../db/index.ts';
import type { Database } from '../db/index.ts';
import type { AttachmentView } from '../../domain/attachments.ts';
import {
  attachmentForIncidentCustomer,
  attachmentsByEntry,
  type AttachmentContent,
} from '../attachments/index.ts';
import { loadHistories } from './history.ts';
import { followUpRating, type FollowUpRating } from './rating.ts';

/** A new token for this incident, stored hashed in the caller's transaction (the mail's own). */
export async function issueFollowUpToken(
  trx: Kysely<Database>,
  incidentId: number,
  now: Date,
): Promise<string> {
  const token = newLinkToken();
  await trx
    .insertInto('incidentTokens')
    .values({ tokenHash: hashLinkToken(token), incidentId, createdAt: now.toISOString() })
    .execute();
  return token;
}

/** The id of the incident this token opens, or null (a malformed token is not even looked up). */
export async function incidentIdByToken(db: Kysely<Database>, token: string): Promise<number | null> {
  if (!isLinkToken(token)) return null;
  const row = await db
    .selectFrom('incidentTokens')
    .select('incidentId')
    .where('tokenHash', '=', hashLinkToken(token))
    .executeTakeFirst();
  return row?.incidentId ?? null;
}

/** How long after its resolution a follow-up link still takes the visitor's answers. */
export const FOLLOW_UP_ANSWER_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Whether an incident in this state, last resolved at `lastResolvedAt` (ISO, or null), still takes
 * answers from its follow-up link at `now`: always unless it is 'Resuelto' since
 * {@link FOLLOW_UP_ANSWER_DAYS} days or more.
 */
export function takesAnswers(
  estado: string,
  lastResolvedAt: string | Date | null | undefined,
  now: Date,
): boolean {
  if (estado !== 'Resuelto' || !lastResolvedAt) return true;
  const resolved = lastResolvedAt instanceof Date ? lastResolvedAt.getTime() : Date.parse(lastResolvedAt);
  return now.getTime() - resolved < FOLLOW_UP_ANSWER_DAYS * DAY_MS;
}

/** When the incident last reached 'Resuelto' (ISO), or null. */
export async function lastResolvedAt(db: Kysely<Database>, incidentId: number): Promise<string | null> {
  const row = await db
    .selectFrom('incidentEvents')
    .select('fecha')
    .where('incidentId', '=', incidentId)
    .where('estado', '=', 'Resuelto')
    .orderBy('fecha', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const fecha: unknown = row.fecha;
  return fecha instanceof Date ? fecha.toISOString() : String(fecha);
}

/** What a token opens: the number, the state, the history (without who) and the problem text. */
export type FollowUp = Pick<IncidentRecord, 'numeroIncidencia' | 'problema' | 'estado' | 'fecha'> & {
  historial: Array<Pick<HistoryEntry, 'estado' | 'fecha'>>;
  /** The staff replies and the visitor's own answers, oldest first (internal notes never). */
  respuestas: Array<{ texto: string; fecha: string; de: 'equipo' | 'cliente'; adjuntos?: AttachmentView[] }>;
  /** The files sent with the problem (absent: none). */
  adjuntos?: AttachmentView[];
  /** False once the incident has been resolved for {@link FOLLOW_UP_ANSWER_DAYS} days: no 'Responder'. */
  admiteRespuestas: boolean;
  /**
   * Whether the page offers '¿Cómo te atendimos?' for the current resolution (`open`), or why not
   * (issue 39 §11: rated already, past its days, not resolved). The holder of the link rates it there.
   */
  valoracion: FollowUpRating;
};

/** The incident this token opens, or null (a malformed token is not even looked up). */
export async function followUpByToken(
  db: Db,
  token: string,
  now: Date = new Date(),
): Promise<FollowUp | null> {
  if (!isLinkToken(token)) return null;
  const incident = await db
    .selectFrom('incidentTokens')
    .innerJoin('incidents', 'incidents.id', 'incidentTokens.incidentId')
    .select([
      'incidents.id',
      'incidents.numeroIncidencia',
      'incidents.problema',
      'incidents.estado',
      'incidents.fecha',
    ])
    .where('incidentTokens.tokenHash', '=', hashLinkToken(token))
    .executeTakeFirst();
  if (!incident) return null;
  const histories = await loadHistories(db, [incident.id]);
  const historial = (histories.get(incident.id) ?? []).map(({ estado, fecha }) => ({ estado, fecha }));
  // Replies and answers only: an internal note never leaves the staff area, nor does a mail matched
  // by its subject alone (anyone can write that From) until staff accept it as the customer's.
  const replies = await db
    .selectFrom('incidentEntries')
    .select(['id', 'kind', 'body', 'createdAt'])
    .where('incidentId', '=', incident.id)
    .where('kind', 'in', ['reply', 'answer'])
    .where(shownToCustomer)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  const files = await attachmentsByEntry(db, incident.id);
  return {
    numeroIncidencia: incident.numeroIncidencia,
    problema: incident.problema,
    ...(files.problem.length ? { adjuntos: files.problem } : {}),
    estado: incident.estado,
    fecha: incident.fecha,
    historial,
    respuestas: replies.map((reply) => ({
      texto: reply.body,
      fecha: reply.createdAt,
      de: reply.kind === 'answer' ? ('cliente' as const) : ('equipo' as const),
      ...(files.byEntry.has(reply.id) ? { adjuntos: files.byEntry.get(reply.id) } : {}),
    })),
    // The history is in order: its last 'Resuelto' is the latest resolution.
    admiteRespuestas: takesAnswers(
      incident.estado,
      historial.findLast((entry) => entry.estado === 'Resuelto')?.fecha,
      now,
    ),
    valoracion: await followUpRating(db, { id: incident.id, estado: incident.estado, historial }, now),
  };
}

export { shownToCustomer };

/**
 * For the customer holding a follow-up link's token: an attachment of that token's incident only, and
 * never one of an internal note or of an unverified answer not accepted; null otherwise (another
 * incident's token included).
 */
export async function attachmentForToken(
  db: Db,
  id: number,
  token: string,
  thumb = false,
): Promise<AttachmentContent | null> {
  const incidentId = await incidentIdByToken(db, token);
  if (incidentId === null) return null;
  return attachmentForIncidentCustomer(db, id, incidentId, thumb);
}
