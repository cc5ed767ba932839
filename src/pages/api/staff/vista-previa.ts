/**
 * The article editor's live preview (issue 23): `POST {"cuerpo": "<Markdown>"}` answers
 * `{"html": "…"}`, the body as the public page renders it (src/server/content/render.ts: the same
 * parser, safe mode and sanitiser). Writes nothing. Guarded like every staff endpoint (the middleware,
 * and here); the editor without JavaScript gets the same through its 'Vista previa' button
 * (`content.preview`).
 */
import type { APIRoute } from 'astro';
import { ARTICLE_LIMITS } from '../../../domain/articles.ts';
import { requireStaffApi } from '../../../server/auth/index.ts';
import { markdownPreview } from '../../../server/views/index.ts';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const staff = await requireStaffApi(context);
  if (staff instanceof Response) return staff;
  const input: unknown = await context.request.json().catch(() => null);
  const body = (input as { cuerpo?: unknown } | null)?.cuerpo;
  if (typeof body !== 'string')
    return Response.json(
      { code: 'invalid', message: 'Envía el texto del artículo en «cuerpo».' },
      { status: 400 },
    );
  if (body.length > ARTICLE_LIMITS.body)
    return Response.json(
      { code: 'too-long', message: `El texto admite hasta ${ARTICLE_LIMITS.body} caracteres.` },
      { status: 413 },
    );
  return Response.json({ html: await markdownPreview(body) }, { headers: { 'Cache-Control': 'no-store' } });
};
