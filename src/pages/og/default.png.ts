/**
 * The site's default social-card image (1200x630 PNG), drawn as SVG and rasterised with sharp at
 * build time, so it always carries the configured company name and tagline.
 */
import type { APIRoute } from 'astro';
import { getConfig } from '../../server/config.ts';
import {
  CARD_FONT as font,
  CARD_HEIGHT,
  CARD_WIDTH,
  cardBackground,
  cardLogo,
  cardPng,
  escapeXml,
} from '../../server/content/index.ts';

export const prerender = true;

function cardSvg(companyName: string, tagline: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}">
  ${cardBackground()}
  ${cardLogo(80, 88, 96)}
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
  const png = await cardPng(cardSvg(config.COMPANY_NAME, config.COMPANY_TAGLINE));
  return new Response(new Uint8Array(png), { headers: { 'Content-Type': 'image/png' } });
};
