/**
 * What a file sent to the desk is, by its content (never its name), and what is kept of it
 * (docs/decisions/0015):
 * - sniffed with file-type: PNG, JPEG, WebP, GIF, HEIC, PDF, XLSX and DOCX by their signatures; a file
 *   with none that is named .txt, .log or .csv and reads as text is plain text; anything else (an
 *   executable renamed .pdf, a ZIP, an Office macro file) is refused;
 * - a kept file is named with its type's extension, whatever it was sent as (`factura.jar` found to
 *   be DOCX is kept, served, mailed and exported as `factura.docx`: fileNameForType, issue 38);
 * - an image is re-encoded with sharp: orientation applied, every metadata block (EXIF with GPS, XMP,
 *   IPTC, ICC) dropped, same format and full size; this clean copy is what is stored and downloaded,
 *   never the bytes as sent, plus a WebP thumbnail for the timeline. A HEIC photo (HEVC is not in the
 *   prebuilt libvips) is decoded by libheif in WebAssembly (./heic.ts) and kept as a clean JPEG, named
 *   .jpg, with its thumbnail; one that does not decode is refused like any other broken image.
 */
import { fileTypeFromBuffer } from 'file-type';
import type { Sharp, SharpOptions } from 'sharp';
import { loadSharp } from '../on-first-use.ts';
import {
  ATTACHMENT_MESSAGES,
  fileNameForType,
  MAX_FILE_BYTES,
  safeFileName,
} from '../../domain/attachments.ts';
import { decodeHeic, HeicTooLargeError } from './heic.ts';

/** A file as it arrived (a form's part, a mail's attachment). */
export interface IncomingFile {
  filename: string;
  data: Uint8Array;
  /** The channel saw more than {@link MAX_FILE_BYTES} and kept none of it: `data` is empty. */
  tooLarge?: boolean;
  /** Its size as the channel saw it (for a file too large: at least the limit). */
  size?: number;
  /** Dropped for the submission's limits rather than its own size: more than 5 files, more than 20 MB together. */
  limit?: 'too-many' | 'total-too-large';
}

/** A file ready to be stored: the bytes to keep and, for an image, its thumbnail. */
export interface PreparedFile {
  filename: string;
  contentType: string;
  data: Uint8Array;
  thumb: Uint8Array | null;
  /**
   * Its size: set once stored (blob-store.ts), as a writer that took the bytes without a copy leaves
   * `data` empty.
   */
  size?: number;
  /** The SHA-256 keys under which `data` and `thumb` are stored, once they are (blob-store.ts). */
  blob?: string;
  thumbBlob?: string | null;
}

/** A file that is not kept, with the Spanish message that names it. */
export interface RefusedFile {
  filename: string;
  /** `unfetched`: a channel could not bring it (a WhatsApp file Meta would not hand over). */
  reason: 'type' | 'empty' | 'too-large' | 'too-many' | 'total-too-large' | 'unfetched';
  message: string;
  size: number;
}

const SIGNED_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'image/heic',
  'image/heif',
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
]);

const TEXT_EXTENSIONS: Record<string, string> = { txt: 'text/plain', log: 'text/plain', csv: 'text/csv' };

/** Images the browser shows inline and that get a thumbnail. */
export const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

/** Text: no NUL nor other control characters than tab, line feed, form feed and carriage return. */
function readsAsText(data: Uint8Array): boolean {
  for (const byte of data)
    if ((byte < 0x20 && byte !== 9 && byte !== 10 && byte !== 12 && byte !== 13) || byte === 0x7f)
      return false;
  return true;
}

function isUtf8(data: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
}

/** The content type this file is allowed as, by its content; null when it is not allowed. */
export async function sniffType(filename: string, data: Uint8Array): Promise<string | null> {
  const found = await fileTypeFromBuffer(data);
  if (found)
    return SIGNED_TYPES.has(found.mime) ? (found.mime === 'image/heif' ? 'image/heic' : found.mime) : null;
  const extension = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? '';
  const textType = TEXT_EXTENSIONS[extension];
  if (!textType || !readsAsText(data)) return null;
  return `${textType}; charset=${isUtf8(data) ? 'utf-8' : 'windows-1252'}`;
}

const THUMB_PX = 320;
/**
 * Largest image decoded, in pixels (about 60 megapixels: any phone's or camera's usual photo). A few
 * MB of PNG can declare a huge canvas; sharp's own default (268 megapixels, 1 GB decoded) would let a
 * handful of public uploads exhaust the server's memory.
 */
export const MAX_IMAGE_PIXELS = 60_000_000;

class ImageTooLargeError extends Error {
  override name = 'ImageTooLargeError';
}

/** The image with orientation applied and no metadata, in its own format, and its thumbnail. */
async function cleanImage(
  data: Uint8Array,
  contentType: string,
): Promise<{ data: Uint8Array; thumb: Uint8Array }> {
  const input = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const limits = { limitInputPixels: MAX_IMAGE_PIXELS };
  const sharp = await loadSharp();
  const metadata = await sharp(input, limits).metadata();
  if ((metadata.width ?? 0) * (metadata.height ?? 0) * (metadata.pages ?? 1) > MAX_IMAGE_PIXELS)
    throw new ImageTooLargeError();
  const animated = (metadata.pages ?? 1) > 1 && (contentType === 'image/gif' || contentType === 'image/webp');
  const open = (options: SharpOptions = {}) => sharp(input, { ...limits, ...options });
  return encodeClean(open, contentType, animated);
}

/**
 * A HEIC photo as a clean JPEG and its thumbnail: refused over the pixel limit from its header (sharp
 * reads it without HEVC), then decoded by libheif (rotation applied) and re-encoded from bare pixels.
 */
async function cleanHeic(data: Uint8Array): Promise<{ data: Uint8Array; thumb: Uint8Array }> {
  const sharp = await loadSharp();
  const metadata = await sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength)).metadata();
  if ((metadata.width ?? 0) * (metadata.height ?? 0) > MAX_IMAGE_PIXELS) throw new ImageTooLargeError();
  const decoded = await decodeHeic(data, MAX_IMAGE_PIXELS).catch((error: unknown) => {
    throw error instanceof HeicTooLargeError ? new ImageTooLargeError() : error;
  });
  const raw = { width: decoded.width, height: decoded.height, channels: 4 as const };
  const open = () =>
    sharp(decoded.data, { raw, limitInputPixels: MAX_IMAGE_PIXELS }).flatten({ background: '#ffffff' });
  return encodeClean(open, 'image/jpeg', false);
}

/** The full-size clean copy in `contentType`'s format and a WebP thumbnail, both without metadata. */
async function encodeClean(
  open: (options?: SharpOptions) => Sharp,
  contentType: string,
  animated: boolean,
): Promise<{ data: Uint8Array; thumb: Uint8Array }> {
  // sharp writes no metadata unless asked (withMetadata/keepExif): re-encoding is what removes it.
  const base = animated ? open({ animated: true }) : open().rotate();
  const clean =
    contentType === 'image/png'
      ? base.png()
      : contentType === 'image/webp'
        ? base.webp({ quality: 90 })
        : contentType === 'image/gif'
          ? base.gif()
          : base.jpeg({ quality: 90 });
  const thumb = open()
    .rotate()
    .resize(THUMB_PX, THUMB_PX, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 70 });
  const [cleanData, thumbData] = await Promise.all([clean.toBuffer(), thumb.toBuffer()]);
  return { data: new Uint8Array(cleanData), thumb: new Uint8Array(thumbData) };
}

/**
 * Each file sniffed and, for an image, cleaned: those kept and those refused (each with its Spanish
 * message naming it), in the order sent.
 */
export async function prepareFiles(
  files: readonly IncomingFile[],
): Promise<{ prepared: PreparedFile[]; refused: RefusedFile[] }> {
  const prepared: PreparedFile[] = [];
  const refused: RefusedFile[] = [];
  for (const file of files) {
    const filename = safeFileName(file.filename);
    const size = file.size ?? file.data.byteLength;
    if (file.limit) {
      const message =
        file.limit === 'too-many' ? ATTACHMENT_MESSAGES.tooMany : ATTACHMENT_MESSAGES.totalTooLarge;
      refused.push({ filename, reason: file.limit, message, size });
      continue;
    }
    if (file.tooLarge || file.data.byteLength > MAX_FILE_BYTES) {
      refused.push({
        filename,
        reason: 'too-large',
        message: ATTACHMENT_MESSAGES.fileTooLarge(filename),
        size,
      });
      continue;
    }
    if (file.data.byteLength === 0) {
      refused.push({ filename, reason: 'empty', message: ATTACHMENT_MESSAGES.empty(filename), size: 0 });
      continue;
    }
    const contentType = await sniffType(filename, file.data);
    if (!contentType) {
      refused.push({ filename, reason: 'type', message: ATTACHMENT_MESSAGES.refusedType(filename), size });
      continue;
    }
    if (IMAGE_TYPES.has(contentType) || contentType === 'image/heic') {
      const heic = contentType === 'image/heic';
      try {
        const clean = heic ? await cleanHeic(file.data) : await cleanImage(file.data, contentType);
        // A HEIC is kept as the JPEG it became, under its name with .jpg.
        const keptType = heic ? 'image/jpeg' : contentType;
        prepared.push({ filename: fileNameForType(filename, keptType), contentType: keptType, ...clean });
      } catch (error) {
        if (error instanceof ImageTooLargeError || /pixel limit/i.test(String(error)))
          refused.push({
            filename,
            reason: 'too-large',
            message: ATTACHMENT_MESSAGES.imageTooLarge(filename),
            size,
          });
        // Its signature says image but it does not decode: not an image we can show or clean.
        else
          refused.push({
            filename,
            reason: 'type',
            message: ATTACHMENT_MESSAGES.refusedType(filename),
            size,
          });
      }
      continue;
    }
    prepared.push({
      filename: fileNameForType(filename, contentType),
      contentType,
      data: file.data,
      thumb: null,
    });
  }
  return { prepared, refused };
}
