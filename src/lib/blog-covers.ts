/**
 * The cover of an article, from its reference (src/domain/articles.ts): `asset:blog/<file>` is an
 * illustration of src/assets/blog, processed by the build (its hashed `/_astro/` file, width and
 * height), so a page rendered from the database shows it exactly as the prerendered blog did.
 */
import type { ImageMetadata } from 'astro';
import {
  articleImageFilePath,
  articleImageWidths,
  parseArticleImagePath,
  type ArticleImageRef,
} from '../domain/article-images.ts';

const ASSETS = import.meta.glob<ImageMetadata>('../assets/blog/*', { eager: true, import: 'default' });

export interface CoverImage {
  src: string;
  width: number;
  height: number;
}

/** The illustration's file and size; null for no cover or one that is not there. */
export function coverOf(reference: string | null): CoverImage | null {
  const uploaded = reference ? parseArticleImagePath(reference) : null;
  if (uploaded) return uploadedCover(uploaded, 1440);
  const match = reference ? /^asset:blog\/(.+)$/.exec(reference) : null;
  const image = match ? ASSETS[`../assets/blog/${match[1]}`] : undefined;
  return image ? { src: image.src, width: image.width, height: image.height } : null;
}

/**
 * An image uploaded into an article's text as a cover: its WebP file of the largest width it has up to
 * `upTo` (the article's header shows it up to 896 px wide, a card up to 360: twice that for sharp
 * screens), with the height in proportion.
 */
function uploadedCover(image: ArticleImageRef, upTo: number): CoverImage {
  // The files it has: the layout's widths below its own, and its own (never more than 1440 px).
  const width = Math.max(...articleImageWidths(image.width).filter((candidate) => candidate <= upTo));
  return {
    src: articleImageFilePath(image, width, 'webp'),
    width,
    height: Math.round((width * image.height) / image.width),
  };
}

/** The cover at a card's width (720), its height kept in proportion: an SVG scales, so the file is the same. */
export function cardCoverOf(reference: string | null): CoverImage | null {
  const uploaded = reference ? parseArticleImagePath(reference) : null;
  if (uploaded) return uploadedCover(uploaded, 720);
  const cover = coverOf(reference);
  return cover
    ? { src: cover.src, width: 720, height: Math.round((720 * cover.height) / cover.width) }
    : null;
}

/**
 * The images uploaded into an article's text, which may be its cover: each one's address (the
 * cover's reference) and its description, in the order of the text, once each.
 */
export function textImageChoices(body: string): Array<{ reference: string; alt: string }> {
  const seen = new Map<string, string>();
  for (const match of body.matchAll(
    /!\[([^\]]*)\]\((\/blog\/imagenes\/[1-9]\d{0,9}-[0-9a-f]{16}-[1-9]\d{0,4}x[1-9]\d{0,4})\)/g,
  )) {
    if (!seen.has(match[2]!)) seen.set(match[2]!, match[1]!.trim());
  }
  return [...seen].map(([reference, alt]) => ({ reference, alt }));
}

/** Every illustration an article may take as its cover ('Imagen de portada'), as references. */
export function coverChoices(): string[] {
  return Object.keys(ASSETS)
    .map((path) => `asset:blog/${path.replace(/^.*\//, '')}`)
    .sort();
}
