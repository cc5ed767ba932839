/**
 * The public pages made from the database's content (issue 23, docs/decisions/0019): `/blog`, `/ayuda`,
 * each public article of both, `/rss.xml` and `/sitemap.xml` are rendered once per change of the content, by the
 * site's own Astro handler (their on-demand routes, fetched from this process), and put into the
 * memory table the built files are answered from (src/server/http/static-files.ts: ETag, brotli and
 * gzip). A request never renders them; a path this table does not hold (a draft, an old address, a
 * wrong slug) goes on to the on-demand route, which answers 404 or the 301.
 *
 * A render follows every change: the writers' notice (changes.ts: this process's at once, on PostgreSQL
 * any process's, through src/server/db/notify.ts), and a timer set to the next scheduled publication
 * time (publish-timer.ts, which marks the due articles 'publicado', with no request). A slow check
 * (every {@link CHECK_MS}) renders again when the content's fingerprint changed and a notice was missed.
 * Renders never overlap: changes during one make one more. The built pages' replaceable parts are
 * swapped by built-pages.ts; this file renders the content's own pages and cards.
 */
import { articlePathOf, hasServerCard, socialCardPathOf, type ArticleKind } from '../../domain/articles.ts';
import { ROUTES } from '../../routes.ts';
import type { Db } from '../db/index.ts';
import { IMMUTABLE, renderedFile, type CachedFile } from '../http/index.ts';
import { getLogger } from '../log.ts';
import { publicArticles, type Article } from './articles.ts';
import { BuiltPages } from './built-pages.ts';
import { watchContent } from './changes.ts';
import { LOGO_PATH_PREFIX, uploadedLogoFiles } from './client-logos.ts';
import { PublishTimer } from './publish-timer.ts';
import { articleCardSvg, cardPng } from './social-card.ts';

export { nextSantoDomingoMidnight } from './publish-timer.ts';

/** How often a process checks that it has not missed a change (a notice lost with a dropped connection). */
export const CHECK_MS = 30_000;

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

/** The content's own entries of the memory table: its pages, their cards and the uploaded logos' images. */
class ContentFiles {
  /** The paths this process put into the table. */
  readonly owned = new Set<string>();
  // A card is drawn again only when its SVG changes (a title edit), not at every render of the pages.
  private readonly cardSources = new Map<string, string>();

  private readonly options: PublicPagesOptions;
  private readonly built: BuiltPages;

  constructor(options: PublicPagesOptions, built: BuiltPages) {
    this.options = options;
    this.built = built;
  }

  /** This process's entry for `path`, if it made one. */
  private mine(path: string): CachedFile | undefined {
    return this.owned.has(path) ? this.options.files.get(path) : undefined;
  }

  /** Renders every entry of `content` at `at`: unchanged ones keep theirs (and its Last-Modified). */
  async render(content: PublicContent, at: Date): Promise<Map<string, CachedFile>> {
    const next = new Map<string, CachedFile>();
    await this.renderLogos(next, at);
    for (const path of contentPaths(content)) await this.renderPage(next, path, at);
    if (this.options.card) await this.renderCards(next, contentCards(content, this.options.card), at);
    return next;
  }

  /** The uploaded logos' images, at addresses named by their bytes (kept for a year by browsers). */
  private async renderLogos(next: Map<string, CachedFile>, at: Date): Promise<void> {
    for (const image of await uploadedLogoFiles(this.options.db)) {
      const current = this.mine(image.path);
      next.set(
        image.path,
        current ?? {
          ...(await renderedFile(image.data, image.type, [], at, this.options.compression)),
          cacheControl: IMMUTABLE,
        },
      );
    }
  }

  private async renderPage(next: Map<string, CachedFile>, path: string, at: Date): Promise<void> {
    const log = getLogger();
    try {
      const page = await this.options.fetchPage(path);
      if (page.status !== 200) {
        log.warn({ path, status: page.status }, 'content page did not render');
        return;
      }
      const file = await renderedFile(
        this.built.fill(page.body),
        withCharset(page.contentType),
        page.csp ? [['Content-Security-Policy', page.csp]] : [],
        at,
        this.options.compression,
      );
      const current = this.mine(path);
      next.set(path, current && current.etag === file.etag ? current : file);
    } catch (error) {
      log.error({ err: error, path }, 'content page render failed');
      const current = this.mine(path);
      if (current) next.set(path, current);
    }
  }

  private async renderCards(
    next: Map<string, CachedFile>,
    cards: Array<{ path: string; svg: string }>,
    at: Date,
  ): Promise<void> {
    for (const { path, svg } of cards) {
      const current = this.mine(path);
      if (current && this.cardSources.get(path) === svg) {
        next.set(path, current);
        continue;
      }
      try {
        next.set(path, await renderedFile(await cardPng(svg), 'image/png', [], at));
        this.cardSources.set(path, svg);
      } catch (error) {
        getLogger().error({ err: error, path }, 'social card render failed');
      }
    }
  }

  /** Puts a render in place of the last one: what it no longer has leaves the table and the counted paths. */
  swap(next: Map<string, CachedFile>): void {
    const { files, countable } = this.options;
    for (const path of this.owned) {
      if (next.has(path)) continue;
      files.delete(path);
      countable?.delete(path);
      this.owned.delete(path);
      this.cardSources.delete(path);
    }
    for (const [path, file] of next) {
      files.set(path, file);
      this.owned.add(path);
      // Page views are counted for pages, not for the cards nor the logos' images.
      if (!this.cardSources.has(path) && !path.startsWith(LOGO_PATH_PREFIX)) countable?.add(path);
    }
  }
}

export function startPublicPages(options: PublicPagesOptions): PublicPages {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const built: BuiltPages = new BuiltPages({
    files: options.files,
    fetchPage: options.fetchPage,
    // Called at renders only, once `content` below exists.
    isContent: (path: string): boolean => content.owned.has(path),
    compression: options.compression,
  });
  const content: ContentFiles = new ContentFiles(options, built);
  const timer = new PublishTimer(db, () => refresh(), now);
  const watch = watchContent(db, () => refresh(), options.checkMs ?? CHECK_MS);

  async function renderOnce(): Promise<void> {
    const at = now();
    await watch.mark();
    await built.renderFragments();
    const next = await content.render(await publicContent(db, at), at);
    if (stopped) return;
    content.swap(next);
    await built.substitute(at);
    await timer.arm(at);
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
            getLogger().error({ err: error }, 'content pages render failed'),
          );
        } while (again && !stopped);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  const ready = refresh();
  return {
    ready,
    refresh,
    paths: () => [...content.owned],
    async stop() {
      stopped = true;
      timer.stop();
      await watch.stop();
      await running;
      await built.stop();
    },
  };
}
