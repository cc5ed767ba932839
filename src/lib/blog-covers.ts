/**
 * The cover of an article, from its reference (src/domain/articles.ts): `asset:blog/<file>` is an
 * illustration of src/assets/blog, processed by the build (its hashed `/_astro/` file, width and
 * height), so a page rendered from the database shows it exactly as the prerendered blog did.
 */
import type { ImageMetadata } from 'astro';

const ASSETS = import.meta.glob<ImageMetadata>('../assets/blog/*', { eager: true, import: 'default' });

export interface CoverImage {
  src: string;
  width: number;
  height: number;
}

/** The illustration's file and size; null for no cover or one that is not there. */
export function coverOf(reference: string | null): CoverImage | null {
  const match = reference ? /^asset:blog\/(.+)$/.exec(reference) : null;
  const image = match ? ASSETS[`../assets/blog/${match[1]}`] : undefined;
  return image ? { src: image.src, width: image.width, height: image.height } : null;
}

/** The same illustration at a card's width (720), its height kept in proportion: an SVG scales, so the file is the same. */
export function cardCoverOf(reference: string | null): CoverImage | null {
  const cover = coverOf(reference);
  return cover
    ? { src: cover.src, width: 720, height: Math.round((720 * cover.height) / cover.width) }
    : null;
}

/** Every illustration an article may take as its cover ('Imagen de portada'), as references. */
export function coverChoices(): string[] {
  return Object.keys(ASSETS)
    .map((path) => `asset:blog/${path.replace(/^.*\//, '')}`)
    .sort();
}
