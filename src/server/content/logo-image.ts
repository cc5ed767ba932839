/**
 * A client logo's uploaded image made safe to serve from the site (issue 23): an SVG goes through a
 * maintained allow-list sanitiser (`sanitize-html`, as the articles' HTML does: src/server/content/
 * render.ts) with the elements and attributes a drawn logo uses — no script, no `style`, no event
 * handler, no foreign object, no link but to a fragment of itself; a PNG, JPEG or WebP is decoded and
 * re-encoded by sharp as WebP (metadata dropped, at most {@link LOGO_WIDTH} px wide), so whatever
 * else the file carried is not kept. The type is read from the bytes, never from the name.
 */
import { createHash } from 'node:crypto';
import sanitizeHtml from 'sanitize-html';
import { loadSharp } from '../on-first-use.ts';
import { LOGO_MAX_BYTES, LOGO_MESSAGES } from '../../domain/site-content.ts';

/** Twice the wall's widest logo (11rem), for sharp screens. */
export const LOGO_WIDTH = 400;

export interface LogoImage {
  type: 'image/svg+xml' | 'image/webp';
  data: Buffer;
  width: number;
  height: number;
  /** The first characters of its SHA-256 (names its address). */
  hash: string;
}

export type LogoImageOutcome = { ok: true; image: LogoImage } | { ok: false; message: string };

const SVG_TAGS = [
  'svg',
  'g',
  'defs',
  'title',
  'desc',
  'symbol',
  'use',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'linearGradient',
  'radialGradient',
  'stop',
  'clipPath',
  'mask',
];
const PRESENTATION = [
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-opacity',
  'opacity',
  'transform',
  'clip-path',
  'clip-rule',
  'mask',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'letter-spacing',
  'text-anchor',
  'dominant-baseline',
  'textLength',
  'lengthAdjust',
  'id',
  'class',
  'x',
  'y',
  'dx',
  'dy',
  'width',
  'height',
  'rx',
  'ry',
  'cx',
  'cy',
  'r',
  'fx',
  'fy',
  'x1',
  'y1',
  'x2',
  'y2',
  'd',
  'points',
  'offset',
  'stop-color',
  'stop-opacity',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'clipPathUnits',
  'maskUnits',
  'maskContentUnits',
  'viewBox',
  'preserveAspectRatio',
  'visibility',
  'display',
];

/** The allow-list of an uploaded SVG. */
export const LOGO_SVG: sanitizeHtml.IOptions = {
  allowedTags: SVG_TAGS,
  allowedAttributes: {
    svg: ['xmlns', 'xmlns:xlink', 'version', 'role', 'aria-label', ...PRESENTATION],
    use: ['href', 'xlink:href', ...PRESENTATION],
    '*': PRESENTATION,
  },
  // Only `href`/`xlink:href` on <use>, and only to a fragment of this file: filtered below.
  allowedSchemes: [],
  allowedSchemesAppliedToAttributes: [],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'foreignObject', 'iframe'],
  parser: { xmlMode: true, lowerCaseTags: false, lowerCaseAttributeNames: false, decodeEntities: true },
  transformTags: {
    use: (tagName, attribs) => {
      const kept: Record<string, string> = {};
      for (const [name, value] of Object.entries(attribs)) {
        if ((name === 'href' || name === 'xlink:href') && !/^#[\w-]+$/.test(value)) continue;
        kept[name] = value;
      }
      return { tagName, attribs: kept };
    },
  },
  exclusiveFilter: (frame) => Object.values(frame.attribs).some((value) => /url\(\s*['"]?(?!#)/i.test(value)),
};

const hashOf = (data: Buffer) => createHash('sha256').update(data).digest('hex').slice(0, 16);

function rasterType(data: Buffer): 'png' | 'jpeg' | 'webp' | null {
  if (
    data.length > 8 &&
    data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (data.length > 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (
    data.length > 12 &&
    data.toString('latin1', 0, 4) === 'RIFF' &&
    data.toString('latin1', 8, 12) === 'WEBP'
  )
    return 'webp';
  return null;
}

/** Text that opens (after an optional BOM, XML declaration, doctype and comments) with `<svg`. */
function looksLikeSvg(data: Buffer): boolean {
  const head = data
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const rest = head.replace(/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*/i, '');
  return /^<svg[\s>]/i.test(rest);
}

/** The width and height an SVG declares (its attributes, else its viewBox), whole pixels. */
function svgSize(svg: string): { width: number; height: number } {
  const open = /<svg\b[^>]*>/i.exec(svg)?.[0] ?? '';
  const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(open)?.[1];
  const px = (value: string | undefined) => {
    const number = value && /^\s*[\d.]+(px)?\s*$/.test(value) ? Number.parseFloat(value) : Number.NaN;
    return Number.isFinite(number) && number > 0 ? number : null;
  };
  let width = px(attr('width'));
  let height = px(attr('height'));
  const box = attr('viewBox')
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  if ((!width || !height) && box?.length === 4 && box[2]! > 0 && box[3]! > 0) {
    if (width && !height) height = (width * box[3]!) / box[2]!;
    else if (height && !width) width = (height * box[2]!) / box[3]!;
    else [width, height] = [box[2]!, box[3]!];
  }
  return { width: Math.max(1, Math.round(width ?? 240)), height: Math.max(1, Math.round(height ?? 72)) };
}

/** The SVG as the allow-list leaves it, or null when nothing of a drawing is left. */
export function sanitizeLogoSvg(source: string): string | null {
  const clean = sanitizeHtml(source.replace(/^\uFEFF/, ''), LOGO_SVG).trim();
  const svg = /<svg[\s>][\s\S]*<\/svg>/.exec(clean)?.[0];
  if (!svg) return null;
  // An <svg> without its namespace is not drawn by <img>.
  return /<svg[^>]*\sxmlns="/.test(svg)
    ? svg
    : svg.replace(/^<svg/, '<svg xmlns="http://www.w3.org/2000/svg"');
}

/** The uploaded file made ready to store, or why it is refused (Spanish). */
export async function prepareLogoImage(data: Buffer): Promise<LogoImageOutcome> {
  if (data.length === 0) return { ok: false, message: LOGO_MESSAGES.imageMissing };
  if (data.length > LOGO_MAX_BYTES) return { ok: false, message: LOGO_MESSAGES.imageLarge };
  if (rasterType(data)) {
    try {
      const sharp = await loadSharp();
      const { data: webp, info } = await sharp(data, { limitInputPixels: 40_000_000 })
        .rotate()
        .resize({ width: LOGO_WIDTH, withoutEnlargement: true })
        .webp({ quality: 90 })
        .toBuffer({ resolveWithObject: true });
      return {
        ok: true,
        image: { type: 'image/webp', data: webp, width: info.width, height: info.height, hash: hashOf(webp) },
      };
    } catch {
      return { ok: false, message: LOGO_MESSAGES.imageBroken };
    }
  }
  if (looksLikeSvg(data)) {
    const svg = sanitizeLogoSvg(data.toString('utf8'));
    if (!svg) return { ok: false, message: LOGO_MESSAGES.imageBroken };
    const bytes = Buffer.from(svg, 'utf8');
    return { ok: true, image: { type: 'image/svg+xml', data: bytes, ...svgSize(svg), hash: hashOf(bytes) } };
  }
  return { ok: false, message: LOGO_MESSAGES.imageType };
}
