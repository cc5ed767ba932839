/**
 * The staff pages' render cache (issue 40 §3, docs/decisions/0023-staff-pages-speed.md): a page that
 * opts in (`Astro.locals.pageCache`) is kept, rendered, under everything its HTML depends on, and sent
 * again as long as none of it has changed. Rendering the incident list (20 cards through React, then
 * Astro's island hash over the whole HTML) costs about 10 ms of CPU, while looking up what it depends
 * on costs one statement.
 *
 * What a kept page is keyed by, so that it is exactly what a new render would send:
 * - the staff member as the session check just found them (id, e-mail, name, set-up state): the cache
 *   is read only after the guard has let the request through, so a signed-out, expired or removed
 *   account is refused before it is consulted, and one member's page is never another's;
 * - the URL with its query;
 * - the database's data version ({@link dataVersion}), which every committed write changes, whoever made
 *   it: this process, the worker or another server on the same PostgreSQL. It is read before the render
 *   and again after it, and the page is kept only when both agree (no write committed in between, so
 *   what the render read is the state that version names);
 * - the time: the page says until when its texts hold (`until`, e.g. the next 'hace N min' change or
 *   the next 'Vence' to pass) and names its render time (`now`), which a kept copy gets replaced by the
 *   time of the request it answers, as a new render would have written it.
 *
 * Bounded: at most {@link MAX_ENTRIES} pages and {@link MAX_BYTES} of HTML, the least recently used
 * dropped first.
 */
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import type { StaffMember } from '../auth/index.ts';
import { isPostgres, sqliteFileOf, type Db } from '../db/index.ts';

export const MAX_ENTRIES = 500;
/** The header of an answer sent from the cache. */
export const KEPT_HEADER = 'X-Render-Cache';
export const MAX_BYTES = 64 * 1024 * 1024;

/** What a page that may be kept tells the middleware while it renders. */
export interface PageCacheHints {
  /** The page may be kept until this time (ms since the epoch); unset, it is not kept. */
  until?: number;
  /** The render's time as the page wrote it into the HTML (ISO), with the text around it that names it. */
  now?: { iso: string; pattern: (iso: string) => string };
}

/**
 * A kept answer: its bytes (a `Response` made from a string of 150 KB spends more converting it than
 * sending it), cut where the render time stands when the page named it.
 */
interface Entry {
  parts: Buffer[];
  bytes: number;
  status: number;
  headers: [string, string][];
  until: number;
  now?: PageCacheHints['now'];
}

const ENTRIES_KEY = Symbol.for('vertice.pageCache');
type Holder = { [ENTRIES_KEY]?: { entries: Map<string, Entry>; bytes: number } };

function store() {
  return ((globalThis as Holder)[ENTRIES_KEY] ??= { entries: new Map(), bytes: 0 });
}

const KEPT_PATHS_KEY = Symbol.for('vertice.pageCache.paths');
type PathsHolder = { [KEPT_PATHS_KEY]?: Set<string> };
/** Paths remembered as opting in at most (the list's one in practice; a bound all the same). */
const MAX_PATHS = 1000;

/**
 * Whether a page at this path has opted in since the process started: the other staff pages pay no
 * data-version read (on PostgreSQL a round trip) for a cache they never use.
 */
export function pathMayBeKept(pathname: string): boolean {
  return (globalThis as PathsHolder)[KEPT_PATHS_KEY]?.has(pathname) ?? false;
}

/** Remembers that the page at this path opted in. */
export function markPathKept(pathname: string): void {
  const paths = ((globalThis as PathsHolder)[KEPT_PATHS_KEY] ??= new Set());
  if (paths.size >= MAX_PATHS) paths.clear();
  paths.add(pathname);
}

/** The key of a page for a staff member at a data version. */
export function pageKey(staff: StaffMember, url: URL, version: string): string {
  const who = [staff.id, staff.email, staff.name, staff.mustChangePassword, staff.twoStep];
  return JSON.stringify([who, url.pathname, url.search, version]);
}

/** The kept answer for this key, if it still holds at `now`, with the request's time written in. */
export function keptPage(key: string, now: number = Date.now()): Response | undefined {
  const { entries } = store();
  const entry = entries.get(key);
  if (!entry) return undefined;
  if (now >= entry.until) {
    forget(key);
    return undefined;
  }
  // Most recently used last: the first entry of the map is the next to go.
  entries.delete(key);
  entries.set(key, entry);
  const parts = entry.now
    ? [entry.parts[0]!, Buffer.from(entry.now.pattern(new Date(now).toISOString())), entry.parts[1]!]
    : entry.parts;
  // The kept bytes themselves, chunk by chunk (a body given as one buffer is copied twice on its way).
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
  // Said in the answer, for the tests and whoever reads a trace: the copy is exactly what a render would send.
  return new Response(body, { status: entry.status, headers: [...entry.headers, [KEPT_HEADER, 'hit']] });
}

/** Keeps a rendered answer under `key` (already read whole as `body`). */
export function keepPage(key: string, response: Response, body: string, hints: PageCacheHints): void {
  if (hints.until === undefined || !Number.isFinite(hints.until)) return;
  const kept = store();
  forget(key);
  if (body.length > MAX_BYTES / 8) return;
  let parts = [Buffer.from(body)];
  if (hints.now) {
    // The render time once, where the page said it writes it; anywhere else, or twice, is not ours to replace.
    const named = hints.now.pattern(hints.now.iso);
    const at = body.indexOf(named);
    if (at < 0 || body.indexOf(named, at + 1) >= 0) return;
    parts = [Buffer.from(body.slice(0, at)), Buffer.from(body.slice(at + named.length))];
  }
  const bytes = parts.reduce((sum, part) => sum + part.length, 0);
  kept.entries.set(key, {
    parts,
    bytes,
    status: response.status,
    headers: [...response.headers],
    until: hints.until,
    now: hints.now,
  });
  kept.bytes += bytes;
  for (const [oldest] of kept.entries) {
    if (kept.entries.size <= MAX_ENTRIES && kept.bytes <= MAX_BYTES) break;
    forget(oldest);
  }
}

function forget(key: string): void {
  const kept = store();
  const entry = kept.entries.get(key);
  if (!entry) return;
  kept.entries.delete(key);
  kept.bytes -= entry.bytes;
}

/** Empties the cache (tests; nothing in the site needs it: a write changes the data version). */
export function clearPageCache(): void {
  const kept = store();
  kept.entries.clear();
  kept.bytes = 0;
}

/** How many pages are kept and their bytes (tests, the bench). */
export function pageCacheSize(): { entries: number; bytes: number } {
  const kept = store();
  return { entries: kept.entries.size, bytes: kept.bytes };
}

const VERSION_READERS: WeakMap<Db, ReturnType<DatabaseSync['prepare']>> = new WeakMap();

/**
 * A value that changes whenever a write commits to the database, from any connection or process.
 * - SQLite: `PRAGMA data_version` on a connection of its own, which counts every commit by the other
 *   connections to the file (the site's own one included: it is another connection).
 * - PostgreSQL: the current snapshot (`pg_current_snapshot()`: the oldest transaction still running,
 *   the next to come and those in progress). Two reads that give the same snapshot see the same
 *   committed transactions, so the same data; any transaction that ends in between changes it.
 * Undefined where no such value can be had (an in-memory SQLite database): nothing is kept then.
 */
export async function dataVersion(db: Db): Promise<string | undefined> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ version: string }>`select pg_current_snapshot()::text as version`.execute(
      db,
    );
    return rows[0]?.version;
  }
  let reader = VERSION_READERS.get(db);
  if (!reader) {
    const file = sqliteFileOf(db);
    if (!file) return undefined;
    reader = new DatabaseSync(file, { readOnly: true, timeout: 5000 }).prepare('PRAGMA data_version');
    VERSION_READERS.set(db, reader);
  }
  const row = reader.get() as { data_version: number } | undefined;
  return row ? `sqlite:${row.data_version}` : undefined;
}
