/**
 * What the public pages made from the database's content show (issue 23, docs/decisions/0019): the
 * blog, an article, the feed and the sitemap's articles, read in one call per page. These pages are
 * rendered once per change of the content and served from memory (src/server/content/public-pages.ts);
 * a request reaches them only for a path the memory table does not hold (a draft, an old address, a
 * wrong slug), which answers 404 or a 301.
 */
import {
  articlePathOf,
  isPublicAt,
  socialCardPathOf,
  type ArticleKind,
  type ArticleState,
} from '../../domain/articles.ts';
import { santoDomingoToday } from '../../domain/forms/meeting.ts';
import {
  articleById,
  articleBySlug,
  articleRevisions,
  listArticles,
  publicArticles,
  redirectFor,
  type Article,
} from '../content/index.ts';
import type { ArticleImageFormat } from '../../domain/article-images.ts';
import { articleImageFile } from '../content/index.ts';
import { previewArticle, type PreviewAccess } from '../content/index.ts';
import { revisionDiff, type RevisionDiff } from '../content/index.ts';
import { searchHelp } from '../content/index.ts';
import { renderArticleHtml } from '../content/index.ts';
import { voteCounts, type VoteCounts } from '../content/index.ts';
import { getDb, type Db } from '../db/index.ts';
import { nameByEmail, staffNames } from '../auth/index.ts';

/** An article as the public pages show it. */
export interface PublicArticle {
  id: number;
  slug: string;
  path: string;
  title: string;
  excerpt: string;
  /** Markdown (for its reading time). */
  body: string;
  /** The calendar day of its publication in Santo Domingo, at 00:00 UTC (what the blog's date helpers format). */
  day: Date;
  /** ISO 8601 UTC: the publication time itself (the feed's pubDate). */
  publishAt: string;
  coverImage: string | null;
  coverAlt: string;
  /** Its social card's path: its og:image and its JSON-LD image. */
  socialCard: string;
  seoTitle: string;
  seoDescription: string;
  tags: string[];
  /** The calendar day of its last change in Santo Domingo (its publication when later), at 00:00 UTC: a help article's 'Actualizado el'. */
  updatedDay: Date;
}

const dayOf = (iso: string) => new Date(`${santoDomingoToday(new Date(iso))}T00:00:00.000Z`);

function publicArticle(article: Article): PublicArticle {
  const publishAt = article.publishAt ?? article.updatedAt;
  const updated = Date.parse(article.updatedAt) > Date.parse(publishAt) ? article.updatedAt : publishAt;
  return {
    id: article.id,
    tags: article.tags,
    updatedDay: dayOf(updated),
    slug: article.slug,
    path: articlePathOf(article.kind, article.slug),
    title: article.title,
    excerpt: article.excerpt,
    body: article.body,
    day: new Date(`${santoDomingoToday(new Date(publishAt))}T00:00:00.000Z`),
    publishAt,
    coverImage: article.coverImage,
    coverAlt: article.coverAlt,
    socialCard: socialCardPathOf(article),
    seoTitle: article.seoTitle,
    seoDescription: article.seoDescription,
  };
}

/** The blog's public articles, newest first (the blog page, the feed, the sitemap). */
export async function blogArticlesView(now: Date = new Date()): Promise<PublicArticle[]> {
  return (await publicArticles(getDb(), 'blog', now)).map(publicArticle);
}

export type BlogArticleView =
  | { kind: 'article'; article: PublicArticle & { html: string }; related: PublicArticle[] }
  | { kind: 'redirect'; to: string }
  | { kind: 'missing' };

/** A blog article by its slug: the article with its HTML and the others, a 301 for an old address, or missing (404). */
export async function blogArticleView(slug: string, now: Date = new Date()): Promise<BlogArticleView> {
  const db = getDb();
  const article = await articleBySlug(db, 'blog', slug);
  if (article && isPublicAt(article, now)) {
    const others = (await publicArticles(db, 'blog', now)).filter((other) => other.id !== article.id);
    return {
      kind: 'article',
      article: { ...publicArticle(article), html: await renderArticleHtml(article.body) },
      related: others.map(publicArticle),
    };
  }
  if (!article) {
    const to = await redirectFor(db, 'blog', slug, now);
    if (to) return { kind: 'redirect', to };
  }
  return { kind: 'missing' };
}

/** The tag of a help article without tags, on `/ayuda`. */
export const HELP_UNTAGGED = 'General';

export interface HelpGroup {
  tag: string;
  /** The section's anchor on `/ayuda` (`#tema-…`). */
  anchor: string;
  articles: PublicArticle[];
}

const collator = new Intl.Collator('es', { sensitivity: 'base' });

/** The anchor of a tag's section: its letters without accents, lower case, joined by hyphens. */
export function helpTagAnchor(tag: string): string {
  const words = tag
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `tema-${words || 'general'}`;
}

/**
 * The help centre's articles by tag: one section per tag (alphabetical, 'General' for articles
 * without one, last), each article under every tag it has, by title.
 */
export function groupByTag(articles: readonly PublicArticle[]): HelpGroup[] {
  const groups = new Map<string, { tag: string; articles: PublicArticle[] }>();
  for (const article of articles) {
    for (const tag of article.tags.length ? article.tags : [HELP_UNTAGGED]) {
      const key = tag.toLocaleLowerCase('es');
      const group = groups.get(key) ?? { tag, articles: [] };
      group.articles.push(article);
      groups.set(key, group);
    }
  }
  const used = new Set<string>();
  return [...groups.values()]
    .sort((a, b) =>
      a.tag === HELP_UNTAGGED ? 1 : b.tag === HELP_UNTAGGED ? -1 : collator.compare(a.tag, b.tag),
    )
    .map((group) => {
      // Two tags that fold to the same anchor ('Facturación', 'facturacion!') get distinct ones.
      let anchor = helpTagAnchor(group.tag);
      for (let n = 2; used.has(anchor); n++) anchor = `${helpTagAnchor(group.tag)}-${n}`;
      used.add(anchor);
      return {
        tag: group.tag,
        anchor,
        articles: group.articles.sort((a, b) => collator.compare(a.title, b.title)),
      };
    });
}

/** `/ayuda`: the public help articles by tag. */
export async function helpCentreView(
  now: Date = new Date(),
): Promise<{ count: number; groups: HelpGroup[] }> {
  const articles = (await publicArticles(getDb(), 'ayuda', now)).map(publicArticle);
  return { count: articles.length, groups: groupByTag(articles) };
}

/** The help articles public at `now` (the sitemap). */
export async function helpArticlesView(now: Date = new Date()): Promise<PublicArticle[]> {
  return (await publicArticles(getDb(), 'ayuda', now)).map(publicArticle);
}

/** `/ayuda?q=…`: the query as typed (at most 200 characters) and the public help articles it finds, best first. */
export async function helpSearchView(
  query: string,
  now: Date = new Date(),
): Promise<{ query: string; results: PublicArticle[] }> {
  const typed = query.trim().slice(0, 200);
  const hits = await searchHelp(getDb(), typed, { now });
  const byId = new Map((await publicArticles(getDb(), 'ayuda', now)).map((article) => [article.id, article]));
  return {
    query: typed,
    results: hits.flatMap((hit) => {
      const article = byId.get(hit.id);
      return article ? [publicArticle(article)] : [];
    }),
  };
}

/** A suggestion of the support dialog: what the JSON of `/api/ayuda/sugerencias` carries. */
export interface HelpSuggestion {
  titulo: string;
  url: string;
  resumen: string;
}

/** Up to three help articles for what a customer typed (none for fewer than three letters). */
export async function helpSuggestionsView(text: string, now: Date = new Date()): Promise<HelpSuggestion[]> {
  if (text.trim().length < 3) return [];
  const hits = await searchHelp(getDb(), text.slice(0, 500), { limit: 3, now });
  return hits.map((hit) => ({ titulo: hit.title, url: hit.path, resumen: hit.excerpt }));
}

export type HelpArticleView =
  | { kind: 'article'; article: PublicArticle & { html: string }; related: PublicArticle[] }
  | { kind: 'redirect'; to: string }
  | { kind: 'missing' };

/** How many related articles a help article offers after itself. */
const RELATED_HELP = 3;

/**
 * A help article by its slug: the article with its HTML and up to three others sharing a tag (most
 * tags shared first), a 301 for an old address, or missing (404).
 */
export async function helpArticleView(slug: string, now: Date = new Date()): Promise<HelpArticleView> {
  const db = getDb();
  const article = await articleBySlug(db, 'ayuda', slug);
  if (article && isPublicAt(article, now)) {
    return {
      kind: 'article',
      article: { ...publicArticle(article), html: await renderArticleHtml(article.body) },
      related: (await relatedHelp(db, article, now)).map(publicArticle),
    };
  }
  if (!article) {
    const to = await redirectFor(db, 'ayuda', slug, now);
    if (to) return { kind: 'redirect', to };
  }
  return { kind: 'missing' };
}

/** Up to three public help articles sharing a tag with `article`, most tags shared first. */
async function relatedHelp(db: Db, article: Article, now: Date): Promise<Article[]> {
  const tags = new Set(article.tags.map((tag) => tag.toLocaleLowerCase('es')));
  const shared = (other: Article) => other.tags.filter((tag) => tags.has(tag.toLocaleLowerCase('es'))).length;
  return (await publicArticles(db, 'ayuda', now))
    .filter((other) => other.id !== article.id && shared(other) > 0)
    .sort((a, b) => shared(b) - shared(a) || collator.compare(a.title, b.title))
    .slice(0, RELATED_HELP);
}

export type ArticlePreviewView =
  | {
      kind: 'preview';
      article: PublicArticle & { html: string };
      related: PublicArticle[];
      state: ArticleState;
      /** ISO 8601 UTC: when a scheduled article goes public; null for a draft. */
      scheduledFor: string | null;
    }
  | { kind: 'moved'; to: string }
  | { kind: 'none' };

/**
 * 'Vista previa' of an article not public yet, at its future address (src/server/content/preview.ts):
 * for signed-in staff, or by a private link's token; `none` for everybody else (the route's 404). With
 * the others its public page would show: the blog's other articles, or the help articles on its topics.
 */
export async function articlePreviewView(
  kind: ArticleKind,
  slug: string,
  access: PreviewAccess,
  now: Date = new Date(),
): Promise<ArticlePreviewView> {
  if (!access.staff && !access.token) return { kind: 'none' };
  const db = getDb();
  const outcome = await previewArticle(db, kind, slug, access, now);
  if (outcome.kind !== 'preview') return outcome;
  const { article } = outcome;
  const related =
    kind === 'ayuda'
      ? await relatedHelp(db, article, now)
      : (await publicArticles(db, 'blog', now)).filter((other) => other.id !== article.id);
  return {
    kind: 'preview',
    article: { ...publicArticle(article), html: await renderArticleHtml(article.body) },
    related: related.map(publicArticle),
    state: article.state,
    scheduledFor: article.state === 'programado' ? article.publishAt : null,
  };
}

/** One file of an image in an article (`/blog/imagenes/{id}-{key}-{width}.{format}`), or null. */
export const articleImageView = (
  image: { id: number; key: string },
  width: number,
  format: ArticleImageFormat,
): Promise<Uint8Array | null> => articleImageFile(getDb(), image, width, format);

/** The editor's 'Vista previa': an article body's Markdown as its public page shows it. */
export const markdownPreview = (markdown: string): Promise<string> => renderArticleHtml(markdown);

/** A row of 'Contenido'. */
export interface ContentListItem {
  id: number;
  title: string;
  kind: ArticleKind;
  state: ArticleState;
  /** ISO 8601 UTC, or null. */
  publishAt: string | null;
  /** Whether the article can be opened on the site now: public (a scheduled time reached counts) and of a kind with pages. */
  isPublic: boolean;
  path: string;
  updatedAt: string;
  /** Who saved it last, by the account's name (its e-mail when it has none); null for the import. */
  updatedBy: string | null;
  /** A help article's '¿Te resultó útil?' counts (0 and 0 before any vote); null for the blog's. */
  votes: VoteCounts | null;
}

/** 'Contenido': every article, most recently changed first. */
export async function contentListView(now: Date = new Date()): Promise<ContentListItem[]> {
  const [votes, names] = await Promise.all([voteCounts(getDb()), staffNames(getDb())]);
  return (await listArticles(getDb())).map((article) => ({
    id: article.id,
    title: article.title,
    kind: article.kind,
    state: article.state,
    publishAt: article.publishAt,
    isPublic: isPublicAt(article, now),
    path: articlePathOf(article.kind, article.slug),
    updatedAt: article.updatedAt,
    updatedBy: nameByEmail(names, article.updatedBy),
    votes: article.kind === 'ayuda' ? (votes.get(article.id) ?? { helpful: 0, notHelpful: 0 }) : null,
  }));
}

/** A row of 'Historial': one save, and how it differs from the current text. */
export interface RevisionItem {
  id: number;
  version: number;
  state: ArticleState;
  title: string;
  createdAt: string;
  /** Who saved it, by the account's name (its e-mail when it has none); null for the one-time import. */
  createdBy: string | null;
  /** This save is the article as it is now. */
  current: boolean;
  diff: RevisionDiff;
}

/** How many saves 'Historial' lists (the newest). */
export const HISTORY_LIMIT = 30;

/** The editor of `/admin/contenido/{id}`: the stored article with its history (none for `nuevo`), or missing for an id that is not one. */
export async function articleEditorView(
  param: string | undefined,
): Promise<
  { kind: 'new' } | { kind: 'article'; article: Article; revisions: RevisionItem[] } | { kind: 'missing' }
> {
  if (param === 'nuevo') return { kind: 'new' };
  const db = getDb();
  const article = param && /^[1-9]\d{0,9}$/.test(param) ? await articleById(db, Number(param)) : null;
  if (!article) return { kind: 'missing' };
  const [saves, names] = await Promise.all([articleRevisions(db, article.id, HISTORY_LIMIT), staffNames(db)]);
  const revisions = saves.map((revision) => {
    const diff = revisionDiff(revision, article);
    return {
      id: revision.id,
      version: revision.version,
      state: revision.state,
      title: revision.title,
      createdAt: revision.createdAt,
      createdBy: nameByEmail(names, revision.createdBy),
      current: diff.same,
      diff,
    };
  });
  return { kind: 'article', article, revisions };
}
