/**
 * Images uploaded into an article's text (issue 23, migration 0037): decoded and re-encoded by sharp
 * (turned upright by their EXIF orientation, metadata dropped) as AVIF and WebP at the widths the
 * article layout uses (src/domain/article-images.ts), never wider than the original; stored in
 * `article_images` (largest width and height) and `article_image_files` (the bytes by width and format).
 * Only the re-encoded pixels are kept: nothing of the uploaded file's own bytes is ever served.
 */
import { randomBytes } from 'node:crypto';
import type { Sharp } from 'sharp';
import { loadSharp } from '../on-first-use.ts';
import {
  ARTICLE_IMAGE_FORMATS,
  ARTICLE_IMAGE_MAX_BYTES,
  ARTICLE_IMAGE_MESSAGES,
  ARTICLE_IMAGE_WIDTHS,
  articleImageWidths,
  type ArticleImageFormat,
  type ArticleImageRef,
} from '../../domain/article-images.ts';
import type { Db } from '../db/index.ts';

/** Largest image decoded (pixels): a 40-megapixel photo; beyond it (or a decompression bomb) refused. */
const MAX_PIXELS = 40_000_000;
const ACCEPTED = new Set(['png', 'jpeg', 'webp', 'gif', 'heif']);

export class ArticleImageRefusal extends Error {
  override name = 'ArticleImageRefusal';
}

export interface ProcessedImage {
  width: number;
  height: number;
  files: Array<{ width: number; format: ArticleImageFormat; data: Uint8Array }>;
}

/** The image's files at each width and format; refused when it is too large or not an image. */
export async function processArticleImage(data: Uint8Array): Promise<ProcessedImage> {
  if (data.byteLength === 0) throw new ArticleImageRefusal(ARTICLE_IMAGE_MESSAGES.missing);
  if (data.byteLength > ARTICLE_IMAGE_MAX_BYTES)
    throw new ArticleImageRefusal(ARTICLE_IMAGE_MESSAGES.tooLarge);
  const sharp = await loadSharp();
  let upright: Sharp;
  let width: number;
  let height: number;
  try {
    const source = sharp(data, { limitInputPixels: MAX_PIXELS, failOn: 'error' });
    const meta = await source.metadata();
    if (!meta.format || !ACCEPTED.has(meta.format))
      throw new ArticleImageRefusal(ARTICLE_IMAGE_MESSAGES.notImage);
    const { data: pixels, info } = await source.rotate().toBuffer({ resolveWithObject: true });
    upright = sharp(pixels, { limitInputPixels: MAX_PIXELS });
    width = info.width;
    height = info.height;
  } catch (error) {
    if (error instanceof ArticleImageRefusal) throw error;
    throw new ArticleImageRefusal(ARTICLE_IMAGE_MESSAGES.notImage);
  }
  const largest = Math.min(width, ARTICLE_IMAGE_WIDTHS.at(-1)!);
  const files: ProcessedImage['files'] = [];
  for (const target of articleImageWidths(largest)) {
    const resized = upright.clone().resize({ width: target, withoutEnlargement: true });
    files.push({
      width: target,
      format: 'avif',
      data: await resized.clone().avif({ quality: 55, effort: 3 }).toBuffer(),
    });
    files.push({
      width: target,
      format: 'webp',
      data: await resized.clone().webp({ quality: 78 }).toBuffer(),
    });
  }
  return { width: largest, height: Math.round((height * largest) / width), files };
}

/** A new image's random key (src/domain/article-images.ts). */
export const newArticleImageKey = (): string => randomBytes(8).toString('hex');

/** Stores a processed image: its id, key, largest width and height. */
export async function storeArticleImage(
  db: Db,
  image: ProcessedImage,
  by: string | null,
  now: Date = new Date(),
): Promise<ArticleImageRef> {
  const key = newArticleImageKey();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('articleImages')
      .values({ key, width: image.width, height: image.height, createdAt: now.toISOString(), createdBy: by })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    for (const file of image.files)
      await trx
        .insertInto('articleImageFiles')
        .values({ imageId: id, width: file.width, format: file.format, data: Buffer.from(file.data) })
        .execute();
    return { id, key, width: image.width, height: image.height };
  });
}

/** One file of an image, or null (a wrong key too). */
export async function articleImageFile(
  db: Db,
  image: { id: number; key: string },
  width: number,
  format: ArticleImageFormat,
): Promise<Uint8Array | null> {
  if (!ARTICLE_IMAGE_FORMATS.includes(format)) return null;
  const row = await db
    .selectFrom('articleImageFiles')
    .innerJoin('articleImages', 'articleImages.id', 'articleImageFiles.imageId')
    .select('articleImageFiles.data')
    .where('articleImageFiles.imageId', '=', image.id)
    .where('articleImages.key', '=', image.key)
    .where('articleImageFiles.width', '=', width)
    .where('articleImageFiles.format', '=', format)
    .executeTakeFirst();
  return row ? new Uint8Array(row.data) : null;
}
