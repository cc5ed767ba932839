/**
 * 'Vista previa' (issue 23, docs/decisions/0019): an article not public yet (a draft, or scheduled for
 * later) opens at its future address for signed-in staff, and for anyone holding a private preview
 * link (`?vista=<token>`, valid {@link PREVIEW_LINK_DAYS} days); everybody else gets the 404 they get
 * today. The page is rendered on demand, never put in the memory table of public pages, and answered
 * `Cache-Control: private, no-store` with `noindex` ({@link PREVIEW_HEADERS}).
 *
 * Independent of the article's kind: the blog's route calls {@link previewArticle} with 'blog'; the
 * help centre's (`/ayuda/{slug}`) can call it with 'ayuda'.
 *
 * The token: 144 random bits, base64url, stored only as its SHA-256 (as the incidents' mail links,
 * src/server/incidents/link-token.ts), so a copy of the database opens no preview.
 */
import { articlePathOf, isPublicAt, type ArticleKind } from '../../domain/articles.ts';
import { recordEvent, type AuditActor } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import { hashLinkToken, isLinkToken, newLinkToken } from '../incidents/index.ts';
import { articleById, articleBySlug, type Article } from './articles.ts';

/** How long a private preview link opens the article. */
export const PREVIEW_LINK_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The query parameter carrying a preview link's token. */
export const PREVIEW_PARAM = 'vista';

/** The headers of every preview answer: never stored by a cache, never indexed, the token never sent on. */
export const PREVIEW_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'private, no-store',
  'X-Robots-Tag': 'noindex, nofollow',
  'Referrer-Policy': 'no-referrer',
};

/** A new private preview link of an article: the token (shown once) and until when it opens. */
export async function createPreviewLink(
  db: Db,
  articleId: number,
  actor: AuditActor | null,
  now: Date = new Date(),
): Promise<{ token: string; expiresAt: string } | null> {
  const token = newLinkToken();
  const expiresAt = new Date(now.getTime() + PREVIEW_LINK_DAYS * DAY_MS).toISOString();
  return db.transaction().execute(async (trx) => {
    const article = await articleById(trx, articleId);
    if (!article) return null;
    // Links past their time open nothing: each new one clears them away.
    await trx.deleteFrom('articlePreviewLinks').where('expiresAt', '<=', now.toISOString()).execute();
    await trx
      .insertInto('articlePreviewLinks')
      .values({
        articleId,
        tokenHash: hashLinkToken(token),
        createdAt: now.toISOString(),
        createdBy: actor?.actorEmail ?? null,
        expiresAt,
      })
      .execute();
    if (actor)
      await recordEvent(
        trx,
        {
          ...actor,
          action: 'article.preview-link',
          subject: articleId,
          detail: `${article.title} (hasta ${expiresAt})`,
        },
        now,
      );
    return { token, expiresAt };
  });
}

/** The article a preview token opens at `now`: null for a malformed, unknown or expired token. */
export async function articleOfPreviewToken(
  db: Db,
  token: string,
  now: Date = new Date(),
): Promise<Article | null> {
  if (!isLinkToken(token)) return null;
  const link = await db
    .selectFrom('articlePreviewLinks')
    .select(['articleId', 'expiresAt'])
    .where('tokenHash', '=', hashLinkToken(token))
    .executeTakeFirst();
  if (!link || !(Date.parse(link.expiresAt) > now.getTime())) return null;
  return articleById(db, Number(link.articleId));
}

/** Who asks for a preview: a signed-in staff member, and/or the token of a link. */
export interface PreviewAccess {
  staff: boolean;
  token: string | null;
}

export type PreviewOutcome =
  /** The article to show with the 'Borrador' banner. */
  | { kind: 'preview'; article: Article }
  /** The link's article now lives at another address (its slug changed): go there, token kept. */
  | { kind: 'moved'; to: string }
  /** Nothing to preview here: the route answers as it would without a preview. */
  | { kind: 'none' };

/**
 * What `/{kind}/{slug}` shows as a preview: the article of the link's token when it is of this kind and
 * not public (its current address, when the slug changed since the link was made); else, for staff, the
 * article at this address when it is not public. A public article is never a preview (its page is).
 */
export async function previewArticle(
  db: Db,
  kind: ArticleKind,
  slug: string,
  access: PreviewAccess,
  now: Date = new Date(),
): Promise<PreviewOutcome> {
  if (access.token) {
    const article = await articleOfPreviewToken(db, access.token, now);
    if (article && article.kind === kind && !isPublicAt(article, now)) {
      if (article.slug === slug) return { kind: 'preview', article };
      return {
        kind: 'moved',
        to: `${articlePathOf(article.kind, article.slug)}?${PREVIEW_PARAM}=${encodeURIComponent(access.token)}`,
      };
    }
  }
  if (access.staff) {
    const article = await articleBySlug(db, kind, slug);
    if (article && !isPublicAt(article, now)) return { kind: 'preview', article };
  }
  return { kind: 'none' };
}
