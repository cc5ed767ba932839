/**
 * Social cards (1200×630 PNG): drawn as SVG and rasterised by sharp. The site's default card is made
 * by the build (src/pages/og/default.png.ts); an article's card is made by the server when the
 * article goes public (src/server/content/public-pages.ts), with its title, so a link shared on
 * WhatsApp or LinkedIn shows what the article is about the moment it is published.
 *
 * The text is set in the first of {@link CARD_FONTS} the machine has (fontconfig): Debian's
 * `fonts-liberation` and `fonts-dejavu-core` are enough (docs/operations/deploy.md).
 */
import { loadSharp } from '../on-first-use.ts';

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
const CARD_FONTS = "'Inter', 'Liberation Sans', 'DejaVu Sans', Arial, sans-serif";
export const CARD_FONT = `font-family="${CARD_FONTS}"`;

export const escapeXml = (text: string): string =>
  text.replace(
    /[<>&"']/g,
    (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[char] ?? char,
  );

/** The brand's background, grid, glow and V mark: every card's first layers. */
export function cardBackground(): string {
  return `<defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#0b1f3a"/><stop offset="1" stop-color="#061427"/>
    </linearGradient>
    <radialGradient id="glow" cx="0.85" cy="0.2" r="0.6">
      <stop offset="0" stop-color="#14b8a6" stop-opacity="0.35"/><stop offset="1" stop-color="#14b8a6" stop-opacity="0"/>
    </radialGradient>
    <pattern id="grid" width="40" height="40" patternUnits="userSpaceOnUse">
      <path d="M40 0H0V40" fill="none" stroke="#e3ecfb" stroke-opacity="0.05" stroke-width="1"/>
    </pattern>
  </defs>
  <rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#bg)"/>
  <rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#grid)"/>
  <rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#glow)"/>
  <g transform="translate(820 95)" opacity="0.9">
    <path d="M40 60 200 330 360 60" fill="none" stroke="#14b8a6" stroke-width="46" stroke-linecap="round" stroke-linejoin="round" stroke-opacity="0.22"/>
    <circle cx="200" cy="330" r="34" fill="#f59e0b"/>
    <circle cx="200" cy="330" r="70" fill="none" stroke="#f59e0b" stroke-opacity="0.35" stroke-width="3"/>
    <circle cx="200" cy="330" r="110" fill="none" stroke="#f59e0b" stroke-opacity="0.15" stroke-width="3"/>
  </g>`;
}

/** The small V logo in its tile, at (x, y), `size` pixels wide. */
export function cardLogo(x: number, y: number, size: number): string {
  return `<g transform="translate(${x} ${y}) scale(${size / 96})">
    <rect width="96" height="96" rx="26" fill="#12305a" stroke="#e3ecfb" stroke-opacity="0.25" stroke-width="2"/>
    <path d="M23 28 48 70" stroke="#14b8a6" stroke-width="11" stroke-linecap="round"/>
    <path d="M73 28 48 70" stroke="#e3ecfb" stroke-width="11" stroke-linecap="round"/>
    <circle cx="48" cy="70" r="8.5" fill="#f59e0b" stroke="#12305a" stroke-width="3.5"/>
  </g>`;
}

/**
 * A title broken into at most `maxLines` lines of about `maxChars` characters, at spaces (a word
 * longer than a line is cut); what does not fit ends the last line with '…'.
 */
export function wrapTitle(title: string, maxChars: number, maxLines: number): string[] {
  const words = title.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (let index = 0; index < words.length; index++) {
    let word = words[index]!;
    if (word.length > maxChars) word = `${word.slice(0, maxChars - 1)}…`;
    const candidate = line ? `${line} ${word}` : word;
    if (candidate.length <= maxChars) {
      line = candidate;
      continue;
    }
    lines.push(line);
    line = word;
    if (lines.length === maxLines) {
      const last = lines[maxLines - 1]!;
      lines[maxLines - 1] = `${last.length >= maxChars ? last.slice(0, maxChars - 1) : last}…`;
      return lines;
    }
  }
  if (line) lines.push(line);
  return lines;
}

export interface ArticleCard {
  /** The section it belongs to, shown above the title ('Blog', 'Centro de ayuda'). */
  eyebrow: string;
  title: string;
  companyName: string;
  siteHost: string;
}

/** An article's card as SVG: the section, the title in up to four lines, the company and the site. */
export function articleCardSvg(card: ArticleCard): string {
  // Long titles get a smaller size rather than more lines: 110 characters (the editor's limit) fit.
  const large = card.title.length <= 60;
  const size = large ? 68 : 54;
  const lines = wrapTitle(card.title, large ? 24 : 31, 4);
  const lineHeight = Math.round(size * 1.18);
  // Below the section's pill (which ends at y 112), whatever the number of lines.
  const top = 150 + size;
  const title = lines
    .map(
      (line, index) => `<tspan x="80" y="${Math.round(top + index * lineHeight)}">${escapeXml(line)}</tspan>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}">
  ${cardBackground()}
  <rect x="80" y="64" width="${36 + card.eyebrow.length * 15}" height="48" rx="24" fill="#14b8a6" fill-opacity="0.16" stroke="#14b8a6" stroke-opacity="0.45"/>
  <text x="${98}" y="96" ${CARD_FONT} font-size="24" font-weight="700" fill="#ccfbf1">${escapeXml(card.eyebrow)}</text>
  <text ${CARD_FONT} font-size="${size}" font-weight="700" fill="#ffffff">${title}</text>
  ${cardLogo(80, 510, 64)}
  <text x="164" y="538" ${CARD_FONT} font-size="28" font-weight="700" fill="#ffffff">${escapeXml(card.companyName)}</text>
  <text x="164" y="570" ${CARD_FONT} font-size="22" fill="#e3ecfb" fill-opacity="0.7">${escapeXml(card.siteHost)}</text>
</svg>`;
}

/** An SVG card as the PNG social networks read (a palette PNG: a few tens of KB). */
export async function cardPng(svg: string): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9, palette: true, quality: 90 }).toBuffer();
}
