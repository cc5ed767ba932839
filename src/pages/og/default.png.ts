/**
 * The site's default social-card image (1200x630 PNG), drawn as SVG and rasterised with sharp at
 * build time, so it always carries the configured company name and tagline.
 */
import type { APIRoute } from 'astro';
import sharp from 'sharp';
import { getConfig } from '../../server/config.ts';

export const prerender = true;

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[char] ?? char);

function cardSvg(companyName: string, tagline: string): string {
  const font = "font-family=\"'Inter', 'Liberation Sans', 'DejaVu Sans', Arial, sans-serif\"";
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <defs>
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
  <rect width="1200" height="630" fill="url(#bg)"/>
  <rect width="1200" height="630" fill="url(#grid)"/>
  <rect width="1200" height="630" fill="url(#glow)"/>
  <g transform="translate(820 95)" opacity="0.9">
    <path d="M40 60 200 330 360 60" fill="none" stroke="#14b8a6" stroke-width="46" stroke-linecap="round" stroke-linejoin="round" stroke-opacity="0.22"/>
    <circle cx="200" cy="330" r="34" fill="#f59e0b"/>
    <circle cx="200" cy="330" r="70" fill="none" stroke="#f59e0b" stroke-opacity="0.35" stroke-width="3"/>
    <circle cx="200" cy="330" r="110" fill="none" stroke="#f59e0b" stroke-opacity="0.15" stroke-width="3"/>
  </g>
  <g transform="translate(80 88)">
    <rect width="96" height="96" rx="26" fill="#12305a" stroke="#e3ecfb" stroke-opacity="0.25" stroke-width="2"/>
    <path d="M23 28 48 70" stroke="#14b8a6" stroke-width="11" stroke-linecap="round"/>
    <path d="M73 28 48 70" stroke="#e3ecfb" stroke-width="11" stroke-linecap="round"/>
    <circle cx="48" cy="70" r="8.5" fill="#f59e0b" stroke="#12305a" stroke-width="3.5"/>
  </g>
  <text x="80" y="300" ${font} font-size="78" font-weight="700" fill="#ffffff">${escapeXml(companyName)}</text>
  <text x="80" y="366" ${font} font-size="36" fill="#ccfbf1">${escapeXml(tagline)}</text>
  <g ${font} font-size="26" font-weight="700">
    <rect x="80" y="440" width="196" height="56" rx="28" fill="#ffffff" fill-opacity="0.08" stroke="#ffffff" stroke-opacity="0.2"/>
    <text x="178" y="477" text-anchor="middle" fill="#ffffff">AdmCloud</text>
    <rect x="292" y="440" width="226" height="56" rx="28" fill="#ffffff" fill-opacity="0.08" stroke="#ffffff" stroke-opacity="0.2"/>
    <text x="405" y="477" text-anchor="middle" fill="#ffffff">Restaurant.pe</text>
    <rect x="534" y="440" width="170" height="56" rx="28" fill="#ffffff" fill-opacity="0.08" stroke="#ffffff" stroke-opacity="0.2"/>
    <text x="619" y="477" text-anchor="middle" fill="#ffffff">Tiendao</text>
  </g>
  <text x="80" y="568" ${font} font-size="24" fill="#e3ecfb" fill-opacity="0.7">ERP en la nube · Punto de venta · Facturación electrónica · República Dominicana</text>
</svg>`;
}

export const GET: APIRoute = async () => {
  const config = getConfig();
  const png = await sharp(Buffer.from(cardSvg(config.COMPANY_NAME, config.COMPANY_TAGLINE)))
    .png({ compressionLevel: 9, palette: true, quality: 90 })
    .toBuffer();
  return new Response(new Uint8Array(png), { headers: { 'Content-Type': 'image/png' } });
};
