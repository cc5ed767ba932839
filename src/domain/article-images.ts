/**
 * Images in an article's text (issue 23): where they live and which widths exist, shared by the
 * uploader (src/server/content/images.ts), the Markdown renderer (src/server/content/render.ts), which
 * turns `![text](/blog/imagenes/{id}-{width}x{height})` into a `<picture>` of AVIF and WebP sources,
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

/** The address written in the Markdown for an image: its id and its largest width and height. */
export const articleImageMarkdownPath = (id: number, width: number, height: number) =>
  `${ARTICLE_IMAGE_PREFIX}${id}-${width}x${height}`;

/** One file of an image. */
export const articleImageFilePath = (id: number, width: number, format: ArticleImageFormat) =>
  `${ARTICLE_IMAGE_PREFIX}${id}-${width}.${format}`;

const MARKDOWN_PATH = /^\/blog\/imagenes\/([1-9]\d{0,9})-([1-9]\d{0,4})x([1-9]\d{0,4})$/;

/** An image address of the Markdown read back; null when `src` is not one. */
export function parseArticleImagePath(src: string): { id: number; width: number; height: number } | null {
  const match = MARKDOWN_PATH.exec(src);
  return match ? { id: Number(match[1]), width: Number(match[2]), height: Number(match[3]) } : null;
}

/** The name of one file (`{id}-{width}.{format}`) read back; null when it is not one. */
export function parseArticleImageFile(name: string): { id: number; width: number; format: ArticleImageFormat } | null {
  const match = /^([1-9]\d{0,9})-([1-9]\d{0,4})\.(avif|webp)$/.exec(name);
  return match ? { id: Number(match[1]), width: Number(match[2]), format: match[3] as ArticleImageFormat } : null;
}

/** The Markdown that puts an image in the text (the description's brackets and line breaks made harmless). */
export const articleImageMarkdown = (alt: string, id: number, width: number, height: number) =>
  `![${alt.replace(/[[\]\\]/g, '').replace(/\s+/g, ' ').trim()}](${articleImageMarkdownPath(id, width, height)})`;
