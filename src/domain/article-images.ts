/**
 * Images in an article's text (issue 23): where they live and which widths exist, shared by the
 * uploader (src/server/content/images.ts), the Markdown renderer (src/server/content/render.ts), which
 * turns `![text](/blog/imagenes/{id}-{key}-{width}x{height})` into a `<picture>` of AVIF and WebP sources,
 * and the route that serves the files (src/pages/blog/imagenes/[file].ts).
 */

/** The widths the article layout uses: its column on a phone (≈360 px) and on a wide screen (720 px), and twice that. */
export const ARTICLE_IMAGE_WIDTHS = [360, 720, 1440] as const;

/** The `sizes` of an article image: the page's column, at most 720 px wide (`max-w-3xl` less its padding). */
export const ARTICLE_IMAGE_SIZES = '(min-width: 768px) 720px, calc(100vw - 2rem)';

export const ARTICLE_IMAGE_FORMATS = ['avif', 'webp'] as const;
export type ArticleImageFormat = (typeof ARTICLE_IMAGE_FORMATS)[number];

/** Largest upload (bytes). */
export const ARTICLE_IMAGE_MAX_BYTES = 3 * 1024 * 1024;

export const ARTICLE_IMAGE_PREFIX = '/blog/imagenes/';

export const ARTICLE_IMAGE_MESSAGES = {
  missing: 'Elige una imagen para subir.',
  tooLarge: `La imagen admite hasta ${ARTICLE_IMAGE_MAX_BYTES / 1024 / 1024} MB.`,
  notImage: 'El archivo no es una imagen PNG, JPEG, WebP, GIF o AVIF.',
  altRequired: 'Describe la imagen para quien no la ve.',
  altLong: 'La descripción de la imagen admite hasta 200 caracteres.',
} as const;

/** The widths an image of largest width `largest` has: the layout's widths below it, and itself. */
export function articleImageWidths(largest: number): number[] {
  return [...ARTICLE_IMAGE_WIDTHS.filter((width) => width < largest), largest];
}

/**
 * An uploaded image as its addresses name it: its id, and a random key (16 hex digits, 64 bits) without
 * which no file of it is served, so the images of an article not yet public cannot be found by counting
 * ids; with its largest width and height.
 */
export interface ArticleImageRef {
  id: number;
  key: string;
  width: number;
  height: number;
}

/** A new image's key. */
export const ARTICLE_IMAGE_KEY = /^[0-9a-f]{16}$/;

/** The address written in the Markdown for an image: its id, key, largest width and height. */
export const articleImageMarkdownPath = (image: ArticleImageRef) =>
  `${ARTICLE_IMAGE_PREFIX}${image.id}-${image.key}-${image.width}x${image.height}`;

/** One file of an image. */
export const articleImageFilePath = (
  image: Pick<ArticleImageRef, 'id' | 'key'>,
  width: number,
  format: ArticleImageFormat,
) => `${ARTICLE_IMAGE_PREFIX}${image.id}-${image.key}-${width}.${format}`;

const MARKDOWN_PATH = /^\/blog\/imagenes\/([1-9]\d{0,9})-([0-9a-f]{16})-([1-9]\d{0,4})x([1-9]\d{0,4})$/;

/** An image address of the Markdown read back; null when `src` is not one. */
export function parseArticleImagePath(src: string): ArticleImageRef | null {
  const match = MARKDOWN_PATH.exec(src);
  return match
    ? { id: Number(match[1]), key: match[2]!, width: Number(match[3]), height: Number(match[4]) }
    : null;
}

/** The name of one file (`{id}-{key}-{width}.{format}`) read back; null when it is not one. */
export function parseArticleImageFile(
  name: string,
): { id: number; key: string; width: number; format: ArticleImageFormat } | null {
  const match = /^([1-9]\d{0,9})-([0-9a-f]{16})-([1-9]\d{0,4})\.(avif|webp)$/.exec(name);
  return match
    ? {
        id: Number(match[1]),
        key: match[2]!,
        width: Number(match[3]),
        format: match[4] as ArticleImageFormat,
      }
    : null;
}

/** The Markdown that puts an image in the text (the description's brackets and line breaks made harmless). */
export const articleImageMarkdown = (alt: string, image: ArticleImageRef) =>
  `![${alt
    .replace(/[[\]\\]/g, '')
    .replace(/\s+/g, ' ')
    .trim()}](${articleImageMarkdownPath(image)})`;
