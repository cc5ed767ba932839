/**
 * The visitor's way back to an incident without an account: a random token of 144 bits per mail,
 * carried in the mail's follow-up link (`/soporte/seguimiento?token=…`) and stored only as its SHA-256.
 * A token opens the whole follow-up (the problem text included); a look-up by number and e-mail shows
 * the state and history only (index.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { HistoryEntry, IncidentRecord } from '../../domain/incidents.ts';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import { loadHistories } from './history.ts';

/** 18 random bytes, base64url: 24 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{24}$/;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new token for this incident, stored hashed in the caller's transaction (the mail's own). */
export async function issueFollowUpToken(
  trx: Kysely<Database>,
  incidentId: number,
  now: Date,
): Promise<string> {
  const token = randomBytes(18).toString('base64url');
  await trx
    .insertInto('incidentTokens')
    .values({ tokenHash: hashToken(token), incidentId, createdAt: now.toISOString() })
    .execute();
  return token;
}

/** The id of the incident this token opens, or null (a malformed token is not even looked up). */
export async function incidentIdByToken(db: Kysely<Database>, token: string): Promise<number | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const row = await db
    .selectFrom('incidentTokens')
    .select('incidentId')
    .where('tokenHash', '=', hashToken(token))
    .executeTakeFirst();
  return row?.incidentId ?? null;
}

/** What a token opens: the number, the state, the history (without who) and the problem text. */
export type FollowUp = Pick<IncidentRecord, 'numeroIncidencia' | 'problema' | 'estado' | 'fecha'> & {
  historial: Array<Pick<HistoryEntry, 'estado' | 'fecha'>>;
  /** The staff replies and the visitor's own answers, oldest first (internal notes never). */
  respuestas: Array<{ texto: string; fecha: string; de: 'equipo' | 'cliente' }>;
};

/** The incident this token opens, or null (a malformed token is not even looked up). */
export async function followUpByToken(db: Db, token: string): Promise<FollowUp | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
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
    .where('incidentTokens.tokenHash', '=', hashToken(token))
    .executeTakeFirst();
  if (!incident) return null;
  const histories = await loadHistories(db, [incident.id]);
  const historial = (histories.get(incident.id) ?? []).map(({ estado, fecha }) => ({ estado, fecha }));
  // Replies and answers only: an internal note never leaves the staff area.
  const replies = await db
    .selectFrom('incidentEntries')
    .select(['kind', 'body', 'createdAt'])
    .where('incidentId', '=', incident.id)
    .where('kind', 'in', ['reply', 'answer'])
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  return {
    numeroIncidencia: incident.numeroIncidencia,
    problema: incident.problema,
    estado: incident.estado,
    fecha: incident.fecha,
    historial,
    respuestas: replies.map((reply) => ({
      texto: reply.body,
      fecha: reply.createdAt,
      de: reply.kind === 'answer' ? ('cliente' as const) : ('equipo' as const),
    })),
  };
}
