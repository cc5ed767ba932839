/**
 * Articles of the blog and the help centre (issue 23, migration 0033, docs/decisions/0019): the one
 * writer of `articles` and `article_slugs`, and the reads the public pages and 'Contenido' need.
 *
 * Every write checks the article's `version` (optimistic concurrency, as clients do): a save made on a
 * version someone else has since saved writes nothing and answers `stale` with what is stored now.
 * Each write bumps the version, records an audit event and tells the site the content changed
 * ({@link onContentChange}) once its transaction committed.
 *
 * States: 'borrador' (never public), 'programado' (public from `publish_at` on: {@link isPublicAt};
 * {@link publishDueArticles} then marks it 'publicado'), 'publicado'. A slug is unique within its kind;
 * when an article that has been public changes its slug or kind, the old address is kept in
 * `article_slugs` and answered with a 301 ({@link redirectFor}). A new slug takes over an old address
 * of another article (the live article wins over a redirect).
 */
import {
  ARTICLE_MESSAGES,
  articlePathOf,
  isArticleKind,
  isArticleState,
  isPublicAt,
  type ArticleFieldName,
  type ArticleInput,
  type ArticleKind,
  type ArticleState,
} from '../../domain/articles.ts';
import type { AuditAction } from '../../domain/audit.ts';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import type { ArticleRevisionRow, ArticleRow } from '../db/index.ts';
import { contentChanged } from './changes.ts';
import { versionedWrite } from './versioned.ts';

export interface Article extends ArticleInput {
  id: number;
  state: ArticleState;
  /** ISO 8601 UTC; the scheduled time while 'programado'; null for a draft never published. */
  publishAt: string | null;
  version: number;
  createdAt: string;
  createdBy: string | null;
  updatedAt: string;
  updatedBy: string | null;
}

/** A write refused for a field's reason (a taken slug, a schedule in the past), with each field's message. */
export class ArticleRefusal extends Error {
  override name = 'ArticleRefusal';
  readonly errors: Partial<Record<ArticleFieldName | 'fecha', string>>;
  constructor(errors: Partial<Record<ArticleFieldName | 'fecha', string>>) {
    super(Object.values(errors)[0] ?? 'Artículo no válido');
    this.errors = errors;
  }
}

export type ArticleOutcome =
  | { kind: 'saved'; article: Article }
  /** Someone saved the article since `version` was loaded: nothing was written. */
  | { kind: 'stale'; current: Article }
  | { kind: 'not-found' };

function parseTagsColumn(value: string): string[] {
  try {
    const tags: unknown = JSON.parse(value);
    return Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : [];
  } catch {
    return [];
  }
}

export function toArticle(row: ArticleRow): Article {
  if (!isArticleKind(row.kind) || !isArticleState(row.state))
    throw new Error(`Artículo ${row.id} con tipo o estado desconocido`);
  return {
    id: Number(row.id),
    kind: row.kind,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    body: row.body,
    coverImage: row.coverImage,
    coverAlt: row.coverAlt,
    author: row.author,
    tags: parseTagsColumn(row.tags),
    seoTitle: row.seoTitle,
    seoDescription: row.seoDescription,
    state: row.state,
    publishAt: row.publishAt,
    version: Number(row.version),
    createdAt: row.createdAt,
    createdBy: row.createdBy,
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
  };
}

/** An article's fields as its row stores them (the editor's writes and the one-time Markdown import). */
export const articleFieldsRow = (input: ArticleInput) => ({
  kind: input.kind,
  slug: input.slug,
  title: input.title,
  excerpt: input.excerpt,
  body: input.body,
  coverImage: input.coverImage,
  coverAlt: input.coverAlt,
  author: input.author,
  tags: JSON.stringify(input.tags),
  seoTitle: input.seoTitle,
  seoDescription: input.seoDescription,
});

/**
 * Keeps a revision of a saved article (migration 0037): its fields as the row now holds them, its
 * version, state and publication time, who and when. Called in the save's own transaction, so every
 * save that wrote has exactly one.
 */
export async function recordRevision(db: Db, row: ArticleRow, by: string | null, at: string): Promise<void> {
  await db
    .insertInto('articleRevisions')
    .values({
      articleId: Number(row.id),
      version: Number(row.version),
      ...articleFieldsRow(toArticle(row)),
      state: row.state,
      publishAt: row.publishAt,
      createdAt: at,
      createdBy: by,
    })
    .execute();
}

/** What a save writes of an article, and what each of its revisions keeps: its fields, state and publication time. */
export type ArticleFields = ArticleInput & Pick<Article, 'state' | 'publishAt'>;

/** Just those fields of an article or a revision, in the editor's order (the export's too). */
export function articleFields(article: ArticleFields): ArticleFields {
  return {
    kind: article.kind,
    slug: article.slug,
    title: article.title,
    excerpt: article.excerpt,
    body: article.body,
    coverImage: article.coverImage,
    coverAlt: article.coverAlt,
    author: article.author,
    tags: article.tags,
    seoTitle: article.seoTitle,
    seoDescription: article.seoDescription,
    state: article.state,
    publishAt: article.publishAt,
  };
}

/** A revision of an article: the fields as one save left them. */
export interface ArticleRevision extends ArticleInput {
  id: number;
  articleId: number;
  version: number;
  state: ArticleState;
  publishAt: string | null;
  createdAt: string;
  createdBy: string | null;
}

/** A stored revision as the editor and `npm run data` read it. */
export function toRevision(row: ArticleRevisionRow): ArticleRevision {
  const { id, articleId, version, createdAt, createdBy } = row;
  const article = toArticle({
    ...row,
    id: articleId,
    createdAt,
    createdBy,
    updatedAt: createdAt,
    updatedBy: createdBy,
  });
  return {
    id: Number(id),
    articleId: Number(articleId),
    version: Number(version),
    ...articleFields(article),
    createdAt,
    createdBy,
  };
}

/** An article's revisions, newest first (at most `limit`). */
export async function articleRevisions(db: Db, articleId: number, limit = 50): Promise<ArticleRevision[]> {
  const rows = await db
    .selectFrom('articleRevisions')
    .selectAll()
    .where('articleId', '=', articleId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toRevision);
}

/** One revision of an article (null when it is not one of that article's). */
export async function articleRevision(
  db: Db,
  articleId: number,
  revisionId: number,
): Promise<ArticleRevision | null> {
  if (!Number.isSafeInteger(revisionId) || revisionId <= 0) return null;
  const row = await db
    .selectFrom('articleRevisions')
    .selectAll()
    .where('id', '=', revisionId)
    .where('articleId', '=', articleId)
    .executeTakeFirst();
  return row ? toRevision(row) : null;
}

function isUniqueViolation(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '23505' || (typeof message === 'string' && message.includes('UNIQUE constraint failed'));
}

/** Whether the article has been public: published, or scheduled for a time already reached, or unpublished after that. */
function wasPublic(article: Article, now: Date): boolean {
  return article.publishAt !== null && Date.parse(article.publishAt) <= now.getTime();
}

export async function articleById(db: Db, id: number): Promise<Article | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const row = await db.selectFrom('articles').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toArticle(row) : null;
}

export async function articleBySlug(db: Db, kind: ArticleKind, slug: string): Promise<Article | null> {
  const row = await db
    .selectFrom('articles')
    .selectAll()
    .where('kind', '=', kind)
    .where('slug', '=', slug)
    .executeTakeFirst();
  return row ? toArticle(row) : null;
}

/** Every article, for 'Contenido': most recently changed first. */
export async function listArticles(db: Db, kind?: ArticleKind): Promise<Article[]> {
  let query = db.selectFrom('articles').selectAll();
  if (kind) query = query.where('kind', '=', kind);
  const rows = await query.orderBy('updatedAt', 'desc').orderBy('id', 'desc').execute();
  return rows.map(toArticle);
}

/** The articles of a kind public at `now`, newest publication first (the blog's order). */
export async function publicArticles(db: Db, kind: ArticleKind, now: Date = new Date()): Promise<Article[]> {
  const rows = await db
    .selectFrom('articles')
    .selectAll()
    .where('kind', '=', kind)
    .where((eb) =>
      eb.or([
        eb('state', '=', 'publicado'),
        eb.and([eb('state', '=', 'programado'), eb('publishAt', '<=', now.toISOString())]),
      ]),
    )
    .execute();
  return rows
    .map(toArticle)
    .filter((article) => isPublicAt(article, now))
    .sort((a, b) => Date.parse(b.publishAt ?? '') - Date.parse(a.publishAt ?? '') || b.id - a.id);
}

/**
 * Where an old address of an article now lives: the current path of the article that had `slug` in
 * `kind`, when that article is public at `now`; null otherwise (the caller answers 404).
 */
export async function redirectFor(
  db: Db,
  kind: ArticleKind,
  slug: string,
  now: Date = new Date(),
): Promise<string | null> {
  const row = await db
    .selectFrom('articleSlugs')
    .innerJoin('articles', 'articles.id', 'articleSlugs.articleId')
    .selectAll('articles')
    .where('articleSlugs.kind', '=', kind)
    .where('articleSlugs.slug', '=', slug)
    .executeTakeFirst();
  if (!row) return null;
  const article = toArticle(row);
  return isPublicAt(article, now) ? articlePathOf(article.kind, article.slug) : null;
}

/** Every old address with the current path it redirects to (public articles only): the public pages' 301s. */
export async function publicRedirects(
  db: Db,
  now: Date = new Date(),
): Promise<Array<{ from: string; to: string }>> {
  const rows = await db
    .selectFrom('articleSlugs')
    .innerJoin('articles', 'articles.id', 'articleSlugs.articleId')
    .select([
      'articleSlugs.kind as oldKind',
      'articleSlugs.slug as oldSlug',
      'articles.kind',
      'articles.slug',
      'articles.state',
      'articles.publishAt',
    ])
    .execute();
  return rows
    .filter((row) => isArticleKind(row.oldKind) && isArticleKind(row.kind) && isPublicAt(row, now))
    .map((row) => ({
      from: articlePathOf(row.oldKind as ArticleKind, row.oldSlug),
      to: articlePathOf(row.kind as ArticleKind, row.slug),
    }));
}

/** The next time a scheduled article becomes public, after `now`; null when none is waiting. */
export async function nextPublishTime(db: Db, now: Date = new Date()): Promise<string | null> {
  const row = await db
    .selectFrom('articles')
    .select('publishAt')
    .where('state', '=', 'programado')
    .where('publishAt', '>', now.toISOString())
    .orderBy('publishAt')
    .limit(1)
    .executeTakeFirst();
  return row?.publishAt ?? null;
}

/** Refuses a slug another article of the kind holds; frees an old address of it (of any article) for the new owner. */
async function claimSlug(db: Db, kind: ArticleKind, slug: string, exceptId?: number): Promise<void> {
  const holder = await db
    .selectFrom('articles')
    .select('id')
    .where('kind', '=', kind)
    .where('slug', '=', slug)
    .executeTakeFirst();
  if (holder && Number(holder.id) !== exceptId)
    throw new ArticleRefusal({ slug: ARTICLE_MESSAGES.slugTaken });
  await db.deleteFrom('articleSlugs').where('kind', '=', kind).where('slug', '=', slug).execute();
}

/** Stores a new article as 'Borrador' (with an audit event); a taken slug is refused. */
export async function createArticle(
  db: Db,
  input: ArticleInput,
  actor: AuditActor | null,
  now: Date = new Date(),
): Promise<Article> {
  try {
    const article = await db.transaction().execute(async (trx) => {
      await claimSlug(trx, input.kind, input.slug);
      const at = now.toISOString();
      const row = await trx
        .insertInto('articles')
        .values({
          ...articleFieldsRow(input),
          state: 'borrador',
          publishAt: null,
          createdAt: at,
          createdBy: actor?.actorEmail ?? null,
          updatedAt: at,
          updatedBy: actor?.actorEmail ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordRevision(trx, row, actor?.actorEmail ?? null, at);
      if (actor)
        await recordEvent(
          trx,
          { ...actor, action: 'article.created', subject: Number(row.id), detail: input.title },
          now,
        );
      return toArticle(row);
    });
    contentChanged(db);
    return article;
  } catch (error) {
    // Two saves taking the same slug at once: the database's unique key refuses the second.
    if (isUniqueViolation(error)) throw new ArticleRefusal({ slug: ARTICLE_MESSAGES.slugTaken });
    throw error;
  }
}

/** What one write sets on the article, and how the audit log names it. */
interface ArticleChange {
  set: Partial<ReturnType<typeof articleFieldsRow>> & { state?: ArticleState; publishAt?: string | null };
  action: AuditAction;
  detail?: string;
}

/**
 * One versioned write of an article, through the content's one optimistic write
 * (src/server/content/versioned.ts: read, check the version, move it, change, audit, tell the site):
 * `unchanged` says when there is nothing to write (then nothing is, the version stays); `change` says
 * what to set (a new address claimed first), and each save keeps its revision.
 */
async function versioned(
  db: Db,
  id: number,
  version: number,
  actor: AuditActor | null,
  now: Date,
  plan: {
    unchanged?: (current: Article) => boolean;
    change: (current: Article, trx: Db) => Promise<ArticleChange>;
  },
): Promise<ArticleOutcome> {
  try {
    const outcome = await versionedWrite<Article>(db, {
      table: 'articles',
      id,
      version,
      actor,
      now,
      read: articleById,
      unchanged: plan.unchanged,
      async write(current, trx) {
        const planned = await plan.change(current, trx);
        const row = await trx
          .updateTable('articles')
          .set(planned.set)
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordRevision(trx, row, actor?.actorEmail ?? null, now.toISOString());
        return { action: planned.action, detail: planned.detail ?? null };
      },
    });
    return outcome.kind === 'saved' ? { kind: 'saved', article: outcome.value } : outcome;
  } catch (error) {
    // Two saves taking the same slug at once: the database's unique key refuses the second.
    if (isUniqueViolation(error)) throw new ArticleRefusal({ slug: ARTICLE_MESSAGES.slugTaken });
    throw error;
  }
}

const sameFields = (a: ArticleInput, b: ArticleInput) =>
  JSON.stringify(articleFieldsRow(a)) === JSON.stringify(articleFieldsRow(b));

/**
 * Saves an article's fields (its state unchanged) at `version`. A new slug or kind of an article that
 * has been public keeps the old address for a 301; one the article had before becomes its own again.
 * A save that changes nothing writes nothing.
 */
export async function updateArticle(
  db: Db,
  id: number,
  version: number,
  input: ArticleInput,
  actor: AuditActor | null,
  now: Date = new Date(),
  restoring?: ArticleRevision,
): Promise<ArticleOutcome> {
  return versioned(db, id, version, actor, now, {
    unchanged: (current) => sameFields(current, input),
    async change(current, trx) {
      const moved = current.slug !== input.slug || current.kind !== input.kind;
      if (moved) {
        await claimSlug(trx, input.kind, input.slug, id);
        if (wasPublic(current, now))
          await trx
            .insertInto('articleSlugs')
            .values({ articleId: id, kind: current.kind, slug: current.slug, createdAt: now.toISOString() })
            .execute();
      }
      if (restoring)
        return {
          set: articleFieldsRow(input),
          action: 'article.restored',
          detail: `${input.title} (versión ${restoring.version}, ${restoring.createdAt})`,
        };
      return {
        set: articleFieldsRow(input),
        action: 'article.edited',
        detail: moved
          ? `Dirección: ${articlePathOf(current.kind, current.slug)} → ${articlePathOf(input.kind, input.slug)}`
          : input.title,
      };
    },
  });
}

export type RestoreOutcome = ArticleOutcome | { kind: 'no-revision' };

/**
 * 'Restaurar': saves a revision's fields again (title, slug, text… not its state: a restored text of a
 * published article stays published), as a new save at `version`, so it is refused as `stale` when
 * someone saved since the editor was opened, and it keeps a revision of its own. A slug another
 * article holds now is refused like any save.
 */
export async function restoreRevision(
  db: Db,
  id: number,
  version: number,
  revisionId: number,
  actor: AuditActor | null,
  now: Date = new Date(),
): Promise<RestoreOutcome> {
  const revision = await articleRevision(db, id, revisionId);
  if (!revision) return { kind: 'no-revision' };
  const input: ArticleInput = {
    kind: revision.kind,
    slug: revision.slug,
    title: revision.title,
    excerpt: revision.excerpt,
    body: revision.body,
    coverImage: revision.coverImage,
    coverAlt: revision.coverAlt,
    author: revision.author,
    tags: revision.tags,
    seoTitle: revision.seoTitle,
    seoDescription: revision.seoDescription,
  };
  return updateArticle(db, id, version, input, actor, now, revision);
}

/**
 * 'Publicar': public at once. An article that was public before keeps its first publication time (its
 * date, its place in the feed); otherwise the time is now.
 */
export async function publishArticle(
  db: Db,
  id: number,
  version: number,
  actor: AuditActor | null,
  now: Date = new Date(),
): Promise<ArticleOutcome> {
  return versioned(db, id, version, actor, now, {
    unchanged: (current) => current.state === 'publicado',
    change: async (current) => {
      const publishAt = wasPublic(current, now) ? current.publishAt : now.toISOString();
      return { set: { state: 'publicado', publishAt }, action: 'article.published', detail: current.title };
    },
  });
}

/** 'Programar': public from `at` (which must be later than `now`), with no request needed. */
export async function scheduleArticle(
  db: Db,
  id: number,
  version: number,
  at: Date,
  actor: AuditActor | null,
  now: Date = new Date(),
): Promise<ArticleOutcome> {
  if (!(at.getTime() > now.getTime())) throw new ArticleRefusal({ fecha: ARTICLE_MESSAGES.schedulePast });
  return versioned(db, id, version, actor, now, {
    change: async (current) => ({
      set: { state: 'programado', publishAt: at.toISOString() },
      action: 'article.scheduled',
      detail: `${current.title} (${at.toISOString()})`,
    }),
  });
}

/**
 * 'Despublicar': back to 'Borrador'. A published article keeps its publication time (republished, it
 * keeps its date); a scheduled one not yet public forgets its time.
 */
export async function unpublishArticle(
  db: Db,
  id: number,
  version: number,
  actor: AuditActor | null,
  now: Date = new Date(),
): Promise<ArticleOutcome> {
  return versioned(db, id, version, actor, now, {
    unchanged: (current) => current.state === 'borrador',
    change: async (current) => ({
      set: { state: 'borrador', publishAt: wasPublic(current, now) ? current.publishAt : null },
      action: 'article.unpublished',
      detail: current.title,
    }),
  });
}

/**
 * Marks 'publicado' every scheduled article whose time has come (run by each process when its timer
 * fires; harmless when several do it at once). The version is kept: the fields did not change, and an
 * editor open on it can still save. Returns how many were marked.
 */
export async function publishDueArticles(db: Db, now: Date = new Date()): Promise<number> {
  const result = await db
    .updateTable('articles')
    .set({ state: 'publicado' })
    .where('state', '=', 'programado')
    .where('publishAt', '<=', now.toISOString())
    .executeTakeFirst();
  const count = Number(result.numUpdatedRows);
  if (count > 0) contentChanged(db);
  return count;
}
