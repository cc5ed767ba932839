/**
 * The files of the images in articles (issue 23, src/server/content/images.ts):
 * `/blog/imagenes/{id}-{key}-{width}.{avif|webp}`, as the `<picture>` of an article names them (a wrong
 * key: 404). A file never
 * changes once stored (a new upload is a new id), so it is cached for a year as immutable.
 */
import type { APIRoute } from 'astro';
import { parseArticleImageFile } from '../../../domain/article-images.ts';
import { articleImageView } from '../../../server/views/index.ts';

export const prerender = false;

const CONTENT_TYPES = { avif: 'image/avif', webp: 'image/webp' } as const;

export const GET: APIRoute = async ({ params }) => {
  const file = parseArticleImageFile(params.file ?? '');
  const data = file ? await articleImageView(file, file.width, file.format) : null;
  if (!file || !data)
    return new Response('Imagen no encontrada', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    });
  return new Response(new Uint8Array(data), {
    headers: {
      'Content-Type': CONTENT_TYPES[file.format],
      'Content-Length': String(data.byteLength),
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    },
  });
};
