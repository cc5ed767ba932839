/**
 * What an article's route (`/blog/{slug}`, `/ayuda/{slug}`) answers, once for both kinds: the public
 * article (a request reaches the route only when the memory table does not hold it), a 301 for an old
 * address, its 'Vista previa' for signed-in staff or a private link's holder (with the preview's headers
 * set on the response; a link made before a slug change is sent on with a 302), or the 404.
 */
import type { ArticleKind } from '../../domain/articles.ts';
import { signedInStaff, type GuardContext } from '../auth/guard.ts';
import { PREVIEW_HEADERS, PREVIEW_PARAM } from '../content/preview.ts';
import {
  articlePreviewView,
  blogArticleView,
  helpArticleView,
  type ArticlePreviewView,
  type BlogArticleView,
  type HelpArticleView,
} from './content.ts';

export type ArticleRoute =
  | { kind: 'response'; response: Response }
  | Extract<BlogArticleView | HelpArticleView, { kind: 'article' }>
  | Extract<ArticlePreviewView, { kind: 'preview' }>
  | { kind: 'missing' };

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
  if (found.kind === 'article') return found;
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
    return preview;
  }
  context.response.status = 404;
  return { kind: 'missing' };
}
