/**
 * "The content changed": said by every writer of src/server/content/ once its transaction committed,
 * heard by whatever renders the public pages from the database (docs/decisions/0019), on the
 * `vertice_content` channel of src/server/db/notify.ts: this process's listeners at once, on PostgreSQL
 * every other process's through its LISTEN connection. What the listeners started is kept on
 * `globalThis`, so the action (bundled server) waits for the render (start script) it caused.
 */
import { sql } from 'kysely';
import { isPostgres, listen, notifyAfterCommit, type Db } from '../db/index.ts';
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

/** The channel of the content's changes (src/server/db/notify.ts adds the schema on PostgreSQL). */
export const CONTENT_CHANNEL = 'vertice_content';

/** A listener may return the work the change started (a render): {@link contentSettled} waits for it. */
type ContentListener = () => void | Promise<unknown>;
interface ChangesHolder {
  __verticeContentWork?: Set<Promise<unknown>>;
}

/** The work the listeners started and have not finished, on `globalThis` (the action that waits and the renderer are in two copies of this module). */
function work(): Set<Promise<unknown>> {
  const holder = globalThis as ChangesHolder;
  return (holder.__verticeContentWork ??= new Set());
}

/**
 * Calls `listener` after each change of `db`'s content: this process's at once, and on PostgreSQL every
 * process's, and once more when the listening connection came back (a change may have gone unheard).
 */
export function onContentChange(db: Db, listener: ContentListener): Promise<() => Promise<void>> {
  return listen(db, CONTENT_CHANNEL, () => {
    const started = listener();
    if (!started) return;
    const settling: Promise<unknown> = started.catch(() => undefined).finally(() => work().delete(settling));
    work().add(settling);
  });
}

/** Called by the writers once their transaction committed: tells this process's listeners at once, then every process. Never throws. */
export function contentChanged(db: Db): void {
  notifyAfterCommit(db, CONTENT_CHANNEL).catch((error: unknown) =>
    getLogger().warn({ err: error }, 'content change notice failed'),
  );
}

/**
 * Waits (at most `ms`) for the work the changes started in this process: the staff action that made a
 * change answers once the public pages show it, so the editor's "published" is true when said.
 */
export async function contentSettled(ms = 5000): Promise<void> {
  const pending = [...work()];
  if (pending.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(pending), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** What changes when anything an article page, the toast or the logo wall shows changes (a missed notice shows here). */
async function fingerprint(db: Db): Promise<string> {
  const others = await Promise.all(
    (['announcements', 'clientLogos'] as const).map((table) =>
      db.selectFrom(table).select(changeMarks).executeTakeFirst().then(marksOf),
    ),
  );
  const row = await db
    .selectFrom('articles')
    .select([
      ...changeMarks,
      sql<number>`sum(case when state = 'publicado' then 1 else 0 end)`.as('published'),
    ])
    .executeTakeFirst();
  return JSON.stringify([...marksOf(row), Number(row?.published ?? 0), ...others]);
}

/** What {@link watchContent} gives its renderer. */
export interface ContentWatch {
  /** Records the content as a render is about to read it: the slow check compares with this. */
  mark(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Calls `changed` at every change of `db`'s content: its notices (this process's, every process's on
 * PostgreSQL, and after the listening connection came back), and, every `checkMs`, when the content's
 * fingerprint differs from the last {@link ContentWatch.mark} (a notice that was lost).
 */
export function watchContent(db: Db, changed: () => Promise<unknown>, checkMs: number): ContentWatch {
  let last = '';
  const unlisten = onContentChange(db, changed);
  // What changed before the LISTEN connection was up went unheard (PostgreSQL; on SQLite nothing can).
  if (isPostgres(db)) void unlisten.then(() => changed());
  const check = setInterval(() => {
    void fingerprint(db)
      .then((value) => (value !== last ? changed() : undefined))
      .catch((error: unknown) => getLogger().warn({ err: error }, 'content check failed'));
  }, checkMs);
  check.unref();
  return {
    async mark() {
      last = await fingerprint(db);
    },
    async stop() {
      clearInterval(check);
      await (
        await unlisten
      )();
    },
  };
}
