/**
 * What an article's route (`/blog/{slug}`, `/ayuda/{slug}`) answers, once for both kinds: the public
 * article (a request reaches the route only when the memory table does not hold it), a 301 for an old
 * address, its 'Vista previa' for signed-in staff or a private link's holder (with the preview's headers
 * set on the response; a link made before a slug change is sent on with a 302), or the 404.
 */
import type { ArticleKind } from '../../domain/articles.ts';
import { signedInStaff, type GuardContext } from '../auth/index.ts';
import { PREVIEW_HEADERS, PREVIEW_PARAM } from '../content/index.ts';
import { articlePreviewView, blogArticleView, helpArticleView, type PublicArticle } from './content.ts';

/** 'Vista previa' of an article not public yet: when it goes public (ISO 8601 UTC), null for a draft. */
export interface ArticlePreview {
  scheduledFor: string | null;
}

export type ArticleRoute =
  | { kind: 'response'; response: Response }
  | {
      /** The public article, or its preview (`preview` not null). */
      kind: 'page';
      article: PublicArticle & { html: string };
      related: PublicArticle[];
      preview: ArticlePreview | null;
    }
  | { kind: 'missing' };

/** The words before a preview's date: when it will be published, or that it is a draft's. */
export function previewDatePrefix(preview: ArticlePreview | null): string | undefined {
  if (!preview) return undefined;
  return preview.scheduledFor ? 'Se publicará el ' : 'Borrador del ';
}

interface RouteContext extends GuardContext {
  url: URL;
  redirect(path: string, status: 301): Response;
  response: { status?: number; headers: Headers };
}

export async function articleRoute(
  context: RouteContext,
  kind: ArticleKind,
  slug: string,
): Promise<ArticleRoute> {
  const found = kind === 'blog' ? await blogArticleView(slug) : await helpArticleView(slug);
  if (found.kind === 'redirect') return { kind: 'response', response: context.redirect(found.to, 301) };
  if (found.kind === 'article')
    return { kind: 'page', article: found.article, related: found.related, preview: null };
  const preview = await articlePreviewView(kind, slug, {
    token: context.url.searchParams.get(PREVIEW_PARAM),
    staff: (await signedInStaff(context)) !== null,
  });
  if (preview.kind === 'moved')
    return {
      kind: 'response',
      response: new Response(null, { status: 302, headers: { ...PREVIEW_HEADERS, Location: preview.to } }),
    };
  if (preview.kind === 'preview') {
    for (const [name, value] of Object.entries(PREVIEW_HEADERS)) context.response.headers.set(name, value);
    return {
      kind: 'page',
      article: preview.article,
      related: preview.related,
      preview: { scheduledFor: preview.scheduledFor },
    };
  }
  context.response.status = 404;
  return { kind: 'missing' };
}
