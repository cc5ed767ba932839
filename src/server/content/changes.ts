/**
 * "The content changed": said by every writer of src/server/content/ once its transaction committed,
 * heard by whatever renders the public pages from the database (docs/decisions/0019).
 *
 * In the process, listeners are called at once (SQLite has one process; on PostgreSQL the writing
 * process hears itself first). On PostgreSQL a `NOTIFY` on a channel per schema then tells every
 * other process (each listens, like the staff event stream's hub: src/server/live/hub.ts). The
 * listeners live on `globalThis`, so the bundled server and the modules run from source share them.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../db/index.ts';
import { getLogger } from '../log.ts';

/**
 * What moves when a row of a content table (each has `version` and `updated_at`) is added, changed or
 * deleted: the count, the last change and the sum of versions. Compared between two reads, it says
 * whether anything changed in between (a missed notice shows here).
 */
export const changeMarks = [
  sql<number>`count(*)`.as('count'),
  sql<string | null>`max(updated_at)`.as('updated'),
  sql<number | null>`sum(version)`.as('versions'),
] as const;

/** {@link changeMarks} as read, comparable. */
export const marksOf = (
  row: { count: number; updated: string | null; versions: number | null } | undefined,
) => [Number(row?.count ?? 0), row?.updated ?? null, Number(row?.versions ?? 0)];

/** The channel of the content's changes: `vertice_content_<schema>` (the schema, so test databases never hear each other). */
export const CONTENT_CHANNEL_PREFIX = 'vertice_content_';

/** A listener may return the work the change started (a render): {@link contentSettled} waits for it. */
type Listener = () => void | Promise<unknown>;
interface ChangesHolder {
  __verticeContentListeners?: Set<Listener>;
  __verticeContentSettling?: Promise<unknown>;
}

function listeners(): Set<Listener> {
  const holder = globalThis as ChangesHolder;
  return (holder.__verticeContentListeners ??= new Set());
}

/** Calls `listener` after each change of the content in this process (and, on PostgreSQL, wherever it was made, once listened for). */
export function onContentChange(listener: Listener): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

/** Tells this process's listeners, then, on PostgreSQL, every process. Never throws. */
export function contentChanged(db: Kysely<any>): void {
  notifyLocal();
  if (isPostgres(db)) {
    sql`select pg_notify(${sql.raw(`'${CONTENT_CHANNEL_PREFIX}'`)} || current_schema(), '')`
      .execute(db)
      .catch((error: unknown) => getLogger().warn({ err: error }, 'content change notice failed'));
  }
}

/** Calls this process's listeners (also what a process does when the NOTIFY of another reaches it). */
export function notifyLocal(): void {
  const started: Array<Promise<unknown>> = [];
  for (const listener of listeners()) {
    try {
      const work = listener();
      if (work) started.push(work.catch(() => undefined));
    } catch (error) {
      getLogger().error({ err: error }, 'content change listener failed');
    }
  }
  (globalThis as ChangesHolder).__verticeContentSettling = Promise.all(started);
}

/**
 * Waits (at most `ms`) for the work the last change started in this process: the staff action that
 * made a change answers once the public pages show it, so the editor's "published" is true when said.
 */
export async function contentSettled(ms = 5000): Promise<void> {
  const settling = (globalThis as ChangesHolder).__verticeContentSettling;
  if (!settling) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([settling, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
