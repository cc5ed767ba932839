/**
 * 'Respuestas guardadas' (issue 22): the team's shared texts (`saved_replies`, migration 0027), written
 * from Configuración with an audit event each, and filled for one incident when a staff member inserts
 * one into 'Responder al cliente'. The rules and the variables are src/domain/saved-replies.ts.
 *
 * `{enlace_seguimiento}` is the customer's real follow-up link, made as the reply mail makes its own:
 * a new follow-up token for the incident (src/server/incidents/follow-up.ts) in the site's address.
 * Tokens are stored hashed, so an earlier one cannot be shown again; a token is only issued when the
 * text uses the variable.
 */
import type { AuditActor } from '../audit/index.ts';
import { recordEvent } from '../audit/index.ts';
import { staffDisplayName } from '../auth/index.ts';
import type { Db } from '../db/index.ts';
import type { SavedReply } from '../db/index.ts';
import { issueFollowUpToken } from '../incidents/index.ts';
import { followUpUrl } from '../mail/index.ts';
import type { MailBrand } from '../mail/index.ts';
import {
  fillSavedReply,
  normalSavedReply,
  SAVED_REPLY_MESSAGES,
  savedReplyProblems,
  usesVariable,
  type SavedReplyErrors,
  type SavedReplyInput,
} from '../../domain/saved-replies.ts';

export type { SavedReply };

/** A saved reply refused: a field's message (`errors`), or `notFound` for one deleted meanwhile. */
export class SavedReplyRefusal extends Error {
  override name = 'SavedReplyRefusal';
  readonly errors: SavedReplyErrors;
  readonly notFound: boolean;
  constructor(errors: SavedReplyErrors, notFound = false) {
    super(
      notFound
        ? SAVED_REPLY_MESSAGES.notFound
        : (errors.titulo ?? errors.texto ?? SAVED_REPLY_MESSAGES.failed),
    );
    this.errors = errors;
    this.notFound = notFound;
  }
}

/** Every saved reply, by title (accents and case as people sort them). */
export async function listSavedReplies(db: Db): Promise<SavedReply[]> {
  const rows = await db.selectFrom('savedReplies').selectAll().execute();
  return rows.sort(
    (a, b) => a.title.localeCompare(b.title, 'es', { sensitivity: 'base' }) || Number(a.id) - Number(b.id),
  );
}

export async function savedReplyById(db: Db, id: number): Promise<SavedReply | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return (await db.selectFrom('savedReplies').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** The checks of a save: the rules, then a title no other saved reply has (ignoring case). */
async function checked(db: Db, input: SavedReplyInput, exceptId?: number): Promise<SavedReplyInput> {
  const errors = savedReplyProblems(input);
  if (Object.keys(errors).length) throw new SavedReplyRefusal(errors);
  const reply = normalSavedReply(input);
  const others = await db.selectFrom('savedReplies').select(['id', 'title']).execute();
  const key = reply.title.toLocaleLowerCase('es');
  if (others.some((other) => Number(other.id) !== exceptId && other.title.toLocaleLowerCase('es') === key))
    throw new SavedReplyRefusal({ titulo: SAVED_REPLY_MESSAGES.titleTaken });
  return reply;
}

/** Stores a new saved reply with its audit event ('saved-reply.created', its title). */
export async function createSavedReply(
  db: Db,
  input: SavedReplyInput,
  audit: AuditActor,
  now: Date = new Date(),
): Promise<SavedReply> {
  return db.transaction().execute(async (trx) => {
    const reply = await checked(trx, input);
    const at = now.toISOString();
    const stored = await trx
      .insertInto('savedReplies')
      .values({
        title: reply.title,
        body: reply.body,
        createdAt: at,
        createdBy: audit.actorEmail,
        updatedAt: at,
        updatedBy: audit.actorEmail,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordEvent(trx, { ...audit, action: 'saved-reply.created', subject: reply.title }, now);
    return stored;
  });
}

/** Changes a saved reply's title and text ('saved-reply.edited'; the old title in the detail when it changed). */
export async function editSavedReply(
  db: Db,
  id: number,
  input: SavedReplyInput,
  audit: AuditActor,
  now: Date = new Date(),
): Promise<SavedReply> {
  return db.transaction().execute(async (trx) => {
    const current = await savedReplyById(trx, id);
    if (!current) throw new SavedReplyRefusal({}, true);
    const reply = await checked(trx, input, Number(current.id));
    const stored = await trx
      .updateTable('savedReplies')
      .set({
        title: reply.title,
        body: reply.body,
        updatedAt: now.toISOString(),
        updatedBy: audit.actorEmail,
      })
      .where('id', '=', current.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const renamed = current.title !== reply.title ? `Antes: ${current.title}` : null;
    await recordEvent(
      trx,
      { ...audit, action: 'saved-reply.edited', subject: reply.title, detail: renamed },
      now,
    );
    return stored;
  });
}

/** Deletes a saved reply ('saved-reply.deleted', its title); false when it was already gone. */
export async function deleteSavedReply(
  db: Db,
  id: number,
  audit: AuditActor,
  now: Date = new Date(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const current = await savedReplyById(trx, id);
    if (!current) return false;
    await trx.deleteFrom('savedReplies').where('id', '=', current.id).execute();
    await recordEvent(trx, { ...audit, action: 'saved-reply.deleted', subject: current.title }, now);
    return true;
  });
}

/** What a saved reply is filled for: the incident, who inserts it, and the site (for the link). */
export interface FillContext {
  incident: { id: number; numeroIncidencia: string; nombre: string; estado: string };
  staff: { name?: string | null; email: string };
  brand: MailBrand;
}

/**
 * A saved reply's text filled for an incident, with its title; null when it no longer exists. The
 * customer's name is the one they gave, or 'cliente' when they gave none.
 */
export async function fillSavedReplyFor(
  db: Db,
  id: number,
  context: FillContext,
  now: Date = new Date(),
): Promise<{ title: string; text: string } | null> {
  const reply = await savedReplyById(db, id);
  if (!reply) return null;
  const link = usesVariable(reply.body, 'enlace_seguimiento')
    ? followUpUrl(context.brand, await issueFollowUpToken(db, context.incident.id, now))
    : '';
  const text = fillSavedReply(reply.body, {
    nombre: context.incident.nombre.trim() || 'cliente',
    numero: context.incident.numeroIncidencia,
    estado: context.incident.estado,
    enlace_seguimiento: link,
    mi_nombre: staffDisplayName(context.staff),
  });
  return { title: reply.title, text };
}

export { exportSavedReplies, importSavedReply, type ExportedSavedReply } from './transfer.ts';
