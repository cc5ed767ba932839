/**
 * Social-card PNG of each blog article, rasterised from its SVG illustration at build time
 * (social networks do not read SVG; Astro's image service leaves SVG sources alone).
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getCollection } from 'astro:content';
import sharp from 'sharp';

export const prerender = true;

/** The illustrations are named after their article ids. */
const illustrations = import.meta.glob<string>('../../../assets/blog/*.svg', {
  query: '?raw',
  import: 'default',
  eager: true,
});

export const getStaticPaths = (async () => {
  const articles = await getCollection('blog');
  return articles.map((article) => {
    const svg = illustrations[`../../../assets/blog/${article.id}.svg`];
    if (!svg)
      throw new Error(`Falta la ilustración src/assets/blog/${article.id}.svg del artículo ${article.id}`);
    return { params: { id: article.id }, props: { svg } };
  });
}) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => {
  const png = await sharp(Buffer.from(props.svg as string))
    .resize(1200, 630, { fit: 'cover' })
    .png({ compressionLevel: 9, palette: true, quality: 90 })
    .toBuffer();
  return new Response(new Uint8Array(png), { headers: { 'Content-Type': 'image/png' } });
};
