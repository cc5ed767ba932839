/**
 * The optimistic write of the site's content records ('Anuncios', 'Logos de clientes', the articles of
 * 'Contenido'): a page sends the version it showed, and a write made on an older one is refused as
 * stale instead of undoing someone else's save. The one place that checks the version, moves it,
 * audits and tells the site (issue 40).
 */
import { sql } from 'kysely';
import type { AuditAction } from '../../domain/audit.ts';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import { contentChanged } from './changes.ts';

export type VersionedOutcome<T> =
  { kind: 'saved'; value: T } | { kind: 'stale'; current: T } | { kind: 'not-found' };

/** The content tables written this way: each has `id`, `version`, `updatedAt` and `updatedBy`. */
type VersionedTable = 'announcements' | 'clientLogos' | 'articles';

export interface VersionedWrite<T> {
  table: VersionedTable;
  id: number;
  /** The version the page showed. */
  version: number;
  actor: AuditActor | null;
  now: Date;
  /** The record as it is now, or null when it does not exist (also after `write` deleted it). */
  read(trx: Db, id: number): Promise<T | null>;
  /**
   * Whether the change would change nothing (a save of the same text, 'Publicar' on a published
   * article): then nothing is written, the version stays, and the record is answered as saved.
   */
  unchanged?: ((current: T) => boolean) | undefined;
  /** The change itself, once the version has moved; says what to audit, or null for nothing. */
  write(current: T, trx: Db): Promise<{ action: AuditAction; detail: string | null } | null>;
}

/**
 * Reads the record and checks its version; moves the version first (still at the one shown, so a write
 * that committed in between makes this one stale), then makes the change, records the audit event and
 * tells the site. Saved, it answers the record as written (as it was, when the change deleted it).
 */
export async function versionedWrite<T extends { version: number }>(
  db: Db,
  spec: VersionedWrite<T>,
): Promise<VersionedOutcome<T>> {
  const { table, id, version, actor, now } = spec;
  let written = false;
  const outcome = await db.transaction().execute(async (trx): Promise<VersionedOutcome<T>> => {
    const current = await spec.read(trx, id);
    if (!current) return { kind: 'not-found' };
    if (current.version !== version) return { kind: 'stale', current };
    if (spec.unchanged?.(current)) return { kind: 'saved', value: current };
    const bumped = await trx
      .updateTable(table)
      .set({
        version: sql<number>`version + 1`,
        updatedAt: now.toISOString(),
        updatedBy: actor?.actorEmail ?? null,
      })
      .where('id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    if (Number(bumped.numUpdatedRows) === 0)
      return { kind: 'stale', current: (await spec.read(trx, id)) ?? current };
    const planned = await spec.write(current, trx);
    if (planned && actor)
      await recordEvent(trx, { ...actor, action: planned.action, subject: id, detail: planned.detail }, now);
    written = true;
    return { kind: 'saved', value: (await spec.read(trx, id)) ?? current };
  });
  if (written) contentChanged(db);
  return outcome;
}
