/**
 * The public pages made from the database's content (issue 23, docs/decisions/0019): `/blog`, `/ayuda`,
 * each public article of both, `/rss.xml` and `/sitemap.xml` are rendered once per change of the content, by the
 * site's own Astro handler (their on-demand routes, fetched from this process), and put into the
 * memory table the built files are answered from (src/server/http/static-files.ts: ETag, brotli and
 * gzip). A request never renders them; a path this table does not hold (a draft, an old address, a
 * wrong slug) goes on to the on-demand route, which answers 404 or the 301.
 *
 * A render follows every change: the writers' notice in this process (src/server/content/changes.ts),
 * on PostgreSQL the `NOTIFY` of any process, and a timer set to the next scheduled publication time
 * (which marks the due articles 'publicado' and renders, with no request). A slow check (every
 * {@link CHECK_MS}) renders again when the content's fingerprint changed and a notice was missed.
 * Renders never overlap: changes during one make one more.
 */
import pg from 'pg';
import { sql } from 'kysely';
import { articlePathOf, hasServerCard, socialCardPathOf, type ArticleKind } from '../../domain/articles.ts';
import { ROUTES } from '../../routes.ts';
import { isPostgres } from '../db/index.ts';
import { searchPathOf, type Db } from '../db/index.ts';
import { santoDomingoInstant, santoDomingoToday } from '../../domain/forms/meeting.ts';
import {
  FRAGMENT_NAMES,
  fragmentPath,
  hasFragments,
  setCurrentFragments,
  substituteFragments,
  type FragmentName,
} from '../../lib/site-fragments.ts';
import { IMMUTABLE, renderedFile, type CachedFile } from '../http/index.ts';
import { getLogger } from '../log.ts';
import { nextPublishTime, publicArticles, publishDueArticles, type Article } from './articles.ts';
import { changeMarks, CONTENT_CHANNEL_PREFIX, marksOf, onContentChange } from './changes.ts';
import { articleCardSvg, cardPng } from './social-card.ts';
import { LOGO_PATH_PREFIX, uploadedLogoFiles } from './client-logos.ts';

/** How often a process checks that it has not missed a change (a notice lost with a dropped connection). */
export const CHECK_MS = 30_000;
/** setTimeout's longest delay; a publication further ahead is waited for in steps. */
const MAX_TIMER_MS = 2_147_483_647;

/** A page as the site's own handler answered it. */
export interface FetchedPage {
  status: number;
  body: Buffer;
  contentType: string;
  /** The page's own hash-based Content-Security-Policy, served with it. */
  csp: string | null;
}

export interface PublicPagesOptions {
  db: Db;
  /** The memory table of src/server/http/static-files.ts: the rendered pages are put into it. */
  files: Map<string, CachedFile>;
  /** Fetches a path from this server's own Astro handler, past the memory table. */
  fetchPage: (path: string) => Promise<FetchedPage>;
  /** `DATABASE_URL`, to listen for other processes' changes on PostgreSQL. */
  databaseUrl?: string;
  /** The paths page views are counted for: article pages come and go with the content. */
  countable?: Set<string>;
  checkMs?: number;
  /** The words on the articles' social cards; without them, no card is made (the pages still name one). */
  card?: { companyName: string; siteHost: string };
  /** Brotli at its best (default) or quick (STATIC_RECOMPRESS=false: test servers, where CPU matters more than bytes). */
  compression?: 'best' | 'quick';
  now?: () => Date;
}

export interface PublicPages {
  /** Resolves once the first render is done (or failed: the on-demand routes answer meanwhile). */
  ready: Promise<void>;
  /** Renders now (or once more after the render under way); resolves when the pages are in place. */
  refresh(): Promise<void>;
  /** The paths this process put into the memory table. */
  paths(): string[];
  stop(): Promise<void>;
}

/** The public articles at a moment: the blog's and the help centre's, each newest first. */
interface PublicContent {
  blog: Article[];
  help: Article[];
}

/** The public articles at `now`, read once per render for its pages and its cards. */
async function publicContent(db: Db, now: Date): Promise<PublicContent> {
  return { blog: await publicArticles(db, 'blog', now), help: await publicArticles(db, 'ayuda', now) };
}

/** The paths made from the content: the blog, the help centre, their public articles, the feed and the sitemap. */
export function contentPaths(content: PublicContent): string[] {
  return [
    ROUTES.blog,
    ...content.blog.map((article) => articlePathOf(article.kind, article.slug)),
    ROUTES.help,
    ...content.help.map((article) => articlePathOf(article.kind, article.slug)),
    '/rss.xml',
    '/sitemap.xml',
  ];
}

/** The section an article's card names above its title. */
const CARD_EYEBROWS: Record<ArticleKind, string> = { blog: 'Blog', ayuda: 'Centro de ayuda' };

/** The cards the server makes: one per public article that has no card of the build's, with its SVG. */
export function contentCards(
  content: PublicContent,
  card: { companyName: string; siteHost: string },
): Array<{ path: string; svg: string }> {
  return [...content.blog, ...content.help].filter(hasServerCard).map((article) => ({
    path: socialCardPathOf(article),
    svg: articleCardSvg({ eyebrow: CARD_EYEBROWS[article.kind], title: article.title, ...card }),
  }));
}

/** A text type as the built files are served (`application/xml` from the feed's library gets its `charset=utf-8`). */
export function withCharset(contentType: string): string {
  return /^(text\/|application\/(xml|json|rss\+xml))/i.test(contentType) && !/charset=/i.test(contentType)
    ? `${contentType}; charset=utf-8`
    : contentType;
}

/** The next midnight in Santo Domingo after `now`: announcements start and end with the day. */
export function nextSantoDomingoMidnight(now: Date): Date {
  const tomorrow = new Date(Date.parse(`${santoDomingoToday(now)}T12:00:00Z`) + 86_400_000)
    .toISOString()
    .slice(0, 10);
  return santoDomingoInstant(tomorrow, '00:00');
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

export function startPublicPages(options: PublicPagesOptions): PublicPages {
  const { db, files, fetchPage, countable } = options;
  const now = options.now ?? (() => new Date());
  const log = getLogger();
  const owned = new Set<string>();
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let lastFingerprint = '';
  let publishTimer: NodeJS.Timeout | undefined;
  let listener: pg.Client | null = null;
  // A card is drawn again only when its SVG changes (a title edit), not at every render of the pages.
  const cardSources = new Map<string, string>();
  /** The current renderings of the toast and the logo walls (src/lib/site-fragments.ts). */
  let fragments = new Map<FragmentName, string>();
  /** The built pages with replaceable parts, as built, by path; and the copies this process made of them. */
  const builtPages = new Map<string, CachedFile>();
  const made = new WeakSet<CachedFile>();
  let upgrading = Promise.resolve();

  /** Fetches the fragments; one that fails keeps its last rendering. */
  async function renderFragments(): Promise<void> {
    const next = new Map(fragments);
    for (const name of FRAGMENT_NAMES) {
      try {
        const page = await fetchPage(fragmentPath(name));
        if (page.status === 200) next.set(name, page.body.toString('utf8').trim());
        else log.warn({ fragment: name, status: page.status }, 'fragment did not render');
      } catch (error) {
        log.error({ err: error, fragment: name }, 'fragment render failed');
      }
    }
    fragments = next;
    setCurrentFragments(fragments);
  }

  /**
   * Every built page with a replaceable part, with the current fragments in place: unchanged bytes keep
   * their entry (the build's best compressed copies, its Last-Modified); changed ones are compressed
   * quickly now and at the best setting afterwards, one at a time.
   */
  async function substituteBuiltPages(at: Date): Promise<void> {
    for (const [path, file] of files) {
      if (
        owned.has(path) ||
        made.has(file) ||
        builtPages.has(path) ||
        !file.contentType.startsWith('text/html')
      )
        continue;
      if (hasFragments(file.bodies.identity.toString('utf8'))) builtPages.set(path, file);
    }
    const results = new Map<CachedFile, CachedFile>();
    const upgrades: Array<{ file: CachedFile; bytes: Buffer }> = [];
    for (const [path, original] of builtPages) {
      let result = results.get(original);
      if (!result) {
        const bytes = Buffer.from(
          substituteFragments(original.bodies.identity.toString('utf8'), fragments),
          'utf8',
        );
        const current = files.get(path);
        if (bytes.equals(original.bodies.identity)) result = original;
        else if (current && made.has(current) && current.bodies.identity.equals(bytes)) result = current;
        else {
          result = await renderedFile(bytes, original.contentType, original.pageHeaders, at, 'quick');
          made.add(result);
          if (options.compression !== 'quick') upgrades.push({ file: result, bytes });
        }
        results.set(original, result);
      }
      if (stopped) return;
      files.set(path, result);
    }
    if (upgrades.length === 0) return;
    const current = (file: CachedFile) => [...builtPages.keys()].some((path) => files.get(path) === file);
    upgrading = upgrading
      .then(async () => {
        for (const { file, bytes } of upgrades) {
          if (stopped) return;
          // A page replaced since by a newer change is not worth the CPU.
          if (!current(file)) continue;
          const best = await renderedFile(bytes, file.contentType, file.pageHeaders, at, 'best');
          if (best.bodies.br) file.bodies.br = best.bodies.br;
          if (best.bodies.gzip) file.bodies.gzip = best.bodies.gzip;
        }
      })
      .catch((error: unknown) => log.warn({ err: error }, 'recompression of pages failed'));
  }

  async function renderOnce(): Promise<void> {
    const at = now();
    lastFingerprint = await fingerprint(db);
    await renderFragments();
    const content = await publicContent(db, at);
    const paths = contentPaths(content);
    const next = new Map<string, CachedFile>();
    // The uploaded logos' images, at addresses named by their bytes (kept for a year by browsers).
    for (const image of await uploadedLogoFiles(db)) {
      const current = files.get(image.path);
      if (current && owned.has(image.path)) next.set(image.path, current);
      else
        next.set(image.path, {
          ...(await renderedFile(image.data, image.type, [], at, options.compression)),
          cacheControl: IMMUTABLE,
        });
    }
    for (const path of paths) {
      try {
        const page = await fetchPage(path);
        if (page.status !== 200) {
          log.warn({ path, status: page.status }, 'content page did not render');
          continue;
        }
        const current = files.get(path);
        const file = await renderedFile(
          hasFragments(page.body.toString('utf8'))
            ? Buffer.from(substituteFragments(page.body.toString('utf8'), fragments), 'utf8')
            : page.body,
          withCharset(page.contentType),
          page.csp ? [['Content-Security-Policy', page.csp]] : [],
          at,
          options.compression,
        );
        // Unchanged bytes keep their entry (and its Last-Modified).
        next.set(path, current && owned.has(path) && current.etag === file.etag ? current : file);
      } catch (error) {
        log.error({ err: error, path }, 'content page render failed');
        const current = files.get(path);
        if (current && owned.has(path)) next.set(path, current);
      }
    }
    for (const { path, svg } of options.card ? contentCards(content, options.card) : []) {
      const current = files.get(path);
      if (current && owned.has(path) && cardSources.get(path) === svg) {
        next.set(path, current);
        continue;
      }
      try {
        next.set(path, await renderedFile(await cardPng(svg), 'image/png', [], at));
        cardSources.set(path, svg);
      } catch (error) {
        log.error({ err: error, path }, 'social card render failed');
      }
    }
    if (stopped) return;
    for (const path of owned) {
      if (next.has(path)) continue;
      files.delete(path);
      countable?.delete(path);
      owned.delete(path);
      cardSources.delete(path);
    }
    for (const [path, file] of next) {
      files.set(path, file);
      owned.add(path);
      // Page views are counted for pages, not for the cards nor the logos' images.
      if (!cardSources.has(path) && !path.startsWith(LOGO_PATH_PREFIX)) countable?.add(path);
    }
    await substituteBuiltPages(at);
    await armPublishTimer(at);
  }

  /**
   * The timer that makes the next scheduled article public, with no request; or, sooner, the next
   * midnight in Santo Domingo, when announcements start and end.
   */
  async function armPublishTimer(at: Date): Promise<void> {
    clearTimeout(publishTimer);
    const next = await nextPublishTime(db, at);
    if (stopped) return;
    const midnight = nextSantoDomingoMidnight(at).getTime();
    const publication = next ? Date.parse(next) : Number.POSITIVE_INFINITY;
    const wait = Math.min(Math.max(Math.min(publication, midnight) - now().getTime(), 0) + 20, MAX_TIMER_MS);
    publishTimer = setTimeout(() => {
      void (async () => {
        const due = publication <= now().getTime() ? await publishDueArticles(db, now()) : 0;
        // Another process may have marked them first, or it is a new day: render anyway (the time alone decides).
        if (due === 0) await refresh();
      })().catch((error: unknown) => log.error({ err: error }, 'scheduled publication failed'));
    }, wait);
    publishTimer.unref();
  }

  function refresh(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await renderOnce().catch((error: unknown) =>
            log.error({ err: error }, 'content pages render failed'),
          );
        } while (again && !stopped);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  async function listen(url: string): Promise<void> {
    const searchPath = searchPathOf(new URL(url));
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: 5000,
      options: searchPath ? `-c search_path=${searchPath}` : undefined,
    });
    const retry = () => {
      if (stopped || listener !== client) return;
      listener = null;
      setTimeout(() => void listen(url), 1000).unref();
    };
    client.on('error', (error) => {
      log.warn({ err: error }, 'content listener lost; reconnecting');
      retry();
    });
    client.on('end', retry);
    client.on('notification', () => void refresh());
    listener = client;
    try {
      await client.connect();
      const { rows } = await client.query<{ schema: string }>('select current_schema() as schema');
      await client.query(`listen "${CONTENT_CHANNEL_PREFIX}${rows[0]?.schema ?? 'public'}"`);
    } catch (error) {
      log.warn({ err: error }, 'content listener could not connect; retrying');
      retry();
      return;
    }
    // Whatever changed while the listener was away.
    void refresh();
  }

  const unsubscribe = onContentChange(() => refresh());
  if (options.databaseUrl && isPostgres(db)) void listen(options.databaseUrl);
  const check = setInterval(() => {
    void fingerprint(db)
      .then((value) => (value !== lastFingerprint ? refresh() : undefined))
      .catch((error: unknown) => log.warn({ err: error }, 'content check failed'));
  }, options.checkMs ?? CHECK_MS);
  check.unref();

  const ready = refresh();
  return {
    ready,
    refresh,
    paths: () => [...owned],
    async stop() {
      stopped = true;
      unsubscribe();
      clearInterval(check);
      clearTimeout(publishTimer);
      const client = listener;
      listener = null;
      await client?.end().catch(() => {});
      await running;
      await upgrading;
    },
  };
}
